"""Fixtures of the display feed: a bank with its screens (the ledger's fixtures are one
level up; `bank` here is a bank whose meter the tests set directly)."""

import pytest

from jackpot.display_tokens import display_token_issue
from tests.jackpot.display.servers import database, demo_database  # noqa: F401  (fixtures)
from tests.jackpot.display.support import make_bank


@pytest.fixture
def bank(casino_property):
    return make_bank()


@pytest.fixture
def other_bank(casino_property):
    return make_bank("petit", meter_cents=50_000)


@pytest.fixture
def display(bank):
    """A screen of the main bank, in French: (token row, secret)."""
    return display_token_issue(bank_slug=bank.slug, name="Entrée salle", language="fr")


@pytest.fixture
def english_display(bank):
    return display_token_issue(bank_slug=bank.slug, name="Bar", language="en")


@pytest.fixture
def revoked_display(bank):
    from jackpot.display_tokens import display_token_revoke

    token, raw = display_token_issue(bank_slug=bank.slug, name="Ancien écran", language="fr")
    display_token_revoke(token_id=token.pk)
    return token, raw
