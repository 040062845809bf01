"""The tables' admin as a manager reads and writes it: amounts, messages that say what moved
and why, the database's rules in words."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from casino.permissions import sync_role_permissions
from tables import services
from tables.models import Table

NBSP = "\u00a0"


@pytest.fixture
def admin_manager(manager, client):
    sync_role_permissions()
    manager.refresh_from_db()
    client.force_login(manager)
    return manager


def test_a_tables_limits_are_typed_and_shown_as_amounts(client, admin_manager, closed_table):
    url = reverse("admin:tables_table_change", args=[closed_table.pk])
    page = client.get(url).content.decode()
    assert 'name="min_bet_cents" value="10,00"' in page
    assert "Mise minimale (EUR)" in page and "(centimes)" not in page
    data = {
        "name": closed_table.name,
        "pit": closed_table.pit_id,
        "seats": closed_table.seats,
        "min_bet_cents": "25",
        "max_bet_cents": "1 000,00",
        "bank": "",
        "ruleset": closed_table.ruleset_id,
    }
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    closed_table.refresh_from_db()
    assert (closed_table.min_bet_cents, closed_table.max_bet_cents) == (2_500, 100_000)


def test_deploying_when_nothing_moves_says_so_and_why(client, admin_manager, standard_rules):
    response = client.post(
        reverse("admin:tables_ruleset_deploy", args=[standard_rules.pk]), follow=True
    )
    texts = [str(m) for m in response.context["messages"]]
    assert len(texts) == 1 and texts[0].startswith("Aucune table déplacée")
    assert ": -" not in texts[0]


def test_the_table_pages_labels_are_french(client, admin_manager, closed_table, standard_rules):
    page = client.get(reverse("admin:tables_table_change", args=[closed_table.pk])).content
    assert "Status changed at" not in page.decode() and "État depuis le" in page.decode()
    page = client.get(reverse("admin:tables_ruleset_change", args=[standard_rules.pk])).content
    assert "Created by" not in page.decode() and "Créée par" in page.decode()


def test_a_second_open_assignment_is_refused_in_words_not_by_constraint_name(
    client, admin_manager, closed_table, other_table, dealer, supervisor
):
    services.table_open(table_id=closed_table.pk, supervisor=supervisor)
    services.dealer_rotate(table_id=closed_table.pk, dealer_id=dealer.pk, supervisor=supervisor)
    start = timezone.localtime(timezone.now() + dt.timedelta(minutes=1))
    response = client.post(
        reverse("admin:tables_dealerassignment_add"),
        {
            "table": other_table.pk,
            "dealer": dealer.pk,
            "starts_at_0": start.strftime("%d/%m/%Y"),
            "starts_at_1": start.strftime("%H:%M:%S"),
            "ends_at_0": "",
            "ends_at_1": "",
        },
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "one_open_per_dealer" not in page and "contrainte" not in page.lower()
    assert "Ce croupier a déjà une affectation sans fin" in page
    assert Table.objects.count() == 2


def test_a_negative_amount_is_refused_as_an_amount(client, admin_manager, standard_rules):
    from tables.admin import RuleSetForm

    form = RuleSetForm(data={"envy_min_wager_cents": "-1"}, instance=standard_rules)
    assert not form.is_valid()
    assert form.errors["envy_min_wager_cents"] == ["Saisissez un montant comme 5 000,00."]
