"""The top bar shows each person what they may open and nothing they may not: every entry
it offers opens, every page of the bar's list it leaves out refuses that person."""

import re

import pytest
from django.test import Client

from casino.navigation import ENTRIES
from casino.roles import Role
from tests.factories import make_staff

pytestmark = pytest.mark.django_db


def bar_of(client) -> list[str]:
    html = client.get("/", follow=True).content.decode()
    bar = re.search(r'<nav class="places".*?</nav>', html, re.S)
    return re.findall(r'href="([^"]+)"', bar.group(0)) if bar else []


@pytest.mark.parametrize("role", Role.values)
def test_the_bar_offers_exactly_the_pages_the_role_may_open(role, casino_property):
    staff = make_staff(role)
    client = Client()
    client.force_login(staff)
    offered = bar_of(client)
    for path, _label in ENTRIES:
        status = client.get(path).status_code
        if path in offered:
            assert status != 403, f"{role} is offered {path} but refused there"
        else:
            assert status in (403, 404), f"{role} may open {path} ({status}) but is not offered it"
    assert ("/admin/" in offered) == staff.is_staff


def test_a_dealer_is_offered_the_tablet_not_the_pit_and_an_auditor_the_reverse(casino_property):
    dealer, auditor = Client(), Client()
    dealer.force_login(make_staff(Role.DEALER))
    auditor.force_login(make_staff(Role.AUDITOR))
    assert "/tablet/" in bar_of(dealer) and "/pit/" not in bar_of(dealer)
    assert "/pit/" in bar_of(auditor) and "/tablet/" not in bar_of(auditor)


def test_nobody_signed_in_sees_no_bar(casino_property):
    assert bar_of(Client()) == []
