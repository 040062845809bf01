"""Hits are verified and paid from the admin through the services."""

from django.urls import reverse

from casino.roles import Role
from jackpot.models import Hit
from tests.factories import make_staff
from tests.jackpot.factories import hit


def test_a_supervisor_verifies_and_pays_a_hit_from_the_admin(client, bank, dealer):
    won = hit(bank, dealer)
    supervisor = make_staff(Role.SUPERVISOR)
    supervisor.is_staff = supervisor.is_superuser = True
    supervisor.save(update_fields=["is_staff", "is_superuser"])
    client.force_login(supervisor)
    url = reverse("admin:jackpot_hit_changelist")
    client.post(url, {"action": "pay", "_selected_action": [won.pk]})  # not verified yet
    won.refresh_from_db()
    assert won.state == Hit.State.PENDING
    client.post(url, {"action": "verify", "_selected_action": [won.pk]})
    client.post(url, {"action": "pay", "_selected_action": [won.pk]})
    won.refresh_from_db()
    assert (won.state, won.verified_by, won.paid_by) == (Hit.State.PAID, supervisor, supervisor)
