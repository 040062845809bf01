"""The player file in real Chromium, in English and in French: a supervisor adds a carded
player, compliance records the identity (its reading audited) and bars the player, and the
pit then reads the status, never the identity."""

import pytest

from casino.models import AuditEntry, Staff
from casino.roles import Role
from tables.ratings.models import Player
from tests.e2e.conftest import sign_in
from tests.e2e.tablet_support import axe_violations
from tests.factories import make_staff

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
EVERY_IMPACT = ("minor", "moderate", "serious", "critical")

WORDS = {
    "en": {
        "heading": "Players",
        "add": "Add the player",
        "barred": "barred",
        "record": "Record the identity",
        "identity": "Identity of",
    },
    "fr": {
        "heading": "Joueurs",
        "add": "Ajouter le joueur",
        "barred": "interdit",
        "record": "Enregistrer l’identité",
        "identity": "Identité de",
    },
}


def no_axe_violation(page) -> None:
    found = [f"{v['id']}: {v['nodes'][:3]}" for v in axe_violations(page, impacts=EVERY_IMPACT)]
    assert found == [], (page.url, found)


def speaking(username: str, language: str) -> None:
    Staff.objects.filter(username=username).update(language=language)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_player_page_from_the_pit_and_from_compliance(
    asgi_server, casino_property, browser_page, language
):
    words, page, url = WORDS[language], browser_page, asgi_server.url
    make_staff(Role.SUPERVISOR, username="floor")
    make_staff(Role.COMPLIANCE, username="kyc")
    for username in ("floor", "kyc"):
        speaking(username, language)

    sign_in(page, asgi_server, "floor")
    page.goto(f"{url}/players/")
    assert page.inner_text("h1") == words["heading"]
    assert page.locator("html").get_attribute("lang") == language
    no_axe_violation(page)
    page.fill("#card", "400123")
    page.fill("#alias", "Marie D.")
    page.click(f"form.player-add button:has-text('{words['add']}')")
    page.wait_for_selector("[data-alias]")
    player = Player.objects.get(card="400123")
    assert page.url == f"{url}/players/{player.pk}/"
    assert page.inner_text("[data-alias]") == "Marie D."
    assert page.locator("[data-identity-link]").count() == 0

    sign_in(page, asgi_server, "kyc")
    page.goto(f"{url}/players/{player.pk}/")
    page.click("[data-identity-link]")
    page.wait_for_selector("[data-no-identity]")
    assert words["identity"] in page.inner_text("h1")
    no_axe_violation(page)
    page.fill("#family_name", "Dupont")
    page.fill("#given_names", "Marie")
    page.fill("#birth_date", "1980-05-17")
    page.select_option("#document_kind", "identity_card")
    page.click(f"form.identity-record button:has-text('{words['record']}')")
    page.wait_for_url(f"{url}/players/{player.pk}/")
    page.click("[data-identity-link]")
    assert page.inner_text("[data-family-name]") == "Dupont"
    page.goto(f"{url}/players/{player.pk}/")
    no_axe_violation(page)
    page.select_option("#status", "barred")
    page.fill("#status-reason", "fraud")
    page.click("form.player-status button")
    page.wait_for_selector('[data-status="barred"]')
    readings = AuditEntry.objects.filter(code="player.identity.viewed", subject_id=str(player.pk))
    assert readings.count() == 2

    sign_in(page, asgi_server, "floor")
    page.goto(f"{url}/players/")
    row = page.locator(f'tr[data-player="{player.pk}"]')
    assert "Marie D." in row.inner_text() and words["barred"] in row.inner_text()
    page.goto(f"{url}/players/{player.pk}/")
    assert "Dupont" not in page.content()
    no_axe_violation(page)
