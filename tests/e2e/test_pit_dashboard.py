"""The pit boss's screen in Chromium: it follows the floor while a simulated dealer plays (on
PostgreSQL: on SQLite the test server shares one in-memory database between its threads, and
the dashboard's reads beside the dealer's writes find its tables locked), a
progressive hit arrives as an alert and in the queue and is verified by one supervisor and
paid by another, a void declared at a tablet is approved from the pit and the tablet moves
on. Screenshots in French and English."""

import io
import threading

import pytest
from django.core.management import call_command

from casino.roles import Role
from tests.e2e.tablet_support import DEALER, SCREENSHOTS, SUPERVISOR, Tablet, load_floor

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SECOND_SUPERVISOR = ("2901", "2468")


def second_supervisor():
    from tests.factories import make_staff

    staff = make_staff(Role.SUPERVISOR, username="inspecteur2", pin=SECOND_SUPERVISOR[1])
    staff.employee_number = SECOND_SUPERVISOR[0]
    staff.save(update_fields=["employee_number"])


def open_pit(page, url, person, language):
    Tablet(page, url).sign_in(*person, language, to="/pit/")
    page.wait_for_selector('[data-link="up"]')
    return page


def other_page(page):
    return page.context.browser.new_context(viewport={"width": 1280, "height": 900}).new_page()


def card_text(page, table_name, selector):
    card = page.locator(f'.card:has(h3 a:text-is("{table_name}"))')
    return card.locator(selector).inner_text()


@pytest.mark.postgres
def test_the_dashboard_follows_rounds_played_by_simulate_floor(asgi_server, browser_page):
    asgi_server.run_sync(load_floor)
    call_command(
        "simulate_floor",
        tables=1,
        rounds=1,
        speed=0,
        base=asgi_server.url,
        stdout=io.StringIO(),
    )  # the SIM tables exist and have dealt once before the dashboard opens
    page = open_pit(browser_page, asgi_server.url, SUPERVISOR, "en")
    before = card_text(page, "SIM 1", "[data-rounds]")
    assert before.endswith("/ 1")
    out, failures = io.StringIO(), []

    def play():
        try:
            call_command(
                "simulate_floor", tables=1, rounds=3, speed=0, base=asgi_server.url, stdout=out
            )
        except Exception as exc:  # the command's own checks, said after the run
            failures.append(exc)

    played = threading.Thread(target=play)
    played.start()
    # No reload: the socket says a table moved and the card is read again.
    page.wait_for_function(
        """() => [...document.querySelectorAll('.card')].some(c =>
             c.querySelector('h3').innerText === 'SIM 1' &&
             c.querySelector('[data-rounds]').innerText.trim().endsWith('/ 4'))""",
        timeout=60000,
    )
    played.join(timeout=120)
    failed = [line for line in out.getvalue().splitlines() if "FAILED" in line]
    assert not played.is_alive() and not failures, (failures, failed)
    updates = page.evaluate("window.pitMetrics.updates.filter(u => u.part === 'cards').length")
    assert updates >= 1
    assert card_text(page, "SIM 1", "[data-handle]") != ""


def test_a_progressive_hit_is_an_alert_and_is_verified_then_paid_by_two_supervisors(
    asgi_server, browser_page
):
    asgi_server.run_sync(load_floor)
    asgi_server.run_sync(second_supervisor)
    page = open_pit(browser_page, asgi_server.url, SUPERVISOR, "en")

    def hit():
        from casino.models import Staff
        from jackpot.models import Bank
        from jackpot.selectors import level_amount
        from jackpot.services import hit_record

        bank = Bank.objects.order_by("pk").first()
        level = bank.levels[0]["level"]
        return hit_record(
            bank_id=bank.pk,
            table_label="UTH 1",
            seat=2,
            level=level,
            amount_cents=level_amount(bank, level),
            actor=Staff.objects.get(username="croupier"),
        ).pk

    hit_id = asgi_server.run_sync(hit)
    page.wait_for_selector('.alert[data-kind="progressive_hit"]', timeout=5000)
    page.wait_for_selector(f'.approval[data-kind="hit_verify"][data-id="{hit_id}"]', timeout=5000)
    page.screenshot(path=str(SCREENSHOTS / "pit-hit-alert-en.png"), full_page=True)
    page.click(f'.approval[data-id="{hit_id}"] button:text-is("Verify")')
    page.wait_for_selector(f'.approval[data-kind="hit_pay"][data-id="{hit_id}"]')

    second = open_pit(other_page(page), asgi_server.url, SECOND_SUPERVISOR, "en")
    second.click(f'.approval[data-kind="hit_pay"][data-id="{hit_id}"] button:text-is("Mark paid")')
    second.wait_for_selector("text=is paid")
    # The first supervisor's screen drops the paid hit without a reload.
    page.wait_for_selector(f'.approval[data-id="{hit_id}"]', state="detached", timeout=25000)

    def state():
        from jackpot.models import Hit

        found = Hit.objects.get(pk=hit_id)
        return found.state, found.verified_by.username, found.paid_by.username

    assert asgi_server.run_sync(state) == ("paid", "inspecteur", "inspecteur2")
    page.fill('.alert[data-kind="progressive_hit"] input[name=note]', "Paid at the table, seat 2")
    page.click('.alert[data-kind="progressive_hit"] button')
    # It leaves the open alerts; the pit keeps it in sight as acknowledged, with the note.
    page.wait_for_selector('[data-alert][data-kind="progressive_hit"]', state="detached")
    done = page.locator('[data-acknowledged-alert][data-kind="progressive_hit"] [data-note]')
    assert done.inner_text() == "Paid at the table, seat 2"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_void_declared_at_a_tablet_is_approved_from_the_pit_and_the_tablet_moves_on(
    asgi_server, browser_page, language
):
    asgi_server.run_sync(load_floor)
    pit = open_pit(other_page(browser_page), asgi_server.url, SUPERVISOR, language)
    tablet = Tablet(browser_page, asgi_server.url).sign_in(*DEALER, language)
    words = tablet.words
    tablet.tap(words["new_round"])
    tablet.wagers(1, [1000])
    tablet.tap(words["no_more_bets"])
    tablet.tap(words["irregularity"], wait=False)
    tablet.tap(words["irr.preflop_card_exposed"])
    assert tablet.next_step() == words["next.pending_void"]

    pit.wait_for_selector('.approval[data-kind="void"]', timeout=5000)
    pit.wait_for_selector('.alert[data-kind="void_requested"]', timeout=5000)
    pit.screenshot(path=str(SCREENSHOTS / f"pit-floor-{language}.png"), full_page=True)
    pit.fill('.approval[data-kind="void"] input[name=pin]', SUPERVISOR[1])
    pit.click('.approval[data-kind="void"] button[value=approve]')
    pit.wait_for_selector('.approval[data-kind="void"]', state="detached")
    browser_page.wait_for_selector("#tablet[data-stage=void]", timeout=5000)  # no tap needed
    assert browser_page.is_visible(f'button:text-is("{words["new_round"]}")')

    # The table's page: its game recall shows the void, approved with the supervisor's PIN.
    pit.click('.card h3 a:text-is("UTH 1")')
    pit.click(".recall tr[data-round] details summary")
    events = pit.inner_text(".recall tr[data-round] .events")
    approved = {"en": "Void approved", "fr": "Annulation approuvée"}[language]
    assert approved in events and "void_approved" not in events  # worded, not a code
    pit.screenshot(path=str(SCREENSHOTS / f"pit-recall-{language}.png"), full_page=True)
    if language == "fr":
        from tests.e2e.test_tablet_language import english_left_on

        assert english_left_on(pit) == []
