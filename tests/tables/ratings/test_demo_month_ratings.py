"""`manage.py demo_month` rates the demo's carded players over its days (issue 28 item 10):
ratings with pauses, a move, buy-ins and closes, whose figures are measured from the seeded
rounds' lines exactly as a live rating's are. The test recomputes them here from the lines
and the rounds' lock events, and reads the players' pages and the top players."""

import datetime as dt
import io
from decimal import Decimal
from fractions import Fraction

from django.core.management import call_command
from django.test import Client

from casino.clock import current_property
from casino.roles import Role
from tables.accounting.theoretical import edges
from tables.models import Round, RoundEvent, SettlementLine
from tables.ratings.demo import PLAYERS
from tables.ratings.figures import edge_text
from tables.ratings.models import BuyIn, Player, Rating, RatingSummary
from tables.ratings.selectors import rating_detail
from tests.factories import make_staff

EDGED = ("ante", "trips", "progressive")
BETS = ("ante", "blind", "play", "trips", "progressive")


def test_demo_month_rates_the_demo_players_measured_from_its_rounds(db):
    # One month (four days of it) for every check: seeding it is the slow part.
    call_command("load_demo", stdout=io.StringIO())
    out = io.StringIO()
    call_command("demo_month", days=4, tables=3, rounds=30, seed=2, stdout=out)
    _ratings_with_pauses_a_move_buy_ins_and_closes(out.getvalue())
    _figures_measured_from_the_seeded_lines()
    _players_pages_and_top_players_show_the_month()


def _by_hand(rating: Rating) -> dict:
    """The rating's figures from the rows: its table's settled rounds whose bets were locked
    while it was open and not paused, the rated seat's lines in them."""
    pauses = [(p.started_at, p.ended_at) for p in rating.pauses.all()]
    counted = []
    for round_ in Round.objects.filter(table=rating.table, stage=Round.Stage.SETTLED):
        (locked,) = RoundEvent.objects.filter(round=round_, kind="bets_locked")
        inside = rating.opened_at <= locked.at < rating.closed_at
        if inside and not any(start <= locked.at < end for start, end in pauses):
            counted.append(round_.pk)
    lines = SettlementLine.objects.filter(round_id__in=counted, seat=rating.seat)
    stakes = dict.fromkeys(BETS, 0)
    for line in lines:
        stakes[line.bet] += line.stake_cents
    return {
        "hands": len({line.round_id for line in lines}),
        "stakes": stakes,
        "net": sum(line.net_cents for line in lines),
    }


def _ratings_with_pauses_a_move_buy_ins_and_closes(month):
    cards = [card for card, _alias, status in PLAYERS if status == Player.ACTIVE]
    ratings = Rating.objects.select_related("player", "table").order_by("opened_at")
    assert ratings.count() >= 8
    assert {r.player.card for r in ratings} <= set(cards)
    assert len({r.player.card for r in ratings}) >= 4
    assert not Rating.objects.filter(player__status=Player.BARRED).exists()
    assert not ratings.filter(closed_at__isnull=True).exists()
    assert ratings.filter(pauses__isnull=False).exists()
    moved = ratings.filter(closed_reason=Rating.MOVED)
    assert moved.exists()
    for first in moved:
        following = first.next
        assert following.player_id == first.player_id
        assert following.opened_at == first.closed_at and following.table_id != first.table_id
    assert BuyIn.objects.filter(instrument=BuyIn.CASH).exists()
    assert f"{ratings.count()} ratings" in month
    # A player is never rated at two seats at once.
    for r in ratings:
        assert not ratings.filter(
            player=r.player, opened_at__lt=r.closed_at, closed_at__gt=r.opened_at
        ).exclude(pk=r.pk)


def _figures_measured_from_the_seeded_lines():
    checked = 0
    for rating in Rating.objects.select_related("table__ruleset").prefetch_related("pauses"):
        got = rating_detail(rating.pk)
        want = _by_hand(rating)
        assert want["hands"] > 0
        assert got["hands"] == want["hands"]
        assert got["wagered"] == want["stakes"]
        assert got["player_result_cents"] == want["net"]
        found = edges(rating.table.ruleset.engine_rules())
        for bet in EDGED:
            assert got["edges"][bet] == edge_text(found.of(bet))
        theo = sum(
            (
                want["stakes"][bet] * Fraction(Decimal(got["edges"][bet]))
                for bet in EDGED
                if got["edges"][bet] is not None
            ),
            Fraction(0),
        )
        assert got["theo_cents"] == round(theo) and got["theo_cents"] > 0
        # The summaries the reports read are those figures.
        kept = RatingSummary.objects.get(rating=rating)
        assert (kept.hands, kept.theo_cents, kept.player_result_cents) == (
            got["hands"],
            got["theo_cents"],
            got["player_result_cents"],
        )
        # The chips agree with the measure: walk-with less buy-ins is the result.
        if rating.walk_with_cents is not None:
            bought = sum(b.amount_cents for b in rating.buy_ins.all())
            assert rating.walk_with_cents - bought == got["player_result_cents"]
        checked += 1
    assert checked >= 8


def _players_pages_and_top_players_show_the_month():
    prop = current_property()
    client = Client()
    client.force_login(make_staff(Role.MANAGER))
    last = prop.gaming_date() - dt.timedelta(days=1)
    top = client.get(
        "/players/top/",
        {"from": (last - dt.timedelta(days=3)).isoformat(), "to": last.isoformat()},
        HTTP_HOST="127.0.0.1",
    )
    assert top.status_code == 200
    rated = Player.objects.filter(ratings__isnull=False).distinct()
    for player in rated:
        assert player.alias in top.content.decode()
    marie = rated.order_by("card").first()
    page = client.get(f"/players/{marie.pk}/ratings/", HTTP_HOST="127.0.0.1")
    assert page.status_code == 200
    first = marie.ratings.order_by("opened_at").first()
    assert prop.gaming_date(first.opened_at).isoformat() in page.content.decode()
