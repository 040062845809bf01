"""The demo floor's bank and its display, as `make run` prints them."""

import pytest

from casino import demo as casino_demo
from jackpot import demo
from jackpot.models import Bank, DisplayToken, MeterEntry

pytestmark = pytest.mark.django_db


def test_demo_bank_is_loaded_once_with_a_seeded_meter_and_one_display(client):
    casino_demo.load()
    demo.load()
    bank = demo.load()  # again: nothing doubles
    assert Bank.objects.filter(slug="demo").count() == 1
    assert (bank.status, bank.meter_cents, bank.reset_cents) == ("open", 1_000_000, 1_000_000)
    assert (bank.increment_rate_ppm, bank.hidden_rate_ppm, bank.wager_cents) == (
        250_000,
        50_000,
        100,
    )
    assert MeterEntry.objects.filter(bank=bank).count() == 1  # the seed, in the ledger
    assert DisplayToken.objects.filter(bank=bank).count() == 1

    [(label, path)] = demo.demo_urls()
    assert path == "/display/demo/?token=demo-display-token-revoke-me-in-production"
    assert client.get(path, follow=True).status_code == 200  # traded for a cookie, then shown
    levels = client.get(path.replace("/display/", "/api/jackpot/")).json()["levels"]
    assert [(lvl["level"], lvl["amount_cents"]) for lvl in levels] == [
        ("royal_flush", 1_000_000),
        ("straight_flush", 100_000),
    ]


def test_a_revoked_demo_token_is_no_longer_printed(db):
    casino_demo.load()
    demo.load()
    from django.core.management import call_command

    call_command("display_token", "demo", "--name", "Démo", "--revoke")
    assert demo.demo_urls() == []
