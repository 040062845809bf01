"""A bank's name on its screens is in the screen's language: the English screen does not
read the French name when the bank has an English one (issue 12, item 3)."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def named_bank(bank):
    bank.name, bank.name_en = "Jackpot progressif UTH", "UTH progressive jackpot"
    bank.save(update_fields=["name", "name_en"])
    return bank


def feed(token) -> dict:
    return Client().get(f"/api/jackpot/{token[0].bank.slug}/", {"token": token[1]}).json()


def test_each_screen_reads_the_banks_name_in_its_own_language(named_bank, display, english_display):
    french, english = feed(display), feed(english_display)
    assert french["name"] == "Jackpot progressif UTH"
    assert english["name"] == "UTH progressive jackpot"
    assert "name_en" not in french and "name_en" not in english


def test_the_english_display_page_shows_the_english_name(named_bank, english_display):
    client = Client()
    page = client.get(f"/display/{named_bank.slug}/", {"token": english_display[1]}, follow=True)
    html = page.content.decode()
    assert "UTH progressive jackpot" in html and "Jackpot progressif UTH" not in html


def test_without_an_english_name_the_english_screen_keeps_the_banks_name(bank, english_display):
    assert feed(english_display)["name"] == bank.name
