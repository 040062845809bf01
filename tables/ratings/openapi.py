"""The ratings API's part of the OpenAPI document (`/api/openapi.json`), written beside
spec/ratings.md. The round API's document (tables.api.openapi) knows nothing of ratings, which
sit above it: this app adds its paths and schemas to it at start-up (apps.py)."""

from tables.api.openapi import _body, _errors, _json

_RATING_ID = {"name": "rating_id", "in": "path", "required": True, "schema": {"type": "integer"}}
_TOKEN_ID = {"name": "token_id", "in": "path", "required": True, "schema": {"type": "integer"}}
_CENTS = {"type": "integer"}
_WHEN = {"type": ["string", "null"], "format": "date-time"}
_STAFF = {"type": ["object", "null"], "properties": {"id": {"type": "integer"}}}
_BETS = ("ante", "blind", "play", "trips", "progressive")

SCHEMAS = {
    "Rating": {
        "type": "object",
        "required": [
            "id",
            "player",
            "table",
            "seat",
            "status",
            "opened_at",
            "closed_at",
            "closed_reason",
            "previous",
            "seconds_played",
            "paused",
            "hands",
            "wagered",
            "total_wagered_cents",
            "average_ante_cents",
            "player_result_cents",
            "edges",
            "theo_cents",
            "buy_ins",
            "cash_in_cents",
            "walk_with_cents",
            "opened_by",
            "closed_by",
        ],  # fmt: skip
        "properties": {
            "id": {"type": "integer"},
            "player": {
                "type": "object",
                "properties": {
                    "id": {"type": "integer"},
                    "card": {"type": ["string", "null"]},
                    "alias": {"type": "string"},
                },
            },
            "table": {"type": "integer"},
            "seat": {"type": "integer", "minimum": 1, "maximum": 7},
            "status": {"enum": ["open", "paused", "closed"]},
            "opened_at": _WHEN,
            "closed_at": _WHEN,
            "closed_reason": {"enum": ["closed", "moved", "table_closed", None]},
            "previous": {"type": ["integer", "null"]},
            "seconds_played": {"type": "integer"},
            "paused": {"type": "boolean"},
            "hands": {"type": "integer"},
            "wagered": {"type": "object", "properties": {b: _CENTS for b in _BETS}},
            "total_wagered_cents": _CENTS,
            "average_ante_cents": _CENTS,
            "player_result_cents": _CENTS,
            "edges": {
                "type": "object",
                "description": "per unit staked, exact decimal strings (null: no edge known)",
                "properties": {
                    b: {"type": ["string", "null"]} for b in ("ante", "trips", "progressive")
                },
            },
            "theo_cents": _CENTS,
            "decision_cost_cents": {
                "type": ["integer", "null"],
                "description": "from the par sheet (issue 27); null until it is computed",
            },
            "buy_ins": {"type": "array", "items": {"$ref": "#/components/schemas/BuyIn"}},
            "cash_in_cents": _CENTS,
            "walk_with_cents": {"type": ["integer", "null"]},
            "chips_estimated_result_cents": {"type": ["integer", "null"]},
            "opened_by": _STAFF,
            "closed_by": _STAFF,
        },
    },
    "BuyIn": {
        "type": "object",
        "required": ["amount_cents", "instrument", "at", "by"],
        "properties": {
            "amount_cents": {"type": "integer", "minimum": 1},
            "instrument": {"enum": ["cash", "chips", "marker"]},
            "at": _WHEN,
            "by": _STAFF,
        },
    },
    "RatingOpen": {
        "type": "object",
        "required": ["key", "table", "seat", "player"],
        "properties": {
            "key": {"type": "string", "minLength": 1, "maxLength": 64},
            "table": {"type": "integer"},
            "seat": {"type": "integer", "minimum": 1, "maximum": 7},
            "player": {
                "oneOf": [
                    {
                        "type": "object",
                        "required": ["card"],
                        "properties": {"card": {"type": "string"}},
                    },
                    {
                        "type": "object",
                        "required": ["anonymous"],
                        "properties": {"anonymous": {"type": "string", "maxLength": 60}},
                    },
                ]
            },
        },
    },
    "RatingBuyIn": {
        "type": "object",
        "required": ["key", "amount_cents", "instrument"],
        "properties": {
            "key": {"type": "string"},
            "amount_cents": {"type": "integer", "minimum": 1},
            "instrument": {"enum": ["cash", "chips", "marker"]},
        },
    },
    "RatingMove": {
        "type": "object",
        "required": ["key", "table", "seat"],
        "properties": {
            "key": {"type": "string"},
            "table": {"type": "integer"},
            "seat": {"type": "integer"},
        },
    },
    "RatingClose": {
        "type": "object",
        "required": ["key"],
        "properties": {
            "key": {"type": "string"},
            "walk_with_cents": {"type": ["integer", "null"], "minimum": 0},
        },
    },
    "RatingTime": {
        "type": "object",
        "required": ["key", "reason"],
        "description": "at least one of opened_at and closed_at (closed_at: a closed rating's)",
        "properties": {
            "key": {"type": "string"},
            "opened_at": {"type": ["string", "null"], "format": "date-time"},
            "closed_at": {"type": ["string", "null"], "format": "date-time"},
            "reason": {"type": "string", "minLength": 1, "maxLength": 300},
        },
    },
    "RatingList": {
        "type": "object",
        "properties": {
            "ratings": {"type": "array", "items": {"$ref": "#/components/schemas/Rating"}}
        },
    },
    "RatingFeed": {
        "type": "object",
        "properties": {
            "ratings": {"type": "array", "items": {"$ref": "#/components/schemas/Rating"}},
            "next": {"type": ["string", "null"], "description": "the cursor to pass as `after`"},
        },
    },
    "FeedToken": {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "name": {"type": "string"},
            "token": {"type": "string", "description": "shown once, when issued"},
            "issued_at": _WHEN,
            "revoked_at": _WHEN,
            "last_seen_at": _WHEN,
        },
    },
}


def _write(summary: str, body: str, status: str = "200") -> dict:
    return {
        "post": {
            "summary": summary,
            "parameters": [_RATING_ID],
            "requestBody": _body(body),
            "responses": {status: _json("Rating", "the rating"), **_errors(400, 404, 409)},
        }
    }


PATHS = {
    "/api/ratings": {
        "get": {
            "summary": "Ratings, newest first (supervisor, manager, auditor)",
            "parameters": [
                {"name": "table", "in": "query", "schema": {"type": "integer"}},
                {"name": "status", "in": "query", "schema": {"enum": ["open", "paused", "closed"]}},
                {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 100}},
            ],
            "responses": {"200": _json("RatingList", "the ratings"), **_errors(400)},
        },
        "post": {
            "summary": "Open a rating (supervisor): seat_rated, player_rated (409), unknown_card (404)",
            "requestBody": _body("RatingOpen"),
            "responses": {"201": _json("Rating", "the rating opened"), **_errors(400, 404, 409)},
        },
    },
    "/api/ratings/{rating_id}": {
        "get": {
            "summary": "A rating with its figures (supervisor, manager, auditor)",
            "parameters": [_RATING_ID],
            "responses": {"200": _json("Rating", "the rating"), **_errors(404)},
        }
    },
    "/api/ratings/{rating_id}/pause": _write("Pause the rating (supervisor)", "Key"),
    "/api/ratings/{rating_id}/resume": _write("Resume the rating (supervisor)", "Key"),
    "/api/ratings/{rating_id}/buy-ins": _write("Record a buy-in (supervisor)", "RatingBuyIn"),
    "/api/ratings/{rating_id}/move": _write(
        "Move the player: closes this rating (moved), opens the next (supervisor)",
        "RatingMove",
        "201",
    ),
    "/api/ratings/{rating_id}/close": _write("Close the rating (supervisor)", "RatingClose"),
    "/api/ratings/{rating_id}/time": _write(
        "Correct the rating's open or close time, saying why (supervisor): the rounds it "
        "counts follow; audited and a pit alert (rating_time_edited)",
        "RatingTime",
    ),
    "/api/ratings/feed": {
        "get": {
            "summary": "Closed ratings in close order, for a player-tracking system",
            "security": [{"feedToken": []}],
            "parameters": [
                {"name": "after", "in": "query", "schema": {"type": "string"}},
                {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 100}},
            ],
            "responses": {"200": _json("RatingFeed", "a page of the feed"), **_errors(400)},
        }
    },
    "/api/ratings/feed-tokens": {
        "get": {
            "summary": "The feed tokens (manager)",
            "responses": {"200": {"description": "the tokens, without their secrets"}, **_errors()},
        },
        "post": {
            "summary": "Issue a feed token (manager); its secret is shown once",
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {"type": "object", "properties": {"name": {"type": "string"}}}
                    }
                },
            },
            "responses": {"201": _json("FeedToken", "the token issued"), **_errors(400, 409)},
        },
    },
    "/api/ratings/feed-tokens/{token_id}/revoke": {
        "post": {
            "summary": "Revoke a feed token (manager)",
            "parameters": [_TOKEN_ID],
            "responses": {"200": _json("FeedToken", "the token revoked"), **_errors(404, 409)},
        }
    },
}


def extend(document: dict) -> None:
    """Add the ratings API to the OpenAPI document (once)."""
    document["paths"].update(PATHS)
    document["components"]["schemas"].update(SCHEMAS)
    document["components"]["securitySchemes"]["feedToken"] = {"type": "http", "scheme": "bearer"}
