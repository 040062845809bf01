"""A meter adjustment in Chromium, two managers (issue 23, 7): one asks for it on the bank's
page from the pit, the request waits in the queue where he may only withdraw it, and a
second manager, signed in on her own screen, approves it herself: the meter reads the new
amount and the ledger's line is hers. In French and English, with screenshots."""

import pytest

from casino.roles import Role
from tests.e2e.tablet_support import SCREENSHOTS, Tablet, load_floor

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MANAGER = ("3001", "4444")  # directeur, in the demo
SECOND_MANAGER = ("3901", "4682")
TYPED = {"en": "1234.56", "fr": "1234,56"}


def second_manager():
    from tests.factories import make_staff

    staff = make_staff(Role.MANAGER, username="directrice2", pin=SECOND_MANAGER[1])
    staff.employee_number = SECOND_MANAGER[0]
    staff.first_name, staff.last_name = "Claire", "Seconde"
    staff.save(update_fields=["employee_number", "first_name", "last_name"])


def state():
    from jackpot.models import AdjustmentRequest, Bank, MeterEntry

    bank = Bank.objects.order_by("pk").first()
    line = MeterEntry.objects.filter(bank=bank, kind="adjustment").select_related("actor").first()
    asked = AdjustmentRequest.objects.order_by("pk").last()
    return {
        "meter": bank.meter_cents,
        "line_actor": line.actor.username if line else None,
        "state": asked.state if asked else None,
    }


def shot(page, name: str):
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_one_manager_asks_and_a_second_one_approves_the_meter_adjustment(
    asgi_server, browser_page, language
):
    from django.utils import translation
    from django.utils.translation import gettext as _

    asgi_server.run_sync(load_floor)
    asgi_server.run_sync(second_manager)
    before = asgi_server.run_sync(state)
    with translation.override(language):
        ask_link = _("Ask for a meter adjustment")
        ask_button = _("Ask a second manager")
        approve = _("Approve the adjustment")
        withdraw = _("Withdraw")

    page = browser_page
    Tablet(page, asgi_server.url).sign_in(*MANAGER, language, to="/pit/")
    page.get_by_role("link", name=ask_link).first.click()
    page.wait_for_selector(".adjust-form")
    shot(page, f"pit-adjustment-ask-{language}")
    page.fill("input[name=meter]", TYPED[language])
    page.fill("input[name=reason]", "display fault" if language == "en" else "panne d’affichage")
    page.get_by_role("button", name=ask_button).click()
    page.wait_for_url(f"{asgi_server.url}/pit/")
    item = page.locator('[data-kind="adjustment"]')
    item.wait_for()
    # The asker may withdraw his request, never approve it; nothing has changed yet.
    assert item.get_by_role("button", name=withdraw).count() == 1
    assert item.get_by_role("button", name=approve).count() == 0
    assert asgi_server.run_sync(state) == {**before, "state": "requested"}

    second = page.context.browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    Tablet(second, asgi_server.url).sign_in(*SECOND_MANAGER, language, to="/pit/")
    theirs = second.locator('[data-kind="adjustment"]')
    theirs.wait_for()
    shot(second, f"pit-adjustment-approve-{language}")
    theirs.get_by_role("button", name=approve).click()
    second.wait_for_url(f"{asgi_server.url}/pit/")
    second.wait_for_selector(".messages")
    assert second.locator('[data-kind="adjustment"]').count() == 0
    after = asgi_server.run_sync(state)
    assert after == {"meter": 123_456, "line_actor": "directrice2", "state": "approved"}
    second.context.close()
