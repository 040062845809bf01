"""Roles are Django groups; a staff member may hold several (a supervisor can deal)."""

from django.db import models

from casino.errors import RoleRequired


class Role(models.TextChoices):
    DEALER = "dealer", "dealer"
    SUPERVISOR = "supervisor", "supervisor"
    MANAGER = "manager", "manager"
    AUDITOR = "auditor", "auditor"


def role_names(staff) -> set[str]:
    if staff is None or not getattr(staff, "is_authenticated", False) or not staff.is_active:
        return set()
    cached = getattr(staff, "_role_names", None)
    if cached is None:
        cached = set(staff.groups.values_list("name", flat=True))
        staff._role_names = cached
    return cached


def has_role(staff, *roles: str) -> bool:
    """True when the staff member holds any of `roles` (deny by default)."""
    return bool(role_names(staff) & {str(r) for r in roles})


def require_role(staff, *roles: str) -> None:
    if not has_role(staff, *roles):
        wanted = " or ".join(str(r) for r in roles)
        raise RoleRequired(f"this action needs the {wanted} role")
