"""What each role may do in the admin, kept in step with the code (idempotent).

Managers configure: add and change on every model whose admin is an AuditedModelAdmin (so
every change they make is audited) and allows them (a read-only admin, whose
has_add_permission/has_change_permission say no, grants nothing), plus view on the rest,
except the accounts (ACCOUNT_MODELS), which they only view. Staff administrators administer
the accounts and see nothing else. Auditors see everything and change nothing. Dealers and
supervisors work on the floor pages and never reach the admin.
`is_staff` (the admin's door) follows the roles: managers, auditors and staff administrators.
Run by the post_migrate signal and by load_demo; safe to run any number of times.
"""

from django.contrib import admin
from django.contrib.auth.models import Group, Permission
from django.db import transaction

from casino.roles import Role

ADMIN_ROLES = frozenset({Role.MANAGER.value, Role.AUDITOR.value, Role.STAFF_ADMIN.value})
# Who works and with which roles: administered by staff administrators only.
ACCOUNT_MODELS = frozenset({("casino", "staff"), ("casino", "rolegrant")})


class _AllowedUser:
    """Stands for a user holding every permission, to ask a ModelAdmin its own policy."""

    is_active = is_staff = is_authenticated = True
    is_superuser = False

    def has_perm(self, perm, obj=None):
        return True


class _Probe:
    method = "GET"
    user = _AllowedUser()
    GET = POST = {}


def _admin_allows(model_admin, action: str) -> bool:
    """Whether the ModelAdmin itself ever allows `action` (a read-only admin answers False)."""
    try:
        if action == "add":
            return bool(model_admin.has_add_permission(_Probe()))
        return bool(model_admin.has_change_permission(_Probe(), None))
    except Exception:  # an admin that cannot answer a plain question gets nothing
        return False


def _admin_models():
    from casino.admin_audit import AuditedModelAdmin

    for model, model_admin in admin.site._registry.items():
        yield model, model_admin, isinstance(model_admin, AuditedModelAdmin)


def role_permissions() -> dict[str, set[tuple[str, str]]]:
    """(app_label, codename) pairs each role holds."""
    wanted: dict[str, set[tuple[str, str]]] = {role.value: set() for role in Role}
    for model, model_admin, audited in _admin_models():
        label, name = model._meta.app_label, model._meta.model_name
        view = (label, f"view_{name}")
        wanted[Role.AUDITOR.value].add(view)
        wanted[Role.MANAGER.value].add(view)
        editor = Role.MANAGER.value
        if (label, name) in ACCOUNT_MODELS:
            editor = Role.STAFF_ADMIN.value
            wanted[editor].add(view)
        if audited:
            for action in ("add", "change"):
                if _admin_allows(model_admin, action):
                    wanted[editor].add((label, f"{action}_{name}"))
    return wanted


def sync_role_permissions() -> None:
    from casino.models import Staff

    # Permissions only exist once their app's post_migrate has run: missing ones are skipped
    # and the run after the last app's migrate completes the set.
    wanted = role_permissions()
    with transaction.atomic():
        by_key = {
            (p.content_type.app_label, p.codename): p
            for p in Permission.objects.select_related("content_type")
        }
        for role, keys in wanted.items():
            group, _ = Group.objects.get_or_create(name=role)
            perms = [by_key[k] for k in keys if k in by_key]
            if set(group.permissions.all()) != set(perms):
                group.permissions.set(perms)
        sync_is_staff(Staff.objects.all())


def sync_is_staff(staff_qs) -> None:
    """The admin's door follows the roles; superusers keep theirs."""
    admins = staff_qs.filter(groups__name__in=ADMIN_ROLES).values_list("pk", flat=True)
    staff_qs.filter(pk__in=admins, is_staff=False).update(is_staff=True)
    staff_qs.exclude(pk__in=admins).filter(is_staff=True, is_superuser=False).update(is_staff=False)
