"""Par sheets: a manager asks for a rule set's, a Celery task computes it (minutes), once.

`parsheet_request` finds or queues the sheet of the rule set's base game (audited) and hands
the computation to a worker after commit; `parsheet_queue_missing` queues every version's
that nobody asked for, again those computed before the flop's values were kept, and those
whose task or worker was lost (the periodic task); `parsheet_compute`, the task's body, runs the
analysis outside any transaction (it takes minutes), writes its progress as it goes, and
stores the exact figures and the whole sheet (with the flop's values apart, for the cost of
the decisions played), or the failure.
"""

from __future__ import annotations

import datetime as dt
import logging
import time

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from casino.audit import audit
from casino.roles import Role
from casino.transitions import TransitionRefused, move
from tables.models import BaseGameSheet, BaseGameValues, RuleSet
from tables.parsheet import Deck, analyse, base_game_key
from tables.rules.errors import RulesError
from tables.rules.ruleset import parse_rules
from tables.services._base import get_locked, require_role

log = logging.getLogger(__name__)

#: A sheet takes minutes (docs/benchmarks.md, "The par sheet"); queued or running this long,
#: its task or its worker was lost (a broker down when it was asked for, a worker stopped
#: during the run), and it is queued again.
STALE = dt.timedelta(hours=1)

#: How the passes share the progress bar: the tables are quick, each pass about half.
_PHASES = {"tables": (0, 20), "values": (20, 510), "outcomes": (510, 1000)}


def parsheet_request(*, ruleset_id: int, manager) -> BaseGameSheet:
    """The par sheet of a rule set version's base game: the one already computed or under
    way, or a new computation queued (a failed one is queued again)."""
    require_role(manager, Role.MANAGER)
    from tables.tasks import compute_parsheet

    with transaction.atomic():
        ruleset = get_locked(RuleSet, ruleset_id)
        key = base_game_key(parse_rules(ruleset.engine_rules()))
        now = timezone.now()
        sheet, created = BaseGameSheet.objects.select_for_update().get_or_create(
            rules_key=key, defaults={"requested_by": manager, "status_since": now}
        )
        if not created and not _queue_again(sheet, now=now, requested_by=manager):
            return sheet  # computed, or under way
        audit(
            actor=manager,
            code="tables.parsheet.requested",
            subject=ruleset,
            data={"rules": key, "sheet": sheet.pk, "again": not created},
        )
        sheet_id = sheet.pk
        # Robust: a broker down leaves the sheet queued, taken again once STALE.
        transaction.on_commit(lambda: compute_parsheet.delay(sheet_id), robust=True)
    return sheet


def _queue_again(sheet: BaseGameSheet, *, now, **stamps) -> bool:
    """Queue `sheet` again (saved) if it failed, or if it has been queued or running for
    STALE; False, and nothing changed, otherwise (computed, or under way)."""
    status = BaseGameSheet.Status
    since = sheet.status_since or sheet.requested_at
    if sheet.status == status.DONE or (sheet.status != status.FAILED and since > now - STALE):
        return False
    stamps.update(progress_permille=0, error="", status_since=now)
    if sheet.status == status.QUEUED:  # its task was lost: queued as it is, from now
        for name, value in stamps.items():
            setattr(sheet, name, value)
        sheet.save(update_fields=list(stamps))
    else:
        sheet.save(update_fields=move(sheet, status.QUEUED, field="status", **stamps))
    return True


def parsheet_queue_missing() -> list[BaseGameSheet]:
    """Queue the par sheet of every rule set version's base game that has none yet (the
    periodic task's first step, so that every version gets one without anybody asking):
    the sheets queued, each audited."""
    keys: dict[str, RuleSet] = {}
    for ruleset in RuleSet.objects.select_related("blind_paytable", "trips_paytable"):
        try:
            key = base_game_key(parse_rules(ruleset.engine_rules()))
        except RulesError:  # a version the engine no longer accepts: nothing to compute
            continue
        keys.setdefault(key, ruleset)
    queued = []
    now = timezone.now()
    with transaction.atomic():
        known = set(
            BaseGameSheet.objects.filter(rules_key__in=keys).values_list("rules_key", flat=True)
        )
        for key, ruleset in keys.items():
            if key in known:
                continue
            sheet = BaseGameSheet.objects.create(rules_key=key, status_since=now)
            audit(
                actor=None,
                code="tables.parsheet.requested",
                subject=ruleset,
                data={"rules": key, "sheet": sheet.pk, "again": False},
            )
            queued.append(sheet)
        # A sheet computed before the flop's values were kept prices no decision: again. So is
        # one whose task or worker was lost.
        status = BaseGameSheet.Status
        again = BaseGameSheet.objects.select_for_update(of=("self",)).filter(
            Q(status=status.DONE, values__isnull=True)
            | Q(status__in=[status.QUEUED, status.RUNNING])
        )
        for sheet in again.order_by("pk"):
            if sheet.status == status.DONE:
                sheet.save(
                    update_fields=move(
                        sheet, status.QUEUED, field="status", progress_permille=0, status_since=now
                    )
                )
            elif not _queue_again(sheet, now=now):
                continue
            audit(
                actor=None,
                code="tables.parsheet.requested",
                subject=sheet,
                data={"rules": sheet.rules_key, "sheet": sheet.pk, "again": True},
            )
            queued.append(sheet)
    return queued


def parsheet_compute(*, sheet_id: int, deck: Deck | None = None) -> BaseGameSheet:
    """Compute a queued sheet (`deck`: a reduced deck, for the tests' sake of time)."""
    with transaction.atomic():
        sheet = get_locked(BaseGameSheet, sheet_id)
        try:
            started = move(
                sheet, BaseGameSheet.Status.RUNNING, field="status", status_since=timezone.now()
            )
        except TransitionRefused:
            return sheet  # done, failed, or taken by another worker
        sheet.save(update_fields=started)
    rules = parse_rules(_rules_of(sheet.rules_key))
    shown = [-1, 0.0]

    def progress(phase: str, done: int, total: int) -> None:
        low, high = _PHASES.get(phase, (0, 1000))
        permille = low + (high - low) * done // max(total, 1)
        # A row update every 1 % and at most once a second: the page polls, the run goes on.
        if permille - shown[0] >= 10 and time.monotonic() - shown[1] >= 1:
            shown[:] = [permille, time.monotonic()]
            BaseGameSheet.objects.filter(pk=sheet_id).update(progress_permille=permille)

    try:
        result = analyse(rules, deck, progress=progress)
    except Exception as exc:
        log.exception("the par sheet %s failed", sheet_id)
        with transaction.atomic():
            sheet = get_locked(BaseGameSheet, sheet_id)
            if not _finish(sheet, BaseGameSheet.Status.FAILED, error=repr(exc)):
                raise
            audit(
                actor=None,
                code="tables.parsheet.failed",
                subject=None,
                data={"sheet": sheet_id, "error": repr(exc)},
            )
        raise
    with transaction.atomic():
        sheet = get_locked(BaseGameSheet, sheet_id)
        done = _finish(
            sheet,
            BaseGameSheet.Status.DONE,
            progress_permille=1000,
            house_edge=str(result.house_edge),
            element_of_risk=str(result.element_of_risk),
            sheet=result.to_json(),
            seconds=result.seconds,
        )
        if not done:
            return sheet
        flop = result.flop_values.to_bytes()
        BaseGameValues.objects.update_or_create(
            sheet=sheet, defaults={"flop": flop, "size_bytes": len(flop)}
        )
        audit(
            actor=None,
            code="tables.parsheet.computed",
            subject=None,
            data={"sheet": sheet_id, "rules": sheet.rules_key, "house_edge": sheet.house_edge},
        )
    return sheet


def _finish(found: BaseGameSheet, to, /, **stamps) -> bool:
    """The run's end, saved; False when the sheet was queued again meanwhile as lost (STALE):
    the later run writes it."""
    now = timezone.now()
    try:
        ended = move(found, to, field="status", finished_at=now, status_since=now, **stamps)
    except TransitionRefused:
        log.warning("the par sheet %s was taken again while this run went on", found.pk)
        return False
    found.save(update_fields=ended)
    return True


def _rules_of(key: str) -> dict:
    import json

    return json.loads(key)
