"""Meter adjustments, two managers (issue 23, 7): one asks (`adjustment_request`), a second
one, independent of the first (casino.duties), approves it herself (`adjustment_approve`):
the ledger line's actor is whoever approved, never a name passed in. Either may reject.
The pages are the pit's (tables.pit: a bank's adjustment form, the approvals queue)."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.audit import audit
from casino.roles import Role
from casino.transitions import TransitionRefused, move
from jackpot.errors import AdjustmentClosed, AdjustmentNotFound, InvalidAdjustment
from jackpot.models import AdjustmentRequest, Bank, MeterEntry
from jackpot.services._base import require_role, require_two_people
from jackpot.services._checks import bank_id_checked
from jackpot.services.ledger import adjustment_targets, bank_adjust_approved


def adjustment_request(
    *,
    bank_id: int,
    reason: str,
    manager,
    meter_after_cents: int | None = None,
    reserve_after_cents: int | None = None,
    overflow_after_cents: int | None = None,
) -> AdjustmentRequest:
    """A manager asks to set the meter (or reserve, or overflow) to a stated value."""
    require_role(manager, Role.MANAGER)
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidAdjustment(_("A meter adjustment needs its reason."))
    targets = adjustment_targets(
        meter_after_cents=meter_after_cents,
        reserve_after_cents=reserve_after_cents,
        overflow_after_cents=overflow_after_cents,
    )
    bank = Bank.objects.filter(pk=bank_id_checked(bank_id)).first()
    if bank is None:
        raise InvalidAdjustment(_("There is no such progressive bank."))
    with transaction.atomic():
        asked = AdjustmentRequest.objects.create(
            bank=bank,
            targets=targets,
            reason=reason.strip()[:200],
            requested_by=manager,
            requested_at=timezone.now(),
        )
        audit(
            actor=manager,
            code="jackpot.adjustment.requested",
            subject=asked,
            data={"bank": bank.slug, "reason": asked.reason, "after": targets},
        )
    return asked


def _decide(adjustment_id, to, **stamps) -> tuple[AdjustmentRequest, list[str]]:
    """The adjustment, locked and moved to `to` with `stamps` (the caller saves the fields
    returned)."""
    asked = (
        AdjustmentRequest.objects.select_for_update(of=("self",))
        .select_related("requested_by")
        .filter(pk=adjustment_id)
        .first()
    )
    if asked is None:
        raise AdjustmentNotFound(_("There is no meter adjustment #%(id)s.") % {"id": adjustment_id})
    try:
        return asked, move(asked, to, **stamps)
    except TransitionRefused:
        raise AdjustmentClosed(
            _("Meter adjustment #%(id)s is %(state)s: it cannot be decided again.")
            % {"id": asked.pk, "state": asked.get_state_display()}
        ) from None


def adjustment_approve(*, adjustment_id: int, manager) -> MeterEntry:
    """The second manager approves, herself: she is the ledger line's actor."""
    require_role(manager, Role.MANAGER)
    probe = AdjustmentRequest.objects.select_related("requested_by").filter(pk=adjustment_id)
    probe = probe.first() if isinstance(adjustment_id, int) else None
    if probe is not None:  # who asked never changes: checked before the locks, audited
        require_two_people(
            approver=manager,
            asker=probe.requested_by,
            action="jackpot.meter.adjust",
            subject=probe,
        )
    with transaction.atomic():
        asked, changed = _decide(
            adjustment_id,
            AdjustmentRequest.State.APPROVED,
            decided_by=manager,
            decided_at=timezone.now(),
        )
        asked.entry = bank_adjust_approved(adjustment=asked, approved_by=manager)
        asked.save(update_fields=[*changed, "entry"])
    return asked.entry


def adjustment_reject(*, adjustment_id: int, manager, reason: str = "") -> AdjustmentRequest:
    """Any manager rejects a waiting adjustment (or the one who asked withdraws it)."""
    require_role(manager, Role.MANAGER)
    with transaction.atomic():
        asked, changed = _decide(
            adjustment_id,
            AdjustmentRequest.State.REJECTED,
            decided_by=manager,
            decided_at=timezone.now(),
            reject_reason=str(reason or "").strip()[:200],
        )
        asked.save(update_fields=changed)
        audit(
            actor=manager,
            code="jackpot.adjustment.rejected",
            subject=asked,
            data={"bank": asked.bank.slug, "reason": asked.reject_reason},
        )
    return asked
