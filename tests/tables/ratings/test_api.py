"""The ratings API (spec/ratings.md) through HTTP: shapes, codes, roles, the feed."""

import datetime as dt
import json

import pytest
from django.test import Client
from django.utils import timezone

from casino.audit import seal_pending
from casino.models import AuditEntry
from tables.ratings import feed_tokens
from tables.ratings.models import Rating
from tests.tables.rounds.conftest import deal_to

KEYS = {
    "id", "player", "table", "seat", "status", "opened_at", "closed_at", "closed_reason",
    "previous", "seconds_played", "paused", "hands", "wagered", "total_wagered_cents",
    "average_ante_cents", "player_result_cents", "edges", "theo_cents", "buy_ins",
    "cash_in_cents", "walk_with_cents", "opened_by", "closed_by",
}  # fmt: skip


def as_(staff) -> Client:
    c = Client()
    c.force_login(staff)
    return c


def post(c, path, body):
    r = c.post(path, json.dumps(body), content_type="application/json")
    return r.status_code, r.json()


@pytest.fixture
def opened(table, supervisor, marie):
    status, body = post(
        as_(supervisor),
        "/api/ratings",
        {"key": "o1", "table": table.pk, "seat": 2, "player": {"card": "400123"}},
    )
    assert status == 201, body
    return body


def test_the_rating_has_every_field_the_spec_names(opened):
    assert KEYS <= set(opened)
    assert set(opened["wagered"]) == {"ante", "blind", "play", "trips", "progressive"}
    assert set(opened["edges"]) == {"ante", "trips", "progressive"}


@pytest.mark.parametrize(
    ("player", "status", "code"),
    [
        ({"card": "400123"}, 409, "seat_rated"),
        ({"card": "nope"}, 404, "unknown_card"),
        ({"name": "x"}, 400, "bad_player"),
    ],
)
def test_refusals_answer_with_their_code(opened, table, supervisor, player, status, code):
    got, body = post(
        as_(supervisor),
        "/api/ratings/",
        {"key": code, "table": table.pk, "seat": 2, "player": player},
    )
    assert (got, body["error"]["code"]) == (status, code)


def test_a_player_rated_elsewhere_is_409(opened, uth9, supervisor):
    got, body = post(
        as_(supervisor),
        "/api/ratings",
        {"key": "again", "table": uth9.pk, "seat": 1, "player": {"card": "400123"}},
    )
    assert (got, body["error"]["code"]) == (409, "player_rated")


def test_a_dealer_may_neither_write_nor_read(opened, dealer, table):
    c = as_(dealer)
    got, _ = post(
        c, "/api/ratings", {"key": "d", "table": table.pk, "seat": 4, "player": {"anonymous": "x"}}
    )
    assert got == 403
    assert c.get(f"/api/ratings/{opened['id']}").status_code == 403
    assert c.get("/api/ratings").status_code == 403
    got, _ = post(c, f"/api/ratings/{opened['id']}/close", {"key": "c"})
    assert got == 403


@pytest.mark.parametrize("who", ["manager", "auditor"])
def test_managers_and_auditors_read_but_do_not_write(opened, table, request, who):
    c = as_(request.getfixturevalue(who))
    r = c.get(f"/api/ratings/{opened['id']}/")
    assert r.status_code == 200 and r.json()["id"] == opened["id"]
    r = c.get(f"/api/ratings?table={table.pk}&status=open")
    assert [x["id"] for x in r.json()["ratings"]] == [opened["id"]]
    for path, body in (
        ("/api/ratings", {"key": "m", "table": table.pk, "seat": 5, "player": {"anonymous": "x"}}),
        (f"/api/ratings/{opened['id']}/pause", {"key": "m"}),
        (f"/api/ratings/{opened['id']}/close", {"key": "m"}),
    ):
        got, answer = post(c, path, body)
        assert got == 403, (path, answer)


def test_the_whole_life_of_a_rating_through_the_api(felt, supervisor, marie, uth9):
    c = as_(supervisor)
    _, r = post(
        c,
        "/api/ratings",
        {"key": "a", "table": felt.table.pk, "seat": 1, "player": {"card": "400123"}},
    )
    rid = r["id"]
    got, r = post(c, f"/api/ratings/{rid}/pause", {"key": "p"})
    assert (got, r["status"], r["paused"]) == (200, "paused", True)
    got, r = post(c, f"/api/ratings/{rid}/resume", {"key": "r"})
    assert (got, r["status"]) == (200, "open")
    deal_to(felt, "settled")
    got, r = post(
        c, f"/api/ratings/{rid}/buy-ins", {"key": "b", "amount_cents": 50000, "instrument": "cash"}
    )
    assert (got, r["cash_in_cents"]) == (200, 50000)
    got, moved = post(c, f"/api/ratings/{rid}/move", {"key": "mv", "table": uth9.pk, "seat": 3})
    assert (got, moved["previous"], moved["table"]) == (201, rid, uth9.pk)
    got, closed = post(
        c, f"/api/ratings/{moved['id']}/close", {"key": "cl", "walk_with_cents": 1000}
    )
    assert (got, closed["status"], closed["closed_reason"]) == (200, "closed", "closed")
    # a retry answers the same, a closed rating takes no more
    assert post(c, f"/api/ratings/{moved['id']}/close", {"key": "cl", "walk_with_cents": 1000}) == (
        200,
        closed,
    )
    got, body = post(c, f"/api/ratings/{moved['id']}/pause", {"key": "late"})
    assert (got, body["error"]["code"]) == (409, "rating_closed")
    first = c.get(f"/api/ratings/{rid}").json()
    assert (first["hands"], first["closed_reason"]) == (1, "moved")


def test_an_unknown_rating_is_404_and_a_bad_body_400(supervisor):
    c = as_(supervisor)
    assert c.get("/api/ratings/999999").status_code == 404
    assert c.get("/api/ratings/99999999999999999999").status_code == 404
    r = c.post("/api/ratings", "not json", content_type="application/json")
    assert (r.status_code, r.json()["error"]["code"]) == (400, "bad_json")
    got, body = post(c, "/api/ratings", {"table": 1, "seat": 1, "player": {"anonymous": "x"}})
    assert (got, body["error"]["code"]) == (400, "bad_key")


# --- the feed ------------------------------------------------------------------------------


def _close_long_ago(body, minutes):
    at = timezone.now() - dt.timedelta(minutes=minutes)
    Rating.objects.filter(pk=body["id"]).update(
        closed_at=at, closed_reason="closed", opened_at=at - dt.timedelta(minutes=5)
    )


def test_the_feed_pages_closed_ratings_in_close_order_with_a_bearer_token(
    table, supervisor, manager, marie, paul
):
    c = as_(supervisor)
    bodies = [
        post(
            c,
            "/api/ratings",
            {"key": f"f{i}", "table": table.pk, "seat": i + 1, "player": {"anonymous": f"p{i}"}},
        )[1]
        for i in range(3)
    ]
    for body, minutes in zip(bodies, (3, 9, 6), strict=True):
        _close_long_ago(body, minutes)
    got, issued = post(as_(manager), "/api/ratings/feed-tokens", {"name": "Tracking"})
    assert got == 201
    token = issued["token"]
    machine = Client()
    assert machine.get("/api/ratings/feed").status_code == 401
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    page = machine.get("/api/ratings/feed?limit=2", **auth).json()
    assert [r["id"] for r in page["ratings"]] == [bodies[1]["id"], bodies[2]["id"]]
    rest = machine.get(f"/api/ratings/feed?limit=2&after={page['next']}", **auth).json()
    assert [r["id"] for r in rest["ratings"]] == [bodies[0]["id"]]
    empty = machine.get(f"/api/ratings/feed?after={rest['next']}", **auth).json()
    assert (empty["ratings"], empty["next"]) == ([], rest["next"])
    assert machine.get("/api/ratings/feed?after=zzz", **auth).status_code == 400
    got, _ = post(as_(manager), f"/api/ratings/feed-tokens/{issued['id']}/revoke", {})
    assert got == 200
    assert machine.get("/api/ratings/feed", **auth).status_code == 401
    seal_pending()
    codes = set(AuditEntry.objects.values_list("code", flat=True))
    assert {"ratings.feed_token.issued", "ratings.feed_token.revoked"} <= codes


def test_only_a_manager_issues_feed_tokens(supervisor, auditor):
    for who in (supervisor, auditor):
        got, _ = post(as_(who), "/api/ratings/feed-tokens", {"name": "x"})
        assert got == 403
    assert not feed_tokens.FeedToken.objects.exists()


def test_the_tablet_shows_a_rated_seat_by_its_alias(table, dealer, opened):
    page = as_(dealer).get(f"/tablet/{table.pk}/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "Marie D." in text and "400123" not in text


def test_the_rating_is_what_the_openapi_document_describes(client, opened):
    from tables.api.openapi import OPENAPI
    from tests.tables.rounds.test_openapi_answers import violations

    answer = client.get("/api/openapi.json").json()
    assert "/api/ratings/{rating_id}/move" in answer["paths"]
    assert violations(opened, OPENAPI["components"]["schemas"]["Rating"]) == []


def test_the_console_issues_lists_and_revokes_feed_tokens(db):
    import io

    from django.core.management import call_command

    out = io.StringIO()
    call_command("ratings_feed_token", "issue", "Tracking", stdout=out)
    raw = out.getvalue().rsplit(": ", 1)[1].strip()
    token = feed_tokens.feed_authorize(f"Bearer {raw}")
    call_command("ratings_feed_token", "revoke", str(token.pk), stdout=out)
    call_command("ratings_feed_token", "list", stdout=out)
    assert "revoked" in out.getvalue().splitlines()[-1]


def test_the_list_filters_by_table_and_status(table, uth9, supervisor, marie, paul):
    c = as_(supervisor)
    a = post(
        c, "/api/ratings", {"key": "l1", "table": table.pk, "seat": 1, "player": {"card": "400123"}}
    )[1]
    b = post(
        c, "/api/ratings", {"key": "l2", "table": uth9.pk, "seat": 1, "player": {"card": "400124"}}
    )[1]
    post(c, f"/api/ratings/{b['id']}/pause", {"key": "l3"})

    def ids(query):
        return [r["id"] for r in c.get(f"/api/ratings?{query}").json()["ratings"]]

    assert ids("") == [b["id"], a["id"]]
    assert ids(f"table={table.pk}") == [a["id"]]
    assert ids("status=open") == [a["id"]]
    assert ids("status=paused") == [b["id"]]
    assert ids("status=closed") == []
    assert c.get("/api/ratings?status=gone").status_code == 400
