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
