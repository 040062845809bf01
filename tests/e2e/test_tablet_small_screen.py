"""The tablet at 1024x768 (the smaller 10-inch tablets): at card entry, every seat, the card
grid and the next-step line lie wholly inside the viewport, with no horizontal scrolling; at
showdown and once settled, the payout totals and the confirmation too, without scrolling."""

import pytest

from tests.e2e.tablet_support import DEALER, Tablet, load_floor

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

WIDTH, HEIGHT = 1024, 768


@pytest.fixture
def tablet(asgi_server, browser_page):
    asgi_server.run_sync(load_floor)
    browser_page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    return Tablet(browser_page, asgi_server.url)


def outside(page, selector: str) -> list[dict]:
    """The elements of `selector` not wholly inside the viewport, with their boxes."""
    return page.evaluate(
        """([selector, width, height]) => [...document.querySelectorAll(selector)]
            .map(e => [e, e.getBoundingClientRect()])
            .filter(([e, r]) => r.left < 0 || r.top < 0 || r.right > width || r.bottom > height)
            .map(([e, r]) => ({ what: e.dataset.seat || e.dataset.card || e.className,
                                left: r.left, top: r.top, right: r.right, bottom: r.bottom }))""",
        [selector, WIDTH, HEIGHT],
    )


@pytest.mark.parametrize("language", ["fr", "en"])
def test_card_entry_fits_a_1024_by_768_screen(tablet, language):
    tablet.sign_in(*DEALER, language)
    words = tablet.words
    page = tablet.page
    tablet.tap(words["new_round"])
    for seat in range(1, 8):
        tablet.wagers(seat, [1000], trips=[1000] if seat % 2 else [])
    tablet.tap(words["no_more_bets"])
    tablet.decide(1, "bet:4")
    tablet.decide(2, "bet:3")
    for seat in range(3, 8):
        tablet.decide(seat, "check")
    tablet.card("Kh")
    assert page.is_visible("[data-card-entry]")
    page.evaluate("window.scrollTo(0, 0)")

    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    assert page.locator(".seat").count() == 7
    for selector in (
        ".seat",
        "[data-card-entry] .grid",
        "[data-card-entry] [data-card]",
        "[data-next]",
    ):
        assert outside(page, selector) == [], selector
    tablet.screenshot(f"tablet-cards-1024-{language}")

    for card in ("7d", "2c"):
        tablet.card(card)
    for seat in range(3, 8):
        tablet.decide(seat, "check")
    for card in ("9s", "4h"):
        tablet.card(card)
    for seat in range(3, 8):
        tablet.decide(seat, "bet:1" if seat % 2 else "fold")
    # The dealer's two cards, then each seat's that the round asks for.
    deck = iter(
        [
            "Qc",
            "Jd",
            "Kd",
            "Ks",
            "Ah",
            "3d",
            "7h",
            "7c",
            "8c",
            "8d",
            "5s",
            "6s",
            "Jh",
            "Tc",
            "3s",
            "3c",
        ]
    )
    while page.is_visible("[data-card-entry]"):
        tablet.card(next(deck))
    page.wait_for_selector('[data-action="confirm"]:not([hidden])')
    page.wait_for_selector("[data-settlement]:not([hidden])")
    page.evaluate("window.scrollTo(0, 0)")
    for selector in ('[data-total="pays"]', '[data-total="collects"]', '[data-action="confirm"]'):
        assert outside(page, selector) == [], selector
    tablet.screenshot(f"tablet-settlement-1024-{language}")
    tablet.tap(words["confirm"])
    page.evaluate("window.scrollTo(0, 0)")
    for selector in ('[data-total="pays"]', '[data-total="collects"]', '[data-action="open"]'):
        assert outside(page, selector) == [], selector
