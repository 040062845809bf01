"""Accounts and roles: only a staff administrator administers them, never alone.

A staff administrator adds staff, asks for and approves role grants, revokes roles,
deactivates accounts and sets temporary passwords and PINs; they hold no other role. A grant
of a privileged role (casino.roles.PRIVILEGED_ROLES) waits for a second staff administrator,
who is neither its requester nor its grantee (casino.duties.require_independent). Nobody
grants themselves a role, and nobody chooses another person's password or PIN: what an
administrator sets is temporary, and its owner must change it at the next sign-in.

Without an `actor` (the demo floor, the tests, `manage.py role_grant` at the server's console)
roles are given at once: that is how the first staff administrators exist.
"""

from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit
from casino.duties import require_independent
from casino.errors import CasinoError, IllegalTransition, NotFound
from casino.models import RoleGrant, Staff
from casino.pin_hashing import pin_check, pin_hash
from casino.pins import PIN_LENGTHS
from casino.roles import EXCLUSIVE_ROLES, PRIVILEGED_ROLES, Role, require_role
from casino.transitions import TransitionRefused, move


def ensure_role_groups() -> dict[str, Group]:
    return {role.value: Group.objects.get_or_create(name=role.value)[0] for role in Role}


def _roles(roles) -> list[str]:
    names = sorted({str(r) for r in roles})
    unknown = [r for r in names if r not in Role.values]
    if unknown:
        raise CasinoError(
            _("Unknown role: %(roles)s.") % {"roles": ", ".join(unknown)}, code="unknown_role"
        )
    return names


def check_role_mix(roles) -> None:
    """A staff administrator holds that role alone (no gaming or financial action)."""
    held = {str(r) for r in roles}
    if held & EXCLUSIVE_ROLES and len(held) > 1:
        raise CasinoError(
            _("A staff administrator holds no other role: administer accounts or work the floor."),
            code="role_conflict",
        )


def _password_problems(password: str, staff: Staff) -> None:
    try:
        validate_password(password, user=staff)
    except ValidationError as exc:
        raise CasinoError(" ".join(exc.messages), code="password_invalid") from None


def _check_pin(pin) -> str:
    pin = str(pin).strip()
    if not (pin.isascii() and pin.isdigit()) or len(pin) not in PIN_LENGTHS:
        raise CasinoError(_("A PIN is 4 to 8 digits."), code="pin_invalid")
    return pin


def _staff_for_update(staff_id) -> Staff:
    staff = Staff.objects.select_for_update(no_key=True).filter(pk=staff_id).first()
    if staff is None:
        raise NotFound(_("No such staff member."))
    return staff


def _probe(staff_id) -> Staff:
    staff = Staff.objects.filter(pk=staff_id).first()
    if staff is None:
        raise NotFound(_("No such staff member."))
    if staff.is_superuser:
        # A superuser is the operator's own account: nobody administers it from the floor.
        raise CasinoError(
            _("A superuser account is administered at the server's console only."),
            code="superuser_account",
        )
    return staff


def _held(staff: Staff) -> set[str]:
    return set(staff.groups.values_list("name", flat=True))


def _give(staff: Staff, role: str) -> None:
    staff.groups.add(ensure_role_groups()[role])  # is_staff follows (casino.signals)


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
    """Add a staff member. With `actor` (a staff administrator) the password and PIN are
    temporary and each privileged role waits for a second administrator's approval; without
    one (demo, tests, console) the roles are given at once."""
    if actor is not None:
        require_role(actor, Role.STAFF_ADMIN)
    roles = _roles(roles)
    check_role_mix(roles)
    staff = Staff(
        username=username,
        employee_number=employee_number or None,
        first_name=first_name,
        last_name=last_name,
        language=language,
        pin_hash=pin_hash(_check_pin(pin)) if pin else "",
        password_is_temporary=bool(actor is not None and password),
        pin_is_temporary=bool(actor is not None and pin),
    )
    if actor is not None and (password or pin):
        staff.credentials_set_by, staff.credentials_set_at = actor, timezone.now()
    if password:
        if actor is not None:
            _password_problems(password, staff)
        staff.set_password(password)
    else:
        staff.set_unusable_password()
    with transaction.atomic():
        staff.save()
        if actor is None:
            staff.groups.set([ensure_role_groups()[r] for r in roles])
            return staff
        audit(
            actor=actor,
            code="casino.staff.created",
            subject=staff,
            data={
                "username": username,
                "roles": roles,
                "temporary_password": bool(password),
                "temporary_pin": bool(pin),
            },
        )
        for role in roles:
            _open_grant(staff, role, actor=actor, reason=_("new account"))
    return staff


def _open_grant(staff: Staff, role: str, *, actor: Staff, reason: str) -> RoleGrant:
    """Inside the caller's transaction, `staff` locked: a dealer's role at once, a privileged
    one as a request."""
    now = timezone.now()
    grant = RoleGrant.objects.create(
        staff=staff, role=role, reason=reason[:200], requested_by=actor, requested_at=now
    )
    if role in PRIVILEGED_ROLES:
        audit(
            actor=actor,
            code="casino.role.grant_requested",
            subject=staff,
            data={"grant": grant.pk, "role": role, "reason": grant.reason},
        )
        return grant
    _apply_grant(grant, by=actor, at=now)
    return grant


def _decide(grant: RoleGrant, to: str, *, by: Staff | None, at, verb: str) -> list[str]:
    try:
        return move(grant, to, decided_by=by, decided_at=at)
    except TransitionRefused:
        raise IllegalTransition(
            _("Role grant #%(id)s is %(state)s: it cannot be %(verb)s.")
            % {"id": grant.pk, "state": grant.get_state_display(), "verb": verb},
            code="grant_closed",
        ) from None


def _apply_grant(grant: RoleGrant, *, by: Staff | None, at, changed: list | None = None) -> None:
    """Give the role; `changed`: the grant already moved to granted (an approval)."""
    if changed is None:
        changed = _decide(grant, RoleGrant.State.GRANTED, by=by, at=at, verb=_("approved"))
    grant.save(update_fields=changed)
    _give(grant.staff, grant.role)
    audit(
        actor=by,
        code="casino.role.granted",
        subject=grant.staff,
        data={
            "grant": grant.pk,
            "role": grant.role,
            "requested_by": grant.requested_by_id,
            "reason": grant.reason,
        },
    )


def role_grant_request(*, staff_id: int, role: str, actor: Staff, reason: str = "") -> RoleGrant:
    """Ask for `role` for a staff member: a dealer's role is given at once, a privileged one
    waits for another staff administrator. Nobody asks for their own roles."""
    require_role(actor, Role.STAFF_ADMIN)
    (role,) = _roles([role])
    staff = _probe(staff_id)
    require_independent(approver=actor, asker=staff, action="casino.role.request")
    with transaction.atomic():
        staff = _staff_for_update(staff_id)
        held = _held(staff)
        if role in held:
            raise IllegalTransition(
                _("%(name)s already holds the role %(role)s.")
                % {"name": staff, "role": Role(role).label},
                code="role_held",
            )
        if RoleGrant.objects.filter(staff=staff, role=role, state="requested").exists():
            raise IllegalTransition(
                _("A grant of %(role)s to %(name)s is already waiting for approval.")
                % {"name": staff, "role": Role(role).label},
                code="grant_pending",
            )
        check_role_mix(held | {role})
        return _open_grant(staff, role, actor=actor, reason=reason.strip())


def _grant_probe(grant_id) -> RoleGrant:
    grant = RoleGrant.objects.select_related("staff", "requested_by").filter(pk=grant_id).first()
    if grant is None:
        raise NotFound(_("There is no role grant #%(id)s.") % {"id": grant_id})
    return grant


def _grant_for_update(grant_id) -> RoleGrant:
    return RoleGrant.objects.select_for_update(no_key=True).select_related("staff").get(pk=grant_id)


def role_grant_approve(*, grant_id: int, approver: Staff) -> RoleGrant:
    """A second staff administrator, independent of the requester and of the grantee."""
    require_role(approver, Role.STAFF_ADMIN)
    probe = _grant_probe(grant_id)
    for asker in (probe.requested_by, probe.staff):
        require_independent(approver=approver, asker=asker, action="casino.role.grant")
    with transaction.atomic():
        _staff_for_update(probe.staff_id)  # staff first, then the grant: one lock order
        grant = _grant_for_update(grant_id)
        changed = _decide(
            grant, RoleGrant.State.GRANTED, by=approver, at=timezone.now(), verb=_("approved")
        )
        check_role_mix(_held(grant.staff) | {grant.role})
        _apply_grant(grant, by=approver, at=grant.decided_at, changed=changed)
    return grant


def role_grant_reject(*, grant_id: int, actor: Staff, reason: str = "") -> RoleGrant:
    """Any staff administrator refuses a waiting grant (its requester withdraws it)."""
    require_role(actor, Role.STAFF_ADMIN)
    probe = _grant_probe(grant_id)
    with transaction.atomic():
        _staff_for_update(probe.staff_id)
        grant = _grant_for_update(grant_id)
        changed = _decide(
            grant, RoleGrant.State.REJECTED, by=actor, at=timezone.now(), verb=_("rejected")
        )
        grant.save(update_fields=changed)
        audit(
            actor=actor,
            code="casino.role.grant_rejected",
            subject=grant.staff,
            data={"grant": grant.pk, "role": grant.role, "reason": reason.strip()[:200]},
        )
    return grant


def role_revoke(*, staff_id: int, role: str, actor: Staff, reason: str = "") -> Staff:
    """Take a role back at once (taking away needs no second person)."""
    require_role(actor, Role.STAFF_ADMIN)
    (role,) = _roles([role])
    _probe(staff_id)
    with transaction.atomic():
        staff = _staff_for_update(staff_id)
        if role not in _held(staff):
            raise IllegalTransition(
                _("%(name)s does not hold the role %(role)s.")
                % {"name": staff, "role": Role(role).label},
                code="role_not_held",
            )
        staff.groups.remove(ensure_role_groups()[role])
        audit(
            actor=actor,
            code="casino.role.revoked",
            subject=staff,
            data={"role": role, "reason": reason.strip()[:200]},
        )
    return staff


def _set_active(*, staff_id: int, actor: Staff, active: bool) -> Staff:
    require_role(actor, Role.STAFF_ADMIN)
    staff = _probe(staff_id)
    require_independent(approver=actor, asker=staff, action="casino.staff.deactivate")
    with transaction.atomic():
        staff = _staff_for_update(staff_id)
        try:
            changed = move(staff, active, field="is_active")
        except TransitionRefused:
            return staff  # already so: nothing to do, nothing to audit
        staff.save(update_fields=changed)
        audit(
            actor=actor,
            code="casino.staff.reactivated" if active else "casino.staff.deactivated",
            subject=staff,
            data={},
        )
    return staff


def staff_deactivate(*, staff_id: int, actor: Staff) -> Staff:
    """The account can no longer sign in nor approve anything; its history stays."""
    return _set_active(staff_id=staff_id, actor=actor, active=False)


def staff_reactivate(*, staff_id: int, actor: Staff) -> Staff:
    return _set_active(staff_id=staff_id, actor=actor, active=True)


def staff_temporary_password_set(*, staff_id: int, password: str, actor: Staff) -> Staff:
    """A staff administrator sets a password its owner must replace at the next sign-in."""
    require_role(actor, Role.STAFF_ADMIN)
    staff = _probe(staff_id)
    require_independent(approver=actor, asker=staff, action="casino.secret.set")
    _password_problems(password, staff)
    with transaction.atomic():
        staff = _staff_for_update(staff_id)
        staff.set_password(password)
        staff.password_is_temporary = True
        staff.credentials_set_by, staff.credentials_set_at = actor, timezone.now()
        staff.save(
            update_fields=[
                "password",
                "password_is_temporary",
                "credentials_set_by",
                "credentials_set_at",
            ]
        )
        audit(actor=actor, code="casino.password.temporary_set", subject=staff, data={})
    return staff


def staff_temporary_pin_set(*, staff_id: int, pin: str, actor: Staff) -> Staff:
    """A staff administrator sets a PIN its owner must replace before it approves anything."""
    require_role(actor, Role.STAFF_ADMIN)
    staff = _probe(staff_id)
    require_independent(approver=actor, asker=staff, action="casino.secret.set")
    pin = _check_pin(pin)
    with transaction.atomic():
        staff = _staff_for_update(staff_id)
        staff.pin_hash = pin_hash(pin)
        staff.pin_is_temporary = True
        staff.failed_pin_attempts = 0
        staff.pin_locked_until = None
        staff.credentials_set_by, staff.credentials_set_at = actor, timezone.now()
        staff.save(
            update_fields=[
                "pin_hash",
                "pin_is_temporary",
                "failed_pin_attempts",
                "pin_locked_until",
                "credentials_set_by",
                "credentials_set_at",
            ]
        )
        audit(actor=actor, code="casino.pin.temporary_set", subject=staff, data={})
    return staff


def staff_secrets_change(*, staff: Staff, password: str | None = None, pin: str | None = None):
    """A staff member chooses their own password and/or PIN (never the temporary one again)."""
    if not password and not pin:
        raise CasinoError(_("Choose a new password or a new PIN."), code="nothing_to_change")
    if password:
        _password_problems(password, staff)
        if staff.has_usable_password() and staff.check_password(password):
            raise CasinoError(
                _("Choose a password of your own, not the one you were given."),
                code="password_unchanged",
            )
    if pin:
        pin = _check_pin(pin)
        if staff.pin_hash and pin_check(pin, staff.pin_hash).matches:
            raise CasinoError(
                _("Choose a PIN of your own, not the one you were given."), code="pin_unchanged"
            )
    with transaction.atomic():
        locked = _staff_for_update(staff.pk)
        fields = []
        if password:
            locked.set_password(password)
            locked.password_is_temporary = False
            fields += ["password", "password_is_temporary"]
            audit(actor=locked, code="casino.password.changed", subject=locked, data={})
        if pin:
            locked.pin_hash = pin_hash(pin)
            locked.pin_is_temporary = False
            locked.failed_pin_attempts = 0
            locked.pin_locked_until = None
            fields += ["pin_hash", "pin_is_temporary", "failed_pin_attempts", "pin_locked_until"]
            audit(actor=locked, code="casino.pin.set", subject=locked, data={})
        locked.save(update_fields=fields)
    for name in ("password", "pin_hash", "password_is_temporary", "pin_is_temporary"):
        setattr(staff, name, getattr(locked, name))
    return staff


def role_grant_at_console(*, username: str, role: str) -> RoleGrant:
    """`manage.py role_grant`: whoever holds the server's console could change the database
    anyway; this is how the first staff administrators exist. Audited as the console's."""
    (role,) = _roles([role])
    with transaction.atomic():
        staff = Staff.objects.select_for_update(no_key=True).filter(username=username).first()
        if staff is None:
            raise NotFound(_("No such staff member."))
        held = _held(staff)
        if role in held:
            raise IllegalTransition(
                _("%(name)s already holds the role %(role)s.")
                % {"name": staff, "role": Role(role).label},
                code="role_held",
            )
        check_role_mix(held | {role})
        grant = RoleGrant.objects.create(
            staff=staff, role=role, reason="console", requested_at=timezone.now()
        )
        grant.staff = staff
        _apply_grant(grant, by=None, at=grant.requested_at)
    return grant
