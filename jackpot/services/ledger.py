"""Money into and out of the meter: contributions, their reversal, approved adjustments.

Hand-written SQL for the two queueing INSERTs only (_ACCEPT, _QUEUE_REVERSAL): one statement
each checks what it must, counts a round once (ON CONFLICT on the unique bank + reference) and
takes no lock, which the ORM cannot say in one statement without a race.
"""

import logging

from django.db import DatabaseError, connection, transaction
from django.utils.translation import gettext_lazy as _

from casino.audit import audit
from casino.roles import Role
from jackpot import feed
from jackpot.errors import (
    AlreadyReversed,
    BankClosed,
    ContributionConflict,
    ContributionNotFound,
    InvalidAdjustment,
    JackpotError,
    WrongContributionAmount,
)
from jackpot.models import Bank, MeterEntry, PendingContribution, PendingReversal
from jackpot.selectors import bank_get
from jackpot.services._base import When, append_entry, require_role, save_totals
from jackpot.services._checks import (
    MAX_CENTS,
    MAX_WAGERS_PER_ROUND,
    bank_id_checked,
    is_whole,
    shown,
    text_checked,
)
from jackpot.services.posting import (  # noqa: F401  (split_contribution is re-exported)
    bank_lock_and_post,
    post_waiting,
    split_contribution,
)

log = logging.getLogger("jackpot.posting")

# One statement accepts a contribution: it checks that the bank exists, is open and takes
# exactly this wager, and it counts a round once (the unique bank + reference), without any
# lock. When it inserts nothing, the slow path says why.
_ACCEPT = """
INSERT INTO jackpot_pendingcontribution
    (bank_id, reference, wager_count, wager_cents, actor_id, created_at, gaming_date, shift)
SELECT id, %s, %s, %s, %s, %s, %s, %s FROM jackpot_bank
WHERE id = %s AND status = 'open' AND wager_cents = %s
ON CONFLICT (bank_id, reference) DO NOTHING
RETURNING id
"""


def _stamp_params(when: When) -> list:
    """The time, gaming date and shift of a queued row, as its INSERT takes them."""
    ops = connection.ops
    return [
        ops.adapt_datetimefield_value(when.at),
        ops.adapt_datefield_value(when.gaming_date),
        when.shift,
    ]


def _accept(*, bank_id, reference, wager_count, wager_cents, actor_id) -> int | None:
    with connection.cursor() as cursor:
        cursor.execute(
            _ACCEPT,
            [
                reference,
                wager_count,
                wager_cents,
                actor_id,
                *_stamp_params(When.now()),
                bank_id,
                wager_cents,
            ],
        )
        row = cursor.fetchone()
    return row[0] if row else None


def bank_contribute(
    *, bank_id: int, reference: str, wager_count: int, wager_cents: int, actor
) -> PendingContribution:
    """Progressive wagers locked at a table feed the meter (and the reserve).

    The contribution is written and committed first, with no lock (a PendingContribution),
    then posted to the meter (services.posting): by this call, or by whoever holds the bank at
    that moment, right after its commit. `.entry` of the returned row is its ledger line
    once posted. `reference` is the round's idempotency key: the same call made again returns
    the row already written and counts nothing twice; the same key with other figures raises
    ContributionConflict. Inside the caller's transaction, everything commits with it.
    """
    require_role(actor, Role.DEALER, Role.SUPERVISOR)
    if not reference:
        raise JackpotError(
            _("A contribution needs the round's reference."), code="missing_reference"
        )
    _check_contribution(bank_id, reference, wager_count, wager_cents)
    for _attempt in range(3):
        pending_id = None
        if isinstance(wager_count, int) and wager_count >= 1:
            pending_id = _accept(
                bank_id=bank_id,
                reference=reference,
                wager_count=wager_count,
                wager_cents=wager_cents,
                actor_id=getattr(actor, "pk", None),
            )
        if pending_id is not None:
            try:
                entry = post_waiting(bank_id).get(pending_id)
            except DatabaseError:
                if connection.in_atomic_block:
                    raise  # the caller's transaction is broken: it must know
                # The contribution is accepted (committed); posting it failed for reasons
                # that are not this table's: it waits for the next posting (services.posting).
                log.exception("jackpot: posting to bank %s failed, rows left waiting", bank_id)
                entry = None
            return PendingContribution(
                pk=pending_id,
                bank_id=bank_id,
                reference=reference,
                wager_count=wager_count,
                wager_cents=wager_cents,
                actor=actor,
                entry=entry,
            )
        existing = _refusal(bank_id, reference, wager_count, wager_cents)
        if existing is not None:
            if not existing.posted:
                post_waiting(bank_id)
                existing.refresh_from_db(fields=["entry"])
            return existing
    raise JackpotError(  # the bank kept changing under us: let the table retry
        _("The contribution of round %(ref)s could not be recorded: try again.")
        % {"ref": reference},
        code="contribution_retry",
    )


def _check_contribution(bank_id, reference, wager_count, wager_cents) -> None:
    """Refused before any statement: the figures one round of one table can have."""
    bank_id_checked(bank_id)
    text_checked(reference, what=_("the round's reference"), max_length=120, code="bad_reference")
    if not is_whole(wager_count) or not 1 <= wager_count <= MAX_WAGERS_PER_ROUND:
        raise WrongContributionAmount(
            _("A round has from 1 to %(max)s progressive wagers, one per seat (got %(n)s).")
            % {"max": MAX_WAGERS_PER_ROUND, "n": shown(wager_count)}
        )
    if not is_whole(wager_cents) or not 1 <= wager_cents <= MAX_CENTS:
        raise WrongContributionAmount(
            _("A progressive wager is a whole number of cents (got %(c)s).")
            % {"c": shown(wager_cents)}
        )


def _refusal(bank_id, reference, wager_count, wager_cents) -> PendingContribution | None:
    """Why nothing was inserted: a retry (returned), or the error to raise. None: the bank
    changed between the insert and this look, try again."""
    bank = bank_get(bank_id)
    existing = PendingContribution.objects.filter(bank=bank, reference=reference).first()
    if existing is not None:
        if (existing.wager_count, existing.wager_cents) != (wager_count, wager_cents):
            raise ContributionConflict(
                _(
                    "Round %(ref)s already contributed %(n)s wager(s) of %(c)s cents: it cannot "
                    "contribute a different amount."
                )
                % {"ref": reference, "n": existing.wager_count, "c": existing.wager_cents}
            )
        return existing
    if bank.status != Bank.Status.OPEN:
        raise BankClosed(
            _("The progressive %(bank)s is closed: take no progressive wagers.")
            % {"bank": bank.name}
        )
    if wager_cents != bank.wager_cents or not isinstance(wager_count, int) or wager_count < 1:
        raise WrongContributionAmount(
            _(
                "The progressive wager on %(bank)s is exactly %(w)s cents, on at least one seat "
                "(got %(n)s x %(c)s cents)."
            )
            % {"bank": bank.name, "w": bank.wager_cents, "n": wager_count, "c": wager_cents}
        )
    return None


# One statement queues a void's reversal: it checks that the round contributed to this bank
# (its accepted row, posted or not) and reverses a round once (the unique bank + reference),
# without any lock. When it inserts nothing, the slow path says why.
_QUEUE_REVERSAL = """
INSERT INTO jackpot_pendingreversal
    (bank_id, reference, actor_id, reason, created_at, gaming_date, shift)
SELECT bank_id, reference, %s, %s, %s, %s, %s FROM jackpot_pendingcontribution
WHERE bank_id = %s AND reference = %s
ON CONFLICT (bank_id, reference) DO NOTHING
RETURNING id
"""


def bank_reverse(*, bank_id: int, reference: str, actor, reason: str = "") -> PendingReversal:
    """A void round takes its contribution back with a compensating entry (never an edit).

    Queued as a contribution is: the reversal is written (a PendingReversal) with no lock,
    and posted to the meter after the caller's commit, by the bank's poster, right after the
    contributions waiting with it (services.posting). Meter, overflow, reserve and the
    sub-cent carries then move back by exactly what the contribution added; reversing the
    latest contribution restores the bank to the very state it had before it. The returned
    row is the one written; once posted (refresh it), `.entry` is its REVERSAL ledger line.
    Allowed on a closed bank: the
    void must still be recorded. A round is reversed once: asking again raises
    AlreadyReversed, and nothing is written.
    """
    # Taking money back out of the meter is a supervisor's decision (the void's approver),
    # never the dealer's own: otherwise any dealer could reverse any round's contribution.
    require_role(actor, Role.SUPERVISOR)
    bank_id_checked(bank_id)
    text_checked(reference, what=_("the round's reference"), max_length=120, code="bad_reference")
    text_checked(reason, what=_("the reason"), max_length=500, code="bad_reason")
    when = When.now()
    # One statement, no savepoint: when it inserts nothing, nothing was written.
    with connection.cursor() as cursor:
        cursor.execute(
            _QUEUE_REVERSAL, [actor.pk, reason, *_stamp_params(when), bank_id, reference]
        )
        row = cursor.fetchone()
    if row is None:
        _reversal_refusal(bank_id, reference)
    post_waiting(bank_id)
    return PendingReversal(
        pk=row[0],
        bank_id=bank_id,
        reference=reference,
        actor=actor,
        reason=reason,
        created_at=when.at,
        gaming_date=when.gaming_date,
        shift=when.shift,
    )


def _reversal_refusal(bank_id: int, reference: str) -> None:
    """Why no reversal was queued: raise it."""
    bank = bank_get(bank_id)
    if PendingReversal.objects.filter(bank=bank, reference=reference).exists():
        raise AlreadyReversed(
            _("The contribution of round %(ref)s was already reversed.") % {"ref": reference}
        )
    raise ContributionNotFound(
        _("Round %(ref)s has no contribution on %(bank)s to reverse.")
        % {"ref": reference, "bank": bank.name}
    )


def adjustment_targets(
    *,
    meter_after_cents: int | None = None,
    reserve_after_cents: int | None = None,
    overflow_after_cents: int | None = None,
) -> dict:
    """The values an adjustment sets, checked: {"meter"/"reserve"/"overflow": cents}."""
    targets = {
        "meter": meter_after_cents,
        "reserve": reserve_after_cents,
        "overflow": overflow_after_cents,
    }
    targets = {k: v for k, v in targets.items() if v is not None}
    if not targets:
        raise InvalidAdjustment(
            _("Say which amount the adjustment sets: the meter, the reserve or the overflow.")
        )
    for name, value in targets.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CENTS:
            raise InvalidAdjustment(
                _(
                    "The %(what)s after the adjustment must be a whole number of cents, not negative."
                )
                % {"what": name}
            )
    return targets


def bank_adjust_approved(*, adjustment, approved_by) -> MeterEntry:
    """Set the meter (or reserve, or overflow) to the values an AdjustmentRequest states: a
    malfunction correction or an accounting transfer. Called by
    jackpot.services.adjustments.adjustment_approve only, inside its transaction, once the
    second manager (`approved_by`, the person acting) is checked independent of the one who
    asked (NJ 69D-1.52(f), WAC 230-15-695; casino.duties). The entry keeps the reason, the
    values before and after, and both names."""
    bank_id, targets = adjustment.bank_id, adjustment.targets
    requested_by, reason = adjustment.requested_by, adjustment.reason
    with transaction.atomic():
        bank = bank_lock_and_post(bank_id)
        before = {
            "meter": bank.meter_cents,
            "reserve": bank.reserve_cents,
            "overflow": bank.overflow_cents,
        }
        deltas = {name: value - before[name] for name, value in targets.items()}
        if not any(deltas.values()):
            raise InvalidAdjustment(
                _("The adjustment changes nothing: the bank already holds these amounts.")
            )
        data = {
            "reason": reason.strip(),
            "before": before,
            "after": {**before, **targets},
            "requested_by": requested_by.pk,
            "approved_by": approved_by.pk,
        }
        entry = append_entry(
            bank,
            kind=MeterEntry.Kind.ADJUSTMENT,
            when=When.now(),
            actor=approved_by,
            reference=reason.strip()[:120],
            data=data,
            **deltas,
        )
        feed.announce_meter(bank, save=False)
        save_totals(bank)
        audit(
            actor=approved_by,
            code="jackpot.meter.adjusted",
            subject=bank,
            data={"seq": entry.seq, **data},
        )
    return entry
