"""The paytable editor in real Chromium: the demo manager `directeur` creates a Trips paytable,
sees its house edge computed by the engine as the lines are typed, is warned on a table that
gives the player the edge and confirms it; screenshots in French and English."""

import socket
from pathlib import Path

import pytest
from django.test import Client

from casino import demo
from casino.models import AuditEntry, Staff
from tables.models import Paytable
from tables.rules.paytables import TRIPS_PRESETS
from tests.e2e.conftest import AsgiServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SCREENSHOTS = Path(__file__).parent / "screenshots"
#: This work's own ports (the shared machine gives each engineer a range).
PORTS = range(8110, 8120)
EDITOR = "/admin/tables/paytable/add/"
HOUSE_EDGE = '#paytable-math [data-figure="house-edge"]'


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.fixture
def server(transactional_db, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    port = next(p for p in PORTS if _free(p))
    started = AsgiServer(port).start()
    yield started
    started.stop()


def plain(text: str) -> str:
    return text.replace("\u202f", " ").replace("\u00a0", " ").strip()


def sign_in(page, server, username: str, language: str) -> None:
    """The manager's session (the sign-in page is tested elsewhere), in one language."""
    client = Client()
    client.force_login(Staff.objects.get(username=username))
    page.context.clear_cookies()
    page.context.add_cookies(
        [
            {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server.url},
            {"name": "django_language", "value": language, "url": server.url},
        ]
    )


def type_lines(page, lines: dict) -> None:
    for category, value in lines.items():
        n, m = value.split(":")
        page.fill(f"input[name={category}_n]", n)
        page.fill(f"input[name={category}_m]", m)


def test_a_manager_creates_a_trips_paytable_sees_its_edge_and_is_warned_on_a_player_edge(
    server, browser_page
):
    demo.load()
    page = browser_page
    page.set_viewport_size({"width": 1400, "height": 1000})
    sign_in(page, server, demo.DEMO_STAFF[3][0], "fr")  # directeur

    page.goto(server.url + EDITOR)
    page.fill("input[name=name]", "Trips maison")
    page.select_option("select[name=kind]", "trips")
    assert page.is_visible("input[name=flush_n]")
    assert not page.is_visible("input[name=flush_percent]")  # Trips pays odds only
    type_lines(page, TRIPS_PRESETS["A"].to_json())
    # The engine's math follows the lines as they are typed.
    page.wait_for_selector(f'{HOUSE_EDGE}:has-text("0,9018")', timeout=10_000)
    assert "Avantage de la maison" in page.inner_text("#paytable-math")
    page.screenshot(path=str(SCREENSHOTS / "paytable-editor-fr.png"), full_page=True)
    page.click("input[name=_save]")
    page.wait_for_selector(".messagelist .success", timeout=10_000)
    made = Paytable.objects.get(name="Trips maison")
    assert made.lines == TRIPS_PRESETS["A"].to_json()

    # A second table, three of a kind at 5 for 1: the player has the edge.
    page.goto(server.url + EDITOR)
    page.fill("input[name=name]", "Trips trop généreuse")
    page.select_option("select[name=kind]", "trips")
    type_lines(page, {**TRIPS_PRESETS["A"].to_json(), "three_of_a_kind": "5:1"})
    page.wait_for_selector("#paytable-math .player-edge", timeout=10_000)
    page.click("input[name=_save]")
    page.wait_for_selector(".paytable-warnings", timeout=10_000)
    warning = plain(page.inner_text(".paytable-warnings"))
    assert "le joueur a l’avantage" in warning
    assert not Paytable.objects.filter(name="Trips trop généreuse").exists()
    page.screenshot(path=str(SCREENSHOTS / "paytable-editor-warning-fr.png"), full_page=True)
    page.check("input[name=confirm]")
    page.click("input[name=_save]")
    page.wait_for_selector(".messagelist .success", timeout=10_000)
    generous = Paytable.objects.get(name="Trips trop généreuse")
    confirmed = AuditEntry.objects.get(code="tables.paytable.warnings_confirmed")
    assert str(confirmed.subject_id) == str(generous.pk)
    assert confirmed.actor.username == "directeur"

    # The same editor in English, on the saved table.
    sign_in(page, server, "directeur", "en")
    page.goto(f"{server.url}/admin/tables/paytable/{made.pk}/change/")
    assert plain(page.inner_text(HOUSE_EDGE)) == "0.9018 %"
    assert "House edge:" in page.inner_text("#paytable-math")
    assert page.input_value("input[name=flush_n]") == "7"
    page.screenshot(path=str(SCREENSHOTS / "paytable-editor-en.png"), full_page=True)


def test_a_manager_copies_a_preset_then_deploys_the_paytable_to_a_closed_table(
    server, browser_page
):
    import io

    from django.core.management import call_command

    from tables.models import Table

    call_command("load_demo", stdout=io.StringIO())
    page = browser_page
    page.set_viewport_size({"width": 1400, "height": 1000})
    sign_in(page, server, "directeur", "fr")

    # A Trips table started from preset C, its flush raised to 8: the edge follows.
    page.goto(server.url + EDITOR)
    page.fill("input[name=name]", "Trips C, couleur à 8")
    page.select_option("select[name=kind]", "trips")
    page.click("details.preset-trips:has-text('Trips C') summary")
    page.click("details.preset-trips:has-text('Trips C') .preset-use")
    page.wait_for_selector(f'{HOUSE_EDGE}:has-text("3,4979")', timeout=10_000)
    page.fill("input[name=flush_n]", "8")
    page.wait_for_selector(f'{HOUSE_EDGE}:has-text("0,4724")', timeout=10_000)
    page.click("input[name=_save]")
    page.wait_for_selector(".messagelist .success", timeout=10_000)
    paytable = Paytable.objects.get(name="Trips C, couleur à 8")
    assert paytable.lines["flush"] == "8:1"

    # The closed table UTH 4 plays its rule set's version 1: a new version takes the table.
    table = Table.objects.get(name="UTH 4")
    assert not table.is_open
    page.goto(f"{server.url}/admin/tables/ruleset/{table.ruleset_id}/change/")
    page.click("text=Nouvelle version")
    page.wait_for_selector(".messagelist .success", timeout=10_000)
    page.select_option("select[name=trips_paytable]", label=f"{paytable}")
    page.click("input[name=_continue]")
    page.wait_for_selector('[data-figure="trips-edge"]:has-text("0,4724")', timeout=10_000)
    page.click("text=Placer les tables sur cette version")
    page.wait_for_selector(".messagelist .success:has-text('UTH 4')", timeout=10_000)
    # A second manager approves the deployment (issue 23: nobody deploys a rule set alone).
    from tables import services
    from tables.models import RulesetDeployment

    asked = RulesetDeployment.objects.get(table=table, decided_at__isnull=True)
    services.ruleset_deployment_approve(
        deployment_id=asked.pk, manager=Staff.objects.get(username="directrice")
    )
    table.refresh_from_db()
    assert table.ruleset.trips_paytable_id == paytable.pk
    assert table.ruleset.version == 2


def test_editing_a_row_of_a_preset_version_leaves_the_preset_visibly(asgi_server, browser_page):
    """Issue 25, item 14: the rows typed under a kept preset are the paytable from then on;
    the preset field empties, the page says which preset was left, the edge follows the rows."""
    import io

    from django.core.management import call_command

    from tables import services

    call_command("load_demo", stdout=io.StringIO())
    kept = services.paytable_create(
        manager=Staff.objects.get(username="directeur"),
        kind="trips",
        name="Trips C bis",
        preset="C",
    )
    page = browser_page
    page.set_viewport_size({"width": 1400, "height": 1000})
    for language, edge_before, edge_after in (
        ("fr", "3,4979", "0,4724"),
        ("en", "3.4979", "0.4724"),
    ):
        sign_in(page, asgi_server, "directeur", language)
        page.goto(f"{asgi_server.url}/admin/tables/paytable/{kept.pk}/change/")
        assert page.locator("select[name=preset]").input_value() == "C"
        assert page.locator(HOUSE_EDGE).inner_text().find(edge_before) >= 0
        assert page.locator("[data-left-preset]").is_hidden()
        page.fill("input[name=flush_n]", "8")
        assert page.locator("select[name=preset]").input_value() == ""
        note = page.locator("[data-left-preset]")
        assert note.is_visible() and "C" in note.locator("[data-preset-name]").inner_text()
        page.wait_for_selector(f'{HOUSE_EDGE}:has-text("{edge_after}")', timeout=10_000)
    page.click("input[name=_save]")
    page.wait_for_selector(".messagelist .success", timeout=10_000)
    saved = Paytable.objects.get(pk=kept.pk)
    assert (saved.preset, saved.lines["flush"]) == ("", "8:1")
