"""The ratings' reports and fraud signals in Chromium, in English and in French (issue 28,
items 7 and 9): a manager reads a player's ratings page with its chart, the top players by
theo and the rating accuracy report; a supervisor sees a ghost rating and a chips gap on the
pit, acknowledges the ghost rating with a note, and the pit then shows it acknowledged (by
whom, the note). A French page keeps no English string of those pages' catalogues."""

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import sign_in
from tests.e2e.tablet_support import SCREENSHOTS, axe_violations, load_floor

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).parents[2]
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\{ ?\w+ ?\}\}")

WORDS = {
    "en": {
        "ratings_of": "Ratings of Marie D.",
        "top": "Top players by theo",
        "accuracy": "Rating accuracy",
        "ghost": "Ghost rating at UTH 1",
        "gap": "Chips and measured results differ at UTH 1",
        "acknowledged": "Alert #{} is acknowledged.",
        "lately": "Acknowledged lately",
        "by": "Acknowledged by Inès Inspectrice",
    },
    "fr": {
        "ratings_of": "Cotations de Marie D.",
        "top": "Meilleurs joueurs par gain théorique",
        "accuracy": "Justesse des cotations",
        "ghost": "Cotation fantôme à UTH 1",
        "gap": "Résultats aux plaques et mesuré différents à UTH 1",
        "acknowledged": "Prise d’acte de l’alerte n° {} enregistrée.",
        "lately": "Prises d’acte récentes",
        "by": "Prise d’acte par Inès Inspectrice",
    },
}


# --- what French pages must not show: the English of these pages' catalogues -----------------


def _unquote(lines: list[str]) -> str:
    return "".join(re.fullmatch(r'(?:msgid |msgstr )?"(.*)"', line).group(1) for line in lines)


def catalogue(app: str, refs: tuple[str, ...]) -> dict[str, str]:
    """English -> French of an app's entries whose references name one of `refs`."""
    po = ROOT / app / "locale" / "fr" / "LC_MESSAGES" / "django.po"
    entries = {}
    for block in po.read_text().split("\n\n"):
        lines = block.strip().splitlines()
        where = " ".join(line for line in lines if line.startswith("#:"))
        if not any(ref in where for ref in refs):
            continue
        body = [line for line in lines if not line.startswith(("#", "msgctxt"))]
        plural = [i for i, line in enumerate(body) if line.startswith("msgid_plural")]
        at = (
            plural[0] if plural else next(i for i, ln in enumerate(body) if ln.startswith("msgstr"))
        )
        strs = [i for i, line in enumerate(body) if line.startswith("msgstr")]
        entries[_unquote(body[:at])] = _unquote(body[strs[0] : strs[1] if len(strs) > 1 else None])
    return entries


def english_pieces() -> list[str]:
    english = {
        **catalogue("tables/ratings", ("players/", "pages_reports", "reports.py")),
        **catalogue("tables/pit", ("_alerts.html", "alerts.py")),
        **catalogue("tables/accounting", ("chart.py",)),
    }
    french_text = "\n".join(english.values())
    pieces = set()
    for text in english:
        for piece in PLACEHOLDER.split(text):
            piece = piece.strip(" :.,·–()")
            shared = re.search(rf"\b{re.escape(piece)}\b", french_text)
            if len(re.findall(r"[A-Za-z]", piece)) >= 4 and not shared:
                pieces.add(piece)
    return sorted(pieces, key=len, reverse=True)


def english_left_on(page, pieces) -> list[str]:
    text = page.evaluate(
        """() => [document.body.innerText,
            ...[...document.querySelectorAll('[aria-label], title')]
               .map(e => e.getAttribute('aria-label') || e.textContent)
          ].join('\\n')"""
    )
    return [piece for piece in pieces if re.search(rf"\b{re.escape(piece)}\b", text)]


def no_raw_code(page) -> None:
    """No internal code where a person reads words (a kind, a reason, a state)."""
    text = page.inner_text("main")
    found = re.findall(
        r"\b(?:ghost_rating|chips_gap|table_closed|self_excluded|[a-z]+_[a-z_]+)\b", text
    )
    assert found == [], (page.url, found)


# --- the floor ---------------------------------------------------------------------------


def play_rounds(table, seats, n: int) -> None:
    from casino.models import Staff
    from tests.tables.rounds.conftest import Felt, deal_to

    felt = Felt(table, Staff.objects.get(username="croupier"))
    for _ in range(n):
        deal_to(felt, "settled", seats=seats, progressive=0)


def rated_floor(language: str) -> dict:
    """Marie rated at UTH 1 for 3 rounds (an average Ante entered), Paul for 1: both closed."""
    from casino.models import Staff
    from tables.models import Table
    from tables.ratings import entered_average, services
    from tables.ratings.models import Player, RatingSettings

    load_floor()
    Staff.objects.filter(username__in=("directeur", "inspecteur")).update(language=language)
    table = Table.objects.get(name="UTH 1")
    prop = table.pit.property
    RatingSettings.objects.update_or_create(property=prop, defaults={"average_ante_entry": True})
    marie = Player.objects.get_or_create(
        property=prop, card="400123", defaults={"alias": "Marie D."}
    )[0]
    paul = Player.objects.get_or_create(
        property=prop, card="400124", defaults={"alias": "Paul V."}
    )[0]
    supervisor = Staff.objects.get(username="inspecteur")

    def rate(player, seat, rounds, key):
        rating = services.rating_open(
            staff=supervisor,
            key=f"{key}-open",
            table=table.pk,
            seat=seat,
            player={"card": player.card},
        ).body
        play_rounds(table, (seat,), rounds)
        services.rating_close(rating_id=rating["id"], staff=supervisor, key=f"{key}-close")
        return rating["id"]

    marie_rating = rate(marie, 1, 3, "marie")
    entered_average.rating_average_enter(supervisor=supervisor, rating_id=marie_rating, cents=5000)
    rate(paul, 2, 1, "paul")
    return {"marie": marie.pk, "paul": paul.pk, "marie_rating": marie_rating}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_ratings_reports_in_the_browser(asgi_server, browser_page, language):
    floor = asgi_server.run_sync(rated_floor, language)
    words, page, url = WORDS[language], browser_page, asgi_server.url
    pieces = english_pieces()
    sign_in(page, asgi_server, "directeur")  # a manager reads theo

    # The player's page: visits, ratings, theo against result, the chart.
    page.goto(f"{url}/players/{floor['marie']}/ratings/")
    assert page.locator("html").get_attribute("lang") == language
    assert page.inner_text("h1") == words["ratings_of"]
    assert page.inner_text("[data-hands]") == "3"
    assert page.inner_text("[data-ratings]") == "1"
    assert int(page.get_attribute("[data-theo]", "data-theo")) > 0
    assert page.locator(".player-chart svg").count() == 1
    assert page.locator(f'.ratings tr[data-rating="{floor["marie_rating"]}"]').count() == 1
    assert "50" in page.inner_text(f'.ratings tr[data-rating="{floor["marie_rating"]}"]')
    no_raw_code(page)
    assert [v["id"] for v in axe_violations(page)] == []
    page.screenshot(path=str(SCREENSHOTS / f"player-ratings-{language}.png"), full_page=True)
    if language == "fr":
        assert english_left_on(page, pieces) == []

    # The top players by theo: Marie (three rounds) before Paul (one).
    page.goto(f"{url}/players/top/")
    assert page.inner_text("h1") == words["top"]
    listed = page.eval_on_selector_all(
        ".top-players tbody tr[data-player]", "rows => rows.map(r => Number(r.dataset.player))"
    )
    assert listed == [floor["marie"], floor["paul"]]
    page.click(f'.top-players tr[data-player="{floor["marie"]}"] a')
    page.wait_for_url(f"{url}/players/{floor['marie']}/ratings/")
    page.go_back()
    no_raw_code(page)
    assert [v["id"] for v in axe_violations(page)] == []
    if language == "fr":
        assert english_left_on(page, pieces) == []

    # The accuracy report: Marie's entered average beside the measured one.
    page.goto(f"{url}/players/accuracy/")
    assert page.inner_text("h1") == words["accuracy"]
    row = page.locator(f'.accuracy tr[data-rating="{floor["marie_rating"]}"]')
    assert row.count() == 1 and "Marie D." in row.inner_text()
    assert page.locator("[data-entry-off]").count() == 0  # this casino lets them enter one
    no_raw_code(page)
    assert [v["id"] for v in axe_violations(page)] == []
    page.screenshot(path=str(SCREENSHOTS / f"rating-accuracy-{language}.png"), full_page=True)
    if language == "fr":
        assert english_left_on(page, pieces) == []


# --- the fraud signals on the pit -----------------------------------------------------------


def signals_floor(language: str) -> None:
    """Paul rated at seat 3 while only seat 1 plays (a ghost rating after 5 rounds); Marie,
    rated at seat 1, closed walking with far more than she measured (a chips gap)."""
    from casino.models import Staff
    from tables.models import Table
    from tables.ratings import services
    from tables.ratings.models import Player

    load_floor()
    Staff.objects.filter(username="inspecteur").update(language=language)
    table = Table.objects.get(name="UTH 1")
    prop = table.pit.property
    marie = Player.objects.get_or_create(
        property=prop, card="400123", defaults={"alias": "Marie D."}
    )[0]
    paul = Player.objects.get_or_create(
        property=prop, card="400124", defaults={"alias": "Paul V."}
    )[0]
    supervisor = Staff.objects.get(username="inspecteur")
    opened = {
        player.alias: services.rating_open(
            staff=supervisor,
            key=f"sig-{seat}",
            table=table.pk,
            seat=seat,
            player={"card": player.card},
        ).body
        for player, seat in ((marie, 1), (paul, 3))
    }
    play_rounds(table, (1,), 5)
    services.rating_close(
        rating_id=opened["Marie D."]["id"],
        staff=supervisor,
        key="sig-close",
        walk_with_cents=250_000,
    )


def raise_idle_alert() -> int:
    from tables.models import Table
    from tables.pit.alerts import alert_raise

    table = Table.objects.get(name="UTH 2")
    return alert_raise(kind="table_idle", key="idle-e2e", table=table, params={"minutes": 20}).pk


def alert_id(page, kind: str) -> int:
    return int(
        page.get_attribute(f'[data-alerts-list] li[data-alert][data-kind="{kind}"]', "data-alert")
    )


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_supervisor_acknowledges_a_fraud_signal_with_a_note(asgi_server, browser_page, language):
    asgi_server.run_sync(signals_floor, language)
    words, page, url = WORDS[language], browser_page, asgi_server.url
    sign_in(page, asgi_server, "inspecteur")
    page.goto(f"{url}/pit/")
    ghost = page.locator('[data-alerts-list] li[data-alert][data-kind="ghost_rating"]')
    gap = page.locator('[data-alerts-list] li[data-alert][data-kind="chips_gap"]')
    ghost.wait_for(timeout=5000)
    assert words["ghost"] in ghost.inner_text() and "Paul V." in ghost.inner_text()
    assert words["gap"] in gap.inner_text() and "Marie D." in gap.inner_text()
    number = alert_id(page, "ghost_rating")
    no_raw_code(page)
    if language == "fr":
        assert english_left_on(page, english_pieces()) == []
    page.screenshot(path=str(SCREENSHOTS / f"pit-fraud-signals-{language}.png"), full_page=True)

    note = "Vu en vidéo : absent, cotation fermée" if language == "fr" else "Not on video: closed"
    ghost.locator("input[name=note]").fill(note)
    # Another alert arrives while the note waits, unsent: the list is read again, the new alert
    # shows and the note typed is still there.
    page.locator("h1").click()
    idle = asgi_server.run_sync(raise_idle_alert)
    page.locator(f'[data-alerts-list] li[data-alert="{idle}"]').wait_for(timeout=5000)
    assert ghost.locator("input[name=note]").input_value() == note
    ghost.locator("button").click()
    page.wait_for_selector(f"text={words['acknowledged'].format(number)}")
    # It left the open list; the pit shows it acknowledged, by whom and with the note.
    assert page.locator(f'[data-alerts-list] li[data-alert="{number}"]').count() == 0
    done = page.locator(f'[data-alerts-list] li[data-acknowledged-alert="{number}"]')
    assert words["lately"] in page.inner_text("[data-alerts-list]")
    assert words["by"] in done.inner_text()
    assert done.locator("[data-note]").inner_text() == note
    assert gap.count() == 1  # the other signals still wait
    assert [(v["id"], v["nodes"]) for v in axe_violations(page)] == []
    if language == "fr":
        assert english_left_on(page, english_pieces()) == []
