"""The server's round is the truth: a lost answer, a cut link and a second tablet never lose
a tap nor apply it twice, and the screen says at once when the link is down."""

import pytest

from tables.models import RoundEvent
from tests.e2e.tablet_support import DEALER, Tablet, load_floor

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
def tablet(asgi_server, browser_page):
    asgi_server.run_sync(load_floor)
    tablet = Tablet(browser_page, asgi_server.url).sign_in(*DEALER, "en")
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
    page.wait_for_selector('[data-flash][data-kind="held"]')
    page.unroute("**/api/rounds/*/events")
    page.wait_for_function("() => document.querySelector('[data-flash]').hidden")
    events = events_of(tablet)
    decisions = [e for e in events if e["data"]["kind"] == "decision"]
    assert [e["key"] for e in decisions] == lost  # one decision, under the key first sent
    assert page.locator('.seat[data-seat="1"] [data-decision]').count() == 0
    assert tablet.seq == len(events)


def test_a_tap_made_while_the_link_is_cut_is_sent_once_when_it_returns(tablet):
    page = tablet.page
    page.context.set_offline(True)
    page.wait_for_selector('[data-link][data-state="offline"]', timeout=5_000)
    before = tablet.seq
    tablet.decide(1, "check")  # held: the page says so
    assert page.get_attribute("[data-flash]", "data-kind") == "held"
    assert tablet.seq == before and len(events_of(tablet)) == before
    # A tap on the round as it was before the held one is refused, not queued blindly.
    page.get_by_role(
        "button",
        name=tablet.words["action_of"] % {"seat": 1, "action": tablet.words["check"]},
        exact=True,
    ).click()
    assert tablet.flash() == tablet.words["busy"]
    page.context.set_offline(False)
    tablet.wait_online()
    page.wait_for_function(
        f"() => Number(document.querySelector('#tablet').dataset.seq) > {before}"
    )
    assert tablet.seq == before + 1 == len(events_of(tablet))


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
