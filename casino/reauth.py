"""Asking a signed-in person for their current password or PIN again, before they choose new
ones (`/account/secrets/`): a session left open on a tablet or a desk must not let whoever
finds it take the account over (issue 23, item 3).

A wrong answer is a wrong sign-in: it counts toward the account's lockout (the same count as
a wrong PIN or password, casino.pins) and toward the source's and the tablet's throttle
(casino.signin), and is audited; a locked account is refused even with the right one.
"""

import time

from django.utils.translation import gettext as _

from casino.audit import atomic_audit
from casino.errors import CasinoError
from casino.models import Staff
from casino.pin_hashing import pin_check
from casino.pins import password_attempt_record
from casino.signin import answer_no_sooner, throttle_check, throttle_failure


class CurrentSecretRefused(CasinoError):
    code = "current_secret_refused"
    http_status = 403


def current_secret_confirm(request, *, staff: Staff, secret: str) -> None:
    """Return if `secret` is `staff`'s current password or PIN and the account is not locked;
    raise SigninThrottled while the request's source or tablet must wait, else
    CurrentSecretRefused (counted, audited, no sooner than the answer floor)."""
    started = time.monotonic()
    throttle_check(request)
    secret = str(secret)[:128]
    # Both are checked, whichever it is, so that the answer's time does not say which it was.
    pin_matches = bool(staff.pin_hash) and pin_check(secret, staff.pin_hash).matches
    password_matches = staff.has_usable_password() and staff.check_password(secret)
    if password_attempt_record(staff=staff, password_matches=pin_matches or password_matches):
        return
    atomic_audit(actor=staff, code="casino.secret.current_refused", subject=staff, data={})
    throttle_failure(request)
    answer_no_sooner(started)
    raise CurrentSecretRefused(
        _(
            "Wrong current password or PIN, or an account locked after too many wrong tries "
            "(a supervisor can unlock it)."
        )
    )
