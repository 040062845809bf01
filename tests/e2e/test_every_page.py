"""Every page in real Chromium, in French and in English, checked by axe-core (vendored for the
tests only, tests/e2e/vendor/axe-core/): no violation of any impact (issue 25, item 16). The
report pages fit a 1,280 px screen and an A4 landscape sheet (item 2), and their screenshots
are taken again for the docs."""

import datetime as dt

import pytest

from casino.clock import current_property
from casino.models import Staff
from tests.e2e.tablet_support import SCREENSHOTS, axe_violations, load_floor, staff_client

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
EVERY_IMPACT = ("minor", "moderate", "serious", "critical")
# A4 landscape, 297 mm less the print margins of 10 mm each side, at 96 px an inch.
A4_LANDSCAPE_PX = round((297 - 20) / 25.4 * 96)


@pytest.fixture
def floor(asgi_server, casino_property):
    """The demo floor, a few past days of play, and a settled round at UTH 1 today."""
    from tables.accounting.seed import seed_days
    from tables.accounting.summary import summarize_closed_days
    from tables.models import Table
    from tables.selectors import current_dealer
    from tests.tables.rounds.conftest import Felt, deal_to

    load_floor()
    tables = list(Table.objects.order_by("name"))
    today = current_property().gaming_date()
    seed_days(
        first=today - dt.timedelta(days=4),
        days=4,
        tables=tables,
        dealers={t.pk: Staff.objects.get(username="croupier") for t in tables},
        supervisor=Staff.objects.get(username="inspecteur"),
        manager=Staff.objects.get(username="directeur"),
        rounds_per_day=6,
        seed=3,
    )
    summarize_closed_days()
    uth1 = Table.objects.get(name="UTH 1")
    deal_to(Felt(uth1, current_dealer(uth1)), "settled")
    return uth1


def _as(page, url: str, username: str | None, language: str) -> None:
    page.context.clear_cookies()
    page.set_extra_http_headers({"Accept-Language": language})
    if username is None:
        return
    person = Staff.objects.get(username=username)
    person.language = language
    person.save(update_fields=["language"])
    session = staff_client(username).cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": url}])


def _pages(table) -> list[tuple[str | None, str]]:
    return [
        (None, "/login/"),
        (None, "/login/pin/"),
        ("directeur", "/"),
        ("directeur", "/pit/"),
        ("inspecteur", "/pit/"),
        ("inspecteur", f"/pit/tables/{table.pk}/"),
        ("directeur", "/reports/"),
        ("directeur", "/reports/?period=month"),
        ("directeur", "/reports/?period=year&by=game"),
        ("directeur", "/reports/chips/"),
        ("directeur", "/jackpot/displays/"),
        ("inspecteur", "/staff/locked-pins/"),
        ("directeur", "/account/secrets/"),
        ("directeur", "/tables/devices/"),
        ("auditeur", "/admin/casino/auditentry/"),
        ("auditeur", "/admin/"),
        ("directeur", "/admin/tables/paytable/add/"),
        ("directeur", "/admin/tables/ruleset/"),
        ("croupier", "/tablet/"),
        (None, "/display/demo/?token=demo-display-token-revoke-me-in-production"),
    ]


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_page_has_no_axe_violation(floor, asgi_server, browser_page, language):
    page, url = browser_page, asgi_server.url
    found = {}
    for username, path in _pages(floor):
        _as(page, url, username, language)
        page.goto(url + path)
        page.wait_for_load_state("networkidle")
        if not path.startswith("/display/"):  # a display speaks its token's language
            assert page.locator("html").get_attribute("lang") == language, path
        for v in axe_violations(page, impacts=EVERY_IMPACT):
            found.setdefault(f"{username} {path}", []).append(
                f"{v['id']} ({v['impact']}): {v['nodes'][:3]}"
            )
    assert found == {}, "\n".join(f"{p}: {v}" for p, v in found.items())


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_docs_screenshots_of_the_pit_and_the_audit_log(
    floor, asgi_server, browser_page, language
):
    page, url = browser_page, asgi_server.url
    SCREENSHOTS.mkdir(exist_ok=True)
    _as(page, url, "inspecteur", language)
    page.goto(f"{url}/pit/")
    page.wait_for_selector('.pit .link[data-link="up"]')
    page.screenshot(path=str(SCREENSHOTS / f"pit-floor-{language}.png"), full_page=True)
    page.goto(f"{url}/pit/tables/{floor.pk}/")
    page.locator(".recall details").first.locator("summary").click()
    assert page.locator(".recall .events .pc").count() >= 9  # board, dealer, two seats
    page.screenshot(path=str(SCREENSHOTS / f"pit-recall-{language}.png"), full_page=True)
    _as(page, url, "auditeur", language)
    page.goto(f"{url}/admin/casino/auditentry/")
    assert page.locator('[data-testid="audit-csv"]').is_visible()
    page.screenshot(path=str(SCREENSHOTS / f"audit-log-{language}.png"), full_page=True)


# What sticks out, for the failure's message: the elements whose right edge is past the page.
WIDEST = """() => [...document.querySelectorAll("main *")]
    .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth)
    .slice(0, 5).map(e => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right))"""


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_report_pages_fit_the_screen_and_an_a4_landscape_sheet(
    floor, asgi_server, browser_page, language
):
    page, url = browser_page, asgi_server.url
    _as(page, url, "directeur", language)
    page.set_viewport_size({"width": 1280, "height": 900})
    widths = {}
    for path in (
        "/reports/",
        "/reports/?period=month",
        "/reports/?period=year&by=game",
        "/reports/chips/",
    ):
        page.goto(url + path)
        widths[path] = page.evaluate("() => document.documentElement.scrollWidth")
        if widths[path] > 1280:
            widths[path] = (widths[path], page.evaluate(WIDEST))
    assert max(w if isinstance(w, int) else w[0] for w in widths.values()) <= 1280, widths
    SCREENSHOTS.mkdir(exist_ok=True)
    page.goto(url + "/reports/?period=month")
    days = current_property().gaming_date().day
    assert page.locator('[data-testid="trend-chart"] svg rect.bar').count() == days
    page.screenshot(path=str(SCREENSHOTS / f"report-month-{language}.png"), full_page=True)
    page.goto(url + "/reports/")
    page.screenshot(path=str(SCREENSHOTS / f"report-gaming-day-{language}.png"), full_page=True)
    page.emulate_media(media="print")
    page.set_viewport_size({"width": A4_LANDSCAPE_PX, "height": 800})
    printed = {}
    for path in ("/reports/", "/reports/?period=month"):
        page.goto(url + path)
        printed[path] = page.evaluate("() => document.documentElement.scrollWidth")
    assert max(printed.values()) <= A4_LANDSCAPE_PX, printed
    if language == "fr":
        page.screenshot(path=str(SCREENSHOTS / "report-month-print.png"), full_page=True)


# Each word of the floor list's cells, measured where the browser laid it out: a word drawn
# on two lines has two boxes ("ouv/ert/e", "Cami/lle").
BROKEN_WORDS = """() => {
    const broken = [];
    for (const cell of document.querySelectorAll("table.floor th, table.floor td")) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const match of node.textContent.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                if (lines.size > 1) broken.push(match[0]);
            }
        }
    }
    return broken;
}"""


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_floor_list_breaks_no_word(floor, asgi_server, browser_page, language):
    page, url = browser_page, asgi_server.url
    _as(page, url, "croupier", language)
    for width in (1280, 1024, 768):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{url}/")
        assert page.locator("table.floor tbody tr").count() >= 4
        assert page.evaluate(BROKEN_WORDS) == [], width


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_back_office_page_has_no_axe_violation(floor, asgi_server, browser_page, language):
    """Each registered model's list, add form and first change form, as the manager and the
    auditor open them (tests/test_admin_walk.py lists them)."""
    from tests.test_admin_walk import admin_urls

    page, url = browser_page, asgi_server.url
    found, opened = {}, 0
    for username in ("directeur", "auditeur"):
        _as(page, url, username, language)
        for path in admin_urls():
            answer = page.goto(url + path)
            if answer.status != 200:
                continue
            opened += 1
            for v in axe_violations(page, impacts=EVERY_IMPACT):
                found.setdefault(v["id"], set()).add(f"{username} {path} {v['nodes'][:2]}")
    assert opened > 40
    assert found == {}, "\n".join(f"{k}: {sorted(v)[:4]} ({len(v)})" for k, v in found.items())
