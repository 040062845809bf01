"""Changing one's own PIN or password asks for the current one (issue 23, item 3).

The probe: `/account/secrets/` took over any open session's account: whoever found a tablet
or a desk left signed in chose a new PIN and password for its owner, then approved as them.
Now the page asks for the current password or PIN, and a wrong one counts as a wrong sign-in
(the account's lockout and the source's throttle)."""

import pytest
from django.urls import reverse
from django.utils import translation

from casino.errors import PinLocked, PinRejected
from casino.models import AuditEntry
from casino.pins import pin_verify

pytestmark = pytest.mark.django_db

PAGE = "casino:change_secrets"
PASSWORD = "pw-Tapis-2026"  # tests.factories.make_staff's
NEW_PASSWORD = "Her-Own-Secret-77"


@pytest.fixture(autouse=True)
def _no_floor(settings):
    settings.SIGNIN_FAILURE_MIN_SECONDS = 0


def change(client, current=None, *, pin=None, password=None, language="en"):
    data = {}
    if current is not None:
        data["current"] = current
    if pin is not None:
        data.update(pin=pin, pin_again=pin)
    if password is not None:
        data.update(password=password, password_again=password)
    return client.post(reverse(PAGE), data, HTTP_ACCEPT_LANGUAGE=language)


def pin_works(staff, pin: str) -> bool:
    try:
        pin_verify(employee_number=staff.employee_number, pin=pin)
    except (PinRejected, PinLocked):
        return False
    return True


def test_an_open_session_cannot_choose_a_new_pin_without_the_current_one(client, dealer):
    client.force_login(dealer)
    answer = change(client, pin="9753")
    assert answer.status_code == 400
    assert not pin_works(dealer, "9753") and pin_works(dealer, "1234")


def test_an_open_session_cannot_choose_a_new_password_without_the_current_one(client, dealer):
    client.force_login(dealer)
    answer = change(client, password=NEW_PASSWORD)
    assert answer.status_code == 400
    dealer.refresh_from_db()
    assert dealer.check_password(PASSWORD) and not dealer.check_password(NEW_PASSWORD)


@pytest.mark.parametrize("current", ["1234", PASSWORD], ids=["current PIN", "current password"])
def test_the_current_pin_or_password_lets_its_owner_choose_new_ones(client, dealer, current):
    client.force_login(dealer)
    answer = change(client, current, pin="9753", password=NEW_PASSWORD)
    assert answer.status_code == 302
    dealer.refresh_from_db()
    assert pin_works(dealer, "9753") and dealer.check_password(NEW_PASSWORD)
    # The session goes on (its hash follows the new password).
    assert client.get(reverse("tables:table_list")).status_code == 200


def test_a_wrong_current_secret_is_refused_audited_and_counts_toward_the_lockout(client, dealer):
    client.force_login(dealer)
    for guess in ("0000", "1111"):
        answer = change(client, guess, pin="9753")
        assert answer.status_code == 400
        assert "Wrong current password or PIN" in answer.content.decode()
    assert AuditEntry.objects.filter(code="casino.secret.current_refused").count() == 2
    dealer.refresh_from_db()
    assert dealer.failed_pin_attempts == 2
    change(client, "2222", pin="9753")
    dealer.refresh_from_db()
    assert dealer.pin_locked()
    # Locked: even the right current PIN changes nothing now.
    assert change(client, "1234", pin="9753").status_code == 400
    assert not pin_works(dealer, "9753")


def test_wrong_current_secrets_are_throttled_per_address(client, dealer, settings):
    settings.SIGNIN_THROTTLE_SOURCE_FAILURES = 2
    client.force_login(dealer)
    change(client, "0000", pin="9753")
    change(client, "0001", pin="9753")
    answer = change(client, "1234", pin="9753")
    assert answer.status_code == 429
    assert "Wait 300 seconds" in answer.content.decode() and answer["Retry-After"] == "300"
    assert not pin_works(dealer, "9753")


def test_the_field_and_its_refusal_are_in_french(client, dealer):
    client.force_login(dealer)
    with translation.override("fr"):
        page = client.get(reverse(PAGE), HTTP_ACCEPT_LANGUAGE="fr")
        assert "mot de passe ou code PIN actuel" in page.content.decode()
        answer = change(client, "0000", pin="9753", language="fr")
    assert "Mot de passe ou code PIN actuel erroné" in answer.content.decode()
