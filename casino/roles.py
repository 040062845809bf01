"""Roles are Django groups; a staff member may hold several (a supervisor can deal), except a
staff administrator, who holds that role alone."""

from django.db import connection, models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino.errors import RoleRequired


class Role(models.TextChoices):
    DEALER = "dealer", _("dealer")
    SUPERVISOR = "supervisor", _("supervisor")
    MANAGER = "manager", _("manager")
    AUDITOR = "auditor", _("auditor")
    STAFF_ADMIN = "staff_admin", _("staff administrator")


# A grant of one of these needs a second staff administrator's approval (casino.staffing).
PRIVILEGED_ROLES = frozenset(
    {Role.SUPERVISOR.value, Role.MANAGER.value, Role.AUDITOR.value, Role.STAFF_ADMIN.value}
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
    """`staff.groups.values_list("name")` in SQL: every request asks it once, and the ORM took
    three times the database's own time to build the query (README, round API benchmark)."""
    from django.contrib.auth.models import Group

    from casino.models import Staff

    memberships = Staff.groups.through._meta
    sql = (
        f"SELECT g.name FROM {Group._meta.db_table} g JOIN {memberships.db_table} m"
        f" ON m.group_id = g.id WHERE m.staff_id = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [staff_id])
        return {name for (name,) in cursor.fetchall()}


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
