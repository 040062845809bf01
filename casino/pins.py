"""PINs: quick tablet login and supervisor approval, with a lockout that ends by itself and
grows while the wrong tries go on, and approvals throttled like sign-ins (casino.signin). The
policy and why: docs/operations/signin-and-throttling.md.

Call `pin_verify` BEFORE opening your own transaction: a wrong PIN is committed (counted and
audited) before the error is raised, which an outer transaction would roll back.

`pin_approve` is `pin_verify` with a role for a service that records the approval itself, in
the transaction of what is approved (`Approval.audit()`).
"""

import datetime as dt
import time
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import login
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino import events
from casino.audit import audit
from casino.errors import (
    CasinoError,
    NotFound,
    PinLocked,
    PinRejected,
    RoleRequired,
    SecretChangeRequired,
)
from casino.live import after_commit
from casino.middleware import shared_session_start
from casino.models import Staff
from casino.pin_hashing import pin_check, pin_hash
from casino.roles import Role, active_staff_with_roles, has_role, require_role
from casino.signin import (
    SigninRefused,
    answer_no_sooner,
    current_origin,
    refused_message,
    throttle_check,
    throttle_failure,
)

MAX_WRONG_PINS = 3
PIN_LENGTHS = range(4, 9)


def lockout_minutes() -> int:
    """The longest a lock lasts."""
    return int(getattr(settings, "PIN_LOCKOUT_MINUTES", 15))


def lockout_seconds(wrong_in_a_row: int) -> int:
    """How long the lock earned by the `wrong_in_a_row`-th wrong PIN (a multiple of
    MAX_WRONG_PINS) lasts: PIN_LOCKOUT_FIRST_SECONDS, doubled at each lock in a row, at most
    PIN_LOCKOUT_MINUTES."""
    first = int(getattr(settings, "PIN_LOCKOUT_FIRST_SECONDS", 60))
    locks_before = max(0, wrong_in_a_row // MAX_WRONG_PINS - 1)
    return min(lockout_minutes() * 60, first * 2 ** min(locks_before, 32))


def _locked_message(staff: Staff) -> str:
    until = timezone.localtime(staff.pin_locked_until).strftime("%H:%M")
    return _("This PIN is locked until %(until)s. Ask a supervisor to unlock it.") % {
        "until": until
    }


@dataclass(frozen=True)
class Approval:
    """A PIN accepted for an approval (pin_approve): who approves, in which role."""

    staff: Staff
    role: str

    def audit(self):
        """Write the approval's audit entry: in the transaction of what is approved."""
        return audit(
            actor=self.staff,
            code="casino.pin.approved",
            subject=self.staff,
            data={"role": self.role},
        )


def pin_verify(*, employee_number: str, pin: str, role: str | None = None, request=None) -> Staff:
    """The staff member whose PIN this is; with `role`, an approval by someone holding it.

    Raises PinRejected (unknown number or wrong PIN), PinLocked, or RoleRequired; for an
    approval, ApprovalThrottled when its source, tablet or the house is past the limit of
    failures. `request`: the request the PIN came with (by default the one being served,
    casino.signin.current_origin, for services that have none).
    """
    return _verify(employee_number=employee_number, pin=pin, role=role, request=request)


def pin_approve(*, employee_number: str, pin: str, role: str, request=None) -> Approval:
    """`pin_verify` with `role`, the approval's audit entry left to the caller: call
    `Approval.audit()` in the transaction of what is approved. A refusal is committed and
    raised as by pin_verify. Call it before that transaction."""
    staff = _verify(
        employee_number=employee_number, pin=pin, role=role, request=request, approve=True
    )
    return Approval(staff, str(role))


def _verify(*, employee_number, pin, role, request, approve: bool = False) -> Staff:
    """pin_verify; `approve`: pin_approve (the approval's entry is the caller's)."""
    origin = None
    if role is not None:
        origin = request if request is not None else current_origin()
        throttle_check(origin, approval=True)
    now = timezone.now()
    failure: CasinoError | None = None
    number = str(employee_number).strip()
    # A NUL byte (which PostgreSQL refuses in a string) or an overlong number names nobody,
    # and an absurd PIN is nobody's: refused like any unknown number or wrong PIN.
    usable = "\x00" not in number and len(number) <= 16
    pin = str(pin) if len(str(pin)) <= 64 else "\x00"
    active = Staff.objects.filter(employee_number=number, is_active=True)
    if not usable:
        active = active.none()
    # The slow hash runs before the row is locked, so that one supervisor's approvals at
    # several tables do not queue behind each other's hashing; and every path hashes once, so
    # an unknown or a locked number takes as long to answer as a wrong PIN.
    found = active_staff_with_roles(number) if usable else None
    stored = found.pin_hash if found is not None else ""
    if stored:
        checked = pin_check(pin, stored)
    else:
        pin_hash(pin)
        checked = None
    if approve and _clean_approval(found, checked, role):
        # Nothing of the record changes (the lock below is for the count of wrong tries): the
        # caller writes the approval's entry, with what it approves.
        return found
    with transaction.atomic():
        # NO KEY: a transaction that holds the audit chain and inserts a row naming this
        # person (an audit entry's actor, a round event's supervisor) must not wait for this
        # lock while we wait for the chain: that was a deadlock under load.
        staff = active.select_for_update(no_key=True).first()
        if staff is not None and staff.pin_hash and staff.pin_hash != stored:
            checked = pin_check(pin, staff.pin_hash)  # changed meanwhile
        pin_matches = checked is not None and checked.matches
        updated = ["failed_pin_attempts", "pin_locked_until"]
        if staff is None or not staff.pin_hash:
            audit(
                actor=None,
                code="casino.pin.rejected",
                data={"employee_number": number.replace("\x00", "?")[:16], "reason": "unknown"},
            )
            failure = PinRejected(_("Wrong employee number or PIN."))
        elif staff.pin_locked(now):
            audit(
                actor=staff,
                code="casino.pin.refused_locked",
                subject=staff,
                data={"locked_until": staff.pin_locked_until.isoformat()},
            )
            failure = PinLocked(_locked_message(staff))
        else:
            # An expired lock is lifted; the count of wrong tries in a row runs on, so that
            # the next lock lasts longer (a right PIN clears both).
            staff.pin_locked_until = None
            if not pin_matches:
                staff.failed_pin_attempts += 1
                audit(
                    actor=staff,
                    code="casino.pin.rejected",
                    subject=staff,
                    data={"reason": "wrong_pin", "attempt": staff.failed_pin_attempts},
                )
                failure = PinRejected(_("Wrong employee number or PIN."))
                if _lock_if_too_many(staff, now, method="pin"):
                    failure = PinLocked(_locked_message(staff))
            else:
                staff.failed_pin_attempts = 0
                staff.pin_locked_until = None
                if checked.outdated:  # stored by the password hasher, or under an older key
                    staff.pin_hash = pin_hash(pin)
                    updated.append("pin_hash")
                if role is not None and not has_role(staff, role):
                    audit(
                        actor=staff,
                        code="casino.pin.role_refused",
                        subject=staff,
                        data={"role": str(role)},
                    )
                    failure = RoleRequired(
                        _("%(name)s is not a %(role)s.")
                        % {"name": staff, "role": Role(str(role)).label}
                    )
                elif role is not None and staff.must_change_secrets:
                    # A staff administrator chose this PIN or password and knows it: it
                    # approves nothing until its owner has chosen their own.
                    audit(
                        actor=staff,
                        code="casino.pin.temporary_refused",
                        subject=staff,
                        data={"role": str(role)},
                    )
                    failure = SecretChangeRequired(
                        _(
                            "%(name)s's PIN or password is a temporary one: they must sign in "
                            "and choose their own before approving anything."
                        )
                        % {"name": staff}
                    )
                elif role is not None and not approve:
                    Approval(staff, str(role)).audit()
            staff.save(update_fields=updated)
    if failure is not None:
        if role is not None and isinstance(failure, (PinRejected, PinLocked)):
            throttle_failure(origin, approval=True)  # a guess that missed (not a role refusal)
        raise failure
    return staff


def _clean_approval(staff: Staff | None, checked, role) -> bool:
    """A right PIN, as stored now, of someone holding `role` who may approve, with no wrong try
    to forget and no lock (even expired) to clear."""
    return (
        staff is not None
        and checked is not None
        and checked.matches
        and not checked.outdated
        and staff.failed_pin_attempts == 0
        and staff.pin_locked_until is None
        and not staff.must_change_secrets
        and has_role(staff, role)
    )


def _lock_if_too_many(staff: Staff, now: dt.datetime, *, method: str) -> bool:
    """Lock the account (both sign-ins and PIN approvals) at each MAX_WRONG_PINS-th wrong try
    in a row, for longer each time (lockout_seconds); audited, and the pit is told after
    commit. Inside the row's lock."""
    wrong = staff.failed_pin_attempts
    if wrong < MAX_WRONG_PINS or wrong % MAX_WRONG_PINS:
        return False
    staff.pin_locked_until = now + dt.timedelta(seconds=lockout_seconds(wrong))
    audit(
        actor=staff,
        code="casino.pin.locked",
        subject=staff,
        data={
            "attempts": staff.failed_pin_attempts,
            "locked_until": staff.pin_locked_until.isoformat(),
            "method": method,
        },
    )
    staff_id = staff.pk
    after_commit(lambda: events.pin_locked.send(sender=Staff, staff_id=staff_id))
    return True


def password_attempt_record(*, staff: Staff, password_matches: bool) -> Staff | None:
    """The password sign-in's side of the shared lockout (casino.backends): a locked account
    is refused even with the right password, a wrong password counts towards the same lock as
    a wrong PIN, a right one clears the count. The staff member, or None when refused."""
    now = timezone.now()
    with transaction.atomic():
        locked = Staff.objects.select_for_update(no_key=True).filter(pk=staff.pk).first()
        if locked is None:
            return None
        if locked.pin_locked(now):
            audit(
                actor=locked,
                code="casino.login.refused_locked",
                subject=locked,
                data={"locked_until": locked.pin_locked_until.isoformat()},
            )
            return None
        locked.pin_locked_until = None  # expired; the count runs on (as in pin_verify)
        if password_matches:
            locked.failed_pin_attempts = 0
        else:
            locked.failed_pin_attempts += 1
            _lock_if_too_many(locked, now, method="password")
        locked.save(update_fields=["failed_pin_attempts", "pin_locked_until"])
    if not password_matches:
        return None
    staff.failed_pin_attempts, staff.pin_locked_until = 0, None
    return staff


def pin_login(request, *, employee_number: str, pin: str) -> Staff:
    """Log a staff member in on a tablet with their PIN (the login itself is audited): the
    sign-in page's and /api/login's one way in, so that both are held to the same throttle,
    counts, answer floor and lockout.

    Raises SigninThrottled, at once, while the request's source or tablet must wait. Unknown
    number, wrong PIN and locked account raise the same SigninRefused, counted against the
    source and tablet, no sooner than the answer floor (casino.signin): the page must not tell
    a guesser which numbers exist or which accounts their guesses locked."""
    started = time.monotonic()
    throttle_check(request)
    try:
        staff = pin_verify(employee_number=employee_number, pin=pin)
    except (PinRejected, PinLocked) as exc:
        throttle_failure(request)
        answer_no_sooner(started)
        raise SigninRefused(refused_message("pin")) from exc
    request.tapis_login_method = "pin"
    login(request, staff, backend="casino.backends.LockoutBackend")
    shared_session_start(request)
    return staff


def staff_pin_unlock(*, staff_id: int, supervisor: Staff) -> Staff:
    """A supervisor (or manager) lifts a PIN lock before it expires (the PIN stays its
    owner's: nobody learns it)."""
    require_role(supervisor, Role.SUPERVISOR, Role.MANAGER)
    with transaction.atomic():
        staff = Staff.objects.select_for_update(no_key=True).filter(pk=staff_id).first()
        if staff is None:
            raise NotFound(_("No such staff member."))
        was_locked_until = staff.pin_locked_until
        staff.failed_pin_attempts = 0
        staff.pin_locked_until = None
        staff.save(update_fields=["failed_pin_attempts", "pin_locked_until"])
        audit(
            actor=supervisor,
            code="casino.pin.unlocked",
            subject=staff,
            data={"was_locked_until": was_locked_until.isoformat() if was_locked_until else None},
        )
    return staff
