"""Corrections of a settled round (issue 23, 2): one of the table's supervisors, with their
PIN, gives the corrected facts (settle.md input); the engine settles them, and the difference
per seat and bet is what the correction writes, as compensating lines (the confirmed ones are
never rewritten). It waits for a second person (correction_approval) unless the property's
threshold lets the supervisor make it alone. docs/architecture/two-person-rules.md."""

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.clock import current_property
from casino.models import Staff
from casino.roles import Role, has_role
from tables import events, live
from tables.errors import IllegalTransition, RoundRefused
from tables.models import Correction, CorrectionRequest, Round
from tables.rules.errors import RulesError
from tables.rules.ruleset import parse_rules
from tables.rules.settle import settle_json
from tables.services._base import require_role
from tables.services.rounds.answers import (
    Outcome,
    RoundWrite,
    check_key,
    remember,
    remembered,
)
from tables.services.rounds.approvals import (
    SecondPerson,
    decision_record,
    supervisor_at_the_tablet,
)
from tables.services.rounds.people import require_round_dealer, require_table_supervisor
from tables.services.rounds.settlement import line_rows, write_lines
from tables.services.rounds.state import refusal, round_read, round_relock
from tables.snapshots import round_snapshot


def round_correct(
    *, round_id: int, actor: Staff, key: str, supervisor, reason, corrected
) -> RoundWrite:
    """One of the table's supervisors asks to correct the facts of a settled round, with
    their PIN, at the tablet (signed in as the table's dealer or as a supervisor). It waits
    (WAITING, `correction_request`) for a second person, who approves it at the pit, unless
    the property sets a threshold and the lines move no more than it: then it is written at
    once (RECORDED), as asked. A correction that would change a progressive hit or wager is
    refused: the meter is corrected with a jackpot adjustment, which two managers approve."""
    key = check_key(key)
    scope = f"round:{round_id}:corrections"
    who = supervisor.get("employee_number") if isinstance(supervisor, dict) else None
    request = {"supervisor": who, "reason": reason, "round": corrected}
    require_role(actor, Role.DEALER, Role.SUPERVISOR)  # before a kept answer is replayed
    if (again := remembered(scope, key, request)) is not None:
        return again
    if not isinstance(reason, str) or not reason.strip():
        raise RoundRefused(
            _("A correction needs its reason."), code="reason_required", field="reason"
        )
    _require_facts(corrected)
    probe = round_read(round_id, lock=False)
    if has_role(actor, Role.SUPERVISOR):
        require_table_supervisor(actor, probe, field=None)
    else:
        require_round_dealer(actor, probe)  # not a dealer of another table
    requester = supervisor_at_the_tablet(
        supervisor, round_=probe, actor=actor, action="tables.round.correct"
    )
    require_table_supervisor(requester.staff, probe, field="supervisor")
    with transaction.atomic():
        round_ = round_relock(probe)
        if (again := remembered(scope, key, request)) is not None:
            return again
        require_settled(round_)
        output, facts = _settle_corrected(round_, corrected)
        rows = compensation(round_, output)
        at = timezone.now()
        if not _alone_enough(rows):
            asked = _correction_ask(
                round_,
                key=key,
                reason=reason.strip(),
                requester=requester,
                actor=actor,
                facts=facts,
                output=output,
                rows=rows,
                at=at,
            )
            body = {**round_snapshot(round_), "correction_request": correction_request_json(asked)}
            return remember(scope, key, request, RoundWrite(Outcome.WAITING, body), actor)
        correction = correction_write(
            round_,
            key=key,
            reason=reason.strip(),
            requested_by=actor,
            approver=requester,
            facts=facts,
            output=output,
            rows=rows,
            at=at,
            asked_by=actor,
        )
        done = RoundWrite(Outcome.RECORDED, round_snapshot(round_))
        written = remember(scope, key, request, done, actor)
        live.announce_round(written.body)
        announce_corrected(round_, correction)
    return written


def correction_preview(*, round_id: int, actor: Staff, corrected) -> dict:
    """What a correction of a settled round would write, shown before anyone signs it: the
    engine's settlement of the corrected facts and the compensating line per seat and bet.
    Writes nothing; refuses what `round_correct` would refuse about the facts."""
    require_role(actor, Role.DEALER, Role.SUPERVISOR)
    _require_facts(corrected)
    round_ = round_read(round_id, lock=False)
    require_settled(round_)
    output, _facts = _settle_corrected(round_, corrected)
    rows = _correction_rows(round_, output)
    return {
        "settlement": output,
        "lines": [
            {"seat": seat, "bet": bet, "net": net} for (seat, bet), (_stake, net) in rows.items()
        ],
    }


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


def _require_facts(corrected) -> None:
    if not isinstance(corrected, dict):
        raise RoundRefused(
            _("The corrected round must be given as settle.md input."),
            code="bad_input",
            field="round",
        )


def require_settled(round_: Round) -> None:
    if round_.stage != Round.Stage.SETTLED:
        raise IllegalTransition(
            _("Only a settled round can be corrected (this one is %(stage)s).")
            % {"stage": round_.get_stage_display()},
            code="not_settled",
        )


def _settle_corrected(round_: Round, corrected: dict) -> tuple[dict, dict]:
    """The corrected facts under the round's own rules and meter, settled by the engine."""
    original = round_.settlement_input
    facts = {**corrected, "rules": round_.rules}
    if "rules" in corrected:
        try:
            same = parse_rules(corrected["rules"]).to_json() == round_.rules
        except RulesError as exc:
            raise refusal(exc) from None
        if not same:
            raise RoundRefused(
                _("A correction cannot change the rules the round was dealt under."),
                code="rules_differ",
                field="round.rules",
            )
    facts.pop("progressive", None)
    if "progressive" in original:
        facts["progressive"] = original["progressive"]
    try:
        output = settle_json(facts)
    except RulesError as exc:
        raise refusal(exc) from None
    if _progressive_of(output) != _progressive_of(round_.settlement):
        raise RoundRefused(
            _(
                "This correction would change a progressive wager or hit. The meter is "
                "corrected with a jackpot adjustment, approved by two managers."
            ),
            code="correction_changes_progressive",
            field="round",
        )
    return output, facts


def _progressive_of(output: dict) -> tuple:
    stakes = sorted(
        (s["seat"], s["bets"]["progressive"]["stake"])
        for s in output["seats"]
        if s["bets"]["progressive"]["stake"]
    )
    hits = [(h["seat"], h["category"], h["amount_cents"]) for h in output["progressive"]["hits"]]
    # Facts that void the round return the progressive wagers, which the meter keeps: only a
    # void approval reverses the contributions.
    returned = bool(stakes) and output.get("void") is not None
    return tuple(stakes), tuple(hits), returned


def _correction_rows(round_: Round, output: dict) -> dict[tuple[int, str], tuple[int, int]]:
    """{(seat, bet): (stake, difference)}: what the corrected settlement `output` changes from
    the round's lines as they stand (the confirmed ones and earlier corrections)."""
    current = {
        (row["seat"], row["bet"]): row["net"]
        for row in round_.lines.values("seat", "bet").annotate(net=Sum("net_cents"))
    }
    wanted = line_rows(output)
    rows = {}
    for place in sorted(set(current) | set(wanted)):
        stake, net = wanted.get(place, (0, 0))
        if net != current.get(place, 0):
            rows[place] = (stake, net - current.get(place, 0))
    return rows


def compensation(round_: Round, output: dict) -> dict:
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


def _correction_ask(
    round_, *, key, reason, requester: SecondPerson, actor, facts, output, rows, at
) -> CorrectionRequest:
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
        requested_by=requester.staff,
        asked_at_tablet_by=actor,
        input=facts,
        output=output,
        lines=[[seat, bet, net] for (seat, bet), (_s, net) in rows.items()],
        amount_cents=_moved(rows),
        requested_at=at,
    )
    decision_record(
        requester,
        code="tables.round.correction_requested",
        subject=round_,
        data={
            "request": asked.pk,
            "reason": reason,
            "asked_by": actor.pk,
            "amount_cents": asked.amount_cents,
            "lines": asked.lines,
        },
    )
    events.tell_after_commit("correction_requested", round_id=round_.pk)
    return asked


def correction_write(
    round_, *, key, reason, requested_by, approver: SecondPerson, facts, output, rows, at, asked_by
) -> Correction:
    """The correction and its compensating lines, audited with the approver's PIN."""
    correction = Correction.objects.create(
        round=round_,
        number=round_.corrections.count() + 1,
        key=key,
        reason=reason,
        requested_by=requested_by,
        supervisor=approver.staff,
        input=facts,
        output=output,
        at=at,
    )
    write_lines(round_, output, {}, at=at, correction=correction, rows=rows)
    decision_record(
        approver,
        code="tables.round.corrected",
        subject=round_,
        data={
            "correction": correction.number,
            "reason": reason,
            "asked_by": asked_by.pk,
            "lines": [[seat, bet, net] for (seat, bet), (_s, net) in rows.items()],
        },
    )
    return correction


def announce_corrected(round_: Round, correction: Correction) -> None:
    events.tell_after_commit("round_corrected", correction_id=correction.pk, round_id=round_.pk)
