"""Separation of duties: nobody satisfies a two-person rule alone (regulatory 1.8 and 3: "no
role can both create and approve the same adjustment"; AGCO 1.19-1.26).

`require_independent` is the one check behind every two-person rule: a jackpot parameter
change (approver against requester), a hit's verification (against the recorder), a meter
adjustment, a void or a correction (against the dealer and the person asking), a role grant
(against the requester and the grantee). The approver is not independent of the asker when
they are the same person, or when, within the last SEPARATION_DAYS days, the asker created
the approver's account, gave them a role (asked for it or approved it), or set their temporary
password or PIN: an account someone has just made, or can sign in to, is that person again.
Nor when one third person set both their passwords or PINs within those days
(Staff.credentials_set_by): they could have signed in as both.

Call it BEFORE opening your own transaction, as `casino.pins.pin_verify`: the refusal is
audited and committed before the error is raised, which an outer transaction would undo.
"""

import datetime as dt

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino.audit import atomic_audit
from casino.errors import TwoPeopleRequired
from casino.models import AuditEntry, Staff

# What each two-person rule is called in a refusal ("... (approving a void) ...").
ACTIONS = {
    "jackpot.parameters.approve": _("approving a parameter change"),
    "jackpot.hit.verify": _("verifying a progressive hit"),
    "jackpot.meter.adjust": _("approving a meter adjustment"),
    "tables.round.void": _("approving a void"),
    "tables.round.correct": _("approving a correction"),
    "tables.ruleset.deploy": _("approving a rule set deployment"),
    "casino.role.request": _("asking for a role grant"),
    "casino.role.grant": _("approving a role grant"),
    "casino.secret.set": _("setting a temporary password or PIN"),
    "casino.staff.deactivate": _("deactivating an account"),
}

# Audit codes by which the actor (or the `requested_by` of the entry's data) made, armed or
# can sign in to the account the entry is about, and what a refusal says of each.
CREATED, GRANTED, SECRET = "created_by_asker", "role_granted_by_asker", "secret_set_by_asker"
# Both sides' passwords or PINs were set by one third person, who could sign in as either
# (Staff.credentials_set_by): a staff administrator set temporary PINs on a dealer and a
# supervisor, signed in as each, chose their "own" PINs, then declared and approved a void.
SAME_SETTER = "credentials_set_by_same_person"
ACCOUNT_EVENTS = {
    "casino.staff.created": CREATED,
    "admin.casino.staff.add": CREATED,
    "casino.role.granted": GRANTED,
    "casino.password.temporary_set": SECRET,
    "casino.pin.temporary_set": SECRET,
    "casino.pin.set": SECRET,  # before temporary PINs: a manager set someone's PIN
    "admin.casino.staff.change": GRANTED,  # before role grants: groups edited in the admin
}
# Of an admin change (the admin's own entries), only these fields arm an account.
ARMING_FIELDS = frozenset({"groups", "new_password", "new_pin"})


def separation_days() -> int:
    return int(getattr(settings, "SEPARATION_DAYS", 30))


def _set_since(staff: Staff, since: dt.datetime) -> bool:
    """Someone else set this person's password or PIN since `since`."""
    return (
        staff.credentials_set_by_id is not None
        and staff.credentials_set_at is not None
        and staff.credentials_set_at >= since
    )


def _tie(*, approver: Staff, asker: Staff) -> str | None:
    """Why `approver` is not independent of `asker`, or None."""
    if approver.pk == asker.pk:
        return "same_person"
    since = timezone.now() - dt.timedelta(days=separation_days())
    entries = AuditEntry.objects.filter(
        code__in=ACCOUNT_EVENTS,
        subject_type=Staff._meta.label_lower,
        subject_id=str(approver.pk),
        created_at__gte=since,
    ).values_list("code", "actor_id", "data")
    for code, actor_id, data in entries:
        data = data if isinstance(data, dict) else {}
        if asker.pk not in (actor_id, data.get("requested_by")):
            continue
        if code == "admin.casino.staff.change" and not ARMING_FIELDS & set(data.get("changed", [])):
            continue
        if code == "casino.pin.set" and actor_id == approver.pk:
            continue
        return ACCOUNT_EVENTS[code]
    if _set_since(approver, since) and approver.credentials_set_by_id == asker.pk:
        return SECRET
    if (
        _set_since(approver, since)
        and _set_since(asker, since)
        and approver.credentials_set_by_id == asker.credentials_set_by_id
    ):
        return SAME_SETTER
    return None


def _message(reason: str, *, approver: Staff, asker: Staff, action: str) -> str:
    names = {
        "name": approver,
        "asker": asker,
        "action": ACTIONS.get(action, action),
        "days": separation_days(),
    }
    if reason == "same_person":
        return (
            gettext("%(name)s cannot be on both sides of this (%(action)s): a second person must.")
            % names
        )
    if reason == CREATED:
        text = gettext(
            "%(name)s cannot do this (%(action)s) for %(asker)s, who created their account "
            "less than %(days)s days ago: someone independent of %(asker)s must."
        )
    elif reason == SAME_SETTER:
        names["setter"] = Staff.objects.filter(pk=approver.credentials_set_by_id).first()
        text = gettext(
            "%(name)s cannot do this (%(action)s) for %(asker)s: %(setter)s set a password or "
            "PIN for both of them less than %(days)s days ago and could sign in as either. "
            "Someone else must."
        )
    elif reason == GRANTED:
        text = gettext(
            "%(name)s cannot do this (%(action)s) for %(asker)s, who gave them a role less "
            "than %(days)s days ago: someone independent of %(asker)s must."
        )
    else:
        text = gettext(
            "%(name)s cannot do this (%(action)s) for %(asker)s, who set their temporary "
            "password or PIN less than %(days)s days ago: someone independent of %(asker)s must."
        )
    return text % names


def require_independent(
    *, approver: Staff, asker: Staff | None, action: str, subject=None, by_pin: bool = False
) -> None:
    """Refuse (TwoPeopleRequired, audited) when `approver` is not independent of `asker`.

    `action` names the rule (a key of ACTIONS). `by_pin`: the approver showed their PIN, so
    the refusal is filed with that PIN's checks (casino.pin.*, beside casino.pin.approved).
    """
    if asker is None or approver is None:
        return
    reason = _tie(approver=approver, asker=asker)
    if reason is None:
        return
    atomic_audit(
        actor=approver,
        code="casino.pin.approval_refused" if by_pin else "casino.duties.refused",
        subject=subject if subject is not None else asker,
        data={"action": action, "asker": asker.pk, "approver": approver.pk, "reason": reason},
    )
    raise TwoPeopleRequired(
        _message(reason, approver=approver, asker=asker, action=action), code="two_people_required"
    )
