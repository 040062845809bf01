"""The OpenAPI document describes every answer the API gives (issue 23, item 5): each status an
operation answers is listed for it, every answer is JSON, an error has the Error shape and a
success the schema its status names; and each event kind's required fields are the engine's.
(The schemathesis probe of the docs does the same against a running server, with generated
requests; this test needs no network.)"""

import json
import re

import pytest

from tables.api.openapi import OPENAPI
from tables.rules.machine import EVENT_TYPES


def _resolve(schema: dict) -> dict:
    while "$ref" in schema:
        schema = OPENAPI["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


_TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "integer": int,
    "boolean": bool,
    "null": type(None),
    "number": (int, float),
}


def violations(value, schema: dict, where: str = "$") -> list[str]:
    """The subset of JSON Schema the document uses; what `value` breaks, by JSON path."""
    schema = _resolve(schema)
    found: list[str] = []
    if "oneOf" in schema:
        matching = [s for s in schema["oneOf"] if not violations(value, s, where)]
        return [] if len(matching) == 1 else [f"{where}: matches {len(matching)} of oneOf"]
    if "const" in schema and value != schema["const"]:
        found.append(f"{where}: not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {value!r} not in {schema['enum']}")
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        ok = any(
            isinstance(value, _TYPES[k]) and not (k in {"integer", "number"} and value is True)
            for k in kinds
        )
        if not ok:
            return [f"{where}: {type(value).__name__} is not {kinds}"]
    if isinstance(value, dict):
        found += [f"{where}: no {name}" for name in schema.get("required", []) if name not in value]
        for name, child in value.items():
            if name in schema.get("properties", {}):
                found += violations(child, schema["properties"][name], f"{where}.{name}")
            elif schema.get("additionalProperties") is False:
                found.append(f"{where}: {name} is not allowed")
    if isinstance(value, list) and "items" in schema:
        for i, child in enumerate(value):
            found += violations(child, schema["items"], f"{where}[{i}]")
    return found


def operation(path: str, method: str) -> dict:
    """The described operation a concrete path falls under (ids are `{...}` there)."""
    path = path.split("?")[0].rstrip("/")
    for template, operations in OPENAPI["paths"].items():
        pattern = re.sub(r"\{[a-z_]+\}", "[0-9]+", template.rstrip("/"))
        if re.fullmatch(pattern, path):
            return operations.get(method.lower()) or {
                "responses": next(iter(operations.values()))["responses"]
            }
    return {}


def described(answer, path: str, method: str) -> list[str]:
    """What is wrong with `answer` as an answer the document describes."""
    assert answer.status_code < 500, (method, path, answer.content[:200])
    responses = operation(path, method).get("responses")
    if responses is None:  # an address the API does not have: the API's JSON 404
        responses = {
            "404": {
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
            }
        }
    status = str(answer.status_code)
    if status not in responses:
        return [f"{method} {path}: {status} is not described (only {sorted(responses)})"]
    if not answer["Content-Type"].startswith("application/json"):
        return [f"{method} {path}: {status} answered {answer['Content-Type']}"]
    missing = [
        f"{method} {path}: {status} lacks its {name} header"
        for name in responses[status].get("headers", {})
        if name not in answer
    ]
    body = json.loads(answer.content)
    schema = responses[status].get("content", {}).get("application/json", {}).get("schema")
    return missing + (violations(body, schema) if schema else [])


LONE = '"\\ud800"'


def requests_for(ids: dict) -> list[tuple[str, str, str | None]]:
    """(method, path, raw body) for every operation: good, refused, hostile."""
    t, r = ids["table"], ids["round"]
    event = '{"key": "%s", "expected_seq": %s, "event": %s}'
    return [
        ("GET", "/api/tables/", None),
        ("GET", f"/api/tables/{t}/", None),
        ("GET", "/api/tables/999999/", None),
        ("GET", "/api/tables/abc/", None),
        ("GET", f"/api/tables/{t}/recall?limit=x", None),
        ("GET", f"/api/tables/{t}/recall", None),
        ("GET", f"/api/rounds/{r}", None),
        ("GET", "/api/rounds/-1", None),
        ("GET", f"/api/rounds/{r}/settlement", None),
        ("GET", f"/api/rounds/{r}/export", None),
        ("DELETE", f"/api/rounds/{r}", None),
        ("PUT", "/api/login", "{}"),
        ("POST", f"/api/tables/{t}/rounds", '{"key": "again"}'),
        ("POST", f"/api/tables/{t}/rounds", '{"key": ' + LONE + "}"),
        ("POST", f"/api/tables/{t}/rounds", json.dumps({"key": "x" * (300 * 1024)})),
        ("POST", f"/api/rounds/{r}/events", event % ("e1", 0, '{"kind": "bets_locked"}')),
        ("POST", f"/api/rounds/{r}/events", event % ("e2", 99, '{"kind": "bets_locked"}')),
        ("POST", f"/api/rounds/{r}/events", event % ("e3", 0, '{"kind": "decision"}')),
        ("POST", f"/api/rounds/{r}/events", event % ("e4", 0, '{"kind": ' + LONE + "}")),
        ("POST", f"/api/rounds/{r}/events", "[]"),
        (
            "POST",
            f"/api/rounds/{r}/events",
            event % ("e5", 0, '{"kind": "wagers_placed", "seat": 1, "ante": 1000, "blind": 1000}'),
        ),
        ("POST", f"/api/rounds/{r}/corrections", '{"key": "c1", "reason": "x", "round": {}}'),
        ("POST", "/api/rounds/abc/events", "{}"),
        ("POST", "/api/nothing", "{}"),
        ("GET", "/api/openapi.json", None),
    ]


@pytest.fixture
def ids(client, table, dealer):
    client.force_login(dealer)
    opened = client.post(
        f"/api/tables/{table.pk}/rounds", {"key": "o"}, content_type="application/json"
    )
    assert opened.status_code == 201
    return {"table": table.pk, "round": opened.json()["id"]}


@pytest.mark.parametrize("who", ["dealer", "supervisor", "auditor", "nobody"])
def test_every_answer_is_one_the_document_describes(client, ids, dealer, supervisor, auditor, who):
    client.raise_request_exception = False
    person = {"dealer": dealer, "supervisor": supervisor, "auditor": auditor}.get(who)
    if person is None:
        client.logout()
    else:
        client.force_login(person)
    wrong = []
    for method, path, raw in requests_for(ids):
        answer = client.generic(method, path, raw or "", content_type="application/json")
        wrong += described(answer, path, method)
    assert not wrong, wrong


def test_the_sign_in_answers_are_described(client, dealer, settings):
    settings.SIGNIN_FAILURE_MIN_SECONDS = 0
    wrong = []
    for raw in (
        json.dumps({"employee_number": dealer.employee_number, "pin": "1234"}),
        json.dumps({"employee_number": dealer.employee_number, "pin": "0000"}),
        '{"employee_number": ' + LONE + "}",
        "nothing",
    ):
        answer = client.post("/api/login", raw, content_type="application/json")
        wrong += described(answer, "/api/login", "POST")
    assert not wrong, wrong


def test_a_throttled_approval_answers_a_described_429(client, ids, supervisor, settings):
    settings.SIGNIN_FAILURE_MIN_SECONDS = 0
    settings.SIGNIN_THROTTLE_SOURCE_FAILURES = 3  # casino.signin: failures from one address
    path = f"/api/rounds/{ids['round']}/events"
    wrong, statuses = [], []
    for n in range(6):
        body = {
            "key": f"v{n}",
            "expected_seq": 0,
            "event": {"kind": "void_approved"},
            "supervisor": {"employee_number": supervisor.employee_number, "pin": "0000"},
        }
        answer = client.post(path, body, content_type="application/json")
        statuses.append(answer.status_code)
        wrong += described(answer, path, "POST")
    assert 429 in statuses, statuses
    assert not wrong, wrong


@pytest.mark.parametrize("kind", sorted(EVENT_TYPES))
def test_each_event_kinds_required_fields_are_the_engines(client, ids, kind):
    """The document's required fields for `kind`: send the event without one of them and the
    engine names exactly that field as missing; with them all it is not refused for a
    missing field."""
    schema = next(
        s
        for s in _resolve(OPENAPI["components"]["schemas"]["EventWrite"])["properties"]["event"][
            "oneOf"
        ]
        if s["properties"]["kind"]["const"] == kind
    )
    samples = {
        "seat": 1,
        "ante": 1000,
        "blind": 1000,
        "action": "check",
        "place": "board",
        "cards": ["As", "Kd", "Qh"],
        "card": "As",
        "irregularity": "wrong_card_count",
    }
    required = [f for f in schema["required"] if f != "kind"]
    for left_out in required:
        event = {"kind": kind, **{f: samples[f] for f in required if f != left_out}}
        body = {"key": f"k-{left_out}", "expected_seq": 0, "event": event}
        answer = client.post(
            f"/api/rounds/{ids['round']}/events", body, content_type="application/json"
        )
        error = answer.json()["error"]
        assert (error["code"], error.get("field")) == ("bad_event", left_out), error
    event = {"kind": kind, **{f: samples[f] for f in required}}
    answer = client.post(
        f"/api/rounds/{ids['round']}/events",
        {"key": "k-all", "expected_seq": 0, "event": event},
        content_type="application/json",
    )
    assert answer.status_code == 200 or answer.json()["error"]["code"] != "bad_event", (
        answer.content
    )
