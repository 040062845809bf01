"""Every two-person rule of the progressive refuses an approver who is not independent of the
asker (casino.duties): the same person, or one whose account the asker created, armed with a
role or gave a temporary password or PIN within SEPARATION_DAYS. Each refusal is audited."""

import pytest

from casino.audit import atomic_audit
from casino.models import AuditEntry
from jackpot import services
from jackpot.errors import TwoPeopleRequired
from jackpot.models import Hit, ParameterChange
from tests.jackpot.factories import adjust, hit


def tie(asker, approver, code="casino.staff.created"):
    """What the audit log keeps when `asker` made `approver`'s account."""
    atomic_audit(actor=asker, code=code, subject=approver, data={})


def refusals(action: str) -> int:
    return AuditEntry.objects.filter(code="casino.duties.refused", data__action=action).count()


def test_a_hit_is_not_verified_by_someone_its_recorder_armed(bank, supervisor, other_supervisor):
    won = hit(bank, supervisor)
    tie(supervisor, other_supervisor, code="casino.pin.temporary_set")
    with pytest.raises(TwoPeopleRequired):
        services.hit_verify(hit_id=won.pk, supervisor=other_supervisor)
    assert Hit.objects.get(pk=won.pk).state == Hit.State.PENDING
    assert refusals("jackpot.hit.verify") == 1


def test_the_recorder_verifying_their_own_hit_is_audited(bank, supervisor):
    won = hit(bank, supervisor)
    with pytest.raises(TwoPeopleRequired):
        services.hit_verify(hit_id=won.pk, supervisor=supervisor)
    assert refusals("jackpot.hit.verify") == 1


def test_an_adjustment_is_not_approved_by_someone_the_requester_created(
    bank, manager, other_manager
):
    tie(manager, other_manager)
    with pytest.raises(TwoPeopleRequired):
        adjust(
            bank_id=bank.pk,
            meter_after_cents=12_000,
            reason="controller fault",
            requested_by=manager,
            approved_by=other_manager,
        )
    bank.refresh_from_db()
    assert bank.meter_cents == 10_000
    assert refusals("jackpot.meter.adjust") == 1


def test_a_parameter_change_is_not_approved_by_someone_the_requester_gave_a_role(
    bank, manager, other_manager
):
    change = services.parameter_change_request(
        bank_id=bank.pk, params={"reset_cents": 20_000}, reason="new season", manager=manager
    )
    tie(manager, other_manager, code="casino.role.granted")
    with pytest.raises(TwoPeopleRequired):
        services.parameter_change_approve(change_id=change.pk, manager=other_manager)
    assert ParameterChange.objects.get(pk=change.pk).state == ParameterChange.State.REQUESTED
    assert refusals("jackpot.parameters.approve") == 1


def test_past_the_window_a_colleague_the_requester_created_may_approve(
    bank, manager, other_manager, settings
):
    change = services.parameter_change_request(
        bank_id=bank.pk, params={"reset_cents": 20_000}, reason="new season", manager=manager
    )
    tie(manager, other_manager)
    settings.SEPARATION_DAYS = 0
    approved = services.parameter_change_approve(change_id=change.pk, manager=other_manager)
    assert approved.state == ParameterChange.State.APPROVED
