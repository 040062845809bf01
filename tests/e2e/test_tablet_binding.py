"""A tablet bound to a table in real Chromium: a supervisor binds it on the tablet itself
(/tables/devices/bind/, confirmed by their own PIN), then a dealer of another table signs
in on it and is told the tablet is not theirs; the table's own dealer gets the table."""

import pytest

from tables.models import DeviceBinding, Table
from tests.e2e.tablet_support import DEALER, SUPERVISOR, Tablet, load_floor

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

OTHER_DEALER = ("1002", "2222")  # croupier2, who deals UTH 2 in the demo


@pytest.fixture
def tablet(asgi_server, browser_page):
    asgi_server.run_sync(load_floor)
    browser_page.set_viewport_size({"width": 1280, "height": 800})
    return Tablet(browser_page, asgi_server.url)


def test_a_bound_tablet_tells_a_dealer_of_another_table_so(tablet):
    page = tablet.page
    tablet.sign_in(*SUPERVISOR, "en", to="/tables/devices/bind/")
    page.select_option("select[name=table]", label="UTH 1 (Pit 1)")
    page.fill("input[name=name]", "UTH 1 – A")
    tablet.keypad(SUPERVISOR[1])
    page.wait_for_url(f"{tablet.url}/tables/devices/")
    binding = DeviceBinding.objects.get(revoked_at__isnull=True)
    assert (binding.table.name, binding.name) == ("UTH 1", "UTH 1 – A")
    tablet.sign_out()

    tablet.sign_in(*OTHER_DEALER, "en")
    message = page.locator('[data-reason="not_assigned"]')
    assert message.inner_text() == (
        "This tablet is bound to UTH 1: you are not assigned to this table, you deal UTH 2 now."
    )
    assert page.locator("#tablet").count() == 0 and page.locator(".table-choices").count() == 0
    uth2 = Table.objects.get(name="UTH 2")
    page.goto(f"{tablet.url}/tablet/{uth2.pk}/")
    assert "This tablet is bound to UTH 1: it opens that table only." in page.inner_text("main")
    assert page.locator("#tablet").count() == 0
    tablet.sign_out()

    tablet.sign_in(*DEALER, "en")
    assert page.inner_text("h1") == "UTH 1" and tablet.words["new_round"]
