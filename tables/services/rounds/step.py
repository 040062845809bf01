"""One step of a round (spec/round-api.md, "Events"): the dealer's event, checked by the
engine against the replayed state and by the table's limits, appended under the round's row
lock. The settlement's confirmation and a void's decision have their own modules."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit
from casino.models import Staff
from casino.money import money
from jackpot import services as jackpot
from jackpot.errors import BankClosed
from jackpot.models import Bank
from tables import events, live
from tables.errors import RoundRefused
from tables.models import Round
from tables.rules.errors import RulesError
from tables.rules.machine import RoundState, event_from_json
from tables.services.rounds.answers import RoundWrite, check_key, remembered
from tables.services.rounds.people import APPROVALS, require_a_dealer, require_round_dealer
from tables.services.rounds.settlement import round_settle
from tables.services.rounds.state import (
    apply_event,
    check_seq,
    refusal,
    round_read,
    round_reference,
    state_of,
    step,
)
from tables.services.rounds.voids import round_void


def round_event_record(
    *, round_id: int, actor: Staff, key: str, expected_seq, event, supervisor=None
) -> RoundWrite:
    """One step of the round (spec/round-api.md, "Events"). `supervisor` holds the employee
    number and PIN that approvals need."""
    key = check_key(key)
    if not isinstance(event, dict):
        raise RoundRefused(
            _("The event must be an object with its kind."), code="bad_event", field="event"
        )
    kind = event.get("kind")
    if kind == "settlement_confirmed":
        return round_settle(round_id=round_id, dealer=actor, key=key, expected_seq=expected_seq)
    if kind in APPROVALS:
        return round_void(
            round_id=round_id,
            actor=actor,
            key=key,
            expected_seq=expected_seq,
            approved=kind == "void_approved",
            supervisor=supervisor,
        )
    require_a_dealer(actor)
    scope = f"round:{round_id}:events"
    request = {"expected_seq": expected_seq, "event": event}
    try:
        parsed = event_from_json(event)
    except RulesError as exc:
        raise refusal(exc) from None
    with transaction.atomic():
        round_ = round_read(round_id)
        if (again := remembered(scope, key, request)) is not None:
            return again
        require_round_dealer(actor, round_)
        check_seq(round_, expected_seq)
        before = state_of(round_)
        state = apply_event(before, parsed)
        if parsed.kind == "wagers_placed":
            _check_limits(round_, parsed)
        if parsed.kind == "bets_locked":
            _contribute(round_, state, actor=actor)  # no lock taken; before any audit
        at = timezone.now()
        written = step(
            round_, state, parsed, actor=actor, key=key, at=at, scope=scope, request=request
        )
        if parsed.kind == "bets_locked":
            audit(
                actor=actor,
                code="tables.round.bets_locked",
                subject=round_,
                data={"seats": [s.seat for s in state.seats], "seq": round_.seq},
            )
        elif parsed.kind == "irregularity_declared" and state.pending_void is not None:
            audit(
                actor=actor,
                code="tables.round.void_declared",
                subject=round_,
                data={"reason": state.pending_void.value, "seq": round_.seq},
            )
            events.tell_after_commit("void_requested", round_id=round_.pk)
        live.announce_round(written.body)
    return written


def _check_limits(round_: Round, wagers) -> None:
    """The table's limits (the engine knows the game, not the table's minimums)."""
    table = round_.table
    low, high = table.min_bet_cents, table.max_bet_cents
    if not low <= wagers.ante <= high:
        raise RoundRefused(
            _("Seat %(seat)s: the Ante must be between the table's limits, %(low)s and %(high)s.")
            % {"seat": wagers.seat, "low": money(low), "high": money(high)},
            code="ante_outside_limits",
            field="ante",
        )
    low, high = table.trips_limits
    if wagers.trips and not low <= wagers.trips <= high:
        raise RoundRefused(
            _("Seat %(seat)s: Trips must be between %(low)s and %(high)s at this table.")
            % {"seat": wagers.seat, "low": money(low), "high": money(high)},
            code="trips_outside_limits",
            field="trips",
        )
    if wagers.progressive:
        if round_.bank_id is None:
            raise RoundRefused(
                _("This table has no progressive jackpot."),
                code="no_progressive",
                field="progressive",
            )
        status = Bank.objects.filter(pk=round_.bank_id).values_list("status", flat=True).first()
        if status != Bank.Status.OPEN:
            raise RoundRefused(
                _("The progressive jackpot is closed: no progressive wager now."),
                code="bank_closed",
                field="progressive",
            )


def _contribute(round_: Round, state: RoundState, *, actor: Staff) -> None:
    """The round's progressive wagers go to the bank's queue in this transaction, keyed by
    the round: a retried lock counts once (jackpot.services.bank_contribute)."""
    wagers = [s.progressive for s in state.seats if s.progressive]
    if not wagers:
        return
    try:
        jackpot.bank_contribute(
            bank_id=round_.bank_id,
            reference=round_reference(round_.pk),
            wager_count=len(wagers),
            wager_cents=wagers[0],  # the one progressive wager (the engine allows no other)
            actor=actor,
        )
    except BankClosed:  # closed since the wagers were placed: refused like a new wager
        raise RoundRefused(
            _("The progressive jackpot is closed: no progressive wager now."),
            code="bank_closed",
            field="progressive",
        ) from None
