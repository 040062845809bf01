"""The OpenAPI description of the round API, served at `/api/openapi.json`.

Written by hand beside spec/round-api.md (the contract), except the events' schemas, made
from the engine's own event types (tables.rules.machine) so that each kind's required fields
are said once. tests/tables/rounds/test_api.py
(test_the_openapi_description_names_every_route) checks that it names every route of
tables/api/urls.py and nothing else; tests/tables/rounds/test_openapi_answers.py that every
answer the API gives is one it describes. docs/reference/api-errors.md lists the errors.
"""

import dataclasses

from tables.rules.machine import EVENT_TYPES, Action
from tables.rules.settle import Irregularity

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


#: What each error status means, on every operation that may give it.
_STATUS = {
    400: "the body or a value in it refused (its `code` says which); nothing changed",
    401: "not signed in, or signed out (a shared tablet's session ended)",
    403: "the role, the CSRF token, a PIN or a two-person rule refused; nothing changed",
    404: "no such table or round (an id that is not a whole number included)",
    405: "this address does not take this method (the `Allow` header lists those it takes)",
    409: "the round is not in a state for this (stale `expected_seq`, reused key...)",
    413: "the body is over the size limit (256 KiB unless the operator set another)",
    429: "too many failed sign-ins or wrong PINs from here: wait and try again",
}
#: Every operation can give these (the role check, the JSON error middleware).
_ALWAYS = (401, 403, 405, 413)


_RETRY_AFTER = {
    "Retry-After": {
        "description": "seconds to wait before trying again",
        "schema": {"type": "integer", "minimum": 1},
    }
}


def _errors(*statuses: int) -> dict:
    return {
        str(status): {
            "description": _STATUS[status],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
            **({"headers": _RETRY_AFTER} if status == 429 else {}),
        }
        for status in sorted({*statuses, *_ALWAYS})
    }


_FIELD_SCHEMAS = {
    "seat": {"type": "integer", "minimum": 1},
    "ante": {"type": "integer", "minimum": 0, "description": "cents"},
    "blind": {"type": "integer", "minimum": 0, "description": "cents"},
    "trips": {"type": "integer", "minimum": 0, "description": "cents"},
    "progressive": {"type": "integer", "minimum": 0, "description": "cents"},
    "action": {"enum": [a.value for a in Action]},
    "multiple": {"type": ["integer", "null"]},
    "place": {
        "oneOf": [{"enum": ["board", "dealer"]}, {"type": "integer", "minimum": 1}],
        "description": "the board, the dealer or a seat number",
    },
    "cards": {"type": "array", "items": {"type": "string", "examples": ["As", "Td", "10h"]}},
    "card": {"type": "string", "examples": ["As", "Td", "10h"]},
    "irregularity": {"enum": [i.value for i in Irregularity]},
}


def _event_schema(cls) -> dict:
    """One event kind: its fields, those without a default required (as the engine asks)."""
    fields = dataclasses.fields(cls)
    return {
        "type": "object",
        "title": cls.kind,
        "required": [
            "kind",
            *(
                f.name
                for f in fields
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            ),
        ],
        "properties": {
            "kind": {"const": cls.kind},
            **{f.name: _FIELD_SCHEMAS[f.name] for f in fields},
        },
        "additionalProperties": False,
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
        "and docs/reference/round-api.md. Money is integer cents; session authentication; "
        "unsafe requests send X-CSRFToken; every write carries `key`, every write to a round "
        "`expected_seq`.",
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
                    "correction_request": {
                        "type": "object",
                        "required": ["id", "state", "amount_cents", "lines"],
                        "properties": {
                            "id": {"type": "integer"},
                            "state": {"enum": ["requested", "approved", "rejected"]},
                            "reason": {"type": "string"},
                            "requested_by": {"type": "object"},
                            "requested_at": {"type": "string", "format": "date-time"},
                            "amount_cents": {"type": "integer"},
                            "lines": {"type": "array", "items": {"type": "object"}},
                        },
                    },
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
                    "event": {"oneOf": [_event_schema(cls) for cls in EVENT_TYPES.values()]},
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
            "SignedIn": {
                "type": "object",
                "required": ["staff"],
                "properties": {"staff": {"$ref": "#/components/schemas/Staff"}},
            },
            "SignedOut": {
                "type": "object",
                "required": ["staff"],
                "properties": {"staff": {"type": "null"}},
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
                    "200": _json("SignedIn", "signed in; session and CSRF cookies set"),
                    **_errors(400, 429),
                },
            }
        },
        "/api/logout": {
            "post": {
                "summary": "Sign out",
                "responses": {"200": _json("SignedOut", "signed out"), **_errors()},
            }
        },
        "/api/openapi.json": {
            "get": {
                "summary": "This description",
                "security": [],
                "responses": {"200": {"description": "OpenAPI 3.1"}, **_errors()},
            }
        },
        "/api/tables/": {
            "get": {
                "summary": "The tables, the caller's own first (mine: true)",
                "responses": {
                    "200": {
                        "description": "a list of tables",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "array",
                                    "items": {"$ref": "#/components/schemas/Table"},
                                }
                            }
                        },
                    },
                    **_errors(),
                },
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
                    **_errors(400, 404),
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
                    **_errors(400, 404, 409, 429),
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
                "summary": "Ask to correct a settled round (the table's supervisor's PIN)",
                "description": (
                    "By default the correction waits for a second person at the pit (202, "
                    "the round unchanged and `correction_request`); within the property's "
                    "threshold it is written at once (200). docs/architecture/"
                    "two-person-rules.md"
                ),
                "parameters": [_ROUND_ID],
                "requestBody": _body("CorrectionWrite"),
                "responses": {
                    "200": _json("Round", "the round with its corrections"),
                    "202": _json("Round", "the round, unchanged, with its correction_request"),
                    **_errors(400, 404, 409, 429),
                },
            }
        },
        "/api/rounds/{round_id}/corrections/preview": {
            "post": {
                "summary": "What a correction would pay, before the supervisor's PIN "
                "(writes nothing)",
                "parameters": [_ROUND_ID],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["round"],
                                "properties": {"round": {"type": "object"}},
                            }
                        }
                    },
                },
                "responses": {
                    "200": {"description": "settlement (settle.md output) and lines"},
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
