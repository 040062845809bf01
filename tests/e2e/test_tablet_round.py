"""A whole 7-seat round on the dealer tablet in real Chromium, by touch, from opening to the
confirmed payouts: every decision, keyboard entry, a refused duplicate, undo, a reload."""

import pytest

from jackpot.feed import bank_levels
from jackpot.models import Bank
from tables.models import Round
from tables.rules import settle_json
from tests.e2e.tablet_support import (
    DEALER,
    Tablet,
    card_text,
    load_floor,
    page_weight,
    staff_client,
    summary,
)
from tests.e2e.test_tablet_language import english_left_on

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

BOARD = ["Kh", "7d", "2c", "9s", "4h"]
DEALER_CARDS = ["Qc", "Jd"]
HOLES = {
    1: ["Kd", "Ks"],  # three kings with the flop: Trips and the progressive win
    2: ["Ah", "3d"],
    3: ["7h", "7c"],
    4: ["8c", "8d"],
    5: ["5s", "6s"],
    6: ["Jh", "Tc"],
    7: ["3s", "3c"],
}


# Typed as a dealer types them on each page (the field takes its language's notation).
TYPED = {
    "en": {"4h": "4h", "Kh": "KH", "Qc": "qc", "Jd": "JD", "Tc": "10c"},
    "fr": {"4h": "4c", "Kh": "RC", "Qc": "dt", "Jd": "VK", "Tc": "10 de trèfle"},
}


@pytest.fixture
def tablet(asgi_server, browser_page):
    asgi_server.run_sync(load_floor)
    browser_page.set_viewport_size({"width": 1280, "height": 800})
    return Tablet(browser_page, asgi_server.url)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_whole_seven_seat_round_by_touch(tablet, language):
    tablet.sign_in(*DEALER, language)
    words = tablet.words
    assert tablet.page.inner_text("h1") == "UTH 1"
    start = tablet.metrics()["taps"]

    tablet.tap(words["new_round"])
    assert tablet.stage() == "betting"
    tablet.wagers(1, [1000], trips=[1000], progressive=True)
    tablet.wagers(2, [2000], progressive=True)
    for seat in (3, 4, 5, 6):
        tablet.wagers(seat, [1000])
    # Seat 7's wagers are recorded wrong, undone (withdrawn), then recorded right.
    tablet.wagers(7, [5000])
    tablet.tap(words["undo_wagers"] % {"seat": 7})
    assert tablet.page.inner_text('.seat[data-seat="7"] [data-seat-status]') == words["empty_seat"]
    # Over the table's maximum: refused as it is entered, before anything is sent.
    for _ in range(5):
        tablet.page.click('.seat[data-seat="7"] [data-chip="ante"][data-cents="5000"]')
    assert "200" in tablet.page.inner_text('.seat[data-seat="7"] [data-wager-error]')
    tablet.page.click('.seat[data-seat="7"] [data-chip-clear="ante"]')
    tablet.wagers(7, [1000])
    tablet.screenshot(f"tablet-betting-{language}")
    if language == "fr":
        assert english_left_on(tablet.page) == []

    # The progressive meter is live: the two progressive wagers locked move it on screen.
    before = tablet.meter()
    tablet.tap(words["no_more_bets"])
    assert tablet.stage() == "preflop"
    tablet.page.wait_for_function(
        "cents => Number(document.querySelector('[data-meter] [data-amount]').dataset.cents)"
        " > cents",
        arg=before,
        timeout=5_000,
    )
    assert tablet.meter() == bank_levels(Bank.objects.get())[0]["amount_cents"] > before
    assert tablet.next_step() == words["next.decide"] % {"seat": 1}
    tablet.decide(1, "bet:4")
    tablet.decide(2, "bet:3")
    tablet.screenshot(f"tablet-decisions-{language}")
    for seat in (3, 4, 5, 6, 7):
        tablet.decide(seat, "check")
    assert tablet.stage() == "preflop" and tablet.next_step() == words["next.cards"] % {
        "place": words["place.board"]
    }
    for card in BOARD[:3]:
        tablet.card(card)
    assert tablet.stage() == "flop"
    # Seats that bet pre-flop are not asked again; the others check or bet 2x.
    assert tablet.page.locator('.seat[data-seat="1"] [data-decision]').count() == 0
    assert tablet.page.locator('.seat[data-seat="3"] [data-decision]').count() == 2
    tablet.decide(3, "bet:2")

    # The page reloaded mid-round comes back to the same round and step.
    seq = tablet.seq
    taps = tablet.metrics()["taps"] - start
    timings = tablet.metrics()["timings"]
    tablet.page.reload()
    tablet.wait_online()
    assert (tablet.stage(), tablet.seq) == ("flop", seq)
    assert tablet.next_step() == words["next.decide"] % {"seat": 4}
    start = tablet.metrics()["taps"]

    for seat in (4, 5, 6, 7):
        tablet.decide(seat, "check")
    tablet.card(BOARD[3])
    typed = TYPED[language]
    tablet.typed(typed[BOARD[4]])  # keyboard entry, any case
    assert tablet.stage() == "river"
    tablet.decide(4, "bet:1")
    tablet.decide(5, "fold")
    tablet.decide(6, "bet:1")
    tablet.decide(7, "bet:1")
    assert tablet.stage() == "showdown"
    tablet.screenshot(f"tablet-cards-{language}")

    # A card already on the table is greyed and refused, by tap and by keyboard.
    assert tablet.page.get_attribute('[data-card="Kh"]', "aria-disabled") == "true"
    seq = tablet.seq
    tablet.tap("Kh", force=True)
    assert tablet.flash() == words["card_taken"] % {"card": card_text("Kh", language)}
    assert tablet.seq == seq
    tablet.typed(typed["Kh"])
    assert tablet.flash() == words["card_taken"] % {"card": card_text("Kh", language)}
    assert tablet.seq == seq

    tablet.typed(typed["Qc"])
    tablet.typed(typed["Jd"])
    # A wrong card for seat 1, undone, then the right ones.
    tablet.card("Ac")
    assert tablet.page.locator('.seat[data-seat="1"] [data-code="Ac"]').count() == 1
    seat_1 = words["place.seat"] % {"seat": 1}
    tablet.tap(words["undo_card"] % {"card": card_text("Ac", language), "place": seat_1})
    assert tablet.page.locator('.seat[data-seat="1"] [data-code="Ac"]').count() == 0
    for seat, hole in HOLES.items():
        for card in hole:
            if seat == 6 and card == "Tc":
                tablet.typed(typed["Tc"])
            else:
                tablet.card(card)

    tablet.page.wait_for_selector("[data-settlement]:not([hidden])")
    tablet.page.wait_for_selector('[data-action="confirm"]:not([hidden])')
    tablet.screenshot(f"tablet-settlement-{language}")
    provisional = tablet.on_screen_payouts()
    if language == "fr":
        assert english_left_on(tablet.page) == []
    tablet.tap(words["confirm"])
    assert tablet.stage() == "settled"
    taps += tablet.metrics()["taps"] - start
    shown = tablet.on_screen_payouts()

    # What the screen shows is what the engine settles from the exported round.
    round_id = int(tablet.page.get_attribute("#tablet", "data-round"))
    export = staff_client("inspecteur").get(f"/api/rounds/{round_id}/export").json()
    engine = settle_json(export["input"])
    assert engine == export["output"]
    expected = {
        str(seat["seat"]): {
            bet: result["net"]
            for bet, result in seat["bets"].items()
            if result.get("stake") or result["net"]
        }
        for seat in engine["seats"]
    }
    assert shown == expected == provisional
    assert shown["1"]["trips"] > 0 and shown["1"]["progressive"] > 0 and shown["5"]["ante"] < 0
    plays = {s["seat"]: s["play"] for s in export["input"]["seats"] if "play" in s}
    assert [plays[s]["multiple"] for s in (1, 2, 3, 4)] == [4, 3, 2, 1]
    assert Round.objects.get(pk=round_id).stage == "settled"

    timings += tablet.metrics()["timings"]
    weight = page_weight()
    print(
        f"\n[tablet {language}] 7-seat round: {taps} taps; tap to screen {summary(timings)}; "
        f"page weight: JS {weight['js']} bytes, CSS {weight['css']} bytes"
    )


def test_a_three_seat_round_counts_its_taps(tablet):
    tablet.sign_in(*DEALER, "en")
    words = tablet.words
    start = tablet.metrics()["taps"]
    tablet.tap(words["new_round"])
    for seat in (1, 2, 3):
        tablet.wagers(seat, [1000])
    tablet.tap(words["no_more_bets"])
    tablet.decide(1, "bet:4")
    tablet.decide(2, "check")
    tablet.decide(3, "check")
    for card in BOARD[:3]:
        tablet.card(card)
    tablet.decide(2, "bet:2")
    tablet.decide(3, "check")
    for card in BOARD[3:]:
        tablet.card(card)
    tablet.decide(3, "fold")
    for card in DEALER_CARDS + HOLES[1] + HOLES[2] + HOLES[3]:
        tablet.card(card)
    tablet.page.wait_for_selector('[data-action="confirm"]:not([hidden])')
    tablet.tap(words["confirm"])
    assert tablet.stage() == "settled"
    metrics = tablet.metrics()
    print(
        f"\n[tablet] 3-seat round: {metrics['taps'] - start} taps; "
        f"tap to screen {summary(metrics['timings'])}"
    )
