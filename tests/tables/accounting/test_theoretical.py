"""Theoretical win: handle x house edge, the edges the engine's paytable math computes (Trips,
progressive, Envy) and the published base-game figure, never worked out in this app."""

from fractions import Fraction

import pytest

from casino.clock import current_property
from jackpot.models import Bank
from tables.accounting.reports import Period, report
from tables.accounting.theoretical import edges
from tables.rules import paymath
from tables.rules.ruleset import parse_rules
from tests.tables.rounds.conftest import deal_to


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
    reset = Bank.objects.get().reset_cents
    trips = paymath.trips_math(rules.trips_paytable).house_edge
    progressive = (
        1
        - paymath.progressive_math(
            rules.progressive_paytable, meter_cents=reset, reset_cents=reset, wager_cents=100
        ).expected_return
    )
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
    reset = Bank.objects.get().reset_cents
    trips = paymath.trips_math(engine.trips_paytable).house_edge
    progressive_edge = (
        1
        - paymath.progressive_math(
            engine.progressive_paytable, meter_cents=reset, reset_cents=reset, wager_cents=100
        ).expected_return
    )
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
    reset = Bank.objects.get().reset_cents
    trips = paymath.trips_math(engine.trips_paytable).house_edge
    progressive_edge = (
        1
        - paymath.progressive_math(
            engine.progressive_paytable, meter_cents=reset, reset_cents=reset, wager_cents=100
        ).expected_return
    )
    envy = paymath.envy_cost(engine.envy, wager_cents=100).cost_per_wager
    assert not row.theoretical_partial
    assert found.base_computed and found.base_source == ""
    assert row.theoretical == round(
        2_000 * sheet.edge + 2_000 * trips + 200 * progressive_edge - 200 * envy
    )
