"""The cost of the decisions played, priced by a worker once a round settles (the signal after
commit), again after a correction, removed on a void; None while no par sheet is computed.

The par sheet is a 32-card deck's (2, 4, 7, 8, 9, Q, K, A: every card the standard round
deals), for time: what counts here is that the stored values price the round."""

import copy
from functools import cache

import pytest

from tables import events, services
from tables.accounting.decisions import decisions_price, seat_decision_cost
from tables.accounting.models import SeatDecisionCost
from tables.models import BaseGameValues, Round
from tables.parsheet import Deck, analyse
from tables.parsheet.decisions import round_costs
from tables.rules.ruleset import parse_rules
from tables.services import rounds
from tests.tables.rounds.conftest import deal_to, pin_of

DECK = Deck((0, 2, 5, 6, 7, 10, 11, 12), 4)


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """The signals go after commit: run them (the test's transaction never commits)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@cache
def _analysed(rules_key):
    import json

    return analyse(parse_rules(json.loads(rules_key)), DECK)


def _compute_sheet(felt, manager, monkeypatch):
    """The felt's rule set has its par sheet computed (on the small deck, analysed once)."""
    import json

    from tables.services import parsheets
    from tables.tasks import compute_parsheet

    monkeypatch.setattr(compute_parsheet, "delay", lambda *args: None)
    monkeypatch.setattr(
        parsheets, "analyse", lambda rules, deck, progress: _analysed(json.dumps(rules.to_json()))
    )
    sheet = services.parsheet_request(ruleset_id=felt.table.ruleset_id, manager=manager)
    return services.parsheet_compute(sheet_id=sheet.pk, deck=DECK)


@pytest.fixture
def computed(felt, manager, monkeypatch):
    return _compute_sheet(felt, manager, monkeypatch)


def test_nothing_is_priced_while_the_par_sheet_is_not_computed(felt):
    deal_to(felt, "settled")
    assert seat_decision_cost(felt.round["id"], 2) is None
    assert decisions_price(felt.round["id"]) is None


def test_a_settled_round_is_priced_after_commit_from_the_stored_values(felt, computed, committed):
    values = BaseGameValues.objects.get(sheet=computed)
    assert values.size_bytes == len(values.flop) > 0
    with committed():
        deal_to(felt, "settled")  # both seats check twice, then Play 1x on the river
    round_ = Round.objects.get(pk=felt.round["id"])
    expected = round_costs(_analysed(json_of(round_)), round_.settlement_input)
    rows = {r.seat: r for r in SeatDecisionCost.objects.filter(round=round_)}
    assert set(rows) == {1, 2}
    for seat, (ante, cost, decisions) in expected.items():
        assert (rows[seat].ante_cents, rows[seat].cost_cents) == (ante, cost)
        assert rows[seat].decisions == decisions
        assert seat_decision_cost(round_.pk, seat) == cost
    # Seat 2's aces checked before the flop: the 4x was worth more.
    aces = rows[2].decisions[0]
    assert (aces["chosen"], aces["best"]) == ("check", "4x")
    assert aces["cost_cents"] > 0  # each figure rounded to the cent on its own:
    assert abs(aces["cost_cents"] - (aces["best_cents"] - aces["chosen_cents"])) <= 1
    assert rows[2].cost_cents >= aces["cost_cents"] - 1


def json_of(round_):
    import json

    return json.dumps(parse_rules(round_.rules).to_json())


def test_a_correction_prices_the_corrected_facts(
    felt, computed, supervisor, casino_property, committed
):
    casino_property.correction_threshold_cents = 10**9
    casino_property.save(update_fields=["correction_threshold_cents"])
    with committed():
        deal_to(felt, "settled")
    round_ = Round.objects.get(pk=felt.round["id"])
    before = seat_decision_cost(round_.pk, 1)
    facts = copy.deepcopy(round_.settlement_input)
    facts["seats"][0]["hole"] = ["4d", "8c"]  # a pair of fours, not of kings
    with committed():
        rounds.round_correct(
            round_id=round_.pk,
            actor=supervisor,
            key="fix-1",
            supervisor=pin_of(supervisor),
            reason="Seat 1's cards were misread.",
            corrected=facts,
        )
    expected = round_costs(_analysed(json_of(round_)), facts)[1][1]
    row = SeatDecisionCost.objects.get(round=round_, seat=1)
    assert (row.correction, row.cost_cents) == (1, expected)
    assert expected != before


def test_a_voided_round_has_no_decision_cost(felt, computed, committed):
    with committed():
        deal_to(felt, "settled")
    round_id = felt.round["id"]
    assert SeatDecisionCost.objects.filter(round_id=round_id).count() == 2
    Round.objects.filter(pk=round_id).update(stage=Round.Stage.VOID)
    with committed():  # the signal is sent after a commit, as the void's service does
        events.void_decided.send(sender=Round, round_id=round_id, approved=True)
    assert not SeatDecisionCost.objects.filter(round_id=round_id).exists()
    assert seat_decision_cost(round_id, 1) is None


@pytest.mark.parametrize(
    "language, words",
    [
        ("en", ("Theoretical at the play seen", "decisions: ")),
        ("fr", ("Théorique au jeu observé", "décisions\u00a0: ")),
    ],
)
def test_the_report_shows_the_theoretical_at_the_play_seen(
    client, felt, computed, manager, committed, language, words
):
    """Per table and per dealer in a shift: the theoretical at optimal play, and plus the
    decision costs of the seat-rounds priced; the CSV carries both."""
    import csv
    import io

    from casino.clock import current_property
    from tables.accounting.reports import Period, report

    with committed():
        deal_to(felt, "settled")
    round_ = Round.objects.get(pk=felt.round["id"])
    cost = sum(SeatDecisionCost.objects.filter(round=round_).values_list("cost_cents", flat=True))
    assert cost > 0  # the aces' pre-flop check
    day = current_property().gaming_date()
    for period, by in (
        (Period.of("day", day), "table"),
        (Period.of("shift", day, round_.shift), "dealer"),
    ):
        row = report(period, by=by).rows[0]
        assert (row.decision_cost, row.priced_seats, row.unpriced_seats) == (cost, 2, 0)
        assert row.theoretical_seen == row.theoretical + cost
    client.force_login(manager)
    client.cookies["django_language"] = language
    page = client.get("/reports/").content.decode()
    for word in words:
        assert word in page
    rows = list(csv.reader(io.StringIO(client.get("/reports/?format=csv").content.decode())))
    header, table_row, _total = rows
    seen = next(i for i, h in enumerate(header) if h.startswith(("theoretical at", "théorique au")))
    row = report(Period.of("day", day)).rows[0]
    assert table_row[seen] == f"{row.theoretical_seen // 100}.{row.theoretical_seen % 100:02d}"


def test_rounds_settled_before_the_sheet_are_priced_by_the_command(felt, manager, monkeypatch):
    import io

    from django.core.management import call_command

    deal_to(felt, "settled")  # no par sheet yet: nothing priced
    round_id = felt.round["id"]
    out = io.StringIO()
    call_command("accounting_price_decisions", stdout=out)
    assert "0 rounds priced, 1 left" in out.getvalue()
    _compute_sheet(felt, manager, monkeypatch)
    call_command("accounting_price_decisions", stdout=out)
    assert "1 rounds priced, 0 left" in out.getvalue()
    assert seat_decision_cost(round_id, 2) > 0
