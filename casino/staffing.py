"""Creating staff with roles and PINs (used by the demo floor, the admin and the tests)."""

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.db import transaction

from casino.audit import audit
from casino.models import Staff
from casino.roles import Role


def ensure_role_groups() -> dict[str, Group]:
    return {role.value: Group.objects.get_or_create(name=role.value)[0] for role in Role}


def staff_create(
    *,
    username: str,
    roles: list[str],
    password: str | None = None,
    pin: str | None = None,
    employee_number: str | None = None,
    first_name: str = "",
    last_name: str = "",
    language: str = "",
    actor: Staff | None = None,
) -> Staff:
    """Create a staff member; with `actor` (a person, not the demo or a test) it is audited."""
    groups = ensure_role_groups()
    staff = Staff(
        username=username,
        employee_number=employee_number,
        first_name=first_name,
        last_name=last_name,
        language=language,
        pin_hash=make_password(pin) if pin else "",
    )
    if password:
        staff.set_password(password)
    else:
        staff.set_unusable_password()
    with transaction.atomic():
        staff.save()
        staff.groups.set([groups[str(r)] for r in roles])
        if actor is not None:
            audit(
                actor=actor,
                code="casino.staff.created",
                subject=staff,
                data={"username": username, "roles": sorted(str(r) for r in roles)},
            )
    return staff
