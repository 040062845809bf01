"""Sign-in that resists guessing (issue 11, item 2): each finding reproduced.

Spray: PIN 1111 against numbers 1000-1199 from one address signed in as 1001. Enumeration: a
locked number answered differently. Lockout: a PIN lock did not stop the password, and the
password had no limit. Sessions on shared tablets never ended.
"""

import hashlib
import re
import time

import pytest
from django.urls import reverse
from django.utils import translation

from casino import events, middleware
from casino.models import AuditEntry, Staff
from casino.roles import Role
from casino.signin import TABLET_BINDING_COOKIE
from tests.factories import make_staff

pytestmark = pytest.mark.django_db

PIN_LOGIN = "casino:pin_login"
LOGIN = "casino:login"


@pytest.fixture(autouse=True)
def _no_floor(settings):
    # The answer's time floor is measured by `manage.py signin_timing`, not waited for here.
    settings.SIGNIN_FAILURE_MIN_SECONDS = 0


@pytest.fixture
def received():
    """Every casino.events signal sent during the test: (name, kwargs)."""
    seen = []

    def on(name):
        def receiver(sender, **kwargs):
            kwargs.pop("signal", None)
            seen.append((name, kwargs))

        return receiver

    receivers = {"pin_locked": on("pin_locked"), "signin_throttled": on("signin_throttled")}
    events.pin_locked.connect(receivers["pin_locked"])
    events.signin_throttled.connect(receivers["signin_throttled"])
    yield seen
    events.pin_locked.disconnect(receivers["pin_locked"])
    events.signin_throttled.disconnect(receivers["signin_throttled"])


def pin_try(client, number, pin, **extra):
    return client.post(
        reverse(PIN_LOGIN),
        {"employee_number": number, "pin": pin},
        HTTP_ACCEPT_LANGUAGE="en",
        **extra,
    )


def password_try(client, username, password, **extra):
    return client.post(
        reverse(LOGIN),
        {"username": username, "password": password},
        HTTP_ACCEPT_LANGUAGE="en",
        **extra,
    )


def error_of(response) -> str:
    text = response.content.decode()
    start = text.index('role="alert">') + len('role="alert">')
    return text[start : text.index("</p>", start)]


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def with_number(staff: Staff, number: str, pin: str | None = None) -> Staff:
    staff.employee_number = number
    staff.save(update_fields=["employee_number"])
    if pin is not None:
        from casino.staffing import staff_secrets_change

        staff_secrets_change(staff=staff, pin=pin)
    return staff


def test_a_spray_of_200_tries_from_one_address_is_throttled_and_signs_nobody_in(
    client, received, django_capture_on_commit_callbacks
):
    # The spray found 1001; here the PIN 1111 belongs to 1150, past the limit.
    with_number(make_staff(Role.DEALER), "1150", pin="1111")
    answers = []
    with django_capture_on_commit_callbacks(execute=True):
        for number in range(1000, 1200):
            answers.append(pin_try(client, str(number), "1111"))
    assert not signed_in(client)
    statuses = [a.status_code for a in answers]
    assert statuses[:10] == [403] * 10 and statuses[10:] == [429] * 190
    assert AuditEntry.objects.filter(code="casino.pin.rejected").count() == 10  # guesses tried
    assert re.search(r"Wait (29\d|300) seconds", error_of(answers[-1]))
    throttled = [kwargs for name, kwargs in received if name == "signin_throttled"]
    assert throttled == [{"source": "127.0.0.1", "attempts": 10}]
    assert AuditEntry.objects.filter(code="casino.signin.throttled").count() == 1


def test_a_right_pin_after_the_limit_is_refused_until_the_wait_is_over(client, settings, dealer):
    for _ in range(10):
        pin_try(client, "nobody", "0000")
    answer = pin_try(client, dealer.employee_number, "1234")
    assert answer.status_code == 429 and not signed_in(client)
    assert 290 <= int(answer["Retry-After"]) <= 300


def test_the_throttle_follows_the_tablet_across_addresses(
    client, received, settings, django_capture_on_commit_callbacks
):
    settings.SIGNIN_THROTTLE_SOURCE_FAILURES = 1000
    client.cookies[TABLET_BINDING_COOKIE] = "raw-binding-token"
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(10):
            pin_try(client, f"9{n}", "0000", REMOTE_ADDR=f"10.0.0.{n}")
    answer = pin_try(client, "42", "0000", REMOTE_ADDR="10.0.1.1")
    assert answer.status_code == 429
    fingerprint = hashlib.sha256(b"raw-binding-token").hexdigest()
    assert ("signin_throttled", {"source": f"tablet:{fingerprint}", "attempts": 10}) in received


def test_a_spray_spread_over_addresses_alerts_the_pit_but_blocks_nobody_else(
    client, settings, dealer, received, django_capture_on_commit_callbacks
):
    # Issue 23: the house-wide limit this test used to assert let 100 wrong PINs from 10
    # addresses refuse every sign-in and approval in the house. Now it alerts the pit only.
    settings.SIGNIN_ALERT_TOTAL_FAILURES = 30
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(30):
            pin_try(client, f"8{n}", "0000", REMOTE_ADDR=f"10.1.{n}.1")
    assert ("signin_throttled", {"source": "all", "attempts": 30}) in received
    answer = pin_try(client, dealer.employee_number, "1234", REMOTE_ADDR="10.9.9.9")
    assert answer.status_code == 302 and signed_in(client)


def test_the_wait_is_said_in_french_too(client):
    for _ in range(10):
        pin_try(client, "nobody", "0000")
    answer = client.post(
        reverse(PIN_LOGIN),
        {"employee_number": "nobody", "pin": "0000"},
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert "Patientez 300 secondes" in error_of(answer)


def test_the_password_sign_in_is_throttled_by_the_same_counts(client, dealer):
    for _ in range(5):
        pin_try(client, "nobody", "0000")
    for _ in range(5):
        password_try(client, "nobody", "wrong")
    answer = password_try(client, "dealer", "pw-Tapis-2026")
    assert answer.status_code == 429 and not signed_in(client)
    assert "Wait 300 seconds" in answer.content.decode()
    assert answer["Retry-After"] == "300"


def test_unknown_wrong_and_locked_get_the_same_answer(client, dealer, other_dealer):
    for _ in range(3):
        pin_try(client, other_dealer.employee_number, "0000")  # other_dealer is now locked
    unknown = pin_try(client, "nobody", "1234")
    wrong = pin_try(client, dealer.employee_number, "0000")
    locked = pin_try(client, other_dealer.employee_number, "1234")  # the right PIN
    assert unknown.status_code == wrong.status_code == locked.status_code == 403
    assert error_of(unknown) == error_of(wrong) == error_of(locked)
    assert not signed_in(client)


def test_password_unknown_wrong_and_locked_get_the_same_answer(client, dealer, other_dealer):
    for _ in range(3):
        password_try(client, "other_dealer", "wrong")
    pages = [
        password_try(client, "nobody", "pw-Tapis-2026"),
        password_try(client, "dealer", "wrong"),
        password_try(client, "other_dealer", "pw-Tapis-2026"),  # right, but locked
    ]
    errors = {p.content.decode().split('class="errorlist nonfield">')[1][:200] for p in pages}
    assert len(errors) == 1 and not signed_in(client)


def test_a_pin_lockout_stops_the_password_sign_in(client, dealer):
    for _ in range(3):
        pin_try(client, dealer.employee_number, "0000")
    password_try(client, "dealer", "pw-Tapis-2026")
    assert not signed_in(client)
    assert AuditEntry.objects.filter(code="casino.login.refused_locked").count() == 1


def test_wrong_passwords_lock_the_pin_sign_in_too(client, dealer):
    for _ in range(3):
        password_try(client, "dealer", "wrong")
    dealer.refresh_from_db()
    assert dealer.pin_locked()
    assert pin_try(client, dealer.employee_number, "1234").status_code == 403
    assert not signed_in(client)


def test_thirty_wrong_passwords_then_the_right_one_does_not_sign_in(client, settings, dealer):
    settings.SIGNIN_THROTTLE_SOURCE_FAILURES = 1000
    for _ in range(30):
        password_try(client, "dealer", "wrong")
    password_try(client, "dealer", "pw-Tapis-2026")
    assert not signed_in(client)


def test_the_admin_login_page_shares_the_lockout(client, manager):
    for _ in range(3):
        pin_try(client, manager.employee_number, "0000")
    client.post(reverse("admin:login"), {"username": "manager", "password": "pw-Tapis-2026"})
    assert not signed_in(client)


def test_a_right_password_clears_the_count_of_wrong_ones(client, dealer):
    for _ in range(2):
        password_try(client, "dealer", "wrong")
    password_try(client, "dealer", "pw-Tapis-2026")
    assert signed_in(client)
    dealer.refresh_from_db()
    assert dealer.failed_pin_attempts == 0


def test_a_lock_is_announced_to_the_pit_once_committed(
    client, dealer, received, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            pin_try(client, dealer.employee_number, "0000")
    assert received == [("pin_locked", {"staff_id": dealer.pk})]


def test_a_password_lock_is_announced_too(
    client, dealer, received, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            password_try(client, "dealer", "wrong")
    assert received == [("pin_locked", {"staff_id": dealer.pk})]


def test_a_nul_byte_in_a_username_is_just_a_refusal(client):
    response = password_try(client, "dea\x00ler", "x")
    assert response.status_code == 200 and not signed_in(client)


# --- sessions on shared tablets -------------------------------------------------------------


@pytest.fixture
def clock(monkeypatch):
    now = [time.time()]
    monkeypatch.setattr(middleware.time, "time", lambda: now[0])
    return now


def test_a_pin_session_ends_after_the_idle_time(client, dealer, settings, clock):
    settings.SHARED_TABLET_IDLE_MINUTES = 10
    pin_try(client, dealer.employee_number, "1234")
    assert client.get(reverse("tables:table_list")).status_code == 200
    clock[0] += 9 * 60
    assert client.get(reverse("tables:table_list")).status_code == 200  # still in use
    clock[0] += 9 * 60  # 9 minutes after the last request: still fine
    assert client.get(reverse("tables:table_list")).status_code == 200
    clock[0] += 11 * 60
    response = client.get(reverse("tables:table_list"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse(PIN_LOGIN) + "?signed_out=idle")
    assert not signed_in(client)
    ended = AuditEntry.objects.get(code="casino.session.ended")
    assert ended.actor_id == dealer.pk and ended.data == {"reason": "idle"}
    with translation.override("en"):
        page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en")
    assert "Signed out after 10 minutes without activity" in page.content.decode()


def test_a_pin_session_lasts_a_shift_at_most_even_when_busy(client, dealer, settings, clock):
    settings.SHARED_TABLET_SESSION_MINUTES = 480
    settings.SHARED_TABLET_IDLE_MINUTES = 15
    pin_try(client, dealer.employee_number, "1234")
    assert client.session.get_expiry_age() == 480 * 60
    for _ in range(48):  # a request every 10 minutes for 8 hours
        clock[0] += 10 * 60
        last = client.get(reverse("tables:table_list"))
    assert last.status_code == 200
    clock[0] += 10 * 60
    response = client.get(reverse("tables:table_list"))
    assert response.status_code == 302 and "signed_out=shift" in response["Location"]
    assert not signed_in(client)


def test_a_password_session_on_a_bound_tablet_ends_when_idle_too(client, dealer, clock):
    client.cookies[TABLET_BINDING_COOKIE] = "raw-binding-token"
    password_try(client, "dealer", "pw-Tapis-2026")
    assert client.get(reverse("tables:table_list")).status_code == 200
    clock[0] += 16 * 60
    assert client.get(reverse("tables:table_list")).status_code == 302
    assert not signed_in(client)


def test_a_password_session_at_a_desk_is_not_cut_when_idle(client, dealer, clock):
    password_try(client, "dealer", "pw-Tapis-2026")
    clock[0] += 60 * 60
    assert client.get(reverse("tables:table_list")).status_code == 200


def test_the_api_is_told_the_session_ended(client, dealer, clock):
    pin_try(client, dealer.employee_number, "1234")
    clock[0] += 16 * 60
    response = client.get(reverse("tables:table_list"), HTTP_ACCEPT="application/json")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "signed_out"


@pytest.mark.parametrize(
    "number, pin",
    [("10\x0001", "1234"), ("1" * 5000, "1234"), ("\x00", "1234"), (None, "1" * 100_000)],
)
def test_a_malformed_number_or_pin_is_just_a_refusal(client, dealer, number, pin):
    number = dealer.employee_number if number is None else number
    response = pin_try(client, number, pin)
    assert response.status_code == 403 and not signed_in(client)
    assert "Sign-in refused" in error_of(response)


def test_a_nul_number_never_matches_an_account_without_a_number(client):
    nameless = make_staff(Role.DEALER, pin="1234")
    Staff.objects.filter(pk=nameless.pk).update(employee_number=None)
    assert pin_try(client, "\x00", "1234").status_code == 403
    assert not signed_in(client)


def test_a_refusal_is_held_to_a_whole_multiple_of_the_floor(settings, monkeypatch):
    from casino import signin

    settings.SIGNIN_FAILURE_MIN_SECONDS = 1.0
    slept = []
    monkeypatch.setattr(signin.time, "sleep", slept.append)
    for elapsed in (0.3, 1.4):
        monkeypatch.setattr(signin.time, "monotonic", lambda elapsed=elapsed: 100.0 + elapsed)
        signin.answer_no_sooner(100.0)
    assert slept == [pytest.approx(0.7), pytest.approx(0.6)]  # answered at 1 s, then at 2 s
