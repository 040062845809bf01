"""A correction's second person (issue 23, 2): a correction asked for at the tablet
(corrections.round_correct) waits for a supervisor or manager independent of the requester and
of everyone who had a hand in the round, who approves it at the pit with their PIN, or
rejects it. docs/architecture/two-person-rules.md."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit
from casino.models import Staff
from casino.roles import Role, has_role
from casino.transitions import TransitionRefused, move
from tables import live
from tables.errors import IllegalTransition, NotFound
from tables.models import CorrectionRequest
from tables.services._base import require_role
from tables.services.rounds.approvals import second_person
from tables.services.rounds.corrections import announce_corrected, compensation, correction_write
from tables.services.rounds.state import round_read, round_relock
from tables.snapshots import round_snapshot


def _correction_request_read(request_id) -> CorrectionRequest:
    asked = (
        CorrectionRequest.objects.select_related("requested_by", "asked_at_tablet_by")
        .filter(pk=request_id)
        .first()
        if isinstance(request_id, int)
        else None
    )
    if asked is None:
        raise NotFound(_("There is no correction request #%(id)s.") % {"id": request_id})
    return asked


def _closed(asked: CorrectionRequest) -> IllegalTransition:
    return IllegalTransition(
        _("Correction request #%(id)s is %(state)s: it cannot be decided again.")
        % {"id": asked.pk, "state": asked.get_state_display()},
        code="correction_request_closed",
    )


def _decide(asked: CorrectionRequest, to, **stamps) -> list[str]:
    try:
        return move(asked, to, **stamps)
    except TransitionRefused:
        raise _closed(asked) from None


def round_correction_approve(*, request_id: int, approver: Staff, pin) -> CorrectionRequest:
    """The second person approves a waiting correction, signed in as themselves and with
    their PIN typed again: a supervisor or a manager who is neither the requester nor anyone
    who had a hand in the round, and independent of each (casino.duties). The correction is
    then written, on the round's lines as they stand now."""
    require_role(approver, Role.SUPERVISOR, Role.MANAGER)
    asked = _correction_request_read(request_id)
    probe = round_read(asked.round_id, lock=False)
    askers = {asked.requested_by_id: asked.requested_by}
    askers[asked.asked_at_tablet_by_id] = asked.asked_at_tablet_by
    askers.setdefault(probe.dealer_id, probe.dealer)
    second = second_person(
        employee_number=str(approver.employee_number or ""),
        pin=str(pin or ""),
        role=Role.SUPERVISOR if has_role(approver, Role.SUPERVISOR) else Role.MANAGER,
        round_=probe,
        askers=askers,
        action="tables.round.correct",
        field="pin",
    )
    with transaction.atomic():
        round_ = round_relock(probe)
        asked = CorrectionRequest.objects.select_for_update().get(pk=asked.pk)
        at = timezone.now()
        changed = _decide(
            asked, CorrectionRequest.State.APPROVED, decided_by=second.staff, decided_at=at
        )
        rows = compensation(round_, asked.output)
        asked.correction = correction_write(
            round_,
            key=asked.key,
            reason=asked.reason,
            requested_by=asked.requested_by,
            approver=second,
            facts=asked.input,
            output=asked.output,
            rows=rows,
            at=at,
            asked_by=asked.requested_by,
        )
        asked.save(update_fields=[*changed, "correction"])
        live.announce_round(round_snapshot(round_))
        announce_corrected(round_, asked.correction)
    return asked


def round_correction_reject(
    *, request_id: int, actor: Staff, reason: str = ""
) -> CorrectionRequest:
    """A supervisor or manager rejects a waiting correction (or its requester withdraws it):
    nothing is written to the round."""
    require_role(actor, Role.SUPERVISOR, Role.MANAGER)
    asked = _correction_request_read(request_id)
    with transaction.atomic():
        asked = CorrectionRequest.objects.select_for_update().get(pk=asked.pk)
        changed = _decide(
            asked,
            CorrectionRequest.State.REJECTED,
            decided_by=actor,
            decided_at=timezone.now(),
            reject_reason=str(reason or "").strip()[:200],
        )
        asked.save(update_fields=changed)
        audit(
            actor=actor,
            code="tables.round.correction_rejected",
            subject=asked.round,
            data={"request": asked.pk, "reason": asked.reject_reason},
        )
    return asked
