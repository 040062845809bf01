"""The ratings' reports (issue 28, items 8 and 9): the kept summaries equal the figures on
read (after settles, a pause, a move, a correction after the close), a player's visits and
theo against result, the top players, the accuracy report with its audited entered average,
and a gaming day's ratings as CSV (role-checked, audited)."""

import copy
import csv
import io

import pytest
from django.test import Client

from casino.audit import seal_pending
from casino.clock import current_property
from casino.errors import IllegalTransition, RoleRequired
from casino.models import AuditEntry
from casino.roles import Role
from tables.models import Round
from tables.ratings import entered_average, reports, summaries
from tables.ratings.day_export import COLUMNS
from tables.ratings.figures import figures
from tables.ratings.models import Rating, RatingSettings, RatingSummary
from tables.ratings.selectors import rating_detail
from tables.services import rounds
from tests.factories import make_staff
from tests.tables.ratings.conftest import do, rate
from tests.tables.rounds.conftest import deal_to, pin_of

pytestmark = pytest.mark.django_db

KEPT = (
    "hands",
    "total_wagered_cents",
    "player_result_cents",
    "theo_cents",
    "seconds_played",
)


def _client(role) -> Client:
    client = Client()
    client.force_login(make_staff(role))
    return client


def _on_read(rating: Rating) -> dict:
    f = figures(rating, list(rating.pauses.all()), now=rating.closed_at)
    return {
        "hands": f.hands,
        "ante_cents": f.wagered["ante"],
        "total_wagered_cents": f.total_wagered_cents,
        "player_result_cents": f.player_result_cents,
        "theo_cents": f.theo_cents,
        "seconds_played": f.seconds_played,
    }


def _kept(rating: Rating) -> dict:
    s = RatingSummary.objects.get(rating=rating)
    return {k: getattr(s, k) for k in ("ante_cents", *KEPT)}


def _correct(supervisor, round_id, seat, hole):
    facts = copy.deepcopy(Round.objects.get(pk=round_id).settlement_input)
    for s in facts["seats"]:
        if s["seat"] == seat:
            s["hole"] = hole
    rounds.round_correct(
        round_id=round_id,
        actor=supervisor,
        key=f"fix-{round_id}-{seat}",
        supervisor=pin_of(supervisor),
        reason="the camera shows it",
        corrected=facts,
    )


@pytest.fixture
def played(
    felt, supervisor, marie, paul, uth9, casino_property, django_capture_on_commit_callbacks
):
    """Marie: two rounds, a paused one, a move (a visit of two ratings); Paul: one round, then
    a correction after his close. Every after-commit receiver run as in production."""
    casino_property.correction_threshold_cents = 10**9
    casino_property.save(update_fields=["correction_threshold_cents"])
    with django_capture_on_commit_callbacks(execute=True):
        m = rate(supervisor, felt.table, 1, card="400123")
        p = rate(supervisor, felt.table, 2, card="400124")
        first = deal_to(felt, "settled")["id"]
        do("pause", supervisor, m)
        deal_to(felt, "settled")
        do("resume", supervisor, m)
        deal_to(felt, "settled")
        do("close", supervisor, p, walk_with_cents=0)
        moved = do("move", supervisor, m, table=uth9.pk, seat=3)
    with django_capture_on_commit_callbacks(execute=True):
        _correct(supervisor, first, 2, ["3c", "5d"])
    return {"marie": [m["id"], moved["id"]], "paul": [p["id"]], "first_round": first}


def test_the_kept_summaries_equal_the_figures_on_read(played):
    closed = Rating.objects.filter(closed_at__isnull=False)
    assert closed.count() == 2
    for rating in closed:
        assert _kept(rating) == _on_read(rating), rating
    paul = Rating.objects.get(pk=played["paul"][0])
    # the correction after Paul's close reached his summary through the receiver
    assert _kept(paul)["player_result_cents"] == rating_detail(paul.pk)["player_result_cents"]
    assert summaries.stale(Rating.objects.all()).count() == 0


def test_a_missing_or_stale_summary_is_computed_again_before_a_report(played):
    marie_first = Rating.objects.get(pk=played["marie"][0])
    RatingSummary.objects.filter(rating=marie_first).update(
        hands=999, theo_cents=-1, refreshed_at=marie_first.opened_at
    )
    RatingSummary.objects.filter(rating_id=played["paul"][0]).delete()
    assert summaries.stale(Rating.objects.all()).count() == 2
    rows = reports.rows_of(Rating.objects.all(), current_property())
    for row in rows:
        if row.rating.closed_at is not None:
            assert row.hands == _on_read(row.rating)["hands"] != 999
    for rating in Rating.objects.filter(closed_at__isnull=False):
        assert _kept(rating) == _on_read(rating)


def test_a_players_visits_chain_the_moved_ratings(played, marie):
    report = reports.player_report(marie, current_property())
    assert len(report["rows"]) == 2
    assert len(report["visits"]) == 1
    visit = report["visits"][0]
    assert [r.rating.pk for r in visit.rows] == played["marie"]
    assert visit.hands == 2  # the paused round is not counted
    assert report["theo_cents"] == sum(rating_detail(i)["theo_cents"] for i in played["marie"])
    day = report["days"][0]
    assert day.win == -report["player_result_cents"]
    assert day.theoretical == report["theo_cents"]


def test_hosts_see_theo_and_the_chart_supervisors_do_not(played, marie):
    url = f"/players/{marie.pk}/ratings/"
    for role in (Role.HOST, Role.MANAGER, Role.AUDITOR):
        page = _client(role).get(url).content.decode()
        assert "data-theo=" in page and "<svg" in page, role
    for role in (Role.SUPERVISOR, Role.COMPLIANCE):
        page = _client(role).get(url).content.decode()
        assert "data-theo=" not in page and "<svg" not in page, role
        assert f'data-rating="{played["marie"][0]}"' in page
    assert _client(Role.DEALER).get(url).status_code == 403


def test_the_top_players_are_ordered_by_theo(played, marie, paul):
    prop = current_property()
    day = prop.gaming_date()
    top = reports.top_players(prop, day, day)
    theo = {
        marie.pk: sum(rating_detail(i)["theo_cents"] for i in played["marie"]),
        paul.pk: rating_detail(played["paul"][0])["theo_cents"],
    }
    assert [t.player_id for t in top] == sorted(theo, key=lambda p: -theo[p])
    assert {t.player_id: t.theo_cents for t in top} == theo
    assert {t.player_id: t.ratings for t in top} == {marie.pk: 2, paul.pk: 1}
    page = _client(Role.HOST).get("/players/top/", {"from": day, "to": day}).content.decode()
    assert f'data-theo="{theo[marie.pk]}"' in page
    assert _client(Role.SUPERVISOR).get("/players/top/").status_code == 403
    assert (
        reports.top_players(prop, day.replace(year=day.year - 1), day.replace(year=day.year - 1))
        == []
    )


def test_an_entered_average_needs_the_setting_and_is_audited(played, supervisor):
    rating_id = played["paul"][0]
    with pytest.raises(entered_average.AverageEntryNotAllowed):
        entered_average.rating_average_enter(supervisor=supervisor, rating_id=rating_id, cents=2500)
    RatingSettings.objects.create(property=current_property(), average_ante_entry=True)
    with pytest.raises(IllegalTransition):
        entered_average.rating_average_enter(supervisor=supervisor, rating_id=rating_id, cents=-1)
    with pytest.raises(RoleRequired):
        entered_average.rating_average_enter(
            supervisor=make_staff(Role.HOST), rating_id=rating_id, cents=2500
        )
    entered_average.rating_average_enter(supervisor=supervisor, rating_id=rating_id, cents=2500)
    seal_pending()
    entry = AuditEntry.objects.get(code="ratings.rating.average_entered")
    assert entry.data == {"before": None, "after": 2500}
    prop = current_property()
    day = prop.gaming_date()
    found = reports.accuracy(prop, day, day)
    measured = rating_detail(rating_id)["average_ante_cents"]
    assert [(a["row"].rating.pk, a["entered"], a["measured"]) for a in found] == [
        (rating_id, 2500, measured)
    ]
    assert found[0]["difference"] == 2500 - measured
    page = _client(Role.AUDITOR).get("/players/accuracy/").content.decode()
    assert f'data-difference="{2500 - measured}"' in page
    assert _client(Role.HOST).get("/players/accuracy/").status_code == 403


def test_the_entry_form_records_through_the_page(played, supervisor, paul):
    RatingSettings.objects.create(property=current_property(), average_ante_entry=True)
    client = Client()
    client.force_login(supervisor)
    rating_id = played["paul"][0]
    url = f"/players/{paul.pk}/ratings/{rating_id}/average/"
    assert client.post(url, {"average_ante": "12,50"}).status_code == 302
    assert Rating.objects.get(pk=rating_id).entered_average_ante_cents == 1250
    assert _client(Role.HOST).post(url, {"average_ante": "1"}).status_code == 403


def test_a_gaming_days_ratings_as_csv_role_checked_and_audited(played, marie):
    prop = current_property()
    day = prop.gaming_date()
    response = _client(Role.MANAGER).get("/players/ratings.csv", {"day": day.isoformat()})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert list(rows[0]) == COLUMNS
    assert len(rows) == 3
    for row in rows:
        api = rating_detail(int(row["id"]))
        assert int(row["theo_cents"]) == api["theo_cents"]
        assert int(row["player_result_cents"]) == api["player_result_cents"]
        assert int(row["wagered_ante_cents"]) == api["wagered"]["ante"]
        assert row["gaming_date"] == day.isoformat()
        # the property's time zone, with its offset
        opened = Rating.objects.get(pk=row["id"]).opened_at
        assert row["opened_at"] == prop.local(opened).isoformat(timespec="seconds")
    seal_pending()
    entry = AuditEntry.objects.get(code="ratings.day.exported")
    assert entry.data == {"gaming_date": day.isoformat(), "ratings": 3}
    for role in (Role.DEALER, Role.SUPERVISOR, Role.COMPLIANCE):
        assert _client(role).get("/players/ratings.csv").status_code == 403
    assert AuditEntry.objects.filter(code="ratings.day.exported").count() == 1


def test_a_settled_round_costs_one_query_after_commit_with_only_open_ratings(
    felt, supervisor, marie, django_capture_on_commit_callbacks
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    rate(supervisor, felt.table, 1, card="400123")
    with django_capture_on_commit_callbacks(execute=True):
        round_id = deal_to(felt, "settled")["id"]
    assert not RatingSummary.objects.exists()  # an open rating is read from its lines
    with CaptureQueriesContext(connection) as queries:
        assert summaries.refresh_for_round(round_id) == 0
    assert len(queries) == 2  # the round, then the closed ratings over it (none)
