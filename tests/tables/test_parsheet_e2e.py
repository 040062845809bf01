"""The par sheet in Chromium: the rule set's page follows a computation under way and shows the
figures once it is done, without a reload by hand; the printable sheet in English and French,
its pre-flop chart in colour."""

import pytest

from casino import demo
from casino.models import Staff
from tables import services
from tables.models import BaseGameSheet, RuleSet
from tables.parsheet import Deck
from tests.e2e import conftest as e2e

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

browser_page = e2e.browser_page


server = e2e.asgi_server  # a free port, as every browser test's
sign_in = e2e.sign_in


def test_the_page_follows_the_computation_then_prints_the_sheet(server, browser_page, monkeypatch):
    from playwright.sync_api import expect

    from jackpot import demo as jackpot_demo
    from tables import demo as tables_demo
    from tables.tasks import compute_parsheet

    monkeypatch.setattr(compute_parsheet, "delay", lambda *args: None)  # no worker here
    _prop, pit = demo.load()
    tables_demo.load(pit=pit, bank=jackpot_demo.load())
    manager = Staff.objects.get(username="directeur")
    ruleset = RuleSet.objects.order_by("pk").first()
    sheet = services.parsheet_request(ruleset_id=ruleset.pk, manager=manager)
    BaseGameSheet.objects.filter(pk=sheet.pk).update(
        status=BaseGameSheet.Status.RUNNING, progress_permille=300
    )
    page = browser_page
    page.set_extra_http_headers({"Accept-Language": "en"})
    sign_in(page, server, "directeur")
    page.goto(f"{server.url}/admin/tables/ruleset/{ruleset.pk}/change/")
    state = page.locator("[data-figure=par-sheet]")
    assert state.locator("progress").get_attribute("value") == "30"
    # A worker moves on: the page shows it by itself, then the figures once done.
    BaseGameSheet.objects.filter(pk=sheet.pk).update(progress_permille=640)
    expect(page.locator(".parsheet-progress")).to_have_text("64 %", timeout=15_000)
    BaseGameSheet.objects.filter(pk=sheet.pk).update(status=BaseGameSheet.Status.QUEUED)
    services.parsheet_compute(sheet_id=sheet.pk, deck=Deck(tuple(range(4, 13)), 2))
    page.wait_for_selector("text=the printable par sheet", timeout=15_000)
    page.click("text=the printable par sheet")
    page.wait_for_selector("table.chart")
    assert page.locator("table.chart td").count() == 169
    colours = page.evaluate(
        "[...new Set([...document.querySelectorAll('table.chart td')]"
        ".map(td => getComputedStyle(td).backgroundColor))]"
    )
    assert len(colours) >= 2  # the hands that bet stand out from the checks
    assert "Element of risk" in page.content()
    page.set_extra_http_headers({"Accept-Language": "fr"})
    page.goto(page.url)
    page.wait_for_selector("table.chart")
    assert "Élément de risque" in page.content()
