"""The floor's table list, for every role, in French and in English."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from casino.models import Staff
from tables.selectors import floor_tables

URL = "/"


@pytest.fixture
def demo_floor(db):
    call_command("load_demo", stdout=io.StringIO())


def _page(client, username, language):
    staff = Staff.objects.get(username=username)
    staff.language = language
    staff.save(update_fields=["language"])
    client.force_login(staff)
    response = client.get(URL)
    assert response.status_code == 200
    return response.content.decode()


def test_the_list_url_is_the_floor(db):
    assert reverse("tables:table_list") == URL


@pytest.mark.parametrize("username", ["croupier", "inspecteur", "directeur", "auditeur"])
def test_every_role_sees_the_four_demo_tables(client, demo_floor, username):
    html = _page(client, username, "en")
    for name in ("UTH 1", "UTH 2", "UTH 3", "UTH 4"):
        assert name in html


def test_the_list_reads_in_french(client, demo_floor):
    html = _page(client, "directeur", "fr")
    assert "Mise minimale" in html and "Mise maximale" in html
    assert "Croupier" in html
    assert "ouverte" in html and "fermée" in html
    assert "4x uniquement" in html
    assert "Table de paiement Trips\u00a0: Trips C" in html
    assert "10,00\u00a0€" in html  # UTH 1's minimum, 1,000 cents
    assert "500,00\u00a0€" in html  # UTH 2's maximum, 50,000 cents
    assert "Camille Croupier" in html


def test_the_list_reads_in_english(client, demo_floor):
    html = _page(client, "directeur", "en")
    assert "Table minimum" in html and "Table maximum" in html
    assert "Pre-flop: 4x only" in html
    assert "Trips paytable: Trips C" in html
    assert "€10.00" in html and "€500.00" in html
    assert "€0.25" in html  # UTH 3 pays by 25 cents
    assert "€20,000.00" in html  # and caps a seat at 2,000,000 cents
    assert ">open<" in html and ">closed<" in html


def test_the_browser_language_counts_when_the_staff_member_has_none(client, demo_floor):
    staff = Staff.objects.get(username="auditeur")
    client.force_login(staff)
    html = client.get(URL, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Table minimum" in html
    html = client.get(URL, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Mise minimale" in html


def test_the_dealer_sees_their_own_table_highlighted(client, demo_floor):
    html = _page(client, "croupier2", "en")
    assert "You are dealing UTH 2." in html
    mine = [line for line in html.splitlines() if 'class="mine' in line]
    assert len(mine) == 1
    table_pk = Staff.objects.get(username="croupier2").dealer_assignments.get().table_id
    assert f'data-table="{table_pk}"' in mine[0]
    assert 'aria-current="true"' in mine[0]


def test_a_manager_has_no_highlighted_table(client, demo_floor):
    html = _page(client, "directeur", "en")
    assert 'class="mine' not in html


def test_the_floor_costs_three_queries_whatever_the_number_of_tables(
    demo_floor, django_assert_max_num_queries
):
    with django_assert_max_num_queries(3):
        rows = floor_tables()
        assert [r.dealer.username if r.dealer else None for r in rows] == [
            "croupier",
            "croupier2",
            None,
            None,
        ]


def test_the_page_costs_the_same_queries_with_twice_the_tables(client, demo_floor):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from casino.roles import Role
    from tables import services
    from tables.models import RuleSet, Table
    from tests.factories import make_staff

    client.force_login(Staff.objects.get(username="croupier"))
    client.get(URL)  # warm the session and the property's currency
    with CaptureQueriesContext(connection) as four_tables:
        client.get(URL)
    manager = Staff.objects.get(username="directeur")
    supervisor = Staff.objects.get(username="inspecteur")
    ruleset = RuleSet.objects.get(name="Standard 3x/4x, Trips C")
    for n in range(5, 9):
        table = services.table_create(
            manager=manager,
            name=f"UTH {n}",
            pit_id=Table.objects.first().pit_id,
            min_bet_cents=1_000,
            max_bet_cents=10_000,
            ruleset_id=ruleset.pk,
        )
        services.dealer_rotate(
            table_id=table.pk,
            dealer_id=make_staff(Role.DEALER).pk,
            supervisor=supervisor,
        )
    with CaptureQueriesContext(connection) as eight_tables:
        html = client.get(URL).content.decode()
    assert "UTH 8" in html
    assert html.count("pas de croupier") == 2  # UTH 3 and UTH 4 only
    assert len(eight_tables) == len(four_tables)
