"""A void's decision: the dealer declared an irregularity (a step), and a supervisor, with
their PIN, approves (every wager returned, the round's progressive contributions reversed) or
refuses it (the round goes on)."""

from django.db import transaction
from django.utils import timezone

from casino.models import Staff
from casino.roles import Role, has_role
from jackpot import services as jackpot
from jackpot.models import Bank
from tables import events, live
from tables.models import Round
from tables.rules.export import settlement_input_json
from tables.rules.machine import RoundState, Stage, event_from_json, settlement_input
from tables.rules.settle import settle
from tables.services._base import require_role
from tables.services.rounds.answers import RoundWrite, check_key, remembered
from tables.services.rounds.approvals import decision_record, supervisor_at_the_tablet
from tables.services.rounds.people import require_round_dealer
from tables.services.rounds.settlement import meter
from tables.services.rounds.state import (
    apply_event,
    check_seq,
    round_read,
    round_reference,
    round_relock,
    rules_of,
    state_of,
    step,
)


def round_void(
    *, round_id: int, actor: Staff, key: str, expected_seq, approved: bool, supervisor
) -> RoundWrite:
    """A supervisor approves or refuses the void the dealer declared. The PIN is checked
    first, in its own transaction, so that a wrong PIN counts toward the lockout."""
    key = check_key(key)
    kind = "void_approved" if approved else "void_refused"
    scope = f"round:{round_id}:events"
    who = supervisor.get("employee_number") if isinstance(supervisor, dict) else None
    request = {"expected_seq": expected_seq, "event": {"kind": kind}, "supervisor": who}
    require_role(actor, Role.DEALER, Role.SUPERVISOR)  # before a kept answer is replayed
    if (again := remembered(scope, key, request)) is not None:
        return again
    probe = round_read(round_id, lock=False)
    if not has_role(actor, Role.SUPERVISOR):
        require_round_dealer(actor, probe)
    approver = supervisor_at_the_tablet(
        supervisor, round_=probe, actor=actor, action="tables.round.void"
    )
    with transaction.atomic():
        round_ = round_relock(probe)
        if (again := remembered(scope, key, request)) is not None:
            return again
        check_seq(round_, expected_seq)
        before = state_of(round_)
        event = event_from_json({"kind": kind})
        state = apply_event(before, event)
        at = timezone.now()
        if approved:
            bank = _reverse_contributions(round_, before, approver=approver.staff)
            round_.settlement = settle(
                settlement_input(state, meter=meter(bank)), rules_of(round_)
            ).to_json()
            round_.settlement_input = settlement_input_json(state, meter=meter(bank))
            round_.settled_at = at
        written = step(
            round_,
            state,
            event,
            actor=actor,
            key=key,
            at=at,
            scope=scope,
            request=request,
            supervisor=approver.staff,
        )
        # The reversal's own entry is written when it is posted, after this commit.
        decision_record(
            approver,
            code=f"tables.round.{kind}",
            subject=round_,
            data={
                "reason": before.pending_void.value if before.pending_void else None,
                "asked_by": actor.pk,
                "seq": round_.seq,
            },
        )
        live.announce_round(written.body)
        events.tell_after_commit("void_decided", round_id=round_.pk, approved=approved)
    return written


def _reverse_contributions(round_: Round, state: RoundState, *, approver: Staff) -> Bank | None:
    """A void takes back what the round gave the progressive: the reversal is queued
    (jackpot.services.bank_reverse) and posted to the meter just after this commit. Returns
    the bank as it reads now, for the void's settlement input: a void pays no progressive,
    so the meter there is only what the bank showed."""
    if not any(s.progressive for s in state.seats):
        return None
    if state.stage is not Stage.BETTING:  # the wagers reached the bank when bets locked
        jackpot.bank_reverse(
            bank_id=round_.bank_id,
            reference=round_reference(round_.pk),
            actor=approver,
            reason=f"void of {round_}",
        )
    return Bank.objects.only("meter_cents", "reset_cents").get(pk=round_.bank_id)
