"""A void, declared at any stage where the rules allow it, stops the round until a supervisor
decides: approved, every bet is returned and the progressive gets its contributions back by a
compensating ledger line; refused, the round goes on to its settlement."""

import pytest

from jackpot import services as jackpot
from jackpot.models import Bank, Hit, MeterEntry, PendingContribution
from jackpot.selectors import ledger_totals
from tables.models import Round, SettlementLine
from tests.tables.rounds.conftest import (
    HOLES,
    bank_totals,
    deal_to,
    pin_of,
    play_on,
    refuse,
)

VOIDS = [
    ("preflop_card_exposed", "preflop"),
    ("community_card_exposed", "preflop"),
    ("community_card_exposed", "flop"),
    ("wrong_card_count", "river"),
    ("duplicate_card", "river"),
    ("wrong_card_count", "showdown"),
    ("duplicate_card", "showdown"),
]

# What the dealer would do next at each stage, refused while a void is pending.
NEXT_STEP = {
    "preflop": ("decision", {"seat": 1, "action": "check"}),
    "flop": ("decision", {"seat": 1, "action": "bet", "multiple": 2}),
    "river": ("decision", {"seat": 1, "action": "fold"}),
    "showdown": ("settlement_confirmed", {}),
}


def _reversal(progressive, round_id) -> MeterEntry:
    return MeterEntry.objects.get(
        bank=progressive, kind=MeterEntry.Kind.REVERSAL, reference=f"round-{round_id}"
    )


@pytest.mark.parametrize("irregularity, stage", VOIDS)
def test_a_void_blocks_the_round_and_its_approval_returns_every_bet_and_contribution(
    felt, progressive, supervisor, irregularity, stage
):
    before = bank_totals(progressive)
    round_id = deal_to(felt, stage)["id"]
    contribution = PendingContribution.objects.get(bank=progressive, reference=f"round-{round_id}")
    assert contribution.wager_count == len(HOLES)
    assert bank_totals(progressive) != before

    declared = felt.step("irregularity_declared", irregularity=irregularity)
    assert (declared["stage"], declared["pending_void"]) == (stage, irregularity)
    assert declared["cards_expected"] == {}
    assert all(seat["actions"] == [] for seat in declared["seats"])
    kind, fields = NEXT_STEP[stage]
    refuse(felt, kind, "void_pending", **fields)
    refuse(felt, "irregularity_declared", "void_pending", irregularity=irregularity)
    refuse(felt, "card_removed", "void_pending", place="board", card="Kh")

    done = felt.step("void_approved", supervisor=pin_of(supervisor))
    assert (done["stage"], done["void"], done["pending_void"]) == (
        "void",
        {"reason": irregularity},
        None,
    )
    assert Round.objects.get(pk=round_id).stage == "void"
    for seat in done["settlement"]["seats"]:
        assert seat["net"] == 0
        assert {bet: result["net"] for bet, result in seat["bets"].items()} == dict.fromkeys(
            seat["bets"], 0
        )
    assert not SettlementLine.objects.filter(round_id=round_id).exists()
    reversal = _reversal(progressive, round_id)
    assert reversal.reverses.pk == contribution.entry_id
    assert reversal.wager_count == -len(HOLES)
    assert bank_totals(progressive) == before
    assert jackpot.bank_reconcile(bank_id=progressive.pk) == []
    refuse(felt, "settlement_confirmed", "round_closed")
    assert felt.open()["id"] != round_id


@pytest.mark.parametrize(
    "irregularity, stage",
    [
        ("preflop_card_exposed", "preflop"),
        ("community_card_exposed", "flop"),
        ("wrong_card_count", "river"),
        ("duplicate_card", "showdown"),
    ],
)
def test_a_refused_void_lets_the_round_go_on_to_its_settlement(
    felt, progressive, supervisor, irregularity, stage
):
    round_id = deal_to(felt, stage)["id"]
    felt.step("irregularity_declared", irregularity=irregularity)
    going_on = felt.step("void_refused", supervisor=pin_of(supervisor))
    assert (going_on["stage"], going_on["pending_void"], going_on["void"]) == (stage, None, None)
    assert going_on["irregularities"] == [irregularity]
    done = play_on(felt)
    assert done["stage"] == "settled"
    nets = {seat["seat"]: seat["net"] for seat in done["settlement"]["seats"]}
    lines = SettlementLine.objects.filter(round_id=round_id)
    assert sum(lines.values_list("net_cents", flat=True)) == sum(nets.values())
    assert any(nets.values())
    assert not MeterEntry.objects.filter(kind=MeterEntry.Kind.REVERSAL).exists()
    assert jackpot.bank_reconcile(bank_id=progressive.pk) == []


def test_a_void_approved_without_progressive_wagers_touches_no_bank(felt, progressive, supervisor):
    before = bank_totals(progressive)
    entries = MeterEntry.objects.count()
    deal_to(felt, "flop", progressive=0)
    felt.step("irregularity_declared", irregularity="community_card_exposed")
    assert felt.step("void_approved", supervisor=pin_of(supervisor))["stage"] == "void"
    assert MeterEntry.objects.count() == entries
    assert bank_totals(progressive) == before


# --- many rounds on one bank ---------------------------------------------------------------------


def test_voided_settled_and_hit_rounds_at_two_tables_leave_the_ledger_reconciled(
    felt, dual_felt, progressive, supervisor
):
    """Rounds at two tables linked to the bank: some voided, some settled, one a royal flush
    on hole and flop, and a round locked before that hit and voided after it."""
    seed = progressive.reset_cents

    # 1. Voided at the flop.
    first = deal_to(felt, "flop")["id"]
    felt.step("irregularity_declared", irregularity="community_card_exposed")
    felt.step("void_approved", supervisor=pin_of(supervisor))

    # 2. Settled, both seats on the progressive, no hit.
    deal_to(felt, "settled")

    # 3. At the other table, bets locked before the hit below.
    deal_to(dual_felt, "preflop", seats=(1,))
    straddling = dual_felt.round["id"]

    # 4. The royal flush: seat 1's As Ks on the flop Qs Js Ts, seat 2 on the progressive too.
    felt.open()
    felt.wagers(1, progressive=100)
    felt.wagers(2, progressive=100)
    felt.play_to_showdown(
        {1: ["As", "Ks"], 2: ["2c", "3d"]},
        board=["Qs", "Js", "Ts", "3h", "4h"],
        dealer_cards=["2d", "2h"],
    )
    meter_before_hit = Bank.objects.get(pk=progressive.pk).meter_cents
    hit_round = felt.step("settlement_confirmed")
    [paid] = hit_round["settlement"]["progressive"]["hits"]
    assert (paid["seat"], paid["category"], paid["amount_cents"]) == (
        1,
        "royal_flush",
        meter_before_hit,
    )
    hit = Hit.objects.get(pk=paid["hit"])
    assert hit.reference == f"round-{hit_round['id']}" and hit.state == Hit.State.PENDING
    line = SettlementLine.objects.get(round_id=hit_round["id"], seat=1, bet="progressive")
    assert (line.paid_from, line.hit_id) == ("meter", hit.pk)
    assert Bank.objects.get(pk=progressive.pk).meter_cents == seed

    # 5. The round locked before the hit is voided after it: the meter stays at its seed.
    dual_felt.step("irregularity_declared", irregularity="preflop_card_exposed")
    dual_felt.step("void_approved", supervisor=pin_of(supervisor))
    assert Bank.objects.get(pk=progressive.pk).meter_cents == seed
    assert MeterEntry.objects.filter(
        kind=MeterEntry.Kind.RESET, reference=f"round-{straddling}"
    ).exists()

    # 6. Voided at showdown, then one more settled.
    deal_to(felt, "showdown")
    felt.step("irregularity_declared", irregularity="duplicate_card")
    felt.step("void_approved", supervisor=pin_of(supervisor))
    deal_to(felt, "settled", seats=(2,))

    assert jackpot.bank_reconcile(bank_id=progressive.pk) == []
    bank = Bank.objects.get(pk=progressive.pk)
    totals = ledger_totals(bank)
    assert bank.meter_cents == totals["meter_cents"]
    assert bank.reserve_cents == totals["reserve_cents"]
    assert bank.hits_count == totals["hits_count"] == 1
    # Wagers still counted: rounds 2 (two seats), 4 (two seats) and the last one (one seat).
    assert bank.contributions_count == totals["contributions_count"] == 5
    reversed_rounds = set(
        MeterEntry.objects.filter(kind=MeterEntry.Kind.REVERSAL).values_list("reference", flat=True)
    )
    assert len(reversed_rounds) == 3
    assert f"round-{first}" in reversed_rounds and f"round-{straddling}" in reversed_rounds
