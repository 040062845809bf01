"""The audit log records the round's significant steps, each by the person who took it; the
plain steps of the game are in the round's own events. Locking the bets queues the round's
progressive wagers once, under the round's reference, however often the lock is retried."""

import copy

from casino.audit import seal_pending
from casino.models import AuditEntry
from jackpot.models import Bank, MeterEntry, PendingContribution
from tables.models import Round, RuleSet
from tables.services import rounds
from tables.services.rounds import correction_approval as corrections
from tests.tables.rounds.conftest import (
    HOLES,
    bank_totals,
    deal_to,
    nothing_changes,
    pin_of,
    write,
)


def _round_entries(after: int) -> list[tuple[str, int, str]]:
    """(code, actor, subject) of the audit entries written since position `after`."""
    seal_pending()  # as after each commit
    return list(
        AuditEntry.objects.filter(position__gt=after)
        .order_by("position")
        .values_list("code", "actor_id", "subject_id")
    )


def _top() -> int:
    seal_pending()  # as after each commit
    last = AuditEntry.objects.order_by("-position").first()
    return last.position if last else 0


def test_the_significant_steps_are_audited_and_the_plain_ones_are_not(
    felt, supervisor, other_supervisor, dealer, standard_rules
):
    assert RuleSet.objects.get(pk=standard_rules.pk).used_at is None
    dealer_id, supervisor_id = dealer.pk, supervisor.pk

    def step(action, *expected):
        top = _top()
        result = action()
        written = _round_entries(top)
        assert [(code, who) for code, who, _subject in written] == list(expected), action
        for code, _who, subject in written:
            if code.startswith("tables.round."):
                assert subject == str(felt.round["id"])
        return result

    step(felt.open, ("tables.ruleset.used", None), ("tables.round.opened", dealer_id))
    used_at = RuleSet.objects.get(pk=standard_rules.pk).used_at
    assert used_at is not None
    assert used_at <= Round.objects.get(pk=felt.round["id"]).opened_at
    step(lambda: felt.wagers(1, progressive=100))
    step(lambda: felt.wagers(2, trips=1000))
    step(lambda: felt.wagers(3))
    step(lambda: felt.step("wagers_withdrawn", seat=3))
    step(
        lambda: felt.step("bets_locked"),
        ("jackpot.contribution.recorded", dealer_id),
        ("tables.round.bets_locked", dealer_id),
    )
    step(lambda: felt.step("decision", seat=1, action="check"))
    step(lambda: felt.step("irregularity_declared", irregularity="card_drawn_in_error_unexposed"))
    step(
        lambda: felt.step("irregularity_declared", irregularity="preflop_card_exposed"),
        ("tables.round.void_declared", dealer_id),
    )
    step(
        lambda: felt.step("void_refused", supervisor=pin_of(supervisor)),
        ("casino.pin.approved", supervisor_id),
        ("tables.round.void_refused", supervisor_id),
    )
    step(lambda: felt.step("decision", seat=2, action="bet", multiple=3))
    step(lambda: felt.cards("board", "Kh", "9d", "4c"))
    step(lambda: felt.step("card_removed", place="board", card="4c"))
    step(lambda: felt.cards("board", "4c"))
    step(lambda: felt.step("decision", seat=1, action="check"))
    step(lambda: felt.cards("board", "2s", "7h"))
    step(lambda: felt.step("decision", seat=1, action="bet", multiple=1))
    step(lambda: felt.cards("dealer", "Qc", "Qd"))
    for seat, hole in HOLES.items():
        step(lambda seat=seat, hole=hole: felt.cards(seat, *hole))
    step(lambda: felt.step("settlement_confirmed"), ("tables.round.settled", dealer_id))
    settled = Round.objects.get(pk=felt.round["id"])
    entry = AuditEntry.objects.get(code="tables.round.settled")
    assert entry.data["nets"] == {str(s["seat"]): s["net"] for s in settled.settlement["seats"]}

    facts = copy.deepcopy(settled.settlement_input)
    facts["seats"][0]["hole"] = ["3c", "5d"]
    asked = step(
        lambda: rounds.round_correct(
            round_id=settled.pk,
            actor=dealer,
            key="fix",
            supervisor=pin_of(supervisor),
            reason="hole cards mis-entered",
            corrected=facts,
        ),
        ("casino.pin.approved", supervisor_id),
        ("tables.round.correction_requested", supervisor_id),
    )
    # The second person's approval (issue 23, 2): their PIN, then the correction, theirs.
    step(
        lambda: corrections.round_correction_approve(
            request_id=asked.body["correction_request"]["id"],
            approver=other_supervisor,
            pin="1234",
        ),
        ("casino.pin.approved", other_supervisor.pk),
        ("tables.round.corrected", other_supervisor.pk),
    )

    # A second round, voided: the approval is the supervisor's, the reason the dealer's.
    step(felt.open, ("tables.round.opened", dealer_id))
    felt.wagers(1)
    felt.step("bets_locked")
    felt.step("irregularity_declared", irregularity="preflop_card_exposed")
    step(
        lambda: felt.step("void_approved", supervisor=pin_of(supervisor)),
        ("casino.pin.approved", supervisor_id),
        ("tables.round.void_approved", supervisor_id),
    )
    approved = AuditEntry.objects.get(code="tables.round.void_approved")
    assert approved.data["reason"] == "preflop_card_exposed"
    assert approved.data["asked_by"] == dealer_id


def test_a_replayed_write_is_not_audited_again(felt):
    deal_to(felt, "betting", seats=(1,))
    seen = felt.seq
    write(felt, "bets_locked", key="lock", expected_seq=seen)
    top = _top()
    write(felt, "bets_locked", key="lock", expected_seq=seen)
    assert _round_entries(top) == []


# --- the progressive at bets_locked --------------------------------------------------------------


def test_locking_the_bets_queues_one_contribution_for_the_progressive_seats(felt, progressive):
    before = bank_totals(progressive)
    felt.open()
    felt.wagers(1, progressive=100)
    felt.wagers(2)
    felt.wagers(4, progressive=100)
    round_id = felt.round["id"]
    assert not PendingContribution.objects.exists()
    felt.step("bets_locked")
    [queued] = PendingContribution.objects.all()
    assert (queued.bank_id, queued.reference) == (progressive.pk, f"round-{round_id}")
    assert (queued.wager_count, queued.wager_cents) == (2, progressive.wager_cents)
    assert queued.posted
    entry = MeterEntry.objects.get(pk=queued.entry_id)
    assert (entry.kind, entry.reference, entry.wager_count) == (
        "contribution",
        f"round-{round_id}",
        2,
    )
    after = bank_totals(progressive)
    assert after["contributions_count"] == before["contributions_count"] + 2
    assert after["wagered_cents"] == before["wagered_cents"] + 2 * progressive.wager_cents
    assert after["meter_cents"] > before["meter_cents"]


def test_a_retried_bets_locked_counts_the_progressive_once(felt, progressive):
    deal_to(felt, "betting")
    seen = felt.seq
    first = write(felt, "bets_locked", key="lock", expected_seq=seen)
    with nothing_changes():
        again = write(felt, "bets_locked", key="lock", expected_seq=seen)
    assert again.replayed and again.body == first.body
    assert PendingContribution.objects.filter(reference=f"round-{first.round_id}").count() == 1
    assert Bank.objects.get(pk=progressive.pk).contributions_count == len(HOLES)


def test_a_round_without_progressive_wagers_queues_nothing(felt, progressive):
    before = bank_totals(progressive)
    deal_to(felt, "preflop", progressive=0)
    assert not PendingContribution.objects.exists()
    assert bank_totals(progressive) == before
