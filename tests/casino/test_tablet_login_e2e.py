"""The tablet login in real Chromium: tap the employee number and PIN on the keypad."""

import pytest

from casino.roles import Role
from casino.staffing import staff_create
from tests.e2e.conftest import asgi_server, browser_page  # noqa: F401 - fixtures
from tests.factories import make_staff

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def tap(page, digits: str) -> None:
    for digit in digits:
        page.click(f'.keypad [data-key="{digit}"]')


def test_a_dealer_logs_in_by_tapping_the_keypad(asgi_server, browser_page):  # noqa: F811
    staff_create(
        username="tapper", roles=[Role.DEALER], pin="2580", employee_number="7301", language="en"
    )
    page = browser_page
    page.goto(f"{asgi_server.url}/login/pin/")
    page.click("text=English")  # pin this tablet to English first
    assert page.inner_text("h1") == "Tablet login"
    page.click('input[name="employee_number"]')
    tap(page, "7301")
    page.click('input[name="pin"]')
    tap(page, "2589")
    page.click('.keypad [data-key="clear"]')
    tap(page, "2580")
    assert page.input_value('input[name="pin"]') == "2580"
    page.click(".key-ok")
    page.wait_for_url(f"{asgi_server.url}/", timeout=10_000)
    assert page.inner_text(".who") == "tapper"


def test_a_wrong_pin_shows_a_message_a_dealer_can_act_on(asgi_server, browser_page):  # noqa: F811
    dealer = make_staff(Role.DEALER, pin="2580")
    page = browser_page
    page.goto(f"{asgi_server.url}/login/pin/")
    page.click("text=Français")
    page.fill('input[name="employee_number"]', dealer.employee_number)
    page.click('input[name="pin"]')
    tap(page, "1111")
    page.click(".key-ok")
    page.wait_for_selector(".error")
    # One answer for an unknown number, a wrong PIN and a locked account (tests/casino/test_signin.py).
    assert page.inner_text(".error") == (
        "Connexion refusée\u00a0: matricule ou code PIN erroné, ou compte bloqué après trop "
        "d’essais erronés (un superviseur peut le débloquer)."
    )


def test_the_keypad_moves_from_the_employee_number_to_the_pin(asgi_server, browser_page):  # noqa: F811
    staff_create(username="mover", roles=[Role.DEALER], pin="2580", employee_number="7302")
    page = browser_page
    page.goto(f"{asgi_server.url}/login/pin/")
    page.click("text=English")  # pin this tablet to English
    tap(page, "7302")  # into the number: it has the focus
    assert page.inner_text(".key-ok") == "Next"  # on the number, OK says where it goes
    page.click(".key-ok")
    assert page.evaluate("document.activeElement.name") == "pin"
    assert page.inner_text(".key-ok") == "OK"
    assert page.evaluate("document.querySelector('input[name=pin]').matches(':focus')")
    assert page.url.startswith(f"{asgi_server.url}/login/pin/")
    tap(page, "2580")
    assert page.input_value('input[name="pin"]') == "2580"
    assert page.input_value('input[name="employee_number"]') == "7302"
    page.click(".key-ok")
    page.wait_for_url(f"{asgi_server.url}/", timeout=10_000)


def test_after_a_wrong_pin_the_keypad_types_a_new_pin_from_nothing(asgi_server, browser_page):  # noqa: F811
    dealer = make_staff(Role.DEALER, pin="2580")
    page = browser_page
    page.goto(f"{asgi_server.url}/login/pin/")
    page.fill('input[name="employee_number"]', dealer.employee_number)
    page.press('input[name="employee_number"]', "Enter")  # Enter moves on as OK does
    tap(page, "1111")
    page.click(".key-ok")
    page.wait_for_selector(".error")
    assert page.input_value('input[name="employee_number"]') == dealer.employee_number
    assert page.input_value('input[name="pin"]') == ""
    tap(page, "2580")  # into the PIN, not after the employee number
    assert page.input_value('input[name="employee_number"]') == dealer.employee_number
    assert page.input_value('input[name="pin"]') == "2580"
    page.click(".key-ok")
    page.wait_for_url(f"{asgi_server.url}/", timeout=10_000)
