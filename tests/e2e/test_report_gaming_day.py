"""The gaming-day report of a simulated day in real Chromium: its totals, its chart of win and
rounds per hour, its CSV and its printed page, in French and in English."""

import csv
import datetime as dt
import io

import pytest
from django.db.models import Q, Sum

from casino.clock import current_property
from casino.models import Staff
from tables.accounting.seed import seed_days
from tables.models import SettlementLine, Table
from tables.simulator import DEMO_MANAGER, DEMO_SUPERVISOR, SIM_DEALER, floor_prepare
from tests.e2e.tablet_support import SCREENSHOTS, load_floor, staff_client

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def plain(text: str) -> str:
    return text.replace("\u202f", " ").replace("\u00a0", " ").strip()


@pytest.fixture
def simulated_day(asgi_server, casino_property):
    load_floor()
    prepared = floor_prepare(2)
    tables = list(Table.objects.filter(pk__in=[p.table_id for p in prepared]))
    day = current_property().gaming_date() - dt.timedelta(days=1)
    seed_days(
        first=day,
        days=1,
        tables=tables,
        dealers={
            p.table_id: Staff.objects.get(username=SIM_DEALER.format(p.index)) for p in prepared
        },
        supervisor=Staff.objects.get(username=DEMO_SUPERVISOR),
        manager=Staff.objects.get(username=DEMO_MANAGER),
        rounds_per_day=60,
        seed=7,
    )
    return day


def _signed_in(page, url, username):
    session = staff_client(username).cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": url}])


def test_the_gaming_day_report_its_chart_and_its_csv(asgi_server, simulated_day, browser_page):
    # the day is set up before the browser starts: its services notify channels synchronously
    page, url, day = browser_page, asgi_server.url, simulated_day
    lines = SettlementLine.objects.filter(gaming_date=day)
    house_win = -lines.filter(paid_from="house").aggregate(n=Sum("net_cents"))["n"]
    rounds = lines.filter(Q(bet="ante"), correction__isnull=True).values("round").distinct().count()
    _signed_in(page, url, DEMO_MANAGER)
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(f"{url}/reports/?period=day&date={day}")
    page.click(".topbar .lang button[value=fr]")  # the manager's own language, from now on
    page.wait_for_selector("html[lang=fr]")

    total = page.locator('[data-testid="win-table"] tfoot tr')
    assert plain(total.locator("th").inner_text()) == "Total"
    cells = [plain(c) for c in total.locator("td").all_inner_texts()]
    assert int(cells[0]) == rounds
    euros = f"{abs(house_win) // 100:,}".replace(",", " ") + f",{abs(house_win) % 100:02d} €"
    assert cells[3] == ("-" if house_win < 0 else "") + euros  # the computed win

    chart = page.locator('[data-testid="hour-chart"] svg')
    assert chart.is_visible()
    bars = chart.locator("rect.bar")
    assert bars.count() == 24  # an ordinary gaming day
    drawn = [int(b.get_attribute("data-hour")) for b in bars.all()]
    assert drawn == list(range(24))
    assert "coups" in bars.nth(3).locator("title").text_content()
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "report-gaming-day-fr.png"), full_page=True)

    with page.expect_download() as download:
        page.click('[data-testid="csv"]')
    rows = list(csv.reader(io.StringIO(open(download.value.path(), encoding="utf-8").read())))
    header, *tables, total_row = rows
    assert [r[0] for r in tables] == ["SIM 1", "SIM 2"]
    computed = header.index("gain calculé (EUR)")
    sign = "-" if house_win < 0 else ""
    assert total_row[computed] == f"{sign}{abs(house_win) // 100}.{abs(house_win) % 100:02d}"
    assert sum(int(r[header.index("coups")]) for r in tables) == rounds

    page.click(".topbar .lang button[value=en]")
    page.wait_for_selector("html[lang=en]")
    assert page.locator("h1").inner_text() == "Table games report"
    page.screenshot(path=str(SCREENSHOTS / "report-gaming-day-en.png"), full_page=True)

    page.emulate_media(media="print")
    assert not page.locator(".report-controls").is_visible()
    assert not page.locator(".topbar").is_visible()
    assert page.locator('[data-testid="win-table"]').is_visible()
    page.screenshot(path=str(SCREENSHOTS / "report-gaming-day-print.png"), full_page=True)
