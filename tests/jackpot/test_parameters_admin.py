"""The admin acts through the services: parameter changes, bank actions, the read-only ledger."""

import pytest
from django.urls import reverse

from casino.roles import Role
from jackpot.models import Bank, MeterEntry, ParameterChange
from tests.factories import make_staff
from tests.jackpot.factories import LEVELS
from tests.jackpot.test_admin_parameters_form import levels_rows


def admin_user(*roles):
    staff = make_staff(*roles)
    staff.is_staff = staff.is_superuser = True
    staff.save(update_fields=["is_staff", "is_superuser"])
    return staff


@pytest.fixture
def manager_desk(client, db):
    person = admin_user(Role.MANAGER)
    client.force_login(person)
    return client, person


def test_a_manager_requests_a_change_in_the_admin_and_another_approves_it(
    manager_desk, bank, client
):
    desk, person = manager_desk
    response = desk.post(
        reverse("admin:jackpot_parameterchange_add"),
        {
            "bank": bank.pk,
            "reason": "regulator letter 2026-41",
            "wager_cents": "1,00",
            "reset_cents": "250,00",
            "increment_rate_ppm": "20",
            "hidden_rate_ppm": "5",
            "cap_cents": "",
            **levels_rows(LEVELS),
        },
    )
    assert response.status_code == 302
    change = ParameterChange.objects.get()
    assert (change.state, change.requested_by, change.params["reset_cents"]) == (
        "requested",
        person,
        25_000,
    )
    # The requester's own approval is refused with a message, not a server error.
    desk.post(
        reverse("admin:jackpot_parameterchange_changelist"),
        {"action": "approve", "_selected_action": [change.pk]},
    )
    change.refresh_from_db()
    assert change.state == "requested"
    other = admin_user(Role.MANAGER)
    client.force_login(other)
    client.post(
        reverse("admin:jackpot_parameterchange_changelist"),
        {"action": "approve", "_selected_action": [change.pk]},
    )
    change.refresh_from_db()
    assert (change.state, change.approved_by) == ("approved", other)


def test_a_bank_added_in_the_admin_starts_at_its_reset_amount(manager_desk):
    desk, _ = manager_desk
    response = desk.post(
        reverse("admin:jackpot_bank_add"),
        {
            "slug": "salle-b",
            "name": "Salle B",
            "wager_cents": "5,00",
            "reset_cents": "500",
            "increment_rate_ppm": "15",
            "hidden_rate_ppm": "3",
            "cap_cents": "",
            **levels_rows(LEVELS),
        },
    )
    assert response.status_code == 302
    bank = Bank.objects.get(slug="salle-b")
    assert (bank.status, bank.meter_cents, bank.ledger_seq) == ("closed", 50_000, 1)


def test_the_admin_refuses_a_bank_with_rates_above_100_percent(manager_desk):
    desk, _ = manager_desk
    response = desk.post(
        reverse("admin:jackpot_bank_add"),
        {
            "slug": "bad",
            "name": "Bad",
            "wager_cents": "1,00",
            "reset_cents": "10",
            "increment_rate_ppm": "90",
            "hidden_rate_ppm": "20",
            **levels_rows(LEVELS),
        },
    )
    assert response.status_code == 200  # the form again, with the error
    assert not Bank.objects.filter(slug="bad").exists()


def test_the_ledger_is_read_only_in_the_admin(manager_desk, bank):
    desk, _ = manager_desk
    entry = MeterEntry.objects.get(bank=bank)
    assert desk.get(reverse("admin:jackpot_meterentry_changelist")).status_code == 200
    assert desk.get(reverse("admin:jackpot_meterentry_add")).status_code == 403
    desk.post(reverse("admin:jackpot_meterentry_delete", args=[entry.pk]), {"post": "yes"})
    assert MeterEntry.objects.filter(pk=entry.pk).exists()


def test_every_progressive_admin_page_opens(manager_desk, bank):
    desk, _ = manager_desk
    for model in (
        "bank",
        "meterentry",
        "hit",
        "parameterchange",
        "meterreading",
        "reconciliationalert",
    ):
        assert desk.get(reverse(f"admin:jackpot_{model}_changelist")).status_code == 200, model
    assert desk.get(reverse("admin:jackpot_bank_change", args=[bank.pk])).status_code == 200
    assert desk.get(reverse("admin:jackpot_parameterchange_add")).status_code == 200
