"""The password sign-in, held to the same lockout as the PIN (casino.pins) and throttled like it
(casino.signin), wherever it comes from: /login/ or the admin's own login page."""

from django.contrib.auth.backends import ModelBackend

from casino.models import Staff
from casino.pins import password_attempt_record
from casino.roles import staff_with_roles
from casino.signin import throttle_failure, throttle_wait


class LockoutBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(Staff.USERNAME_FIELD)
        if username is None or password is None:
            return None
        if request is not None and throttle_wait(request):
            return None  # a blocked source learns nothing, not even whether it was right
        username = str(username)[:150]
        staff = (
            None
            if "\x00" in username  # no such name, and PostgreSQL refuses NUL in a string
            else Staff._default_manager.filter(**{Staff.USERNAME_FIELD: username}).first()
        )
        if staff is None:
            # As long as a real account's check: an unknown name must not answer faster.
            Staff().set_password(password)
            signed_in = None
        else:
            matches = staff.check_password(password) and self.user_can_authenticate(staff)
            signed_in = password_attempt_record(staff=staff, password_matches=matches)
        if signed_in is None and request is not None:
            throttle_failure(request)
        return signed_in

    def get_user(self, user_id):
        """The signed-in staff member of every request, with their roles, in one query (see
        casino.roles.staff_with_roles). Roles are read afresh on every request all the same:
        a role withdrawn takes effect on the next one."""
        staff = staff_with_roles(user_id)
        return staff if staff is not None and self.user_can_authenticate(staff) else None
