"""A payout unit and a cap, priced exactly: each seat-round charged for its own Ante and
Trips, every final outcome of the par sheet's optimal strategy paid as the engine pays it
(tables.accounting.theoretical.SeatPricing), by hand and against an independent
recomputation of a table's theoretical."""

from fractions import Fraction

import pytest

from casino.clock import current_property
from tables.accounting.reports import Period, report
from tables.accounting.theoretical import SeatPricing, edges, seat_pricing, trips_lost_on_fold
from tables.parsheet import Deck, analyse
from tables.rules import paymath
from tables.rules.ruleset import parse_rules
from tests.tables.rounds.conftest import deal_to

#: Eight to ace in three suits: small enough to analyse in seconds, and royal flushes come
#: often (the cap bites).
SMALL = Deck(tuple(range(6, 13)), 3)


def _pricing(rules: dict, wins, rest) -> SeatPricing:
    """A pricing of hand-chosen outcomes (the per-Ante return worked out from them)."""
    engine = parse_rules(rules)
    base_return = Fraction(0)
    for p, m, q, category in wins:
        blind = engine.blind_paytable.get(category)
        blind_odds = Fraction(blind.n, blind.m) if blind else Fraction(0)
        base_return += p * ((1 if q else 0) + blind_odds + m)
    for p, _outcome, m, _q in rest:
        base_return += p * -(2 + m)
    return SeatPricing(engine, tuple(wins), tuple(rest), base_return, (), ())


def test_a_payout_unit_rounds_a_3_to_2_blind_on_an_odd_ante_down_by_hand():
    """Unit 1 €, Ante 25 € (and Blind 25 €), the standard Blind (flush 3:2): a quarter of the
    deals win 1x with a flush against a qualifying dealer, the rest lose a 1x Play.
    A win pays Ante 25 €, Blind 37.50 € rounded down to 37 €, Play 25 €: 87 €; a loss costs
    Ante, Blind and Play, 75 €. The player's expectation: 87/4 - 3 x 75/4 = -34.50 €, the
    house's charge 34.50 €; uncapped (37.50 €) it would be 34.375 €: 12.5 cents withheld."""
    pricing = _pricing(
        {"payout_unit_cents": 100},
        wins=[(Fraction(1, 4), 1, True, "flush")],
        rest=[(Fraction(3, 4), "lose", 1, True)],
    )
    assert pricing.charge(2_500, 0) == 3_450
    assert pricing.uncapped(2_500, 0) == Fraction(34_375, 10)
    assert pricing.withheld(2_500, 0) == Fraction(25, 2)
    # An even Ante of whole units rounds nothing.
    assert pricing.withheld(2_000, 0) == 0


def test_a_cap_withholds_a_royal_flush_s_excess_by_hand():
    """Cap 500 €, Ante 10 €, Trips 20 € (Trips A: royal 50:1): one deal in a thousand is a
    royal flush won with a 4x Play against a qualifying dealer: Ante 10 € + Blind 500 x 10 €
    + Play 40 € + Trips 50 x 20 € = 6,050 €, capped at 500 €; the others lose a 4x Play
    (60 €) and the Trips (20 €, no paying hand among them)."""
    pricing = _pricing(
        {"max_payout_cents": 50_000, "trips_paytable": "A"},
        wins=[(Fraction(1, 1000), 4, True, "royal_flush")],
        rest=[(Fraction(999, 1000), "lose", 4, True)],
    )
    # The deals not won all end in high card (no Trips paid): priced as such.
    pricing = SeatPricing(
        pricing.rules,
        pricing.wins,
        pricing.rest,
        pricing.base_return,
        (("high_card", Fraction(999, 1000)),),
        (),
    )
    player = Fraction(1, 1000) * 50_000 + Fraction(999, 1000) * (-6_000 - 2_000)
    assert pricing.charge(1_000, 2_000) == -player
    uncapped = Fraction(1, 1000) * 605_000 + Fraction(999, 1000) * (-6_000 - 2_000)
    assert pricing.uncapped(1_000, 2_000) == -uncapped
    assert pricing.withheld(1_000, 2_000) == Fraction(555_000, 1000)
    # Without Trips the win is 5,050 €: 4,550 € over the cap.
    assert pricing.withheld(1_000, 0) == Fraction(455_000, 1000)


def _sevens(deck: Deck):
    ranks = tuple(deck.ranks[i] + 2 for i in range(len(deck.ranks)))
    return paymath.category_counts(7, ranks, deck.suits)


@pytest.mark.parametrize("rules", [{}, {"blind_paytable": "B", "trips_on_fold": "lost"}])
def test_without_unit_or_cap_the_pricing_is_the_uncapped_edges(rules):
    """The sheet's edge per Ante and the Trips edge over the same deck's 7-card hands (under
    `trips_on_fold: lost`, the sheet's folds losing it): nothing withheld on stakes the
    odds divide into whole cents."""
    sheet = analyse(parse_rules(rules), deck=SMALL)
    pricing = seat_pricing(rules, sheet.to_json())
    trips = paymath.odds_math(parse_rules(rules).trips_paytable, _sevens(SMALL))
    trips_edge = trips.house_edge
    if rules.get("trips_on_fold") == "lost":
        trips_edge, _v = trips_lost_on_fold(trips, sheet.folds_by_category, sheet.ordered_deals)
    for ante, stake in ((1_000, 0), (2_000, 500), (5_000, 5_000)):
        assert pricing.uncapped(ante, stake) == ante * sheet.house_edge + stake * trips_edge
        assert pricing.withheld(ante, stake) == 0
    # The engine pays whole cents: a 3:2 on an odd number of cents loses its half cent.
    assert pricing.withheld(1_001, 0) > 0


def _by_hand(sheet, ante: int, trips: int, unit: int, cap: int) -> Fraction:
    """The house's expected win on one seat, worked out here from the sheet's outcomes: the
    standard Blind and Trips A paid, each win rounded down to the unit, the seat's winnings
    capped; the deals not won pay Trips on their final category (its 7-card hands less the
    wins of it)."""
    blind = {"royal_flush": 500, "straight_flush": 50, "four_of_a_kind": 10}
    blind |= {"full_house": 3, "flush": Fraction(3, 2), "straight": 1}
    trips_odds = {"royal_flush": 50, "straight_flush": 40, "four_of_a_kind": 30}
    trips_odds |= {"full_house": 9, "flush": 7, "straight": 4, "three_of_a_kind": 3}

    def down(cents) -> int:
        cents = int(cents)  # the engine's cents, rounded down
        return cents - cents % unit

    total = sheet.ordered_deals
    player = Fraction(0)
    won = {}
    for o in sheet.outcomes:
        p = Fraction(o.count, total)
        if o.result == "win":
            won[o.category] = won.get(o.category, 0) + p
            pays = [down(ante) if o.dealer == "qualifies" else 0]
            pays += [down(ante * blind.get(o.category, 0)), down(o.multiple * ante)]
            trips_net = down(trips * trips_odds[o.category]) if o.category in trips_odds else -trips
            winnings = sum(pays) + max(trips_net, 0)
            player += p * (sum(pays) + trips_net - max(winnings - cap, 0))
        else:
            player += p * o.net * ante
    sevens = _sevens(SMALL)
    hands = sum(sevens.values())
    for category, n in sevens.items():
        rest = Fraction(n, hands) - won.get(category, 0)
        if category in trips_odds:
            paid = down(trips * trips_odds[category])
            player += rest * (paid - max(paid - cap, 0))
        else:
            player -= rest * trips
    return -player


def test_a_table_with_a_unit_and_a_cap_is_charged_exactly(
    client, manager, supervisor, pit, dealer, progressive, monkeypatch
):
    """Unit 1 €, cap 500 €, Trips A; seat 1 stakes Ante 25 € and Trips 15 €, seat 2 Ante and
    Trips 10 € (both on the progressive). The report's theoretical is each seat's charge
    worked out here by hand from the stored sheet, plus the progressive and Envy; the same
    once the day is rolled up; the page says it is exact and shows no "at most"."""
    from tables import services
    from tables.accounting.summary import summarize_day
    from tables.models import Paytable
    from tables.tasks import compute_parsheet
    from tests.tables.factories import make_paytable, make_ruleset
    from tests.tables.rounds.conftest import Felt, dealt_table

    monkeypatch.setattr(compute_parsheet, "delay", lambda *args: None)
    trips_a = make_paytable(manager, kind=Paytable.Kind.TRIPS, name="Trips A", preset="A")
    rules = make_ruleset(
        manager, name="Capped", trips=trips_a, payout_unit_cents=100, max_payout_cents=50_000
    )
    table = dealt_table(manager, supervisor, pit, rules, dealer, name="UTH C", bank=progressive)
    felt = Felt(table, dealer)
    stakes = {1: (2_500, 1_500), 2: (1_000, 1_000)}
    place = felt.wagers
    felt.wagers = lambda seat, ante, trips, progressive: place(
        seat, ante=stakes[seat][0], trips=stakes[seat][1], progressive=progressive
    )
    deal_to(felt, "settled")
    day = Period.of("day", current_property().gaming_date())
    before = report(day)
    assert before.uncapped and not before.cap_exact  # no par sheet: the bound, as before
    assert before.rows[0].withholding_bound is not None

    sheet = services.parsheet_request(ruleset_id=rules.pk, manager=manager)
    services.parsheet_compute(sheet_id=sheet.pk, deck=SMALL)
    analysed = analyse(parse_rules(rules.engine_rules()), deck=SMALL)
    engine = parse_rules(rules.engine_rules())
    e = edges(rules.engine_rules())
    expected = sum(_by_hand(analysed, a, t, 100, 50_000) for a, t in stakes.values())
    expected += 200 * e.progressive - 200 * e.envy
    found = report(day)
    row = found.rows[0]
    assert found.cap_exact and not found.uncapped
    assert row.withholding_bound is None and row.theoretical_high is None
    assert row.theoretical == round(expected)
    # The cap bites on this deck: the uncapped charge is far lower.
    uncapped = sum(
        a * analysed.house_edge
        + t * paymath.odds_math(engine.trips_paytable, _sevens(SMALL)).house_edge
        for a, t in stakes.values()
    )
    assert row.theoretical > round(uncapped + 200 * e.progressive - 200 * e.envy) + 100

    # What the unit and the cap withhold, shown under it: against the same seats unrounded
    # and uncapped (every stake here divides the odds into whole cents).
    uncapped_by_hand = sum(_by_hand(analysed, a, t, 1, 10**12) for a, t in stakes.values())
    assert row.cap_withheld == round(
        expected - 200 * e.progressive + 200 * e.envy - uncapped_by_hand
    )
    assert row.cap_withheld > 100

    summarize_day(day.first)
    assert report(day).rows[0].theoretical == row.theoretical
    for language, words in (
        ("en", "exact for that strategy"),
        ("fr", "exact pour cette stratégie"),
    ):
        client.force_login(manager)
        client.cookies["django_language"] = language
        page = client.get("/reports/").content.decode()
        assert 'data-testid="cap-exact"' in page and words in page
        assert "data-withheld" not in page
        assert "data-cap-withheld" in page


def test_a_progressive_fixed_tier_is_rounded_down_to_the_payout_unit():
    """Unit 10 €, the standard progressive's 1 € wager: three of a kind (9:1, 9 €) pays
    nothing, a straight (30:1) 30 €, a flush (40:1) 40 €, a full house (50:1) 50 €, four of a
    kind (300:1) 300 €; the straight and royal flushes are the meter's, off the book. By
    hand, on the 5-card hands."""
    counts = paymath.five_card_counts()
    total = sum(counts.values())
    paid = {"three_of_a_kind": 0, "straight": 3_000, "flush": 4_000, "full_house": 5_000}
    paid |= {"four_of_a_kind": 30_000, "straight_flush": 0, "royal_flush": 0}
    book = Fraction(0)
    for category, n in counts.items():
        book += Fraction(n, total) * (-paid[category] if category in paid else 100)
    found = edges({"payout_unit_cents": 1_000})
    assert found.progressive == book / 100
    assert found.progressive > edges({}).progressive


def test_the_wager_roll_up_counts_seat_rounds_by_ante_and_trips_and_its_migration_agrees(felt):
    """A closed day's seat-rounds by (Ante, Trips): the standard round's two seats at 10 € and
    10 €; the migration that adds the roll-up fills it the same way for days rolled up before."""
    import importlib

    from django.apps import apps

    from tables.accounting.models import WagerSummary
    from tables.accounting.summary import summarize_day

    deal_to(felt, "settled")
    today = current_property().gaming_date()
    summarize_day(today)

    def rows():
        return sorted(
            WagerSummary.objects.values_list("table_id", "ante_cents", "trips_cents", "seats")
        )

    assert rows() == [(felt.table.pk, 1_000, 1_000, 2)]
    WagerSummary.objects.all().delete()
    migration = importlib.import_module("tables.accounting.migrations.0005_wager_summary")
    migration.roll_up_wagers(apps, None)
    assert rows() == [(felt.table.pk, 1_000, 1_000, 2)]
