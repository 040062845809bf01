"""Ratings from the pit's table page in Chromium (issue 28, 2), in French and in English: a
supervisor opens a rating on the seat map, pauses and resumes it, moves it to another seat
and closes it with the walk-with while rounds are played at the table (through the round
services, as a tablet's writes); the dealer's tablet shows the rated seat's alias, and
follows the move and the close, without a reload; so does a second supervisor's page of the
table (the pit's socket). A tablet whose link was cut, or that reloads, shows the alias at once
(the table channel's connect snapshot; the page)."""

import pytest

from tests.e2e.tablet_support import DEALER, SCREENSHOTS, SUPERVISOR, Tablet, load_floor

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DONE = {
    "en": {
        "open": "A rating is open at UTH 1, seat 1.",
        "pause": "The rating of Marie D. is paused.",
        "move": "Marie D. moves to UTH 1, seat 2: the rating follows.",
        "close": "The rating of Marie D. is closed.",
        "paused": "paused",
    },
    "fr": {
        "open": "Une cotation est ouverte à UTH 1, place 1.",
        "pause": "La cotation de Marie D. est en pause.",
        "move": "Marie D. va à UTH 1, place 2\u00a0: la cotation le suit.",
        "close": "La cotation de Marie D. est fermée.",
        "paused": "en pause",
    },
}


def floor_with_a_player() -> int:
    from tables.models import Table
    from tables.ratings.models import Player

    load_floor()
    table = Table.objects.get(name="UTH 1")
    # The demo's regular, on file (or added where the demo has no players).
    Player.objects.get_or_create(
        property=table.pit.property, card="400123", defaults={"alias": "Marie D."}
    )
    return table.pk


def play_a_round(table_id: int, seat: int) -> None:
    """One round settled at the table, `seat` playing (the dealer's writes, as the tablet's)."""
    from casino.models import Staff
    from tables.models import Table
    from tests.tables.rounds.conftest import Felt, deal_to

    felt = Felt(Table.objects.get(pk=table_id), Staff.objects.get(username="croupier"))
    deal_to(felt, "settled", seats=(seat,), progressive=0)


def second_supervisor() -> tuple[str, str]:
    """Another supervisor on the floor: employee number and PIN."""
    from casino.roles import Role
    from tests.factories import make_staff

    staff = make_staff(Role.SUPERVISOR, username="second-inspecteur", pin="8642")
    return staff.employee_number, "8642"


def open_page(browser_page, url: str, who: tuple[str, str], language: str, to: str):
    page = browser_page.context.browser.new_context(
        viewport={"width": 1280, "height": 1000}
    ).new_page()
    Tablet(page, url).sign_in(*who, language, to=to)
    return page


def ratings_of_marie() -> list[tuple]:
    from tables.ratings.selectors import rating_json, ratings_read

    found = ratings_read().filter(player__card="400123").order_by("pk")
    return [(r.seat, r.closed_reason, r.walk_with_cents, rating_json(r)["hands"]) for r in found]


def _said(pit) -> str:
    return pit.inner_text(".messages, [role=status], .message", timeout=5000)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_rating_is_opened_paused_moved_and_closed_from_the_pit(
    asgi_server, browser_page, language
):
    table_id = asgi_server.run_sync(floor_with_a_player)
    done = DONE[language]
    tablet = Tablet(browser_page, asgi_server.url).sign_in(*DEALER, language)
    to = f"/pit/tables/{table_id}/"
    pit = open_page(browser_page, asgi_server.url, SUPERVISOR, language, to)
    # A second supervisor watches the same table's page: it follows every write, unreloaded.
    watcher = open_page(
        browser_page, asgi_server.url, asgi_server.run_sync(second_supervisor), language, to
    )
    watcher.evaluate("() => { window.notReloaded = true; }")
    row = '.seat-map tr[data-seat="{}"]'
    watched = '.seat-map tr[data-seat="{}"][data-rating] [data-alias]'

    # Open: a carded player chosen from the list, at seat 1.
    pit.select_option(f"{row.format(1)} select[name=card]", "400123")
    pit.click(f'{row.format(1)} form[action$="/ratings/open/"] button')
    pit.wait_for_selector(f"text={done['open']}")
    assert "Marie D." in pit.inner_text(f"{row.format(1)} [data-alias]")
    # The tablet shows her alias at once (the table's channel, after commit).
    alias = browser_page.locator('.seat[data-seat="1"] [data-seat-alias]')
    alias.wait_for(timeout=5000)
    assert alias.inner_text() == "Marie D."
    tablet.screenshot(f"tablet-rated-seat-{language}")
    watcher.wait_for_selector(watched.format(1), timeout=5000)
    assert "Marie D." in watcher.inner_text(watched.format(1))

    asgi_server.run_sync(play_a_round, table_id, 1)
    pit.click(f'{row.format(1)} form[action$="/pause/"] button')
    pit.wait_for_selector(f"text={done['pause']}")
    assert pit.inner_text(f"{row.format(1)} [data-state]") == done["paused"]
    watcher.wait_for_selector(f'{row.format(1)} [data-state="paused"]', timeout=5000)
    assert watcher.inner_text(f"{row.format(1)} [data-state]") == done["paused"]
    asgi_server.run_sync(play_a_round, table_id, 1)  # paused: not counted
    pit.click(f'{row.format(1)} form[action$="/resume/"] button')
    pit.wait_for_selector(f'{row.format(1)} [data-state="rated"]')
    watcher.wait_for_selector(f'{row.format(1)} [data-state="rated"]', timeout=5000)
    pit.screenshot(path=str(SCREENSHOTS / f"pit-seat-map-{language}.png"), full_page=True)

    # Move to seat 2 of the same table: the tablet's label follows.
    pit.fill(f'{row.format(1)} form[action$="/move/"] input[name=seat]', "2")
    pit.click(f'{row.format(1)} form[action$="/move/"] button')
    pit.wait_for_selector(f"text={done['move']}")
    browser_page.wait_for_selector('.seat[data-seat="2"] [data-seat-alias]', timeout=5000)
    browser_page.wait_for_selector(
        '.seat[data-seat="1"] [data-seat-alias]', state="detached", timeout=5000
    )
    watcher.wait_for_selector(watched.format(2), timeout=5000)
    watcher.wait_for_selector(watched.format(1), state="detached", timeout=5000)
    asgi_server.run_sync(play_a_round, table_id, 2)

    # Close with the walk-with: the tablet's label goes.
    pit.fill(f'{row.format(2)} form[action$="/close/"] input[name=walk_with]', "150")
    pit.click(f'{row.format(2)} form[action$="/close/"] button')
    pit.wait_for_selector(f"text={done['close']}")
    browser_page.wait_for_selector("[data-seat-alias]", state="detached", timeout=5000)
    assert pit.locator(".seat-map tr[data-rating]").count() == 0
    watcher.wait_for_selector(".seat-map tr[data-rating]", state="detached", timeout=5000)
    assert watcher.evaluate("() => window.notReloaded") is True

    # One round counted before the pause, none during it, one after the move.
    assert asgi_server.run_sync(ratings_of_marie) == [
        (1, "moved", None, 1),
        (2, "closed", 15000, 1),
    ]
    if language == "fr":
        from tests.e2e.test_tablet_language import english_left_on

        assert english_left_on(pit) == []


def open_a_rating(table_id: int, seat: int) -> None:
    """A supervisor opens Marie's rating (the pit's service, as its form does)."""
    from casino.models import Staff
    from tables.ratings import services

    services.rating_open(
        staff=Staff.objects.get(username="inspecteur"),
        key=f"e2e-open-{seat}",
        table=table_id,
        seat=seat,
        player={"card": "400123"},
    )


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_tablet_that_comes_back_or_reloads_shows_the_alias_at_once(
    asgi_server, browser_page, language
):
    table_id = asgi_server.run_sync(floor_with_a_player)
    tablet = Tablet(browser_page, asgi_server.url).sign_in(*DEALER, language)
    page = browser_page
    alias = page.locator('.seat[data-seat="4"] [data-seat-alias]')
    assert alias.count() == 0

    # The link is cut while the rating opens: the live push is lost; the connect snapshot
    # brings the alias back with the link, without a reload.
    page.evaluate("() => { window.notReloaded = true; }")
    page.context.set_offline(True)
    page.wait_for_selector('[data-link][data-state="offline"]', timeout=5_000)
    asgi_server.run_sync(open_a_rating, table_id, 4)
    assert alias.count() == 0
    page.context.set_offline(False)
    tablet.wait_online()
    alias.wait_for(timeout=5000)
    assert alias.inner_text() == "Marie D."
    assert page.evaluate("() => window.notReloaded") is True

    # Reloaded: the page itself has it, before its socket says anything.
    page.reload()
    assert alias.inner_text(timeout=5000) == "Marie D."
    text = page.inner_text("body")
    assert "400123" not in text  # the alias only: never the card
