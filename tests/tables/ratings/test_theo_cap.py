"""A rating's theo at a table with a payout unit and a maximum payout (issue 27, item 6): each
stake times the stated edge, plus what the unit and the cap withhold from the round's own Ante
and Trips, as the accounting's theoretical charges it (tables.accounting.theoretical)."""

from decimal import Decimal
from fractions import Fraction

from tables.parsheet import analyse
from tables.ratings.selectors import rating_detail
from tables.rules.ruleset import parse_rules
from tests.tables.accounting.test_theoretical_cap import SMALL, _by_hand
from tests.tables.ratings.conftest import rate, seat_lines
from tests.tables.rounds.conftest import Felt, deal_to, dealt_table


def test_a_rating_s_theo_adds_what_the_unit_and_the_cap_withhold(
    manager, supervisor, pit, dealer, progressive, marie, monkeypatch
):
    from tables import services
    from tables.models import Paytable
    from tables.tasks import compute_parsheet
    from tests.tables.factories import make_paytable, make_ruleset

    monkeypatch.setattr(compute_parsheet, "delay", lambda *args: None)
    trips_a = make_paytable(manager, kind=Paytable.Kind.TRIPS, name="Trips A", preset="A")
    rules = make_ruleset(
        manager, name="Capped", trips=trips_a, payout_unit_cents=100, max_payout_cents=50_000
    )
    table = dealt_table(manager, supervisor, pit, rules, dealer, name="UTH C", bank=progressive)
    sheet = services.parsheet_request(ruleset_id=rules.pk, manager=manager)
    services.parsheet_compute(sheet_id=sheet.pk, deck=SMALL)
    felt = Felt(table, dealer)
    stakes = {1: (2_500, 1_500), 2: (1_000, 1_000)}
    place = felt.wagers
    felt.wagers = lambda seat, ante, trips, progressive: place(
        seat, ante=stakes[seat][0], trips=stakes[seat][1], progressive=progressive
    )
    body = rate(supervisor, table, 1, card="400123")
    round_id = deal_to(felt, "settled")["id"]
    got = rating_detail(body["id"])
    wagered = seat_lines([round_id], 1)["stakes"]
    linear = sum(
        wagered[bet] * Fraction(Decimal(got["edges"][bet]))
        for bet in ("ante", "trips", "progressive")
    )
    analysed = analyse(parse_rules(rules.engine_rules()), deck=SMALL)
    ante, trips = stakes[1]
    withheld = _by_hand(analysed, ante, trips, 100, 50_000) - _by_hand(
        analysed, ante, trips, 1, 10**12
    )
    assert withheld > 100  # the cap bites on this deck's many royal flushes
    assert got["theo_cents"] == round(linear + withheld)
