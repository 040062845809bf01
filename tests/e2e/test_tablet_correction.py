"""A correction after settlement on the tablet: a hole card entered wrong made seat 1 lose;
the dealer enters its cards again, a supervisor's wrong PIN is refused in the API's words,
then their PIN approves it on the same screen: the compensating lines are listed and the
seat's payouts on screen are the engine's settlement of the corrected facts."""

import pytest
from django.utils import translation
from django.utils.translation import gettext as _

from tests.e2e.tablet_support import (
    DEALER,
    SCREENSHOTS,
    SUPERVISOR,
    Tablet,
    axe_violations,
    load_floor,
    staff_client,
)
from tests.e2e.test_tablet_language import english_left_on

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

BOARD = ["Kh", "7d", "2c", "9s", "4h"]
DEALER_CARDS = ["Qc", "Qd"]  # a pair of queens: the dealer qualifies
WRONG, RIGHT = ["Ah", "3d"], ["Kd", "3d"]  # ace high loses; kings beat the queens


def settle_misread_round(tablet) -> None:
    """Two seats play a round whose seat 1 hole cards are entered wrongly (WRONG), and the
    dealer confirms its settlement."""
    words, page = tablet.words, tablet.page
    tablet.tap(words["new_round"])
    tablet.wagers(1, [1000])
    tablet.wagers(2, [1000])
    tablet.tap(words["no_more_bets"])
    tablet.decide(1, "bet:4")
    tablet.decide(2, "check")
    for card in BOARD[:3]:
        tablet.card(card)
    tablet.decide(2, "check")
    for card in BOARD[3:]:
        tablet.card(card)
    tablet.decide(2, "bet:1")
    for card in DEALER_CARDS + WRONG + ["8c", "8d"]:
        tablet.card(card)
    page.wait_for_selector('[data-action="confirm"]:not([hidden])')
    tablet.tap(words["confirm"])


def _supervisor_corrects_alone():
    """The property lets the table's supervisor make this correction alone (issue 23, 2: by
    default a second person approves it at the pit, test_pit_correction_approval.py)."""
    from casino.models import Property

    Property.objects.update(correction_threshold_cents=10**9)


@pytest.fixture
def tablet(asgi_server, browser_page):
    asgi_server.run_sync(load_floor)
    asgi_server.run_sync(_supervisor_corrects_alone)
    browser_page.set_viewport_size({"width": 1280, "height": 800})
    return Tablet(browser_page, asgi_server.url)


def nets(output: dict) -> dict:
    return {
        str(seat["seat"]): {
            bet: result["net"]
            for bet, result in seat["bets"].items()
            if result.get("stake") or result["net"]
        }
        for seat in output["seats"]
    }


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_settled_round_is_corrected_after_a_wrong_pin(tablet, language):
    tablet.sign_in(*DEALER, language)
    words = tablet.words
    page = tablet.page
    settle_misread_round(tablet)
    assert tablet.stage() == "settled"
    before = tablet.on_screen_payouts()
    assert before["1"]["ante"] < 0 and before["1"]["play"] < 0

    # The dealer restates seat 1's cards on the same screen.
    tablet.tap(words["correct"], wait=False)
    form = page.locator("[data-correction]")
    assert form.is_visible()
    page.click('.place[data-place="1"]')
    assert page.is_visible("[data-card-entry]")
    assert page.get_attribute('[data-card="Ah"]', "aria-disabled") == "false"  # freed
    for card in RIGHT:
        page.get_by_role("button", name=card, exact=True).click()
    assert page.is_hidden("[data-card-entry]")
    assert page.locator('.seat[data-seat="1"] [data-code="Kd"]').count() == 1
    # Before any PIN: the engine's settlement of the corrected facts, on the felt and as the
    # lines the correction will write.
    page.wait_for_selector("[data-correction-preview] [data-preview-seat]")
    previewed = page.evaluate(
        "() => [...document.querySelectorAll('[data-preview-seat]')]"
        ".map(l => [Number(l.dataset.previewSeat), l.dataset.previewBet, Number(l.dataset.net)])"
    )
    shown_before_pin = tablet.on_screen_payouts()
    page.screenshot(
        path=str(SCREENSHOTS / f"tablet-correction-preview-{language}.png"), full_page=True
    )
    assert shown_before_pin["1"]["ante"] > 0 and shown_before_pin["1"]["play"] > 0
    assert shown_before_pin["2"] == before["2"]
    form.locator("input[name=reason]").fill("Kd read as Ah" if language == "en" else "Kd lu As")
    form.locator("input[name=employee_number]").fill(SUPERVISOR[0])
    form.locator("input[name=pin]").fill("0000")
    tablet.tap(words["send_correction"])
    with translation.override(language):  # refused in the API's words
        assert page.inner_text("[data-correction-error]") == _("Wrong employee number or PIN.")
    assert form.locator("input[name=pin]").input_value() == ""  # typed again from nothing
    assert page.is_hidden("[data-corrections]")
    assert tablet.on_screen_payouts() == shown_before_pin  # the preview stays up
    assert axe_violations(page) == []

    form.locator("input[name=pin]").fill(SUPERVISOR[1])
    tablet.tap(words["send_correction"], wait=False)
    page.wait_for_selector("[data-corrections]:not([hidden])")
    assert page.is_hidden("[data-correction]")
    tablet.screenshot(f"tablet-correction-{language}")
    if language == "fr":
        assert english_left_on(page) == []

    round_id = int(page.get_attribute("#tablet", "data-round"))
    export = staff_client("inspecteur").get(f"/api/rounds/{round_id}/export").json()
    [correction] = export["corrections"]
    corrected = nets(correction["output"])
    after = tablet.on_screen_payouts()
    assert after == corrected == shown_before_pin and after["1"]["ante"] > 0
    assert after["2"] == before["2"]
    lines = page.evaluate(
        "() => [...document.querySelectorAll('[data-line-seat]')]"
        ".map(l => [Number(l.dataset.lineSeat), l.dataset.lineBet, Number(l.dataset.net)])"
    )
    assert (
        sorted(lines)
        == sorted(
            [1, bet, corrected["1"][bet] - before["1"].get(bet, 0)]
            for bet in corrected["1"]
            if corrected["1"][bet] != before["1"].get(bet, 0)
        )
        == sorted(previewed)
    )
    # The felt shows the corrected cards, also when the page is opened again.
    for _visit in range(2):
        hole = page.locator('.seat[data-seat="1"] [data-code]')
        assert hole.evaluate_all("cs => cs.map(c => c.dataset.code)") == RIGHT
        page.reload()
        tablet.wait_online()
    assert axe_violations(page) == []
