from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from casino.money import NARROW_NBSP, NBSP, format_money
from tests.factories import PropertyFactory


def test_a_page_speaks_french_to_a_french_user_and_english_to_an_english_one(client, dealer):
    dealer.language = "fr"
    dealer.save()
    client.force_login(dealer)
    page = client.get(reverse("casino:pin_login"), HTTP_ACCEPT_LANGUAGE="en")
    assert "Connexion tablette" in page.content.decode() and page["Content-Language"] == "fr"
    dealer.language = "en"
    dealer.save()
    page = client.get(reverse("casino:pin_login"), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Tablet login" in page.content.decode() and page["Content-Language"] == "en"


def test_my_language_control_saves_the_choice_on_the_staff_record(client, dealer):
    client.force_login(dealer)
    response = client.post(reverse("casino:my_language"), {"language": "en", "next": "/login/pin/"})
    assert response.status_code == 302 and response["Location"] == "/login/pin/"
    dealer.refresh_from_db()
    assert dealer.language == "en"
    assert "Tablet login" in client.get("/login/pin/").content.decode()


def test_a_tablet_keeps_its_own_language_whoever_logs_in(client, dealer):
    response = client.post(reverse("casino:device_language"), {"language": "en"})
    assert response.cookies["tapis_device_language"].value == "en"
    dealer.language = "fr"
    dealer.save()
    client.force_login(dealer)
    page = client.get(reverse("casino:pin_login"))
    assert "Tablet login" in page.content.decode()
    # the top bar then changes the tablet's language, not the person's
    assert f'action="{reverse("casino:device_language")}"' in page.content.decode()


def test_the_device_language_can_be_cleared(client):
    client.post(reverse("casino:device_language"), {"language": "en"})
    response = client.post(reverse("casino:device_language"), {"language": ""})
    assert response.cookies["tapis_device_language"].value == ""
    page = client.get(reverse("casino:pin_login"), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Connexion tablette" in page.content.decode()


def test_the_device_language_refuses_a_redirect_off_site(client):
    response = client.post(
        reverse("casino:device_language"), {"language": "fr", "next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("casino:pin_login")


def test_money_in_french_groups_with_a_narrow_space_and_puts_the_euro_after():
    assert format_money(123450, "EUR", "fr") == f"1{NARROW_NBSP}234,50{NBSP}€"
    assert format_money(-5, "EUR", "fr") == f"-0,05{NBSP}€"
    assert format_money(100000000, "EUR", "fr") == f"1{NARROW_NBSP}000{NARROW_NBSP}000,00{NBSP}€"


def test_money_in_english_puts_the_symbol_first():
    assert format_money(123450, "EUR", "en") == "€1,234.50"
    assert format_money(-123450, "USD", "en") == "-$1,234.50"
    assert format_money(99, "EUR", "en") == "€0.99"
    assert format_money(123450, "CHF", "en") == f"CHF{NBSP}1,234.50"


def test_money_refuses_anything_but_integer_cents():
    import pytest

    with pytest.raises(TypeError):
        format_money(12.5, "EUR", "fr")


def test_the_money_filter_uses_the_property_currency_and_the_active_language(db):
    PropertyFactory(currency="USD")
    template = Template("{% load money %}{{ amount|money }}|{{ amount|money:'EUR' }}")
    with translation.override("en"):
        assert template.render(Context({"amount": 123450})) == "$1,234.50|€1,234.50"
    with translation.override("fr"):
        rendered = template.render(Context({"amount": 123450}))
    assert rendered == f"1{NARROW_NBSP}234,50{NBSP}${NBSP}|1{NARROW_NBSP}234,50{NBSP}€".replace(
        f"${NBSP}|", "$|"
    )


def test_every_casino_string_has_a_french_translation():
    from pathlib import Path

    po = (Path(__file__).resolve().parents[2] / "casino/locale/fr/LC_MESSAGES/django.po").read_text(
        encoding="utf-8"
    )
    entries = po.split("\n\n")[1:]  # the first block is the header
    untranslated = [e for e in entries if e.rstrip().endswith('msgstr ""') or "#, fuzzy" in e]
    assert untranslated == []
    assert len(entries) > 60


def test_the_403_page_is_in_french_for_a_french_dealer(client, dealer):
    dealer.language = "fr"
    dealer.save()
    client.force_login(dealer)
    page = client.get(reverse("casino:locked_pins"))
    assert page.status_code == 403
    body = page.content.decode()
    assert "Accès refusé" in body and "superviseur ou directeur des jeux" in body
