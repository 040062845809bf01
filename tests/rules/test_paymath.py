"""The exact paytable math: hand counts (checked against the published figures and against the
evaluator by brute force), the Trips house edge, the progressive return, Envy, the findings."""

from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from tables.rules import Category, category_of, strength, strength7
from tables.rules.paymath import (
    BASE_GAME_EDGES,
    MIN_ODDS,
    Severity,
    base_game_edge,
    category_counts,
    check_paytable,
    envy_cost,
    five_card_counts,
    max_envy_cents,
    max_odds,
    percent_text,
    progressive_math,
    refusals,
    seven_card_counts,
    trips_math,
    warnings,
)
from tables.rules.paytables import (
    CATEGORIES,
    DEFAULT_ENVY,
    DEFAULT_PROGRESSIVE,
    TRIPS_PRESETS,
    TableKind,
    parse_paytable,
)
from tables.rules.ruleset import RuleSet, parse_rules

PUBLISHED_SEVEN = {
    "royal_flush": 4_324,
    "straight_flush": 37_260,
    "four_of_a_kind": 224_848,
    "full_house": 3_473_184,
    "flush": 4_047_644,
    "straight": 6_180_020,
    "three_of_a_kind": 6_461_620,
    "two_pair": 31_433_400,
    "pair": 58_627_800,
    "high_card": 23_294_460,
}
PUBLISHED_FIVE = {
    "royal_flush": 4,
    "straight_flush": 36,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "pair": 1_098_240,
    "high_card": 1_302_540,
}


def trips(table):
    return parse_paytable(TableKind.TRIPS, table, "trips")


def progressive(table):
    return parse_paytable(TableKind.PROGRESSIVE, table, "progressive")


# --- counts ------------------------------------------------------------------------------------


def test_seven_card_counts_are_the_published_ones_and_cover_every_hand():
    counts = seven_card_counts()
    assert dict(counts) == PUBLISHED_SEVEN
    assert sum(counts.values()) == comb(52, 7) == 133_784_560
    assert tuple(counts) == CATEGORIES


def test_five_card_counts_are_the_published_ones_and_cover_every_hand():
    counts = five_card_counts()
    assert dict(counts) == PUBLISHED_FIVE
    assert sum(counts.values()) == comb(52, 5) == 2_598_960


def test_counts_are_cached():
    assert seven_card_counts() is seven_card_counts()


def brute_force(ranks, suits, size):
    """Every hand of a reduced deck through the engine's own evaluator."""
    deck = [(rank - 2) * 4 + suit for rank in ranks for suit in range(suits)]
    evaluate = strength7 if size == 7 else strength
    found = Counter(category_of(evaluate(hand)).value for hand in combinations(deck, size))
    return {c: found.get(c, 0) for c in CATEGORIES}


def test_the_counting_method_matches_the_evaluator_on_every_five_card_hand():
    assert dict(category_counts(5)) == brute_force(range(2, 15), 4, 5)


@pytest.mark.parametrize(
    "ranks, suits, size",
    [
        # the wheel, low straights and straight flushes, four suits: quads and full houses
        ((14, 2, 3, 4, 5, 6, 13), 4, 7),
        # royal and straight flushes 9-K with three suits, seven cards
        ((9, 10, 11, 12, 13, 14, 2, 3), 3, 7),
        # six cards: a flush of five beside one more card
        ((10, 11, 12, 13, 14, 2, 3), 4, 6),
    ],
)
def test_the_counting_method_matches_the_evaluator_on_a_reduced_deck(ranks, suits, size):
    counted = dict(category_counts(size, tuple(ranks), suits))
    assert sum(counted.values()) == comb(len(ranks) * suits, size)
    assert counted == brute_force(ranks, suits, size)


def test_counting_refuses_hands_beyond_seven_cards():
    with pytest.raises(ValueError):
        category_counts(8)


# --- Trips -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "preset, edge", [("A", "0.9018"), ("B", "1.9040"), ("C", "3.4979"), ("D", "6.1808")]
)
def test_the_pa_trips_presets_have_their_published_house_edges(preset, edge):
    assert percent_text(trips_math(TRIPS_PRESETS[preset]).house_edge) == edge


def test_the_trips_house_edge_is_exact():
    # 50-40-30-8-7-4-3 by hand: what the losers lose minus what the winners win, per hand.
    won = 4324 * 50 + 37260 * 40 + 224848 * 30 + 3473184 * 8 + 4047644 * 7 + 6180020 * 4
    won += 6461620 * 3
    lost = 133_784_560 - 20_428_900
    assert trips_math(TRIPS_PRESETS["C"]).house_edge == Fraction(lost - won, 133_784_560)


def test_trips_lines_add_up_to_the_edge_best_hand_first():
    math = trips_math(TRIPS_PRESETS["C"])
    assert [line.category for line in math.lines] == list(reversed(CATEGORIES))
    assert sum(line.contribution for line in math.lines) == -math.house_edge
    assert sum(line.probability for line in math.lines) == 1
    assert math.hit_frequency == Fraction(20_428_900, 133_784_560)
    royal = math.lines[0]
    assert (royal.hands, royal.net, royal.contribution) == (
        4324,
        50,
        Fraction(4324 * 50, 133_784_560),
    )
    assert math.lines[-1].pays is None and math.lines[-1].net == -1
    assert math.expected_return == 1 - math.house_edge


def test_a_trips_line_at_odds_n_for_m_wins_n_over_m():
    math = trips_math(trips({"royal_flush": "3:2", "straight_flush": "5:2"}))
    assert math.lines[0].net == Fraction(3, 2)
    assert math.lines[1].net == Fraction(5, 2)
    assert math.hit_frequency == Fraction(4324 + 37260, 133_784_560)


# --- the progressive --------------------------------------------------------------------------


def test_the_progressive_return_at_a_meter_is_the_sum_of_its_tiers():
    math = progressive_math(
        DEFAULT_PROGRESSIVE, meter_cents=2_500_000, reset_cents=1_000_000, wager_cents=100
    )
    total = 2_598_960
    # RF 100% of 2,500,000; SF 10%; then 300, 50, 40, 30, 9 for 1 on a 100-cent wager
    won = 4 * 2_500_000 + 36 * 250_000
    won += 624 * 30_000 + 3744 * 5_000 + 5108 * 4_000 + 10_200 * 3_000 + 54_912 * 900
    lost = (total - 4 - 36 - 624 - 3744 - 5108 - 10_200 - 54_912) * 100
    assert math.expected_return == 1 + Fraction(won - lost, total * 100)
    assert percent_text(math.expected_return) == "63.2390"
    assert math.hit_frequency == Fraction(74_628, total)
    assert math.expected_return_at_reset < math.expected_return
    assert math.house_edge == 1 - math.expected_return


def test_the_break_even_meter_is_the_first_meter_returning_100_percent():
    math = progressive_math(DEFAULT_PROGRESSIVE, meter_cents=0, wager_cents=100)
    meter = math.break_even_meter_cents
    assert meter == 15_071_110
    at = progressive_math(DEFAULT_PROGRESSIVE, meter_cents=meter, wager_cents=100)
    below = progressive_math(DEFAULT_PROGRESSIVE, meter_cents=meter - 1, wager_cents=100)
    assert at.expected_return >= 1 > below.expected_return
    assert math.expected_return_at_reset is None


def test_a_progressive_table_without_a_meter_share_has_no_break_even_meter():
    table = progressive({"royal_flush": "1000:1", "straight_flush": "500:1"})
    math = progressive_math(table, meter_cents=5_000_000, wager_cents=500)
    assert math.break_even_meter_cents is None
    assert math.expected_return == 1 + Fraction(
        4 * 500_000 + 36 * 250_000 - 2_598_920 * 500, 2_598_960 * 500
    )


def test_a_progressive_table_generous_enough_breaks_even_at_an_empty_meter():
    table = progressive({"pair": "2:1", "royal_flush": "100%"})
    assert progressive_math(table, meter_cents=0, wager_cents=100).break_even_meter_cents == 0


def test_a_share_of_the_meter_is_rounded_down_to_the_cent_as_settlement_does():
    table = progressive({"royal_flush": "10%"})
    math = progressive_math(table, meter_cents=1_009, wager_cents=1)
    assert math.lines[0].amount_cents == 100


def test_progressive_math_refuses_a_wager_under_a_cent():
    with pytest.raises(ValueError):
        progressive_math(DEFAULT_PROGRESSIVE, meter_cents=0, wager_cents=0)


# --- Envy --------------------------------------------------------------------------------------


def test_envy_costs_the_chance_of_each_qualifying_hand_times_its_amount_per_other_seat():
    math = envy_cost(DEFAULT_ENVY, wager_cents=100)
    expected = Fraction(4 * 100_000 + 36 * 10_000, 2_598_960)
    assert math.cost_per_other_seat_cents == expected
    assert math.cost_per_wager == expected / 100
    assert math.cost_cents(6) == 6 * expected
    assert [line.category for line in math.lines] == ["royal_flush", "straight_flush"]


def test_a_wager_below_the_envy_minimum_costs_nothing():
    assert (
        envy_cost(DEFAULT_ENVY, wager_cents=100, min_wager_cents=500).cost_per_other_seat_cents == 0
    )


# --- the base game: published figures --------------------------------------------------------


def test_the_standard_base_game_edge_is_the_published_2185_percent_of_the_ante():
    standard = BASE_GAME_EDGES["standard"]
    assert standard.house_edge == Fraction(2185, 100_000)
    assert standard.element_of_risk == Fraction(526, 100_000)
    assert standard.published is True
    assert standard.sources
    assert base_game_edge(RuleSet()) is standard


def test_a_variant_without_a_published_figure_has_no_base_game_edge():
    assert base_game_edge(parse_rules({"preflop_multiples": [4]})) is BASE_GAME_EDGES["4x_only"]
    assert base_game_edge(parse_rules({"preflop_multiples": [3]})) is None
    assert base_game_edge(parse_rules({"blind_paytable": "B"})) is None
    assert (
        base_game_edge(parse_rules({"ante_when_dealer_not_qualified": "push_unless_dealer_wins"}))
        is None
    )


# --- findings ----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(TRIPS_PRESETS))
def test_the_presets_raise_no_finding(preset):
    assert check_paytable(TRIPS_PRESETS[preset]) == ()


def test_the_defaults_raise_no_finding():
    assert check_paytable(DEFAULT_PROGRESSIVE, wager_cents=100, reset_cents=1_000_000) == ()
    assert check_paytable(DEFAULT_ENVY, wager_cents=100) == ()


def test_every_absurd_line_is_refused_at_once():
    table = trips({"royal_flush": "1000000000:1", "three_of_a_kind": "1:1000", "flush": "0:1"})
    findings = check_paytable(table)
    assert all(f.severity is Severity.REFUSE for f in findings)
    assert {(f.code, f.path) for f in findings} == {
        ("odds_too_high", "royal_flush"),
        ("odds_too_low", "three_of_a_kind"),
        ("pays_nothing", "flush"),
    }
    by_code = {f.code: f for f in findings}
    assert by_code["odds_too_high"].params["bound"] == "30940:1"
    assert by_code["odds_too_high"].render() == (
        "royal flush: 1000000000:1 pays more than 30940:1; that line alone would give back"
        " more than everything staked on the bet"
    )
    assert by_code["pays_nothing"].render() == "flush: 0:1 pays nothing; leave the line out"


def test_the_sane_bound_is_where_one_line_alone_gives_back_the_stake():
    assert max_odds(TableKind.TRIPS, "royal_flush") == 133_784_560 // 4324
    assert max_odds(TableKind.TRIPS, "three_of_a_kind") == 20
    assert max_odds(TableKind.PROGRESSIVE, "royal_flush") == 649_740
    edge_case = trips({"three_of_a_kind": "20:1"})
    assert refusals(check_paytable(edge_case)) == ()
    assert refusals(check_paytable(trips({"three_of_a_kind": "21:1"})))[0].code == "odds_too_high"
    assert MIN_ODDS == Fraction(1, 10)


def test_a_table_with_no_winning_line_is_refused():
    (finding,) = check_paytable(trips({}))
    assert (finding.code, finding.path, finding.render()) == (
        "no_winning_line",
        None,
        "the trips paytable has no winning line",
    )
    assert check_paytable(parse_paytable(TableKind.ENVY, {}, "envy")) == ()  # no Envy at all


def test_a_trips_table_giving_the_player_the_edge_is_warned_with_the_edge():
    generous = trips({**TRIPS_PRESETS["A"].to_json(), "three_of_a_kind": "5:1"})
    findings = check_paytable(generous)
    assert refusals(findings) == ()
    edge = next(f for f in findings if f.code == "player_edge")
    player_edge = -trips_math(generous).house_edge
    assert player_edge > 0
    assert edge.figures["edge"] == player_edge
    assert edge.render() == (
        f"the player has the edge: this table pays back {percent_text(player_edge)}% more"
        " than is staked"
    )


def test_a_line_far_from_every_preset_is_warned():
    table = trips({**TRIPS_PRESETS["C"].to_json(), "royal_flush": "500:1", "pair": "1:2"})
    found = {(f.code, f.key, f.path) for f in warnings(check_paytable(table))}
    assert ("far_from_presets", "paytable.far_from_presets", "royal_flush") in found
    assert ("far_from_presets", "paytable.not_in_presets", "pair") in found
    assert {path for code, _, path in found if code == "far_from_presets"} == {
        "royal_flush",
        "pair",
    }


def test_a_hand_paying_more_than_a_better_one_is_warned():
    table = trips({**TRIPS_PRESETS["C"].to_json(), "flush": "9:1"})
    (finding,) = [f for f in check_paytable(table) if f.code == "out_of_order"]
    assert finding.render() == "flush pays more than full house, a better hand"


def test_a_progressive_table_returning_100_percent_at_its_reset_is_warned():
    table = progressive({"royal_flush": "100%", "three_of_a_kind": "20:1", "two_pair": "15:1"})
    codes = [f.code for f in check_paytable(table, wager_cents=100, reset_cents=1_000_000)]
    assert "player_edge" in codes
    # without the bank's figures the return cannot be judged, so nothing is said about it
    assert "player_edge" not in [f.code for f in check_paytable(table)]


def test_an_envy_amount_far_from_the_defaults_per_unit_of_wager_is_warned():
    table = parse_paytable(TableKind.ENVY, {"royal_flush": 500_000, "straight_flush": 50_000}, "e")
    assert check_paytable(table, wager_cents=500) == ()  # five times the amounts, for 5 €
    assert {f.path for f in check_paytable(table, wager_cents=100)} == {
        "royal_flush",
        "straight_flush",
    }


def test_the_percentage_text_rounds_half_away_from_zero():
    assert percent_text(Fraction(1, 3)) == "33.3333"
    assert percent_text(Fraction(-2, 3)) == "-66.6667"
    assert percent_text(Fraction(1, 200_000_000)) == "0.0000"
    assert Category.ROYAL_FLUSH.value in CATEGORIES


def test_an_envy_amount_beyond_the_sane_bound_for_the_wager_is_refused():
    # a royal flush is 4 of 2,598,960 five-card hands: at 649,740 wagers it costs one wager
    assert max_envy_cents("royal_flush", 100) == 64_974_000
    table = parse_paytable(TableKind.ENVY, {"royal_flush": 64_974_001}, "envy")
    (finding,) = check_paytable(table, wager_cents=100)
    assert (finding.code, finding.path, finding.severity) == (
        "amount_too_high",
        "royal_flush",
        Severity.REFUSE,
    )
    assert finding.render().startswith("royal flush: 64974001 cents is more than 64974000 cents")
    assert refusals(check_paytable(table, wager_cents=200)) == ()


def test_the_progressive_on_the_house_s_book_by_hand():
    """A royal flush for 100 % of the meter (paid by the meter: off the house's book) and four
    of a kind 300:1 (paid from the tray): every other hand loses its wager to the house."""
    from tables.rules.paymath import progressive_book
    from tables.rules.paytables import TableKind, parse_paytable

    table = parse_paytable(
        TableKind.PROGRESSIVE, {"royal_flush": "100%", "four_of_a_kind": "300:1"}, "t"
    )
    book = progressive_book(table, wager_cents=100)
    royal, quads = Fraction(4, 2_598_960), Fraction(624, 2_598_960)
    miss = 1 - royal - quads
    mean = miss * 100 - quads * 30_000
    assert book.house_edge == mean / 100
    assert book.variance_cents == miss * 100**2 + quads * 30_000**2 - mean**2
