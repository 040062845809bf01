"""Long names never widen a page (Chromium): a 60-character table name once made the floor
1526 px wide. The floor list and the admin's table list stay as wide as the window."""

import pytest

from casino import demo
from tables.models import Table
from tests.e2e import conftest as e2e

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

# 60 characters and no space to break at (a code, a name typed with dashes)
LONG_NAME = "TERRASSE-PANORAMIQUE-COTE-JARDIN-TABLE-ULTIMATE-TEXAS-HOLDEM"


browser_page = e2e.browser_page  # the e2e tests' Chromium, for this test outside tests/e2e


server = e2e.asgi_server  # a free port, as every browser test's
sign_in = e2e.sign_in


@pytest.mark.parametrize("width", [1280, 1024])
def test_a_60_character_table_name_wraps_on_the_floor_and_in_the_admin(server, browser_page, width):
    from tables import demo as tables_demo

    prop, pit = demo.load()
    from jackpot import demo as jackpot_demo

    tables_demo.load(pit=pit, bank=jackpot_demo.load())
    assert len(LONG_NAME) >= 60
    Table.objects.filter(name="UTH 4").update(name=LONG_NAME)
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    sign_in(page, server, "directeur")
    for path in ("/", "/admin/tables/table/"):
        page.goto(server.url + path)
        page.wait_for_selector(f"text={LONG_NAME[:20]}")
        # The page's own width and the right edge of its widest table (a box that clips or
        # scrolls would hide a table running past the window from scrollWidth alone).
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        table_right = page.evaluate(
            "Math.max(...[...document.querySelectorAll('table')]"
            ".map(t => Math.ceil(t.getBoundingClientRect().right)))"
        )
        print(
            f"{path} at {width} px: page {scroll_width} px wide, tables end at {table_right} px"
            f" (target: <= {width})"
        )
        assert scroll_width <= width and table_right <= width, (path, scroll_width, table_right)
