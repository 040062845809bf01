"""Theoretical win: handle x house edge, the edges the engine's paytable math computes (Trips,
progressive, Envy) and the published base-game figure, never worked out in this app."""

from fractions import Fraction

import pytest

from casino.clock import current_property
from tables.accounting.reports import Period, report
from tables.accounting.theoretical import edges, theoretical_fraction
from tables.rules import paymath
from tables.rules.ruleset import parse_rules
from tests.tables.rounds.conftest import deal_to


def _book(paytable, wager=100):
    """The progressive on the house's book, by hand: a losing wager kept (+wager), a fixed
    tier paid from the tray (-its odds x wager), a share-of-the-meter tier off the book (0).
    Its edge per unit wagered and the variance of one wager's book result, in cents²."""
    from tables.rules.paytables import Odds, Percent

    chances = {
        line.category: line.probability
        for line in paymath.progressive_math(paytable, meter_cents=0, wager_cents=wager).lines
    }
    won = {}
    for category in chances:
        pays = paytable.get(category)
        if isinstance(pays, Percent):
            won[category] = 0
        elif isinstance(pays, Odds):
            won[category] = -Fraction(pays.n, pays.m) * wager
        else:
            won[category] = wager
    mean = sum(chances[c] * won[c] for c in chances)
    return mean / wager, sum(chances[c] * won[c] ** 2 for c in chances) - mean**2


def test_the_progressive_is_charged_on_the_house_s_book_whatever_the_meter():
    """The standard table: three of a kind 9:1 ... four of a kind 300:1 from the tray, the
    straight and royal flushes shares of the meter (off the book). The edge is what the
    computed win books per unit wagered: every miss kept, the fixed tiers paid."""
    standard = parse_rules({})
    edge, variance = _book(standard.progressive_paytable)
    found = edges({})
    assert found.progressive == edge
    assert found.progressive_variance == variance / 100**2
    assert f"{float(edge):.6f}" == "0.440716"


@pytest.mark.parametrize(
    "paytable, percent",
    [("A", "0.9018"), ("B", "1.9040"), ("C", "3.4979"), ("D", "6.1808")],
)
def test_the_trips_edges_of_paytables_a_to_d_are_the_engines_exact_figures(paytable, percent):
    edge = edges({"trips_paytable": paytable}).trips
    assert f"{float(edge * 100):.4f}" == percent


def test_the_base_game_edge_is_the_published_figure_with_its_sources():
    standard = edges({})
    assert standard.base == Fraction(2185, 100_000)
    assert "wizardofodds" in standard.base_source
    # a variant nobody published a figure for has no base-game theoretical
    assert edges({"blind_paytable": "B"}).base is None


def test_the_theoretical_win_of_the_standard_round_is_its_handles_times_the_edges(felt):
    deal_to(felt, "settled")
    row = report(Period.of("day", current_property().gaming_date())).rows[0]
    rules = parse_rules(felt.table.ruleset.engine_rules())
    trips = paymath.trips_math(rules.trips_paytable).house_edge
    progressive = _book(rules.progressive_paytable)[0]
    envy = paymath.envy_cost(rules.envy, wager_cents=100).cost_per_wager
    # Ante 20 €, Trips 20 €, progressive 2 €; two seats, so one other seat for Envy.
    expected = 2_000 * Fraction(2185, 100_000) + 2_000 * trips + 200 * progressive - 200 * envy * 1
    assert row.theoretical == round(expected)
    assert 43 + 69 <= row.theoretical <= 43 + 70 + 200  # 43.7 + 69.96 + the progressive's


def test_a_variant_without_a_published_edge_gets_the_side_bets_theoretical_marked_partial(
    manager, supervisor, pit, dealer, progressive
):
    from tables.models import Paytable
    from tests.tables.factories import make_paytable, make_ruleset
    from tests.tables.rounds.conftest import Felt, dealt_table

    blind_b = make_paytable(manager, kind=Paytable.Kind.BLIND, name="Blind B", preset="B")
    rules = make_ruleset(manager, name="Blind B table", blind=blind_b)
    table = dealt_table(manager, supervisor, pit, rules, dealer, name="UTH B", bank=progressive)
    deal_to(Felt(table, dealer), "settled")
    row = report(Period.of("day", current_property().gaming_date())).rows[0]
    engine = parse_rules(rules.engine_rules())
    trips = paymath.trips_math(engine.trips_paytable).house_edge
    progressive_edge = _book(engine.progressive_paytable)[0]
    envy = paymath.envy_cost(engine.envy, wager_cents=100).cost_per_wager
    assert row.theoretical_partial
    assert row.theoretical == round(2_000 * trips + 200 * progressive_edge - 200 * envy)


def test_a_computed_par_sheet_gives_the_base_game_edge_of_any_variant(
    manager, supervisor, pit, dealer, progressive, monkeypatch
):
    """Blind B has no published figure; once its par sheet is computed, the theoretical uses
    its exact edge (here a reduced deck's sheet, for time: what counts is that the stored
    figure is the one used) and is no longer partial."""
    from tables import services
    from tables.models import Paytable
    from tables.parsheet import Deck
    from tables.tasks import compute_parsheet
    from tests.tables.factories import make_paytable, make_ruleset
    from tests.tables.rounds.conftest import Felt, dealt_table

    monkeypatch.setattr(compute_parsheet, "delay", lambda *args: None)
    blind_b = make_paytable(manager, kind=Paytable.Kind.BLIND, name="Blind B", preset="B")
    rules = make_ruleset(manager, name="Blind B table", blind=blind_b)
    sheet = services.parsheet_request(ruleset_id=rules.pk, manager=manager)
    sheet = services.parsheet_compute(sheet_id=sheet.pk, deck=Deck(tuple(range(4, 13)), 2))
    assert edges(rules.engine_rules(), computed_base=sheet.edge).base == sheet.edge
    table = dealt_table(manager, supervisor, pit, rules, dealer, name="UTH B", bank=progressive)
    deal_to(Felt(table, dealer), "settled")
    found = report(Period.of("day", current_property().gaming_date()))
    row = found.rows[0]
    engine = parse_rules(rules.engine_rules())
    trips = paymath.trips_math(engine.trips_paytable).house_edge
    progressive_edge = _book(engine.progressive_paytable)[0]
    envy = paymath.envy_cost(engine.envy, wager_cents=100).cost_per_wager
    assert not row.theoretical_partial
    assert found.base_computed and found.base_source == ""
    assert row.theoretical == round(
        2_000 * sheet.edge + 2_000 * trips + 200 * progressive_edge - 200 * envy
    )


def _one_seat_off_the_progressive(felt):
    """The standard round of seats 1 and 2, seat 2 without a progressive wager."""
    place = felt.wagers

    def wagers(seat, **bets):
        return place(seat, **{**bets, "progressive": 100 if seat == 1 else 0})

    felt.wagers = wagers
    deal_to(felt, "settled")


def test_envy_is_charged_per_other_seat_with_a_progressive_wager_only(felt):
    """Two seats, one on the progressive: its Envy has no rival that can trigger it (seat 2
    has no progressive wager), so no Envy is charged, not 1 x the cost per other seat as the
    average of other seats at the table would have it."""
    _one_seat_off_the_progressive(felt)
    row = report(Period.of("day", current_property().gaming_date())).rows[0]
    rules = parse_rules(felt.table.ruleset.engine_rules())
    trips = paymath.trips_math(rules.trips_paytable).house_edge
    progressive = _book(rules.progressive_paytable)[0]
    expected = 2_000 * Fraction(2185, 100_000) + 2_000 * trips + 100 * progressive
    assert row.theoretical == round(expected)
    # Envy per other seat is under a cent (0.29), so one round cannot show it: the count of
    # rivals the theoretical is charged on is what must be 0 (the average would say 1).
    from tables.accounting.reports import _line_groups

    day = Period.of("day", current_property().gaming_date())
    groups = [g for g in _line_groups(day, "table", set()) if g["bet"] == "progressive"]
    assert [g["rivals"] for g in groups] == [0]
    found = edges(felt.table.ruleset.engine_rules())
    assert (
        found.envy_cents == paymath.envy_cost(rules.envy, wager_cents=100).cost_per_other_seat_cents
    )
    assert (
        theoretical_fraction({"progressive": 100}, found, rivals=3)
        == 100 * progressive - 3 * found.envy_cents
    )


def test_a_rolled_up_day_charges_envy_per_rival_as_its_lines_do(felt):
    """Both seats on the progressive: two wagers with one rival each, in the lines and in
    the roll-up alike."""
    from tables.accounting.models import LineSummary
    from tables.accounting.summary import summarize_day

    deal_to(felt, "settled")
    day = current_property().gaming_date()
    before = report(Period.of("day", day)).rows[0].theoretical
    summarize_day(day)
    rivals = LineSummary.objects.filter(bet="progressive").values_list("rivals", flat=True)
    assert sum(rivals) == 2
    squares = LineSummary.objects.filter(bet="ante").values_list("stake_squares", flat=True)
    assert sum(squares) == 2 * 1000**2  # two Antes of 10 €: Σ stake² for the win's variance
    assert report(Period.of("day", day)).rows[0].theoretical == before


def test_the_win_s_standard_deviation_and_95_band_come_from_the_sheet_and_the_side_bets(
    client, manager, supervisor, pit, dealer, progressive, monkeypatch
):
    """Two seats, Ante 10 €, Trips 10 €, progressive 1 € each: the win's variance is Σ over
    the bets of the variance per unit² x Σ stake² (bets and seats taken as independent), the
    base game's from its computed par sheet, and the band the theoretical ± 1.96 of its root."""
    import math

    from tables import services
    from tables.models import Paytable
    from tables.parsheet import Deck
    from tables.tasks import compute_parsheet
    from tests.tables.factories import make_paytable, make_ruleset
    from tests.tables.rounds.conftest import Felt, dealt_table

    monkeypatch.setattr(compute_parsheet, "delay", lambda *args: None)
    blind_b = make_paytable(manager, kind=Paytable.Kind.BLIND, name="Blind B", preset="B")
    rules = make_ruleset(manager, name="Blind B table", blind=blind_b)
    table = dealt_table(manager, supervisor, pit, rules, dealer, name="UTH B", bank=progressive)
    deal_to(Felt(table, dealer), "settled")
    day = Period.of("day", current_property().gaming_date())
    before = report(day).rows[0]
    assert before.win_sd is None and before.band is None  # no par sheet: no base variance

    sheet = services.parsheet_request(ruleset_id=rules.pk, manager=manager)
    sheet = services.parsheet_compute(sheet_id=sheet.pk, deck=Deck(tuple(range(4, 13)), 2))
    base_variance = Fraction(sheet.sheet["variance"]["exact"])
    engine = parse_rules(rules.engine_rules())
    trips = paymath.trips_math(engine.trips_paytable)
    trips_variance = sum(line.probability * line.net**2 for line in trips.lines) - (
        trips.house_edge**2
    )
    meter_variance = _book(engine.progressive_paytable)[1]
    variance = base_variance * 2 * 1000**2 + trips_variance * 2 * 1000**2 + meter_variance * 2
    row = report(day).rows[0]
    assert row.win_sd == round(math.sqrt(variance))
    half = round(1.96 * math.sqrt(variance))
    assert row.band == (row.theoretical - half, row.theoretical + half)
    assert report(day).total.win_sd == row.win_sd
    client.force_login(manager)
    client.cookies["django_language"] = "fr"
    page = client.get("/reports/").content.decode()
    assert "écart type" in page and page.count("data-band") == 2  # the row and the total
    from tables.accounting.summary import summarize_day

    summarize_day(day.first)  # the roll-up gives the same spread (Σ stake² kept)
    rolled = report(day).rows[0]
    assert (rolled.win_sd, rolled.band) == (row.win_sd, row.band)


def test_what_the_edges_leave_out_is_flagged_per_rule_set():
    assert not edges({}).uncapped and not edges({}).trips_lost_on_fold
    assert edges({"payout_unit_cents": 100}).uncapped
    assert edges({"max_payout_cents": 5_000_000}).uncapped
    assert edges({"trips_on_fold": "lost"}).trips_lost_on_fold


@pytest.mark.parametrize(
    "language, words",
    [
        ("en", ("house's book", "other seat of the round with a progressive", "payout unit")),
        ("fr", ("livres de la maison", "autre place de la partie", "unité de paiement")),
    ],
)
def test_the_report_says_what_the_theoretical_assumes_in_both_languages(
    client, manager, supervisor, pit, dealer, progressive, language, words
):
    from tests.tables.factories import make_ruleset
    from tests.tables.rounds.conftest import Felt, dealt_table

    rules = make_ruleset(manager, name="Capped", payout_unit_cents=100)
    table = dealt_table(manager, supervisor, pit, rules, dealer, name="UTH C", bank=progressive)
    deal_to(Felt(table, dealer), "settled")
    client.force_login(manager)
    client.cookies["django_language"] = language
    page = client.get("/reports/").content.decode()
    for word in words:
        assert word in page
    assert 'data-testid="uncapped"' in page and 'data-testid="trips-fold"' not in page


def test_trips_lost_on_a_fold_is_priced_from_the_folded_hands_categories():
    """By hand: the Trips bet's outcomes as a distribution, the folded hands of a paying
    category moved to a loss, its mean and variance taken directly."""
    from tables.accounting.theoretical import trips_lost_on_fold

    trips = paymath.trips_math(parse_rules({}).trips_paytable)
    deals = 10**6
    folds = {"three_of_a_kind": 1_500, "straight": 400, "pair": 90_000, "high_card": 200_000}
    outcomes = {}  # net -> probability
    for line in trips.lines:
        folded = Fraction(folds.get(line.category, 0), deals) if line.net > 0 else 0
        outcomes[line.net] = outcomes.get(line.net, 0) + line.probability - folded
        outcomes[Fraction(-1)] = outcomes.get(Fraction(-1), 0) + folded
    mean = sum(p * net for net, p in outcomes.items())
    variance = sum(p * net**2 for net, p in outcomes.items()) - mean**2
    assert trips_lost_on_fold(trips, folds, deals) == (-mean, variance)
    # Three of a kind (3:1) and a straight (4:1) folded lose 4 and 5 units more.
    assert -mean == trips.house_edge + Fraction(1_500 * 4 + 400 * 5, deals)


def test_a_table_losing_trips_on_a_fold_is_charged_the_trips_edge_under_that_rule(
    client, manager, supervisor, pit, dealer, progressive, monkeypatch
):
    """UTH 4's rules (Blind B, Trips lost on a fold): once the par sheet is computed, Trips
    is charged its edge for the sheet's folds, not the edge of Trips staying."""
    from tables import services
    from tables.accounting.theoretical import trips_lost_on_fold
    from tables.models import Paytable
    from tables.parsheet import Deck
    from tables.tasks import compute_parsheet
    from tests.tables.factories import make_paytable, make_ruleset
    from tests.tables.rounds.conftest import Felt, dealt_table

    monkeypatch.setattr(compute_parsheet, "delay", lambda *args: None)
    blind_b = make_paytable(manager, kind=Paytable.Kind.BLIND, name="Blind B", preset="B")
    rules = make_ruleset(manager, name="UTH 4 rules", blind=blind_b, trips_on_fold="lost")
    table = dealt_table(manager, supervisor, pit, rules, dealer, name="UTH 4", bank=progressive)
    deal_to(Felt(table, dealer), "settled")
    day = Period.of("day", current_property().gaming_date())
    assert report(day).trips_fold_unpriced  # no sheet yet: priced as staying, and said so
    sheet = services.parsheet_request(ruleset_id=rules.pk, manager=manager)
    # Eight to ace in three suits: small, and three of a kind is possible (and folded).
    sheet = services.parsheet_compute(sheet_id=sheet.pk, deck=Deck(tuple(range(6, 13)), 3))
    folds, deals = sheet.sheet["folds_by_category"], sheet.sheet["ordered_deals"]
    assert folds["three_of_a_kind"] > 0 and folds["straight"] > 0
    engine = parse_rules(rules.engine_rules())
    trips = paymath.trips_math(engine.trips_paytable)
    edge, _variance = trips_lost_on_fold(trips, folds, deals)
    assert edge > trips.house_edge
    found = report(day)
    row = found.rows[0]
    assert not found.trips_fold_unpriced and found.trips_lost_on_fold
    progressive_edge = _book(engine.progressive_paytable)[0]
    envy = paymath.envy_cost(engine.envy, wager_cents=100).cost_per_wager
    assert row.theoretical == round(
        2_000 * sheet.edge + 2_000 * edge + 200 * progressive_edge - 200 * envy
    )
    client.force_login(manager)
    client.cookies["django_language"] = "fr"
    page = client.get("/reports/").content.decode()
    assert "stratégie de la feuille de calcul" in page


def test_a_payout_unit_and_a_cap_bound_the_theoretical_from_above(
    client, manager, supervisor, pit, dealer, progressive
):
    """Unit 1 €, cap 500 €, Ante and Trips 10 € on two seats: the unit withholds less than
    a unit per line of Ante, Blind, Play and Trips; the cap can bite only on a royal flush
    (Blind 500:1) or a straight flush (Blind 50:1 + Trips 40:1: 55 x 10 € + 40 x 10 € =
    950 €), a quads' 15 x 10 € + 30 x 10 € = 450 € staying under it."""
    import math

    from tests.tables.factories import make_ruleset
    from tests.tables.rounds.conftest import Felt, dealt_table

    rules = make_ruleset(manager, name="Capped", payout_unit_cents=100, max_payout_cents=50_000)
    table = dealt_table(manager, supervisor, pit, rules, dealer, name="UTH C", bank=progressive)
    deal_to(Felt(table, dealer), "settled")
    row = report(Period.of("day", current_property().gaming_date())).rows[0]
    lines = sum(row.bets[b].lines for b in ("ante", "blind", "play", "trips"))
    counts = paymath.seven_card_counts()
    total = sum(counts.values())
    cap = Fraction(counts["royal_flush"], total) * (505 * 2_000 + 50 * 2_000) + Fraction(
        counts["straight_flush"], total
    ) * (55 * 2_000 + 40 * 2_000)
    assert lines == 8
    assert row.withholding_bound == math.ceil(100 * lines + cap)
    assert row.theoretical_high == row.theoretical + row.withholding_bound
    client.force_login(manager)
    client.cookies["django_language"] = "en"
    page = client.get("/reports/").content.decode()
    assert "data-withheld" in page and "at most" in page
    # No par sheet for these rules: no band, said so.
    assert row.band is None and "data-no-band" in page
    assert "no band: a par sheet is not computed yet" in page
