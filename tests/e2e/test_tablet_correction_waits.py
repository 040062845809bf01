"""A correction at the tablet by default waits for a second person (issue 23, 2): the
supervisor's PIN asks for it, the tablet says so in its language and pays nothing yet; a
second supervisor, signed in at the pit on his own screen, approves it with his PIN, and
the tablet then shows the corrected payouts."""

import pytest

from casino.roles import Role
from tests.e2e.tablet_support import DEALER, SUPERVISOR, Tablet, load_floor
from tests.e2e.test_tablet_correction import RIGHT, settle_misread_round

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SECOND_SUPERVISOR = ("2902", "5791")


def second_supervisor():
    from tests.factories import make_staff

    staff = make_staff(Role.SUPERVISOR, username="inspecteur3", pin=SECOND_SUPERVISOR[1])
    staff.employee_number = SECOND_SUPERVISOR[0]
    staff.save(update_fields=["employee_number"])


def waiting():
    from tables.models import Correction, CorrectionRequest

    return list(
        CorrectionRequest.objects.values_list("state", flat=True)
    ), Correction.objects.count()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_correction_asked_at_the_tablet_is_approved_at_the_pit(
    asgi_server, browser_page, language
):
    from django.utils import translation
    from django.utils.translation import gettext as _

    asgi_server.run_sync(load_floor)
    asgi_server.run_sync(second_supervisor)
    browser_page.set_viewport_size({"width": 1280, "height": 800})
    tablet = Tablet(browser_page, asgi_server.url).sign_in(*DEALER, language)
    words, page = tablet.words, tablet.page
    settle_misread_round(tablet)
    before = tablet.on_screen_payouts()

    tablet.tap(words["correct"], wait=False)
    form = page.locator("[data-correction]")
    page.click('.place[data-place="1"]')
    for card in RIGHT:
        page.get_by_role("button", name=card, exact=True).click()
    form.locator("input[name=reason]").fill("Kd read as Ah")
    form.locator("input[name=employee_number]").fill(SUPERVISOR[0])
    form.locator("input[name=pin]").fill(SUPERVISOR[1])
    tablet.tap(words["send_correction"], wait=False)
    page.wait_for_function(
        "(text) => document.querySelector('[data-flash]').innerText.includes(text)",
        arg=words["correction_waiting"][:20],
    )
    assert asgi_server.run_sync(waiting) == (["requested"], 0)
    assert tablet.on_screen_payouts() == before  # nothing paid yet

    with translation.override(language):
        approve = _("Approve the correction")
    pit = page.context.browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    Tablet(pit, asgi_server.url).sign_in(*SECOND_SUPERVISOR, language, to="/pit/")
    item = pit.locator('[data-kind="correction"]')
    item.wait_for()
    item.locator("input[name=pin]").fill(SECOND_SUPERVISOR[1])
    item.get_by_role("button", name=approve).click()
    pit.wait_for_url(f"{asgi_server.url}/pit/")
    assert asgi_server.run_sync(waiting) == (["approved"], 1)
    pit.context.close()
    # The tablet hears of it on its socket: the corrected payouts are on screen.
    page.wait_for_selector("[data-corrections]:not([hidden])")
    after = tablet.on_screen_payouts()
    assert after["1"]["ante"] > 0 and after["2"] == before["2"]
