"""Creating staff with roles and PINs (used by the demo floor, the admin and the tests)."""

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group

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
) -> Staff:
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
    staff.save()
    staff.groups.set([groups[str(r)] for r in roles])
    return staff
