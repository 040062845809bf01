"""A void on the tablet: the dealer declares the irregularity, a supervisor approves it with
their employee number and PIN on the same screen; a wrong PIN is refused as the API words it."""

import pytest
from django.utils import translation
from django.utils.translation import gettext as _

from tests.e2e.tablet_support import DEALER, SUPERVISOR, Tablet, load_floor
from tests.e2e.test_tablet_language import english_left_on

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
def tablet(asgi_server, browser_page):
    asgi_server.run_sync(load_floor)
    browser_page.set_viewport_size({"width": 1280, "height": 800})
    return Tablet(browser_page, asgi_server.url)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_void_is_approved_by_a_supervisor_pin_after_a_wrong_one(tablet, language):
    tablet.sign_in(*DEALER, language)
    words = tablet.words
    page = tablet.page
    tablet.tap(words["new_round"])
    tablet.wagers(1, [1000], progressive=True)
    tablet.wagers(2, [2000])
    tablet.tap(words["no_more_bets"])
    tablet.tap(words["irregularity"], wait=False)
    tablet.tap(words["irr.preflop_card_exposed"])
    assert page.is_visible("[data-supervisor]")
    assert tablet.next_step() == words["next.pending_void"]
    assert page.locator("[data-decision]").count() == 0  # the round waits for the supervisor

    number, pin = SUPERVISOR
    page.fill("[data-supervisor] input[name=employee_number]", number)
    page.fill("[data-supervisor] input[name=pin]", "0000")
    tablet.tap(words["approve_void"])
    with translation.override(language):  # the API's own words, in the page's language
        assert page.inner_text("[data-supervisor-error]") == _("Wrong employee number or PIN.")
    assert tablet.stage() == "preflop"
    assert page.input_value("[data-supervisor] input[name=pin]") == ""  # typed again from nothing
    assert page.input_value("[data-supervisor] input[name=employee_number]") == number
    tablet.screenshot(f"tablet-void-{language}")
    if language == "fr":
        assert english_left_on(page) == []

    page.fill("[data-supervisor] input[name=pin]", pin)
    tablet.tap(words["approve_void"])
    assert tablet.stage() == "void"
    assert page.is_hidden("[data-supervisor]")
    assert page.inner_text("[data-provisional]") == words["void_reason"] % {
        "reason": words["irr.preflop_card_exposed"]
    }
    nets = tablet.on_screen_payouts()
    assert nets and all(net == 0 for seat in nets.values() for net in seat.values())
    assert page.is_visible(f'button:text-is("{words["new_round"]}")')
