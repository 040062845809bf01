"""No input crashes the casino's own forms (issue 11, item 6): every field of the sign-in pages,
the language switches, the PIN unlock and the secrets page gets hostile values, for nobody and
for a signed-in supervisor; the answer is never a server error and never signs anyone in."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

HOSTILE = [
    "",
    "\x00",
    "10\x0001",
    "a" * 5000,
    "[" * 5000 + "]" * 5000,
    "٠١٢٣",  # Arabic-Indic digits
    "１２３４",  # full-width digits
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "\ud7ff\ue000\U0010ffff",
    "-1",
    "99999999999999999999999999",
    "1e309",
    "NaN",
    "../../etc/passwd",
    "//evil.example/",
    "https://evil.example/",
    "\r\nSet-Cookie: x=1",
]

FORMS = {
    "casino:login": ["username", "password", "next"],
    "casino:pin_login": ["employee_number", "pin", "next"],
    "casino:device_language": ["language", "next"],
    "casino:my_language": ["language", "next"],
    "casino:locked_pins": ["staff_id"],
    "casino:change_secrets": ["current", "password", "password_again", "pin", "pin_again", "next"],
}


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.SIGNIN_FAILURE_MIN_SECONDS = 0
    settings.SIGNIN_THROTTLE_SOURCE_FAILURES = 10**6


@pytest.mark.parametrize("name", sorted(FORMS))
@pytest.mark.parametrize("signed_in", [False, True], ids=["nobody", "supervisor"])
def test_hostile_values_in_every_field_never_crash_a_form(client, supervisor, name, signed_in):
    url = reverse(name)
    for field in FORMS[name]:
        for value in HOSTILE:
            if signed_in:
                client.force_login(supervisor)
            data = {other: "1234" for other in FORMS[name]}
            data[field] = value
            response = client.post(url, data)
            assert response.status_code < 500, (name, field, value[:20], response.status_code)
            if name in {"casino:login", "casino:pin_login"} and not signed_in:
                assert "_auth_user_id" not in client.session, (field, value[:20])
            # Only our own site: a hostile `next` never leads elsewhere.
            location = response.get("Location", "")
            assert not location.startswith(("http", "//")), (name, field, location)


@pytest.mark.parametrize("name", ["casino:login", "casino:pin_login", "casino:change_secrets"])
def test_a_field_sent_twice_or_as_a_list_never_crashes(client, name):
    response = client.post(
        reverse(name), {field: ["1", "\x00", "x" * 300] for field in FORMS[name]}
    )
    assert response.status_code < 500
