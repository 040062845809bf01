"""`manage.py simulate_floor` against a real server on the test database (pytest-django's
live_server: the project's WSGI application, a thread per request): dealers play real rounds
over HTTP, then the command checks the books.

Two tables at once need PostgreSQL: on SQLite, live_server shares one in-memory connection
between its request threads, so two tables writing at once would interleave inside one
transaction, which no real server does. One table runs on either database.
"""

import io
import socket

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from casino.models import AuditEntry, Staff
from jackpot.models import Hit
from tables import simulator
from tables.models import Round, Table
from tables.selectors import current_dealer

pytestmark = pytest.mark.slow
SIM = [f"SIM {i}" for i in (1, 2)]


def _demo():
    call_command("load_demo", stdout=io.StringIO())


def _simulate(base: str, tables: int) -> str:
    out = io.StringIO()
    call_command(
        "simulate_floor",
        tables=tables,
        rounds=3,
        speed=0,
        seed="test",
        rig_hit_every=2,
        void_every=3,
        base=base,
        stdout=out,
    )  # raises CommandError (exit 1) when a check fails
    return out.getvalue()


def _assert_played(text: str, tables: int) -> None:
    assert f"rounds played            {3 * tables}" in text
    assert f"settled                  {2 * tables}" in text
    assert f"void                     {tables}" in text
    assert f"progressive hits         {tables} ({tables} rigged)" in text
    assert "settlement_confirmed" in text and "< 50" in text
    assert "FAILED" not in text and text.count("OK ") >= 8

    rounds = Round.objects.filter(table__name__in=SIM)
    stages = sorted(rounds.values_list("stage", flat=True))
    assert stages == ["settled"] * 2 * tables + ["void"] * tables
    assert all(r.lines.exists() for r in rounds.filter(stage="settled"))
    assert not any(r.lines.exists() for r in rounds.filter(stage="void"))
    hits = Hit.objects.filter(table_label__in=SIM)
    assert hits.count() == tables and {h.state for h in hits} == {Hit.State.PENDING}
    for void in rounds.filter(stage="void"):
        approval = void.events.get(kind="void_approved")
        assert approval.supervisor.username == "inspecteur"
        assert approval.actor.username.startswith("sim-dealer-")


def test_a_dealer_plays_settles_and_voids_rounds_over_http_and_the_books_hold(
    transactional_db, live_server
):
    _demo()
    _assert_played(_simulate(live_server.url, tables=1), tables=1)


@pytest.mark.postgres
def test_two_tables_at_once_keep_the_books(transactional_db, live_server):
    _demo()
    _assert_played(_simulate(live_server.url, tables=2), tables=2)


def test_the_floor_is_prepared_through_the_services_once(db):
    _demo()
    first = simulator.floor_prepare(2)
    assert [t.name for t in first] == ["SIM 1", "SIM 2"]
    assert all(t.created for t in first)
    again = simulator.floor_prepare(2)
    assert [t.table_id for t in again] == [t.table_id for t in first]
    assert [t.created for t in again] == [(), ()]
    sim2 = Table.objects.get(name="SIM 2")
    uth2 = Table.objects.get(name="UTH 2")
    assert (sim2.ruleset_id, sim2.bank_id, sim2.min_bet_cents) == (
        uth2.ruleset_id,
        uth2.bank_id,
        uth2.min_bet_cents,
    )
    assert sim2.is_open and current_dealer(sim2).username == "sim-dealer-2"
    assert Staff.objects.get(username="sim-dealer-2").employee_number == "9002"
    created = AuditEntry.objects.filter(code="tables.table.created", actor__username="directeur")
    assert created.count() == 4 + 2  # the demo's four tables, then SIM 1 and SIM 2


def test_a_floor_without_ratings_rates_nobody(db):
    """`--no-ratings`: the rounds alone, the workload of the benchmarks made before ratings."""
    _demo()
    assert simulator.floor_prepare(2, rated=False)[0].rated_card is None
    assert simulator.floor_prepare(2)[0].rated_card is not None  # by default, a player is rated


def test_it_refuses_to_run_without_a_server_and_creates_nothing(db):
    _demo()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    with pytest.raises(CommandError, match="no server answers at http://127.0.0.1:"):
        call_command("simulate_floor", base=f"http://127.0.0.1:{port}", stdout=io.StringIO())
    assert not Table.objects.filter(name__startswith="SIM").exists()


def test_it_needs_the_demo_floor(db):
    with pytest.raises(CommandError, match="load_demo"):
        simulator.floor_prepare(1)


def test_the_demo_supervisor_rates_a_carded_player_while_the_dealer_plays(
    transactional_db, live_server
):
    """Issue 28 item 10: at SIM 1 the demo supervisor opens a rating for the first demo
    player, buys in, pauses and resumes it, moves the player and closes with the walk-with,
    all through /api/ratings; each closed rating's hands are the rounds the dealer saw it
    count, and nothing looks like fraud."""
    from tables.pit.models import Alert
    from tables.ratings.models import Rating
    from tables.ratings.selectors import rating_detail

    _demo()
    text = _simulate(live_server.url, tables=1)
    assert "ratings                  2 (" in text
    assert "every closed rating's hands equal its counted rounds" in text
    assert "FAILED" not in text

    first, second = Rating.objects.filter(table__name="SIM 1").order_by("opened_at", "pk")
    assert first.player.card == second.player.card == "400123"  # Marie D., load_demo's
    assert (first.seat, first.closed_reason, second.previous_id) == (1, "moved", first.pk)
    assert second.closed_reason == "closed" and second.walk_with_cents is not None
    assert first.opened_by.username == second.closed_by.username == "inspecteur"
    assert first.pauses.count() == 1 and first.pauses.get().ended_at is not None
    assert {b.instrument for b in first.buy_ins.all()} == {"cash", "chips"}
    shown = [rating_detail(first.pk), rating_detail(second.pk)]
    # Round 1 counted at seat 1, round 2 sat out, round 3 voided (void_every=3).
    assert [r["hands"] for r in shown] == [1, 0]
    assert shown[1]["chips_estimated_result_cents"] == shown[1]["player_result_cents"]
    kinds = set(Alert.objects.values_list("kind", flat=True))
    assert not kinds & {Alert.Kind.GHOST_RATING, Alert.Kind.CHIPS_GAP}


def test_the_demo_supervisor_comps_the_ratings_one_above_the_limit_approved_by_another(
    transactional_db, live_server
):
    """After the run the demo supervisor comps the closed ratings through the services: a
    coffee within their limit on each (granted at once), and on the rating with the most
    budget left a dinner above the limit (load_demo's demo policy), which waited and was
    approved by the demo's second manager; each in the month's comp report."""
    from casino.audit import seal_pending
    from tables.ratings import comps
    from tables.ratings.models import Comp, CompSettings

    _demo()
    policy = CompSettings.objects.get()
    assert policy.supervisor_limit_cents == 100  # the demo's, sized to a short run
    out = io.StringIO()
    call_command(
        "simulate_floor", tables=1, rounds=10, speed=0, seed="test", base=live_server.url,
        stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    assert "OK     the supervisor's comps are granted and in the month's comp report" in text
    assert "1 above it" in text and "approved by directrice" in text
    found = list(Comp.objects.select_related("issued_by", "decided_by").order_by("pk"))
    coffees = [c for c in found if c.description == "Café"]
    (dinner,) = [c for c in found if c.description == "Dîner"]
    assert len(coffees) == 2  # one per rating: the move made two
    assert all(c.amount_cents <= 100 and c.decided_by is None for c in coffees)
    assert all(c.issued_by.username == "inspecteur" for c in found)
    assert dinner.amount_cents > 100 and dinner.status == Comp.GRANTED
    assert dinner.decided_by.username == "directrice"
    for rating in {c.rating for c in found}:
        assert comps.committed_cents(rating) <= comps.budget_cents(rating, policy)
    seal_pending()
    codes = list(AuditEntry.objects.filter(code__startswith="ratings.comp").values_list("code"))
    assert sorted(c for (c,) in codes) == ["ratings.comp.approved"] + ["ratings.comp.issued"] * 3
