"""Money into and out of the meter: contributions, their reversal, approved adjustments."""

import logging

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Exists, OuterRef
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.audit import audit, audit_or_batch
from casino.clock import stamp
from casino.roles import Role, require_role
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
from jackpot.models import PPM, Bank, MeterEntry, PendingContribution
from jackpot.selectors import bank_get
from jackpot.services._base import (
    When,
    append_entry,
    drawn_line_id,
    next_line_id_sql,
    require_two_people,
    reset_to_seed,
    save_totals,
)
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


def _accept(*, bank_id, reference, wager_count, wager_cents, actor_id) -> int | None:
    at = timezone.now()
    gaming_date, shift = stamp(at)
    ops = connection.ops
    if getattr(settings, "JACKPOT_ASYNC_COMMIT", False) and connection.vendor == "postgresql":
        if not connection.in_atomic_block:
            with transaction.atomic():  # SET LOCAL needs a transaction of its own
                return _accept(
                    bank_id=bank_id,
                    reference=reference,
                    wager_count=wager_count,
                    wager_cents=wager_cents,
                    actor_id=actor_id,
                )
        with connection.cursor() as cursor:
            # Opt-in (README): the commit returns before its WAL reaches the disk.
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
    with connection.cursor() as cursor:
        cursor.execute(
            _ACCEPT,
            [
                reference,
                wager_count,
                wager_cents,
                actor_id,
                ops.adapt_datetimefield_value(at),
                ops.adapt_datefield_value(gaming_date),
                shift,
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
            _("a contribution needs the round's reference"), code="missing_reference"
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
        _("the contribution of round %(ref)s could not be recorded: try again")
        % {"ref": reference},
        code="contribution_retry",
    )


def _check_contribution(bank_id, reference, wager_count, wager_cents) -> None:
    """Refused before any statement: the figures one round of one table can have."""
    bank_id_checked(bank_id)
    text_checked(reference, what=_("the round's reference"), max_length=120, code="bad_reference")
    if not is_whole(wager_count) or not 1 <= wager_count <= MAX_WAGERS_PER_ROUND:
        raise WrongContributionAmount(
            _("a round has from 1 to %(max)s progressive wagers, one per seat (got %(n)s)")
            % {"max": MAX_WAGERS_PER_ROUND, "n": shown(wager_count)}
        )
    if not is_whole(wager_cents) or not 1 <= wager_cents <= MAX_CENTS:
        raise WrongContributionAmount(
            _("a progressive wager is a whole number of cents (got %(c)s)")
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
                    "round %(ref)s already contributed %(n)s wager(s) of %(c)s cents; "
                    "it cannot contribute a different amount"
                )
                % {"ref": reference, "n": existing.wager_count, "c": existing.wager_cents}
            )
        return existing
    if bank.status != Bank.Status.OPEN:
        raise BankClosed(
            _("the progressive %(bank)s is closed: take no progressive wagers")
            % {"bank": bank.name}
        )
    if wager_cents != bank.wager_cents or not isinstance(wager_count, int) or wager_count < 1:
        raise WrongContributionAmount(
            _(
                "the progressive wager on %(bank)s is exactly %(w)s cents, on at least one "
                "seat (got %(n)s x %(c)s cents)"
            )
            % {"bank": bank.name, "w": bank.wager_cents, "n": wager_count, "c": wager_cents}
        )
    return None


def _undo_carry(delta_cents: int, carry_delta: int, carry_now: int) -> tuple[int, int]:
    """Undo a carry change. If that leaves the carry outside [0, 1 cent), a whole cent moves
    with it, so the sum cents * PPM + carry stays exact and the carry stays a remainder."""
    whole, carry_after = divmod(carry_now - carry_delta, PPM)
    return delta_cents + whole, carry_after - carry_now


def bank_reverse(
    *, bank_id: int, reference: str, actor, reason: str = "", audit_into: list | None = None
) -> MeterEntry:
    """A void round takes its contribution back with a compensating entry (never an edit).

    Meter, overflow, reserve and the sub-cent carries move back by exactly what the
    contribution added; reversing the latest contribution restores the bank to the very state
    it had before it. Allowed on a closed bank: the void must still be recorded.

    `audit_into`: a list to which the reversal's audit entry is added instead of written, for
    a caller that writes it with its own (casino.audit.audit_many) in the same transaction.
    """
    # Taking money back out of the meter is a supervisor's decision (the void's approver),
    # never the dealer's own: otherwise any dealer could reverse any round's contribution.
    require_role(actor, Role.SUPERVISOR)
    bank_id_checked(bank_id)
    text_checked(reference, what=_("the round's reference"), max_length=120, code="bad_reference")
    text_checked(reason, what=_("the reason"), max_length=500, code="bad_reason")
    with transaction.atomic():
        bank = bank_lock_and_post(bank_id)
        original = (
            MeterEntry.objects.filter(
                bank=bank, kind=MeterEntry.Kind.CONTRIBUTION, reference=reference
            )
            .annotate(
                already_reversed=Exists(MeterEntry.objects.filter(reverses=OuterRef("pk"))),
                line_id=RawSQL(next_line_id_sql(), []),  # the reversal's own, drawn with it
            )
            .order_by()
            .first()
            if reference
            else None
        )
        if original is None:
            raise ContributionNotFound(
                _("no contribution of round %(ref)s on %(bank)s to reverse")
                % {"ref": reference, "bank": bank.name}
            )
        if original.already_reversed:
            raise AlreadyReversed(
                _("the contribution of round %(ref)s was already reversed") % {"ref": reference}
            )
        meter, meter_carry = _undo_carry(
            -original.meter_delta_cents, original.meter_carry_delta_ppm, bank.meter_carry_ppm
        )
        reserve, reserve_carry = _undo_carry(
            -original.reserve_delta_cents,
            original.reserve_carry_delta_ppm,
            bank.reserve_carry_ppm,
        )
        when = When.now()
        entry = append_entry(
            bank,
            line_id=drawn_line_id(original.line_id),
            kind=MeterEntry.Kind.REVERSAL,
            when=when,
            actor=actor,
            meter=meter,
            overflow=-original.overflow_delta_cents,
            reserve=reserve,
            meter_carry=meter_carry,
            reserve_carry=reserve_carry,
            reference=reference,
            wager_count=-original.wager_count,
            wager_cents=original.wager_cents,
            reverses=original,
            data={"reason": reason} if reason else {},
        )
        bank.contributions_count -= original.wager_count
        bank.wagered_cents -= original.wager_count * original.wager_cents
        # A round voided after a hit paid out its contribution would leave the meter below the
        # reset amount (Fla 75-14.034: never below it): a recorded reseed tops it up again.
        topped_up = reset_to_seed(bank, when=when, actor=actor, reference=reference)
        feed.announce_meter(bank, save=False)
        save_totals(bank)
        audit_or_batch(
            audit_into,
            actor=actor,
            code="jackpot.contribution.reversed",
            subject=bank,
            data={
                "seq": entry.seq,
                "reverses": original.seq,
                "ref": reference,
                "meter": meter,
                "overflow": -original.overflow_delta_cents,
                "reserve": reserve,
                "reason": reason,
                "reseeded_cents": topped_up.meter_delta_cents if topped_up else 0,
            },
        )
    return entry


def bank_adjust(
    *,
    bank_id: int,
    reason: str,
    requested_by,
    approved_by,
    meter_after_cents: int | None = None,
    reserve_after_cents: int | None = None,
    overflow_after_cents: int | None = None,
) -> MeterEntry:
    """Set the meter (or reserve, or overflow) to a stated value: a malfunction correction or
    an accounting transfer. Two managers: one asks, another, independent of the first,
    approves (NJ 69D-1.52(f), WAC 230-15-695; casino.duties). The entry keeps the reason, the
    values before and after, and both names.
    """
    require_role(requested_by, Role.MANAGER)
    require_role(approved_by, Role.MANAGER)
    require_two_people(approver=approved_by, asker=requested_by, action="jackpot.meter.adjust")
    if not reason or not reason.strip():
        raise InvalidAdjustment(_("an adjustment needs a reason"))
    targets = {
        "meter": meter_after_cents,
        "reserve": reserve_after_cents,
        "overflow": overflow_after_cents,
    }
    targets = {k: v for k, v in targets.items() if v is not None}
    if not targets:
        raise InvalidAdjustment(_("say which amount the adjustment sets"))
    for name, value in targets.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidAdjustment(
                _("the %(what)s after adjustment must be a whole number of cents, not negative")
                % {"what": name}
            )
    with transaction.atomic():
        bank = bank_lock_and_post(bank_id)
        before = {
            "meter": bank.meter_cents,
            "reserve": bank.reserve_cents,
            "overflow": bank.overflow_cents,
        }
        deltas = {name: value - before[name] for name, value in targets.items()}
        if not any(deltas.values()):
            raise InvalidAdjustment(_("the adjustment changes nothing"))
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
