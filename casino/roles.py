"""Roles are Django groups; a staff member may hold several (a supervisor can deal), except a
staff administrator, who holds that role alone."""

from django.db import models
from django.db.models import F
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino.errors import RoleRequired


class Role(models.TextChoices):
    DEALER = "dealer", _("dealer")
    SUPERVISOR = "supervisor", _("supervisor")
    MANAGER = "manager", _("manager")
    AUDITOR = "auditor", _("auditor")
    STAFF_ADMIN = "staff_admin", _("staff administrator")
    # Player ratings (issue 28): a host grants comps and reads theo, never identity;
    # compliance keeps identity and the anti-money-laundering log.
    HOST = "host", _("host")
    COMPLIANCE = "compliance", _("compliance officer")


# A grant of one of these needs a second staff administrator's approval (casino.staffing).
PRIVILEGED_ROLES = frozenset(
    {
        Role.SUPERVISOR.value,
        Role.MANAGER.value,
        Role.AUDITOR.value,
        Role.STAFF_ADMIN.value,
        Role.HOST.value,
        Role.COMPLIANCE.value,
    }
)
# Whoever administers accounts holds no other role: no gaming or financial action, and no
# way to hand oneself one (AGCO 1.19-1.26: privileged accounts limited and monitored).
EXCLUSIVE_ROLES = frozenset({Role.STAFF_ADMIN.value})


def role_names(staff) -> set[str]:
    if staff is None or not getattr(staff, "is_authenticated", False) or not staff.is_active:
        return set()
    cached = getattr(staff, "_role_names", None)
    if cached is None:
        cached = _roles_read(staff.pk)
        staff._role_names = cached
    return cached


def _roles_read(staff_id) -> set[str]:
    from django.contrib.auth.models import Group

    return set(Group.objects.filter(user__pk=staff_id).values_list("name", flat=True))


def staff_with_roles(staff_id):
    """The staff member and their roles in one query (a row per role), for the sign-in of
    every request. None when there is no such person."""
    return _staff_with_roles(pk=staff_id)


def active_staff_with_roles(employee_number: str):
    """The active staff member with this employee number and their roles, in one query (for
    a PIN's check: casino.pins). None when there is none."""
    return _staff_with_roles(employee_number=employee_number, is_active=True)


def _staff_with_roles(**where):
    from casino.models import Staff

    rows = list(Staff._default_manager.filter(**where).annotate(role_name=F("groups__name")))
    if not rows:
        return None
    staff = rows[0]
    staff._role_names = {row.role_name for row in rows if row.role_name is not None}
    return staff


def has_role(staff, *roles: str) -> bool:
    """True when the staff member holds any of `roles` (deny by default)."""
    return bool(role_names(staff) & {str(r) for r in roles})


def require_role(staff, *roles: str) -> None:
    if not has_role(staff, *roles):
        raise RoleRequired(gettext("This needs the role: %(roles)s.") % {"roles": role_list(roles)})


def role_list(roles) -> str:
    """'supervisor or manager', in the current language."""
    names = [str(Role(str(r)).label) for r in roles]
    return gettext(" or ").join(names) if names else ""
