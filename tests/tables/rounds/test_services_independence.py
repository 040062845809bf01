"""A void or a correction is approved by a supervisor independent of the dealer and of the
person asking (casino.duties): not one whose account, role or PIN the dealer gave them within
SEPARATION_DAYS. The refusal is filed with the PIN's checks and changes nothing else."""

from casino.audit import atomic_audit
from casino.models import AuditEntry
from tests.tables.rounds.conftest import deal_to, pin_of, refuse


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
