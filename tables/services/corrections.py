"""A correction's second person (issue 23, 2): a correction asked for at the tablet by one of
the table's supervisors (tables.services.rounds.round_correct) waits, unless the property's
threshold lets that supervisor make it alone, for a supervisor or manager independent of the
requester and of everyone who had a hand in the round, who approves it at the pit
(`round_correction_approve`, with their PIN) or rejects it (`round_correction_reject`).
docs/architecture/two-person-rules.md."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit, audit_many
from casino.clock import current_property
from casino.duties import require_independent
from casino.errors import TwoPeopleRequired
from casino.live import after_commit
from casino.models import Pit, Staff
from casino.pins import pin_approve
from casino.roles import Role, has_role
from tables import events, live
from tables.errors import IllegalTransition, NotFound, RoundRefused
from tables.models import Correction, CorrectionRequest, Round
from tables.services._base import require_role
from tables.services.rounds import (
    Written,
    _correction_rows,
    _remember,
    _round_hands,
    _round_read,
    _round_relock,
    _write_lines,
)
from tables.snapshots import round_snapshot


def _require_table_supervisor(staff: Staff, round_: Round, *, field) -> None:
    """A supervisor of the round's pit: one the pit names, or any when it names none."""
    named = Pit.supervisors.through.objects.filter(pit_id=round_.table.pit_id)
    if not has_role(staff, Role.SUPERVISOR) or (
        named.exists() and not named.filter(staff_id=staff.pk).exists()
    ):
        raise RoundRefused(
            _("Only a supervisor of %(table)s's pit may ask for a correction (not %(name)s).")
            % {"table": round_.table, "name": staff},
            code="not_table_supervisor",
            field=field,
        )


def _compensation(round_: Round, output: dict) -> dict:
    """{(seat, bet): (stake, net)}: what `output` changes of the round's lines as they stand;
    refused when it changes nothing."""
    rows = _correction_rows(round_, output)
    if not rows:
        raise RoundRefused(
            _("These facts settle to the same payouts: there is nothing to correct."),
            code="nothing_to_correct",
            field="round",
        )
    return rows


def _moved(rows: dict) -> int:
    return sum(abs(net) for _stake, net in rows.values())


def _alone_enough(rows: dict) -> bool:
    """Whether the property lets the table's supervisor make this correction alone: it sets
    a threshold, and the lines move no more than it. By default, never."""
    prop = current_property()
    threshold = prop.correction_threshold_cents if prop is not None else None
    return threshold is not None and _moved(rows) <= threshold


def _correction_write(
    round_, *, key, reason, requested_by, approver, facts, output, rows, at, approval, asked_by
) -> Correction:
    """The correction and its compensating lines, audited with the approver's PIN."""
    correction = Correction.objects.create(
        round=round_,
        number=round_.corrections.count() + 1,
        key=key,
        reason=reason,
        requested_by=requested_by,
        supervisor=approver,
        input=facts,
        output=output,
        at=at,
    )
    _write_lines(round_, output, {}, at=at, correction=correction, rows=rows)
    corrected_entry = {
        "actor": approver,
        "code": "tables.round.corrected",
        "subject": round_,
        "data": {
            "correction": correction.number,
            "reason": reason,
            "asked_by": asked_by.pk,
            "lines": [[seat, bet, net] for (seat, bet), (_s, net) in rows.items()],
        },
    }
    audit_many([approval.entry, corrected_entry])
    return correction


def _announce_corrected(round_: Round, correction: Correction) -> None:
    after_commit(
        lambda: events.round_corrected.send(
            sender=Round, correction_id=correction.pk, round_id=round_.pk
        )
    )


def correction_request_json(asked: CorrectionRequest) -> dict:
    return {
        "id": asked.pk,
        "state": asked.state,
        "reason": asked.reason,
        "requested_by": {"id": asked.requested_by_id, "name": str(asked.requested_by)},
        "requested_at": asked.requested_at.isoformat(),
        "amount_cents": asked.amount_cents,
        "lines": [{"seat": seat, "bet": bet, "net": net} for seat, bet, net in asked.lines],
    }


def _correction_ask(
    round_, *, key, reason, requester, actor, facts, output, rows, at, approval, remember
) -> Written:
    """The correction waits for a second person: kept as asked, shown in the pit's queue."""
    if round_.correction_requests.filter(state=CorrectionRequest.State.REQUESTED).exists():
        raise RoundRefused(
            _(
                "A correction of this round already waits for a second approval: it is "
                "approved or rejected at the pit first."
            ),
            code="correction_pending",
            field="round",
        )
    asked = CorrectionRequest.objects.create(
        round=round_,
        key=key,
        reason=reason,
        requested_by=requester,
        asked_at_tablet_by=actor,
        input=facts,
        output=output,
        lines=[[seat, bet, net] for (seat, bet), (_s, net) in rows.items()],
        amount_cents=_moved(rows),
        requested_at=at,
    )
    body = {**round_snapshot(round_), "correction_request": correction_request_json(asked)}
    scope, request = remember
    written = _remember(scope, key, request, Written(202, body), actor)
    audit_many(
        [
            approval.entry,
            {
                "actor": requester,
                "code": "tables.round.correction_requested",
                "subject": round_,
                "data": {
                    "request": asked.pk,
                    "reason": reason,
                    "asked_by": actor.pk,
                    "amount_cents": asked.amount_cents,
                    "lines": asked.lines,
                },
            },
        ]
    )
    after_commit(lambda: events.correction_requested.send(sender=Round, round_id=round_.pk))
    return written


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


def round_correction_approve(*, request_id: int, approver: Staff, pin) -> CorrectionRequest:
    """The second person approves a waiting correction, signed in as themselves and with
    their PIN typed again: a supervisor or a manager who is neither the requester nor anyone
    who had a hand in the round, and independent of each (casino.duties). The correction is
    then written, on the round's lines as they stand now."""
    require_role(approver, Role.SUPERVISOR, Role.MANAGER)
    asked = _correction_request_read(request_id)
    probe = _round_read(asked.round_id, lock=False)
    approval = pin_approve(
        employee_number=str(approver.employee_number or ""),
        pin=str(pin or ""),
        role=Role.SUPERVISOR if has_role(approver, Role.SUPERVISOR) else Role.MANAGER,
    )
    askers = {asked.requested_by_id: asked.requested_by}
    askers[asked.asked_at_tablet_by_id] = asked.asked_at_tablet_by
    askers.setdefault(probe.dealer_id, probe.dealer)
    for person in _round_hands(probe, known=askers):
        askers[person.pk] = person
    for asker in askers.values():
        try:
            require_independent(
                approver=approval.staff,
                asker=asker,
                action="tables.round.correct",
                subject=probe,
                by_pin=True,
            )
        except TwoPeopleRequired as exc:
            raise RoundRefused(exc.message, code=exc.code, field="pin") from exc
    with transaction.atomic():
        round_ = _round_relock(probe)
        asked = CorrectionRequest.objects.select_for_update().get(pk=asked.pk)
        if asked.state != CorrectionRequest.State.REQUESTED:
            raise _closed(asked)
        rows = _compensation(round_, asked.output)
        at = timezone.now()
        correction = _correction_write(
            round_,
            key=asked.key,
            reason=asked.reason,
            requested_by=asked.requested_by,
            approver=approval.staff,
            facts=asked.input,
            output=asked.output,
            rows=rows,
            at=at,
            approval=approval,
            asked_by=asked.requested_by,
        )
        asked.state = CorrectionRequest.State.APPROVED
        asked.decided_by, asked.decided_at, asked.correction = approval.staff, at, correction
        asked.save(update_fields=["state", "decided_by", "decided_at", "correction"])
        live.announce_round(round_snapshot(round_))
        _announce_corrected(round_, correction)
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
        if asked.state != CorrectionRequest.State.REQUESTED:
            raise _closed(asked)
        asked.state = CorrectionRequest.State.REJECTED
        asked.decided_by, asked.decided_at = actor, timezone.now()
        asked.reject_reason = str(reason or "").strip()[:200]
        asked.save(update_fields=["state", "decided_by", "decided_at", "reject_reason"])
        audit(
            actor=actor,
            code="tables.round.correction_rejected",
            subject=asked.round,
            data={"request": asked.pk, "reason": asked.reject_reason},
        )
    return asked
