"""The jackpot display page in real Chromium, against a real ASGI server."""

import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from jackpot.display_tokens import display_token_issue
from tests.e2e.conftest import AsgiServer
from tests.jackpot.display.support import commit_hit, commit_meter, commit_status, make_bank

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

LEVEL = '#jackpot-display [data-level="royal_flush"]'
SCREENSHOTS = Path(__file__).parent / "screenshots"


def plain(text: str) -> str:
    # French number formatting uses (narrow) no-break spaces.
    return text.replace("\u202f", " ").replace("\u00a0", " ").strip()


@pytest.fixture
def floor(asgi_server, casino_property):
    bank = make_bank("grand", meter_cents=1_234_567)
    _, raw = display_token_issue(bank_slug="grand", name="Entrée", language="fr")
    return bank, f"{asgi_server.url}/display/grand/?token={raw}"


def test_display_shows_the_amount_and_updates_without_overshooting(
    asgi_server, browser_page, floor
):
    bank, url = floor
    page = browser_page
    page.goto(url)
    page.wait_for_selector(f'{LEVEL}[data-shown-cents="1234567"]', timeout=10_000)
    assert page.get_attribute("#jackpot-display", "data-state") == "live"
    assert plain(page.inner_text(f"{LEVEL} [data-amount]")) == "12 345,67 €"
    assert plain(page.inner_text('[data-level="straight_flush"] [data-amount]')) == "1 234,56 €"
    assert "Quinte flush royale" in page.inner_text(LEVEL)
    page.screenshot(path=str(SCREENSHOTS / "display-fr.png"))  # the README's and the guides'

    # Record every value the screen paints while it counts up.
    page.evaluate(
        """() => {
        window.painted = [];
        const el = document.querySelector('[data-level="royal_flush"]');
        new MutationObserver(() => window.painted.push(Number(el.dataset.shownCents)))
          .observe(el, {attributes: true, attributeFilter: ["data-shown-cents"]});
    }"""
    )
    asgi_server.run_sync(commit_meter, bank, 1_300_000)
    page.wait_for_selector(f'{LEVEL}[data-shown-cents="1300000"]', timeout=10_000)
    painted = page.evaluate("window.painted")
    assert painted == sorted(painted) and max(painted) == 1_300_000
    assert plain(page.inner_text(f"{LEVEL} [data-amount]")) == "13 000,00 €"

    # A hit: the table, the amount, then the new amount after the reset.
    asgi_server.run_sync(commit_hit, bank, table="UTH-3", amount_cents=1_300_000)
    page.wait_for_selector("#jackpot-display [data-hit]:not([hidden])", timeout=5_000)
    assert plain(page.inner_text("[data-hit-table]")) == "Table UTH-3"
    assert plain(page.inner_text("[data-hit-amount]")) == "13 000,00 €"
    assert plain(page.inner_text("[data-hit-new]")) == ""  # no new amount before the reset
    asgi_server.run_sync(commit_meter, bank, 1_000_000)
    page.wait_for_selector(f'{LEVEL}[data-shown-cents="1000000"]', timeout=5_000)
    assert plain(page.inner_text("[data-hit-new]")) == "Nouveau montant : 10 000,00 €"

    # The bank closes: the fault state replaces the numbers at once.
    asgi_server.run_sync(commit_status, bank, "closed", "maintenance")
    page.wait_for_selector('#jackpot-display[data-state="fault"]', timeout=5_000)
    assert page.is_visible("[data-fault]") and not page.is_visible("[data-levels]")
    assert plain(page.inner_text("[data-fault]")) == "JACKPOT INDISPONIBLE"


def test_display_shows_the_fault_state_when_the_server_stops(asgi_server, browser_page, floor):
    _, url = floor
    page = browser_page
    page.goto(url)
    page.wait_for_selector('#jackpot-display[data-state="live"]', timeout=10_000)
    asgi_server.stop()
    # Nothing arrives any more: after 15 s without a message the screen gives up the number.
    page.wait_for_selector('#jackpot-display[data-state="fault"]', timeout=25_000)
    assert page.is_visible("[data-fault]") and not page.is_visible("[data-levels]")
    assert plain(page.inner_text("[data-fault]")) == "JACKPOT INDISPONIBLE"


def test_display_page_with_a_revoked_token_says_so(asgi_server, browser_page, floor):
    from jackpot.display_tokens import display_token_revoke
    from jackpot.models import DisplayToken

    _, url = floor
    display_token_revoke(token_id=DisplayToken.objects.get(name="Entrée").pk)
    response = browser_page.goto(url)
    assert response.status == 403
    assert browser_page.inner_text("h1") == "JACKPOT INDISPONIBLE / JACKPOT NOT AVAILABLE"


def test_display_reconnects_by_itself_after_a_server_restart(asgi_server, browser_page, floor):
    bank, url = floor
    page = browser_page
    page.goto(url)
    page.wait_for_selector(f'{LEVEL}[data-shown-cents="1234567"]', timeout=10_000)
    server = asgi_server.restarted()
    try:
        # Only a new socket can carry this change: the page must have reconnected.
        deadline = time.monotonic() + 20
        while True:
            server.run_sync(commit_meter, bank, 1_250_000 + int(time.monotonic() * 10) % 1000)
            try:
                page.wait_for_selector(f"{LEVEL}[data-shown-cents^='125']", timeout=2_000)
                break
            except PlaywrightTimeout:
                assert time.monotonic() < deadline, "the display did not reconnect"
        assert page.get_attribute("#jackpot-display", "data-state") == "live"
    finally:
        server.stop()


def test_display_page_keeps_its_token_out_of_the_address_and_the_socket(
    asgi_server, browser_page, floor
):
    _, url = floor
    page = browser_page
    sockets = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(url)
    page.wait_for_selector('#jackpot-display[data-state="live"]', timeout=10_000)
    assert page.url == f"{asgi_server.url}/display/grand/"
    assert sockets and all("token" not in address for address in sockets)


def test_display_page_takes_a_fresh_snapshot_when_a_heartbeat_says_it_missed_a_message(
    asgi_server, browser_page, floor, settings, monkeypatch
):
    """The server's own catch-up is switched off here: the page itself must notice, from the
    heartbeat's seq, that a meter message never came, and reconnect for a snapshot."""
    from jackpot import consumers, feed

    bank, url = floor
    settings.JACKPOT_FEED_HEARTBEAT_SECONDS = 1
    page = browser_page
    page.goto(url)
    page.wait_for_selector(f'{LEVEL}[data-shown-cents="1234567"]', timeout=10_000)

    async def no_catch_up(self, *args):
        return None

    monkeypatch.setattr(consumers.DisplayFeedConsumer, "_catch_up", no_catch_up)
    monkeypatch.setattr(feed, "request_meter_publish", lambda slug: None)  # the message is lost
    asgi_server.run_sync(commit_meter, bank, 1_300_000)

    page.wait_for_selector(f'{LEVEL}[data-shown-cents="1300000"]', timeout=30_000)
    assert page.get_attribute("#jackpot-display", "data-resyncs") == "1"
    assert page.get_attribute("#jackpot-display", "data-state") == "live"


def test_display_gives_up_the_number_at_once_and_is_back_within_5_s_of_the_server(
    asgi_server, browser_page, floor
):
    """The server stops for 25 s (a long restart): the screen shows the fault state as soon as
    its socket closes, not a number nothing updates for 15 s; it reconnects within 5 s of the
    server's return and shows the meter again at once."""
    _, url = floor
    page = browser_page
    page.goto(url)
    page.wait_for_selector(f'{LEVEL}[data-shown-cents="1234567"]', timeout=10_000)
    stopped = time.monotonic()
    asgi_server.stop()
    page.wait_for_selector('#jackpot-display[data-state="fault"]', timeout=3_000)
    assert time.monotonic() - stopped < 3
    assert not page.is_visible("[data-levels]")
    page.wait_for_timeout(25_000)  # long enough for a backoff to grow
    server = AsgiServer(asgi_server.port).start()
    back = time.monotonic()
    try:
        page.wait_for_selector('#jackpot-display[data-state="live"]', timeout=10_000)
        assert time.monotonic() - back < 5
        assert page.is_visible(f"{LEVEL} [data-amount]")
        assert page.get_attribute(LEVEL, "data-shown-cents") == "1234567"
    finally:
        server.stop()
