"""The round API's JSON endpoints under random bodies, as the table's dealer and as a
supervisor: never a 5xx, and every error is JSON with a stable `code`."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.rules.machine import EVENT_TYPES
from tests.fuzz.strategies import FUZZ, atoms, hostile_texts, json_values, raw_bodies

ENDPOINTS = [
    "/api/tables/{table}/rounds",
    "/api/rounds/{round}/events",
    "/api/rounds/{round}/corrections",
    "/api/login",
]
KINDS = [*EVENT_TYPES, "settlement_confirmed", "void_approved", "void_rejected"]

events = st.fixed_dictionaries(
    {"kind": st.sampled_from(KINDS) | hostile_texts},
    optional={
        name: atoms | json_values
        for name in (
            "seat",
            "ante",
            "blind",
            "trips",
            "progressive",
            "action",
            "multiple",
            "place",
            "cards",
            "card",
            "irregularity",
        )
    },
)
bodies = st.fixed_dictionaries(
    {},
    optional={
        "key": hostile_texts | atoms,
        "expected_seq": atoms,
        "event": events | json_values,
        "supervisor": st.fixed_dictionaries(
            {"employee_number": hostile_texts | atoms, "pin": hostile_texts | atoms}
        )
        | atoms,
        "reason": hostile_texts | atoms,
        "round": json_values,
    },
).map(json.dumps)


@pytest.fixture(params=["dealer", "supervisor"])
def signed_in(request, client, table, dealer, supervisor):  # noqa: F811
    person = dealer if request.param == "dealer" else supervisor
    client.force_login(person)
    opened = client.post(
        f"/api/tables/{table.pk}/rounds", {"key": "fuzz-open"}, content_type="application/json"
    )
    if opened.status_code == 201:
        round_id = opened.json()["id"]
    else:  # a supervisor who is not the table's dealer: the round is opened by the dealer
        client.force_login(dealer)
        round_id = client.post(
            f"/api/tables/{table.pk}/rounds", {"key": "fuzz-open"}, content_type="application/json"
        ).json()["id"]
        client.force_login(person)
    return client, {"table": table.pk, "round": round_id}


def answers_cleanly(answer) -> None:
    assert answer.status_code < 500, answer.content[:500]
    if answer.status_code >= 400:
        assert answer.json()["error"]["code"], answer.content[:500]


@FUZZ
@given(endpoint=st.sampled_from(ENDPOINTS), raw=raw_bodies)
def test_random_bodies_never_end_in_a_5xx(signed_in, endpoint, raw):
    client, ids = signed_in
    answers_cleanly(client.post(endpoint.format(**ids), raw, content_type="application/json"))


@FUZZ
@given(endpoint=st.sampled_from(ENDPOINTS[1:3]), raw=bodies)
def test_random_events_and_corrections_never_end_in_a_5xx(signed_in, endpoint, raw):
    client, ids = signed_in
    answers_cleanly(client.post(endpoint.format(**ids), raw, content_type="application/json"))
