"""The chip set and the chips' books in the admin read and take amounts in the currency,
never raw cents (issue 12, item 2)."""

import pytest
from django.test import Client

from tables.accounting.models import ChipDenomination

pytestmark = pytest.mark.django_db


def manager_client(manager, language="fr") -> Client:
    manager.language = language
    manager.save(update_fields=["language"])
    client = Client()
    client.force_login(manager)
    return client


def test_a_manager_adds_a_chip_typed_as_money(manager, casino_property):
    client = manager_client(manager)
    page = client.get("/admin/accounting/chipdenomination/add/").content.decode()
    assert "centimes" not in page
    answer = client.post(
        "/admin/accounting/chipdenomination/add/",
        {"property": casino_property.pk, "value_cents": "25,00", "colour": "vert", "active": "on"},
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert ChipDenomination.objects.get().value_cents == 2500


def test_the_chip_list_shows_money_not_cents(manager, casino_property):
    ChipDenomination.objects.create(property=casino_property, value_cents=100_000)
    html = manager_client(manager, "en").get("/admin/accounting/chipdenomination/").content.decode()
    assert "€1,000.00" in html and "100000" not in html
