"""axe-core (vendored for the tests only, tests/e2e/vendor/axe-core/) on the tablet page at
each of its screens, in French and English: no serious or critical violation."""

import json

import pytest

from tests.e2e.tablet_support import DEALER, SUPERVISOR, Tablet, axe_violations, load_floor

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
def tablet(asgi_server, browser_page):
    asgi_server.run_sync(load_floor)
    browser_page.set_viewport_size({"width": 1280, "height": 800})
    return Tablet(browser_page, asgi_server.url)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_serious_or_critical_violation_on_any_screen(tablet, language):
    tablet.sign_in(*DEALER, language)
    words = tablet.words
    page = tablet.page
    found, lesser = {}, set()

    def check(screen: str):
        found[screen] = axe_violations(page)
        lesser.update(v["id"] for v in axe_violations(page, impacts=("moderate", "minor")))

    tablet.tap(words["new_round"])
    tablet.wagers(1, [1000], progressive=True)
    tablet.wagers(2, [1000])
    check("betting")
    tablet.tap(words["no_more_bets"])
    check("decisions")
    tablet.decide(1, "bet:4")
    tablet.decide(2, "check")
    check("card entry")
    for card in ("Kh", "7d", "2c"):
        tablet.card(card)
    tablet.decide(2, "check")
    for card in ("9s", "4h"):
        tablet.card(card)
    tablet.decide(2, "bet:1")
    for card in ("Qc", "Jd", "Kd", "Ks", "Ah", "3d"):
        tablet.card(card)
    page.wait_for_selector('[data-action="confirm"]:not([hidden])')
    check("settlement")
    tablet.tap(words["confirm"])
    check("settled")

    tablet.tap(words["new_round"], wait=False)  # a new round starts again at seq 0
    page.wait_for_selector('#tablet[data-stage="betting"]')
    tablet.wagers(1, [1000])
    tablet.tap(words["no_more_bets"])
    tablet.tap(words["irregularity"], wait=False)
    check("irregularities")
    tablet.tap(words["irr.preflop_card_exposed"])
    page.fill("[data-supervisor] input[name=employee_number]", SUPERVISOR[0])
    page.fill("[data-supervisor] input[name=pin]", "0000")
    tablet.tap(words["approve_void"])
    check("void approval")
    assert all(not violations for violations in found.values()), json.dumps(found, indent=1)
    print(
        f"\n[axe {language}] screens checked: {', '.join(found)}; serious or critical: 0; "
        f"moderate or minor: {sorted(lesser) or 'none'}"
    )
