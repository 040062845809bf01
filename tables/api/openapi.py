"""The OpenAPI description of the round API, served at `/api/openapi.json`.

Written by hand beside spec/round-api.md (the contract); tests/tables/rounds/test_openapi.py
checks that it names every route of tables/api/urls.py and nothing else.
"""

_ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string", "description": "in the reader's language"},
                "field": {"type": "string"},
            },
        },
        "round": {"$ref": "#/components/schemas/Round"},
    },
}


def _errors(*statuses: int) -> dict:
    return {
        str(status): {
            "description": "refused; nothing changed",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
        for status in statuses
    }


def _json(ref: str, description: str) -> dict:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}},
    }


def _body(ref: str) -> dict:
    return {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}},
    }


_TABLE_ID = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "integer"}}
_ROUND_ID = {"name": "round_id", "in": "path", "required": True, "schema": {"type": "integer"}}
_CARD = {"type": "string", "examples": ["As", "Td", "10h"]}

OPENAPI = {
    "openapi": "3.1.0",
    "info": {
        "title": "Tapis round API",
        "version": "1",
        "description": "Rounds of Ultimate Texas Hold'em at the table: see spec/round-api.md "
        "and the README. Money is integer cents; session authentication; unsafe requests send "
        "X-CSRFToken; every write carries `key`, every write to a round `expected_seq`.",
    },
    "components": {
        "securitySchemes": {"session": {"type": "apiKey", "in": "cookie", "name": "sessionid"}},
        "schemas": {
            "Error": _ERROR,
            "Staff": {
                "type": "object",
                "properties": {
                    "id": {"type": "integer"},
                    "name": {"type": "string"},
                    "employee_number": {"type": "string"},
                    "roles": {"type": "array", "items": {"type": "string"}},
                    "language": {"type": "string"},
                },
            },
            "Table": {
                "type": "object",
                "properties": {
                    "id": {"type": "integer"},
                    "name": {"type": "string"},
                    "status": {"enum": ["open", "closed"]},
                    "seats": {"type": "integer"},
                    "min_bet_cents": {"type": "integer"},
                    "max_bet_cents": {"type": "integer"},
                    "trips_min_cents": {"type": "integer"},
                    "trips_max_cents": {"type": "integer"},
                    "rules": {"type": "object", "description": "the engine's rules (settle.md)"},
                    "bank": {"type": ["object", "null"]},
                    "dealer": {"type": ["object", "null"]},
                    "round": {"type": ["object", "null"]},
                    "mine": {"type": "boolean"},
                },
            },
            "Round": {
                "type": "object",
                "properties": {
                    "id": {"type": "integer"},
                    "table": {"type": "integer"},
                    "number": {"type": "integer"},
                    "gaming_date": {"type": "string", "format": "date"},
                    "seq": {"type": "integer"},
                    "stage": {
                        "enum": [
                            "betting",
                            "preflop",
                            "flop",
                            "river",
                            "showdown",
                            "settled",
                            "void",
                        ]
                    },
                    "seats": {"type": "array", "items": {"type": "object"}},
                    "board": {"type": "array", "items": _CARD},
                    "dealer": {"type": "array", "items": _CARD},
                    "cards_expected": {"type": "object"},
                    "pending_void": {"type": ["string", "null"]},
                    "void": {"type": ["object", "null"]},
                    "settlement": {"type": ["object", "null"]},
                    "corrections": {"type": "array", "items": {"type": "object"}},
                    "dealer_staff": {"type": "object"},
                    "opened_at": {"type": "string", "format": "date-time"},
                    "settled_at": {"type": ["string", "null"], "format": "date-time"},
                    "events": {"type": "array", "items": {"type": "object"}},
                },
            },
            "Supervisor": {
                "type": "object",
                "required": ["employee_number", "pin"],
                "properties": {"employee_number": {"type": "string"}, "pin": {"type": "string"}},
            },
            "EventWrite": {
                "type": "object",
                "required": ["key", "expected_seq", "event"],
                "properties": {
                    "key": {"type": "string", "minLength": 1, "maxLength": 64},
                    "expected_seq": {"type": "integer", "minimum": 0},
                    "event": {
                        "type": "object",
                        "required": ["kind"],
                        "properties": {
                            "kind": {
                                "enum": [
                                    "wagers_placed",
                                    "wagers_withdrawn",
                                    "bets_locked",
                                    "decision",
                                    "cards_entered",
                                    "card_removed",
                                    "irregularity_declared",
                                    "void_approved",
                                    "void_refused",
                                    "settlement_confirmed",
                                ]
                            }
                        },
                    },
                    "supervisor": {"$ref": "#/components/schemas/Supervisor"},
                },
            },
            "CorrectionWrite": {
                "type": "object",
                "required": ["key", "supervisor", "reason", "round"],
                "properties": {
                    "key": {"type": "string", "minLength": 1, "maxLength": 64},
                    "supervisor": {"$ref": "#/components/schemas/Supervisor"},
                    "reason": {"type": "string"},
                    "round": {"type": "object", "description": "settle.md input"},
                },
            },
            "Key": {
                "type": "object",
                "required": ["key"],
                "properties": {"key": {"type": "string", "minLength": 1, "maxLength": 64}},
            },
            "Login": {
                "type": "object",
                "required": ["employee_number", "pin"],
                "properties": {"employee_number": {"type": "string"}, "pin": {"type": "string"}},
            },
        },
    },
    "security": [{"session": []}],
    "paths": {
        "/api/login": {
            "post": {
                "summary": (
                    "Sign in with employee number and PIN (counts toward the lockout and the "
                    "throttle, as the sign-in page does; 429: wait, the source or tablet is "
                    "throttled)"
                ),
                "security": [],
                "requestBody": _body("Login"),
                "responses": {
                    "200": {"description": "signed in; session and CSRF cookies set"},
                    **_errors(400, 403, 429),
                },
            }
        },
        "/api/logout": {
            "post": {"summary": "Sign out", "responses": {"200": {"description": "signed out"}}}
        },
        "/api/openapi.json": {
            "get": {
                "summary": "This description",
                "security": [],
                "responses": {"200": {"description": "OpenAPI 3.1"}},
            }
        },
        "/api/tables/": {
            "get": {
                "summary": "The tables, the caller's own first (mine: true)",
                "responses": {"200": {"description": "a list of tables"}, **_errors(401, 403)},
            }
        },
        "/api/tables/{table_id}/": {
            "get": {
                "summary": "One table",
                "parameters": [_TABLE_ID],
                "responses": {"200": _json("Table", "the table"), **_errors(401, 403, 404)},
            }
        },
        "/api/tables/{table_id}/rounds": {
            "post": {
                "summary": "Open the table's next round (the dealer assigned now)",
                "parameters": [_TABLE_ID],
                "requestBody": _body("Key"),
                "responses": {
                    "201": _json("Round", "the new round"),
                    **_errors(400, 401, 403, 404, 409),
                },
            }
        },
        "/api/tables/{table_id}/recall": {
            "get": {
                "summary": "The last rounds with every event, newest first (supervisor, auditor)",
                "parameters": [
                    _TABLE_ID,
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "default": 10}},
                ],
                "responses": {
                    "200": {"description": "rounds with events"},
                    **_errors(401, 403, 404),
                },
            }
        },
        "/api/rounds/{round_id}": {
            "get": {
                "summary": "The round",
                "parameters": [_ROUND_ID],
                "responses": {"200": _json("Round", "the round"), **_errors(401, 403, 404)},
            }
        },
        "/api/rounds/{round_id}/events": {
            "post": {
                "summary": "One step of the round",
                "parameters": [_ROUND_ID],
                "requestBody": _body("EventWrite"),
                "responses": {
                    "200": _json("Round", "the round after the step"),
                    **_errors(400, 401, 403, 404, 409),
                },
            }
        },
        "/api/rounds/{round_id}/settlement": {
            "get": {
                "summary": "The payouts the engine computes now (provisional until confirmed)",
                "parameters": [_ROUND_ID],
                "responses": {
                    "200": {"description": "settle.md output + provisional"},
                    **_errors(400, 401, 403, 404),
                },
            }
        },
        "/api/rounds/{round_id}/corrections": {
            "post": {
                "summary": "Correct a settled round (a supervisor's PIN)",
                "parameters": [_ROUND_ID],
                "requestBody": _body("CorrectionWrite"),
                "responses": {
                    "200": _json("Round", "the round with its corrections"),
                    **_errors(400, 401, 403, 404, 409),
                },
            }
        },
        "/api/rounds/{round_id}/export": {
            "get": {
                "summary": "settle.md input and output as settled (supervisor, auditor)",
                "parameters": [_ROUND_ID],
                "responses": {
                    "200": {"description": "input, output, corrections"},
                    **_errors(400, 401, 403, 404),
                },
            }
        },
    },
}
