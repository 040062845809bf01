"""Paytables and rule sets, versioned: created, revised (a version a round used or a table
plays never changes: the change becomes the next version), deployed to the tables, marked
used by the first round.

Managers configure; every change is audited in its transaction.

A paytable is also checked by the engine's math (`tables.rules.paymath.check_paytable`): what
it refuses (a line that pays nothing, odds beyond the sane bound, no winning line) is never
saved, and what it warns of (the player has the edge, far from the presets, a hand paying
more than a better one) needs the manager's confirmation, which is audited. A caller that
shows the manager the warnings (the paytable editor) passes `confirm` True or False; one that
does not (the demo, scripts) leaves it None and the warnings are still written in the audit.
"""

import datetime as dt
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit
from casino.duties import require_independent
from casino.models import Staff
from casino.roles import Role
from casino.transitions import TransitionRefused, move
from tables.errors import ConfigurationRefused
from tables.forms_math import paytable_findings
from tables.models import ENGINE_FIELDS, Paytable, RuleSet, RulesetDeployment, Table
from tables.services._base import UNSET, get_locked, require_role, validate, values
from tables.services.floor import table_configure_as_approved

RULESET_FIELDS = tuple(
    f"{name}_id" if name.endswith("paytable") else name for name in ENGINE_FIELDS
)


# Paytables and rule sets (versioned) ----------------------------------------------------------


def _next_version(model, name: str) -> int:
    return (model.objects.filter(name=name).aggregate(top=Max("version"))["top"] or 0) + 1


def _check_findings(paytable: Paytable, confirm: bool | None) -> list[dict]:
    """Refuse what the engine's math refuses; refuse unconfirmed warnings when the caller
    showed them (`confirm` False); the warnings, for the audit entry."""
    findings = paytable_findings(paytable)
    refused_now = [f for f in findings if f.refused]
    if refused_now:
        raise ConfigurationRefused(
            "; ".join(f.message for f in refused_now),
            errors={
                f.field: [g.message for g in refused_now if g.field == f.field] for f in refused_now
            },
        )
    if findings and confirm is False:
        raise ConfigurationRefused(
            _("This paytable needs your confirmation: %(warnings)s")
            % {"warnings": "; ".join(f.message for f in findings)},
            errors={"confirm": [f.message for f in findings]},
        )
    return [{"code": f.code, "category": f.category, "message": f.english} for f in findings]


def _audit_warnings(manager: Staff, paytable: Paytable, warnings: list[dict], confirm) -> None:
    if warnings and confirm:
        audit(
            actor=manager,
            code="tables.paytable.warnings_confirmed",
            subject=paytable,
            data={"name": paytable.name, "version": paytable.version, "warnings": warnings},
        )


def paytable_create(
    *,
    manager: Staff,
    kind: str,
    name: str,
    name_en: str = "",
    preset: str = "",
    lines: dict | None = None,
    confirm: bool | None = None,
) -> Paytable:
    """Version 1 of a new paytable: an engine preset ("A".."D") or explicit lines. `name` is
    the French name, `name_en` the English one (empty: the French everywhere)."""
    require_role(manager, Role.MANAGER)
    with transaction.atomic():
        paytable = Paytable(
            kind=kind,
            name=name,
            name_en=name_en,
            preset=preset,
            lines=lines or {},
            created_by=manager,
        )
        validate(paytable)
        warnings = _check_findings(paytable, confirm)
        paytable.save()
        audit(
            actor=manager,
            code="tables.paytable.created",
            subject=paytable,
            data={
                "name": name,
                "version": 1,
                "kind": kind,
                "value": paytable.engine_value(),
                "warnings": warnings,
            },
        )
        _audit_warnings(manager, paytable, warnings, confirm)
    return paytable


def paytable_revise(
    *,
    paytable_id: int,
    manager: Staff,
    preset: str = UNSET,
    lines: dict = UNSET,
    new_version: bool = False,
    confirm: bool | None = None,
) -> Paytable:
    """Change a paytable. A version a round used, or that a table plays through its rule set,
    is never touched: the change becomes the family's next version (returned), which tables
    get through a new version of their rule set (`ruleset_follow_paytable`, then
    `ruleset_deploy`). Any other version is changed in place unless `new_version` asks for a
    new one anyway."""
    require_role(manager, Role.MANAGER)
    with transaction.atomic():
        current = get_locked(Paytable, paytable_id)
        before = {"preset": current.preset, "lines": current.lines}
        if new_version or current.frozen_because() is not None:
            target = Paytable(
                kind=current.kind,
                name=current.name,
                name_en=current.name_en,
                version=_next_version(Paytable, current.name),
                preset=current.preset,
                lines=dict(current.lines),
                created_by=manager,
            )
        else:
            target = current
        if preset is not UNSET:
            target.preset = preset
            target.lines = {}  # a preset brings its own lines (see Paytable.clean)
        if lines is not UNSET:
            target.lines = lines
        validate(target)
        warnings = _check_findings(target, confirm)
        target.save()
        audit(
            actor=manager,
            code="tables.paytable.versioned"
            if target is not current
            else "tables.paytable.revised",
            subject=target,
            data={
                "name": target.name,
                "from_version": current.version,
                "version": target.version,
                "before": before,
                "after": {"preset": target.preset, "lines": target.lines},
                "warnings": warnings,
            },
        )
        _audit_warnings(manager, target, warnings, confirm)
    return target


def _refuse_unknown_fields(fields) -> None:
    unknown = set(fields) - set(RULESET_FIELDS)
    if unknown:
        raise ConfigurationRefused(
            _("Unknown rule set fields: %(fields)s.") % {"fields": ", ".join(sorted(unknown))}
        )


def ruleset_create(*, manager: Staff, name: str, name_en: str = "", **rules: Any) -> RuleSet:
    """Version 1 of a new rule set. `rules` are RuleSet fields (`blind_paytable_id`, ...);
    `name` is the French name, `name_en` the English one (empty: the French everywhere)."""
    require_role(manager, Role.MANAGER)
    _refuse_unknown_fields(rules)
    with transaction.atomic():
        ruleset = RuleSet(name=name, name_en=name_en, created_by=manager, **rules)
        validate(ruleset)
        ruleset.save()
        audit(
            actor=manager,
            code="tables.ruleset.created",
            subject=ruleset,
            data={"name": name, "version": 1, "rules": ruleset.engine_rules()},
        )
    return ruleset


def ruleset_revise(
    *, ruleset_id: int, manager: Staff, new_version: bool = False, **changes: Any
) -> RuleSet:
    """Change a rule set. A version a round used or a table plays is never touched: the change
    becomes the family's next version (returned), to which `ruleset_deploy` then moves the
    tables; any other version is changed in place unless `new_version` asks for a new one."""
    require_role(manager, Role.MANAGER)
    _refuse_unknown_fields(changes)
    with transaction.atomic():
        current = get_locked(RuleSet, ruleset_id)
        before = current.engine_rules()
        if new_version or current.frozen_because() is not None:
            target = RuleSet(
                name=current.name,
                name_en=current.name_en,
                version=_next_version(RuleSet, current.name),
                created_by=manager,
                **values(current, RULESET_FIELDS),
            )
        else:
            target = current
        for field, value in changes.items():
            setattr(target, field, value)
        validate(target)
        target.save()
        audit(
            actor=manager,
            code="tables.ruleset.versioned" if target is not current else "tables.ruleset.revised",
            subject=target,
            data={
                "name": target.name,
                "from_version": current.version,
                "version": target.version,
                "before": before,
                "after": target.engine_rules(),
            },
        )
    return target


def ruleset_follow_paytable(*, paytable_id: int, manager: Staff) -> list[RuleSet]:
    """Bring a new paytable version to the tables: for each rule set family that tables play
    with another version of this paytable's family, the next rule set version, made from the
    latest such version with this paytable instead. Returned in name order; `ruleset_deploy`
    then moves each family's tables to it."""
    require_role(manager, Role.MANAGER)
    with transaction.atomic():
        paytable = get_locked(Paytable, paytable_id)
        field = paytable.ruleset_field
        played = (
            RuleSet.objects.filter(tables__isnull=False, **{f"{field}__name": paytable.name})
            .exclude(**{field: paytable})
            .distinct()
            .order_by("name", "-version")
        )
        latest: dict[str, RuleSet] = {}
        for ruleset in played:
            latest.setdefault(ruleset.name, ruleset)
        return [
            ruleset_revise(
                ruleset_id=ruleset.pk,
                manager=manager,
                new_version=True,
                **{f"{field}_id": paytable.pk},
            )
            for ruleset in latest.values()
        ]


def ruleset_deploy(*, ruleset_id: int, manager: Staff) -> tuple[list, list[Table]]:
    """Ask for the family's tables to move from its other versions to this one: one
    deployment request per closed table, each approved by a second manager
    (ruleset_deployment_approve); open tables are returned second, to be asked for once they
    close. Returns (the deployments asked for, the open tables)."""
    require_role(manager, Role.MANAGER)
    ruleset = RuleSet.objects.filter(pk=ruleset_id).first()
    if ruleset is None:
        raise ConfigurationRefused(_("There is no rule set #%(id)s.") % {"id": ruleset_id})
    others = (
        Table.objects.filter(ruleset__name=ruleset.name).exclude(ruleset=ruleset).order_by("name")
    )
    asked, still_open = [], []
    for table in others:
        if table.is_open:
            still_open.append(table)
            continue
        asked.append(
            ruleset_deployment_request(table_id=table.pk, ruleset_id=ruleset.pk, manager=manager)
        )
    return asked, still_open


def ruleset_deployment_request(
    *, table_id: int, ruleset_id: int, manager: Staff, reason: str = ""
) -> RulesetDeployment:
    """A manager asks for a table to play another version of its rule set family (another
    family is another game: a new table). One request waits per table. For a new table whose
    rule set no second manager has approved yet (`table_create`), it is the table's first
    rule set (no `previous`): any version of its family, the one it has included."""
    require_role(manager, Role.MANAGER)
    with transaction.atomic():
        table = get_locked(Table, table_id)
        ruleset = RuleSet.objects.filter(pk=ruleset_id).first()
        if ruleset is None or ruleset.name != table.ruleset.name:
            raise ConfigurationRefused(
                _("Choose a version of %(table)s's rule set.") % {"table": table},
                code="bad_ruleset",
            )
        first = not table.ruleset_approved
        if ruleset.pk == table.ruleset_id and not first:
            raise ConfigurationRefused(
                _("%(table)s already plays %(ruleset)s.") % {"table": table, "ruleset": ruleset},
                code="nothing_to_deploy",
            )
        if table.deployments.filter(state=RulesetDeployment.State.REQUESTED).exists():
            raise ConfigurationRefused(
                _(
                    "A rule set deployment already waits for %(table)s: a second manager "
                    "approves or rejects it first."
                )
                % {"table": table},
                code="deployment_pending",
            )
        deployment = RulesetDeployment.objects.create(
            table=table,
            ruleset=ruleset,
            previous_id=None if first else table.ruleset_id,
            reason=str(reason or "").strip()[:200],
            requested_by=manager,
            requested_at=timezone.now(),
        )
        audit(
            actor=manager,
            code="tables.ruleset.deployment_requested",
            subject=table,
            data={
                "deployment": deployment.pk,
                "from": deployment.previous_id,
                "to": ruleset.pk,
            },
        )
    return deployment


def _deployment_decided(
    deployment_id, to: str, *, manager: Staff
) -> tuple[RulesetDeployment, list[str]]:
    """The waiting deployment, locked and moved to `to` (not saved): with the fields to save."""
    deployment = (
        RulesetDeployment.objects.select_for_update(of=("self",))
        .select_related("table", "ruleset")
        .filter(pk=deployment_id)
        .first()
    )
    if deployment is None:
        raise ConfigurationRefused(
            _("There is no rule set deployment #%(id)s.") % {"id": deployment_id},
            code="not_found",
        )
    try:
        changed = move(deployment, to, decided_by=manager, decided_at=timezone.now())
    except TransitionRefused:
        raise ConfigurationRefused(
            _("Rule set deployment #%(id)s is %(state)s: it cannot be decided again.")
            % {"id": deployment.pk, "state": deployment.get_state_display()},
            code="deployment_closed",
        ) from None
    return deployment, changed


def ruleset_deployment_approve(*, deployment_id: int, manager: Staff) -> RulesetDeployment:
    """A second manager, independent of the one who asked (casino.duties), approves: the
    table (closed) plays the version from now on. An open table is refused; the request
    waits until it closes. A new table's first rule set approved, the table may open."""
    require_role(manager, Role.MANAGER)
    asked = RulesetDeployment.objects.select_related("requested_by").filter(pk=deployment_id)
    asked = asked.first()
    if asked is not None:  # checked before the locks, audited if refused
        require_independent(
            approver=manager,
            asker=asked.requested_by,
            action="tables.ruleset.deploy",
            subject=asked.table,
        )
    with transaction.atomic():
        deployment, changed = _deployment_decided(
            deployment_id, RulesetDeployment.State.APPROVED, manager=manager
        )
        changes = {"ruleset_id": deployment.ruleset_id}
        if deployment.previous_id is None:
            changes["ruleset_approved"] = True
        table_configure_as_approved(
            table_id=deployment.table_id, manager=manager, changes=changes, deployment=True
        )
        deployment.save(update_fields=changed)
        audit(
            actor=manager,
            code="tables.ruleset.deployment_approved",
            subject=deployment.table,
            data={
                "deployment": deployment.pk,
                "to": deployment.ruleset_id,
                "asked_by": deployment.requested_by_id,
            },
        )
    return deployment


def ruleset_deployment_reject(*, deployment_id: int, manager: Staff) -> RulesetDeployment:
    """Any manager rejects a waiting deployment (or the one who asked withdraws it)."""
    require_role(manager, Role.MANAGER)
    with transaction.atomic():
        deployment, changed = _deployment_decided(
            deployment_id, RulesetDeployment.State.REJECTED, manager=manager
        )
        deployment.save(update_fields=changed)
        audit(
            actor=manager,
            code="tables.ruleset.deployment_rejected",
            subject=deployment.table,
            data={"deployment": deployment.pk},
        )
    return deployment


def ruleset_mark_used(*, ruleset_id: int, at: dt.datetime | None = None) -> RuleSet:
    """Called by the round that first deals under a rule set version, inside its transaction:
    from then on the version and its paytables are frozen (a change makes a new version)."""
    at = at or timezone.now()
    # Every round calls this: once the version is used, answer without taking the row lock,
    # so that the tables sharing a rule set never wait on each other.
    already = RuleSet.objects.filter(pk=ruleset_id, used_at__isnull=False).first()
    if already is not None:
        return already
    with transaction.atomic():
        ruleset = get_locked(RuleSet, ruleset_id)
        if ruleset.is_used:
            return ruleset
        paytable_ids = [
            pk
            for pk in (
                ruleset.blind_paytable_id,
                ruleset.trips_paytable_id,
                ruleset.progressive_paytable_id,
                ruleset.envy_paytable_id,
            )
            if pk is not None
        ]
        # update() on purpose: the model's save() refuses to touch a used row, and these
        # rows only go from unused to used here.
        Paytable.objects.filter(pk__in=paytable_ids, used_at__isnull=True).update(used_at=at)
        RuleSet.objects.filter(pk=ruleset.pk).update(used_at=at)
        ruleset.used_at = at
        audit(
            actor=None,
            code="tables.ruleset.used",
            subject=ruleset,
            data={"name": ruleset.name, "version": ruleset.version, "paytables": paytable_ids},
        )
    return ruleset
