"""Hostile bodies to the round API (issue 11, item 6): each is a 400 with a stable code and
the round unchanged, never a 500 (RecursionError, DataError, a TypeError in a service)."""

import json

import pytest

from tables.models import Round, RoundEvent
from tests.tables.rounds.conftest import progressive, supervisor, table  # noqa: F401

DEEP = "[" * 50000 + "]" * 50000


@pytest.fixture
def felt(client, table, dealer):  # noqa: F811
    client.force_login(dealer)
    answer = client.post(
        f"/api/tables/{table.pk}/rounds", {"key": "open-1"}, content_type="application/json"
    )
    assert answer.status_code == 201, answer.content
    return client, answer.json()


def send(client, path, raw):
    return client.post(path, raw, content_type="application/json")


def unchanged(round_json) -> tuple:
    found = Round.objects.get(pk=round_json["id"])
    return found.seq, found.stage, RoundEvent.objects.filter(round=found).count()


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("[]", "bad_json"),
        ('"event"', "bad_json"),
        ("42", "bad_json"),
        ("null", "bad_json"),
        (DEEP, "bad_json"),
        ('{"event": ' * 5000 + "{}" + "}" * 5000, "bad_json"),
        ('{"key": "k\\u0000", "expected_seq": 1, "event": {"kind": "bets_locked"}}', "bad_text"),
        ('{"key\\u0000": 1}', "bad_text"),
        (
            '{"key": "k1", "expected_seq": 1, "event": {"kind": "wagers_placed", "seat": 1,'
            ' "ante": 100000000000000000000, "blind": 1, "trips": 0, "progressive": 0}}',
            "bad_number",
        ),
        ('{"key": "k1", "expected_seq": 1e400, "event": {"kind": "bets_locked"}}', "bad_number"),
        ('{"key": "k1", "expected_seq": NaN, "event": {"kind": "bets_locked"}}', "bad_json"),
        ('{"key": "k1", "expected_seq": 1' + "0" * 5000 + "}", "bad_json"),
        (b"\xff\xfe{}", "bad_json"),
    ],
    ids=[
        "list",
        "text",
        "number",
        "null",
        "deep-list",
        "deep-object",
        "nul-value",
        "nul-key",
        "huge-int",
        "infinite-float",
        "nan",
        "5000-digits",
        "not-utf8",
    ],
)
def test_a_hostile_event_body_is_a_400_with_its_code_and_changes_nothing(felt, raw, code):
    client, round_json = felt
    before = unchanged(round_json)
    answer = send(client, f"/api/rounds/{round_json['id']}/events", raw)
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] == code
    assert unchanged(round_json) == before


@pytest.mark.parametrize(
    "body",
    [
        {"key": "k1", "expected_seq": "1", "event": {"kind": "bets_locked"}},
        {"key": 5, "expected_seq": 1, "event": {"kind": "bets_locked"}},
        {"key": ["k"], "expected_seq": 1, "event": {"kind": "bets_locked"}},
        {"key": "k1", "expected_seq": 1, "event": "bets_locked"},
        {"key": "k1", "expected_seq": 1, "event": {"kind": "wagers_placed", "seat": "1"}},
        {"key": "k1", "expected_seq": 1, "event": {"kind": ["wagers_placed"]}},
        {"key": "k1", "expected_seq": 1, "event": {"kind": "void_approved"}, "supervisor": 5},
        {"key": "k1", "expected_seq": 1.5, "event": {"kind": "bets_locked"}},
    ],
)
def test_strings_where_ints_belong_and_the_reverse_are_a_400(felt, body):
    client, round_json = felt
    before = unchanged(round_json)
    answer = send(client, f"/api/rounds/{round_json['id']}/events", json.dumps(body))
    assert 400 <= answer.status_code < 500, answer.content
    assert answer.json()["error"]["code"]
    assert unchanged(round_json) == before


@pytest.mark.parametrize("path", ["/api/rounds/{}/events", "/api/tables/{}/rounds"])
@pytest.mark.parametrize("number", ["9" * 30, "9" * 5000, "٣"])
def test_an_id_no_row_can_have_is_a_404(client, dealer, path, number):
    client.force_login(dealer)
    answer = send(client, path.format(number), "{}")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"]


def test_the_sign_in_body_that_is_not_an_object_is_a_400(client):
    answer = send(client, "/api/login", DEEP)
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad_json"
