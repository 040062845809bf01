"""Parameter changes: one manager asks, another, independent of the first, approves; they
apply after the next top-level hit, or at once while the bank is closed (NY 5321.18(b)(4),
NZ 1.28.3)."""

import re

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.audit import audit
from casino.roles import Role
from casino.transitions import TransitionRefused, move
from jackpot import feed
from jackpot.errors import (
    InvalidParameters,
    ParameterChangeClosed,
    ParameterChangeNotFound,
    ParameterChangePending,
)
from jackpot.models import PARAMETER_FIELDS, PPM, Bank, Hit, ParameterChange
from jackpot.services._base import require_role, require_two_people
from jackpot.services._checks import MAX_CENTS, is_whole, shown
from jackpot.services.posting import bank_lock_and_post

_LEVEL_NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
#: The wager column is a PositiveIntegerField; no progressive wager comes near it.
_MAX_WAGER_CENTS = 2**31 - 1
_LABEL_LENGTH = 80
_OPEN_STATES = (ParameterChange.State.REQUESTED, ParameterChange.State.APPROVED)


def _whole(params: dict, name: str, *, minimum: int, maximum: int) -> int:
    value = params.get(name)
    # The bound is checked here, before any transaction: 2**70 as a reset amount would
    # otherwise overflow the BigInteger columns halfway through the hit that reseeds with it.
    if not is_whole(value) or not minimum <= value <= maximum:
        raise InvalidParameters(
            _(
                "The parameter %(name)s must be a whole number from %(min)s to %(max)s (got "
                "%(value)s)."
            )
            % {"name": name, "min": minimum, "max": maximum, "value": shown(value)}
        )
    return value


def _label(tier: dict, key: str, name: str) -> str:
    value = tier.get(key)
    if value is None or value == "":
        return name
    if not isinstance(value, str) or "\x00" in value or len(value) > _LABEL_LENGTH:
        raise InvalidParameters(
            _("The labels of level %(v)s must be text of at most %(max)s characters.")
            % {"v": name, "max": _LABEL_LENGTH}
        )
    return value


def _levels(levels) -> list[dict]:
    if not isinstance(levels, list) or not levels:
        raise InvalidParameters(_("A bank needs at least one level."))
    clean, seen = [], set()
    for tier in levels:
        if not isinstance(tier, dict):
            raise InvalidParameters(_("Each level is an object with a level and a percent."))
        name = tier.get("level")
        if not isinstance(name, str) or not _LEVEL_NAME.fullmatch(name):
            raise InvalidParameters(
                _("Level names are short lowercase words such as royal_flush (got %(v)s).")
                % {"v": shown(name)}
            )
        if name in seen:
            raise InvalidParameters(_("Level %(v)s appears twice.") % {"v": name})
        seen.add(name)
        percent = tier.get("percent")
        if isinstance(percent, bool) or not isinstance(percent, int) or not 1 <= percent <= 100:
            raise InvalidParameters(
                _("The percent of level %(v)s must be a whole number from 1 to 100.") % {"v": name}
            )
        clean.append(
            {
                "level": name,
                "percent": percent,
                "label_fr": _label(tier, "label_fr", name),
                "label_en": _label(tier, "label_en", name),
            }
        )
    if sum(1 for t in clean if t["percent"] == 100) != 1:
        raise InvalidParameters(_("Exactly one level, the top one, pays 100 percent of the meter."))
    return sorted(clean, key=lambda t: -t["percent"])


def validate_parameters(params: dict) -> dict:
    """The full parameter set, checked and normalised; raises InvalidParameters."""
    if not isinstance(params, dict) or not all(isinstance(k, str) for k in params):
        raise InvalidParameters(_("The parameters are an object of named values."))
    unknown = set(params) - set(PARAMETER_FIELDS)
    if unknown:
        raise InvalidParameters(
            _("Unknown parameter(s): %(names)s.") % {"names": ", ".join(sorted(unknown))}
        )
    clean = {
        "wager_cents": _whole(params, "wager_cents", minimum=1, maximum=_MAX_WAGER_CENTS),
        "reset_cents": _whole(params, "reset_cents", minimum=1, maximum=MAX_CENTS),
        "increment_rate_ppm": _whole(params, "increment_rate_ppm", minimum=0, maximum=PPM),
        "hidden_rate_ppm": _whole(params, "hidden_rate_ppm", minimum=0, maximum=PPM),
        "cap_cents": None,
        "levels": _levels(params.get("levels")),
    }
    if clean["increment_rate_ppm"] + clean["hidden_rate_ppm"] > PPM:
        raise InvalidParameters(
            _("The increment and hidden rates together cannot exceed 100% (1,000,000 ppm).")
        )
    if params.get("cap_cents") is not None:
        clean["cap_cents"] = _whole(
            params, "cap_cents", minimum=clean["reset_cents"], maximum=MAX_CENTS
        )
    return clean


def apply_parameters(bank: Bank, params: dict) -> list[str]:
    """Set the bank's parameters in memory (the caller saves); returns the fields changed."""
    changed = [name for name in PARAMETER_FIELDS if getattr(bank, name) != params[name]]
    for name in changed:
        setattr(bank, name, params[name])
    return changed


def _change_for_update(change_id: int) -> tuple[Bank, ParameterChange]:
    bank_id = ParameterChange.objects.filter(pk=change_id).values_list("bank_id", flat=True).first()
    if bank_id is None:
        raise ParameterChangeNotFound(
            _("There is no parameter change #%(id)s.") % {"id": change_id}
        )
    bank = bank_lock_and_post(bank_id)  # always bank first, then the change: one lock order
    change = ParameterChange.objects.select_for_update(no_key=True).get(pk=change_id)
    return bank, change


def apply_pending_change(bank: Bank, *, actor=None, hit: Hit | None = None, strict=True):
    """Apply the approved change waiting on `bank`, if any (bank locked; caller saves it).

    Outside a hit, a new cap below the meter cannot apply: `strict` raises, otherwise the
    change keeps waiting for the next top-level hit."""
    change = (
        ParameterChange.objects.select_for_update(no_key=True)
        .filter(bank=bank, state=ParameterChange.State.APPROVED)
        .order_by("approved_at", "pk")
        .first()
    )
    if change is None:
        return None
    if not hit and change.params.get("cap_cents") is not None:
        if change.params["cap_cents"] < bank.meter_cents:
            # WAC 230-15-685: a cap must be at least the current amount.
            if not strict:
                return None
            raise InvalidParameters(
                _("The new cap (%(cap)s cents) is below the meter (%(meter)s cents).")
                % {"cap": change.params["cap_cents"], "meter": bank.meter_cents}
            )
    change.before = bank.parameters()
    changed = apply_parameters(bank, change.params)
    applied = move(
        change, ParameterChange.State.APPLIED, applied_at=timezone.now(), applied_after_hit=hit
    )
    change.save(update_fields=["before", *applied])
    bank.save(update_fields=list(PARAMETER_FIELDS))
    audit(
        actor=actor,
        code="jackpot.parameters.applied",
        subject=change,
        data={
            "bank": bank.slug,
            "changed": changed,
            "before": {k: change.before[k] for k in changed},
            "after": {k: change.params[k] for k in changed},
            "after_hit": hit.order if hit else None,
        },
    )
    return change


def parameter_change_request(
    *, bank_id: int, params: dict, reason: str, manager
) -> ParameterChange:
    """Ask for new parameters; `params` names only what changes. One open change per bank."""
    require_role(manager, Role.MANAGER)
    if not reason or not reason.strip():
        raise InvalidParameters(_("A parameter change needs its reason."))
    with transaction.atomic():
        bank = bank_lock_and_post(bank_id)
        if ParameterChange.objects.filter(bank=bank, state__in=_OPEN_STATES).exists():
            raise ParameterChangePending(
                _("%(bank)s already has a parameter change waiting: approve or reject it first.")
                % {"bank": bank.name}
            )
        current = bank.parameters()
        wanted = validate_parameters({**current, **params})
        changed = [name for name in PARAMETER_FIELDS if wanted[name] != current[name]]
        if not changed:
            raise InvalidParameters(
                _("The requested parameters are the ones in force: change at least one of them.")
            )
        change = ParameterChange.objects.create(
            bank=bank,
            params=wanted,
            before=current,
            reason=reason.strip(),
            requested_by=manager,
            requested_at=timezone.now(),
        )
        audit(
            actor=manager,
            code="jackpot.parameters.requested",
            subject=change,
            data={
                "bank": bank.slug,
                "reason": change.reason,
                "before": {k: current[k] for k in changed},
                "after": {k: wanted[k] for k in changed},
            },
        )
    return change


def parameter_change_approve(*, change_id: int, manager) -> ParameterChange:
    """A second manager approves, independent of the requester (casino.duties); on a closed
    bank the change applies at once."""
    require_role(manager, Role.MANAGER)
    asked = ParameterChange.objects.select_related("requested_by").filter(pk=change_id).first()
    if asked is not None:  # who asked never changes: checked before the locks, audited if refused
        require_two_people(
            approver=manager,
            asker=asked.requested_by,
            action="jackpot.parameters.approve",
            subject=asked,
        )
    with transaction.atomic():
        bank, change = _change_for_update(change_id)
        changed = _decide(
            change,
            ParameterChange.State.APPROVED,
            _("Parameter change #%(id)s is %(state)s: it cannot be approved."),
            approved_by=manager,
            approved_at=timezone.now(),
        )
        change.save(update_fields=changed)
        audit(
            actor=manager,
            code="jackpot.parameters.approved",
            subject=change,
            data={"bank": bank.slug, "applies": "now" if bank.status == "closed" else "next_hit"},
        )
        if bank.status == Bank.Status.CLOSED:
            apply_pending_change(bank, actor=manager)
            change.refresh_from_db()
            feed.announce_meter(bank)  # the tiers shown may have changed
    return change


def _decide(change: ParameterChange, to, refused, /, **stamps) -> list[str]:
    """`change` moved to `to` with `stamps` (the caller saves the fields returned), or
    ParameterChangeClosed in the words of `refused`."""
    try:
        return move(change, to, **stamps)
    except TransitionRefused:
        raise ParameterChangeClosed(
            refused % {"id": change.pk, "state": change.get_state_display()}
        ) from None


def parameter_change_reject(*, change_id: int, manager, reason: str = "") -> ParameterChange:
    """Any manager may reject (or the requester withdraw) a change not yet applied."""
    require_role(manager, Role.MANAGER)
    with transaction.atomic():
        bank, change = _change_for_update(change_id)
        changed = _decide(
            change,
            ParameterChange.State.REJECTED,
            _("Parameter change #%(id)s is %(state)s: it cannot be rejected."),
            rejected_by=manager,
            rejected_at=timezone.now(),
            reject_reason=reason.strip()[:200],
        )
        change.save(update_fields=changed)
        audit(
            actor=manager,
            code="jackpot.parameters.rejected",
            subject=change,
            data={"bank": bank.slug, "reason": change.reject_reason},
        )
    return change
