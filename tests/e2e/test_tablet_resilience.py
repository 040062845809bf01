"""The server's round is the truth: a lost answer, a cut link and a second tablet never lose
a tap nor apply it twice, and the screen says at once when the link is down."""

import pytest

from tables.models import RoundEvent
from tests.e2e.tablet_support import DEALER, Tablet, axe_violations, card_text, load_floor
from tests.e2e.test_tablet_language import english_left_on

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
def tablet(request, asgi_server, browser_page):
    asgi_server.run_sync(load_floor)
    language = getattr(request, "param", "en")
    tablet = Tablet(browser_page, asgi_server.url).sign_in(*DEALER, language)
    words = tablet.words
    tablet.tap(words["new_round"])
    tablet.wagers(1, [1000])
    tablet.wagers(2, [1000])
    tablet.tap(words["no_more_bets"])
    return tablet


def events_of(tablet) -> list[dict]:
    round_id = int(tablet.page.get_attribute("#tablet", "data-round"))
    return list(RoundEvent.objects.filter(round_id=round_id).order_by("seq").values("data", "key"))


def test_an_answer_lost_on_the_way_back_is_sent_again_with_its_key_and_applies_once(tablet):
    page = tablet.page
    lost = []

    def answer_lost(route):
        route.fetch()  # the server applies the write...
        lost.append(route.request.post_data_json["key"])
        route.abort()  # ...and its answer never reaches the tablet

    page.route("**/api/rounds/*/events", answer_lost)
    page.get_by_role(
        "button",
        name=tablet.words["action_of"]
        % {"seat": 1, "action": tablet.words["bet"] % {"multiple": 4}},
        exact=True,
    ).click()
    page.wait_for_selector("[data-pending]:not([hidden]) [data-pending-list] li")
    page.unroute("**/api/rounds/*/events")
    page.wait_for_function("() => document.querySelector('[data-pending]').hidden")
    events = events_of(tablet)
    decisions = [e for e in events if e["data"]["kind"] == "decision"]
    assert [e["key"] for e in decisions] == lost  # one decision, under the key first sent
    assert page.locator('.seat[data-seat="1"] [data-decision]').count() == 0
    assert tablet.seq == len(events)


def pending(page) -> list[str]:
    return page.evaluate(
        "() => [...document.querySelectorAll('[data-pending-list] li')].map(l => l.textContent)"
    )


@pytest.mark.parametrize("tablet", ["en", "fr"], indirect=True)
def test_every_tap_made_while_the_link_is_cut_is_kept_in_order_and_sent_once(tablet):
    page = tablet.page
    words = tablet.words
    board = words["place.board"]
    shown_as = page.get_attribute("html", "lang")
    before = tablet.seq

    def cut(taps: list[str], listed: list[str]):
        """Taps with the link cut: each is listed, in order, none dropped or replaced."""
        page.context.set_offline(True)
        page.wait_for_selector('[data-link][data-state="offline"]', timeout=5_000)
        for name in taps:
            tablet.tap(name, wait=False)
        page.wait_for_timeout(2_000)  # longer than a retry
        assert pending(page) == listed
        assert len(events_of(tablet)) == tablet.seq

    check_1 = words["action_of"] % {"seat": 1, "action": words["check"]}
    bet_2 = words["action_of"] % {"seat": 2, "action": words["bet"] % {"multiple": 4}}
    cut([check_1, bet_2], [check_1, bet_2])
    assert page.locator(".seat [data-decision]").count() == 0  # neither seat is asked again
    assert tablet.seq == before
    page.context.set_offline(False)
    tablet.wait_online()
    page.wait_for_function("() => document.querySelector('[data-pending]').hidden")
    assert tablet.seq == before + 2

    flop = ["Kh", "7d", "2c"]
    cut(flop, [f"{card_text(card, shown_as)} → {board}" for card in flop])
    language = page.get_attribute("html", "lang")
    tablet.screenshot(f"tablet-offline-{language}")
    assert axe_violations(page, impacts=("minor", "moderate", "serious", "critical")) == []
    if language == "fr":
        assert english_left_on(page) == []
    shown = page.locator('.place[data-place="board"] [data-code]')
    assert shown.evaluate_all("cs => cs.map(c => c.dataset.code)") == flop  # drawn at once
    # Undo takes the last held tap back: it is never sent; the right card follows it.
    tablet.tap(words["undo_card"] % {"card": card_text("2c", shown_as), "place": board}, wait=False)
    tablet.tap("3c", wait=False)
    assert pending(page) == [f"{card_text(c, shown_as)} → {board}" for c in ("Kh", "7d", "3c")]
    page.context.set_offline(False)
    tablet.wait_online()
    page.wait_for_function("() => document.querySelector('[data-pending]').hidden")
    events = [e["data"] for e in events_of(tablet)][before:]
    assert [(e["kind"], e.get("seat"), e.get("cards")) for e in events] == [
        ("decision", 1, None),
        ("decision", 2, None),
        ("cards_entered", None, ["Kh"]),
        ("cards_entered", None, ["7d"]),
        ("cards_entered", None, ["3c"]),
    ], tablet.flash()
    assert tablet.seq == before + 5 and tablet.stage() == "flop" and tablet.flash() == ""


def test_record_tapped_twice_100_ms_apart_records_once(asgi_server, browser_page):
    """On a quick answer (the second tap after it) and on a slow one (the second tap while
    the first is on its way): one tap, one event; the recorded seat's button is inactive."""
    asgi_server.run_sync(load_floor)
    tablet = Tablet(browser_page, asgi_server.url).sign_in(*DEALER, "fr")
    page = tablet.page
    words = tablet.words
    tablet.tap(words["new_round"])
    delay = {"ms": 0}

    def slow(route):
        page.wait_for_timeout(delay["ms"])
        route.continue_()

    page.route("**/api/rounds/*/events", slow)
    for seat, wait in ((1, 0), (2, 400)):
        delay["ms"] = wait
        record = page.get_by_role("button", name=words["record_seat"] % {"seat": seat})
        page.click(f'.seat[data-seat="{seat}"] [data-chip="ante"][data-cents="1000"]')
        assert record.get_attribute("aria-disabled") == "false"
        before = tablet.mark
        record.click()
        page.wait_for_timeout(100)
        record.click(force=True)
        tablet.wait_after(before)
        page.wait_for_timeout(600 + wait)  # any second write would have landed by now
        placed = [e for e in events_of(tablet) if e["data"]["kind"] == "wagers_placed"]
        assert [e["data"]["seat"] for e in placed] == [1, 2][:seat]
        assert record.get_attribute("aria-disabled") == "true"
    # Changed after it was recorded, the seat has something to record again.
    page.click('.seat[data-seat="1"] [data-chip="ante"][data-cents="1000"]')
    record = page.get_by_role("button", name=words["record_seat"] % {"seat": 1})
    assert record.get_attribute("aria-disabled") == "false"


def test_a_second_tablet_follows_and_a_stale_tap_refreshes_it_from_the_answer(tablet):
    browser = tablet.page.context.browser
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    forward = [True]

    def channel(ws):
        server = ws.connect_to_server()
        server.on_message(lambda message: ws.send(message) if forward[0] else None)

    page = context.new_page()
    page.route_web_socket("**/ws/tables/**", channel)
    second = Tablet(page, tablet.url).sign_in(*DEALER, "en")
    assert (second.stage(), second.seq) == (tablet.stage(), tablet.seq)
    tablet.decide(2, "check")
    page.wait_for_function(
        f"() => Number(document.querySelector('#tablet').dataset.seq) == {tablet.seq}"
    )

    forward[0] = False  # the second tablet stops hearing the table's channel
    tablet.decide(1, "check")
    shown = second.seq
    assert shown == tablet.seq - 1
    second.decide(1, "bet:4")  # on the round as it was: refused, and the view catches up
    assert second.flash() == second.words["stale"]
    assert second.seq == tablet.seq
    assert page.locator('.seat[data-seat="1"] [data-decision]').count() == 0
    decisions = [e["data"] for e in events_of(tablet) if e["data"]["kind"] == "decision"]
    assert [(d["seat"], d["action"]) for d in decisions] == [(2, "check"), (1, "check")]
    context.close()
