"""A void or a correction is approved by a supervisor independent of the dealer and of the
person asking (casino.duties): not one whose account, role or PIN the dealer gave them within
SEPARATION_DAYS. The refusal is filed with the PIN's checks and changes nothing else."""

import pytest

from casino.audit import atomic_audit
from casino.errors import SecretChangeRequired
from casino.models import AuditEntry
from tests.tables.rounds.conftest import deal_to, pin_of, refuse


@pytest.fixture
def staff_admin(db):
    from casino.roles import Role
    from tests.factories import make_staff

    return make_staff(Role.STAFF_ADMIN, username="staff_admin")


def test_a_supervisor_the_dealer_armed_cannot_approve_the_void(felt, dealer, supervisor):
    deal_to(felt, "preflop", seats=(1,))
    felt.step("irregularity_declared", irregularity="preflop_card_exposed")
    atomic_audit(actor=dealer, code="casino.pin.temporary_set", subject=supervisor, data={})
    error = refuse(
        felt,
        "void_approved",
        "two_people_required",
        but_pin_checks=True,
        supervisor=pin_of(supervisor),
    )
    assert error.field == "supervisor"
    entry = AuditEntry.objects.get(code="casino.pin.approval_refused")
    assert entry.actor_id == supervisor.pk
    assert entry.data["action"] == "tables.round.void"
    assert entry.data["asker"] == dealer.pk


def test_past_the_window_the_same_supervisor_approves(felt, dealer, supervisor, settings):
    deal_to(felt, "preflop", seats=(1,))
    felt.step("irregularity_declared", irregularity="preflop_card_exposed")
    atomic_audit(actor=dealer, code="casino.staff.created", subject=supervisor, data={})
    settings.SEPARATION_DAYS = 0
    assert felt.step("void_approved", supervisor=pin_of(supervisor))["stage"] == "void"


def test_a_supervisor_who_rotated_himself_on_to_declare_cannot_approve_the_void(
    felt, dealer, dealing_supervisor, supervisor
):
    """Issue 23, 2: a supervisor with the dealer role rotated himself onto UTH 1, declared a
    duplicate card, rotated the dealer back and approved the void with his own PIN."""
    from tables import services
    from tests.tables.rounds.conftest import DEALING_SUPERVISOR_PIN

    deal_to(felt, "preflop", seats=(1,))
    table = felt.table.pk
    services.dealer_rotate(table_id=table, dealer_id=dealing_supervisor.pk, supervisor=supervisor)
    felt.step(
        "irregularity_declared", actor=dealing_supervisor, irregularity="preflop_card_exposed"
    )
    services.dealer_rotate(table_id=table, dealer_id=dealer.pk, supervisor=supervisor)
    own = pin_of(dealing_supervisor, pin=DEALING_SUPERVISOR_PIN)
    for actor in (dealing_supervisor, dealer):
        error = refuse(
            felt,
            "void_approved",
            "supervisor_is_dealer",
            but_pin_checks=True,
            actor=actor,
            supervisor=own,
        )
        assert error.field == "supervisor"
    # Someone who had no hand in the round approves.
    assert felt.step("void_approved", supervisor=pin_of(supervisor))["stage"] == "void"


def test_two_accounts_whose_pins_one_administrator_set_are_not_independent(
    felt, dealer, supervisor, staff_admin
):
    """Issue 23, 2: the staff administrator set temporary PINs on a dealer and a supervisor,
    signed in as each, chose new PINs, then declared and approved a void as both."""
    from casino.models import Staff
    from casino.roles import Role
    from casino.staffing import (
        staff_secrets_change,
        staff_temporary_pin_set,
    )
    from tests.factories import make_staff

    deal_to(felt, "preflop", seats=(1,))
    for person in (dealer, supervisor):
        staff_temporary_pin_set(staff_id=person.pk, pin="1111", actor=staff_admin)
    staff_secrets_change(staff=Staff.objects.get(pk=dealer.pk), pin="7531")
    staff_secrets_change(staff=Staff.objects.get(pk=supervisor.pk), pin="8642")
    for person in (dealer, supervisor):
        person.refresh_from_db()
        assert person.credentials_set_by_id == staff_admin.pk  # recorded, and it stays
    felt.step("irregularity_declared", irregularity="preflop_card_exposed")
    error = refuse(
        felt,
        "void_approved",
        "two_people_required",
        but_pin_checks=True,
        supervisor=pin_of(supervisor, pin="8642"),
    )
    assert str(staff_admin) in error.message
    entry = AuditEntry.objects.get(code="casino.pin.approval_refused")
    assert entry.data["reason"] == "credentials_set_by_same_person"
    # A supervisor whose credentials someone else set approves.
    other = make_staff(Role.SUPERVISOR, username="other_supervisor", pin="9753")
    assert felt.step("void_approved", supervisor=pin_of(other, pin="9753"))["stage"] == "void"


def test_a_temporary_password_approves_nothing_until_its_owner_chose_their_own(
    felt, supervisor, staff_admin
):
    from casino.staffing import staff_temporary_password_set

    deal_to(felt, "preflop", seats=(1,))
    felt.step("irregularity_declared", irregularity="preflop_card_exposed")
    staff_temporary_password_set(
        staff_id=supervisor.pk, password="Temporary-passw0rd-9", actor=staff_admin
    )
    refuse(
        felt,
        "void_approved",
        "secret_change_required",
        error=SecretChangeRequired,
        but_pin_checks=True,
        supervisor=pin_of(supervisor),
    )
