"""A meter adjustment is asked for by one manager and approved by a second one, who acts
herself (issue 23, 7: a console call could name a second manager as approver, and the ledger
recorded her as the actor). Refusals change nothing."""

import pytest

from casino.errors import RoleRequired
from casino.models import AuditEntry
from casino.roles import Role
from jackpot import services
from jackpot.errors import AdjustmentClosed, InvalidAdjustment, TwoPeopleRequired
from jackpot.models import AdjustmentRequest, Bank, MeterEntry
from tests.factories import make_staff


def _picture(bank):
    bank = Bank.objects.get(pk=bank.pk)
    return (
        bank.meter_cents,
        bank.reserve_cents,
        MeterEntry.objects.filter(bank=bank).count(),
        list(AdjustmentRequest.objects.values_list("pk", "state", "decided_by_id")),
    )


def test_no_service_takes_the_approvers_name_from_the_caller():
    assert not hasattr(services, "bank_adjust")


def test_the_second_manager_approves_herself_and_is_the_ledgers_actor(bank, manager, other_manager):
    asked = services.adjustment_request(
        bank_id=bank.pk, meter_after_cents=12_000, reason="display fault", manager=manager
    )
    assert asked.state == "requested"
    assert Bank.objects.get(pk=bank.pk).meter_cents == 10_000  # asking changes nothing
    before = _picture(bank)
    with pytest.raises(TwoPeopleRequired):
        services.adjustment_approve(adjustment_id=asked.pk, manager=manager)
    assert _picture(bank) == before
    entry = services.adjustment_approve(adjustment_id=asked.pk, manager=other_manager)
    assert (entry.kind, entry.actor_id) == ("adjustment", other_manager.pk)
    assert entry.data["requested_by"] == manager.pk
    assert Bank.objects.get(pk=bank.pk).meter_cents == 12_000
    asked.refresh_from_db()
    assert (asked.state, asked.decided_by_id, asked.entry_id) == (
        "approved",
        other_manager.pk,
        entry.pk,
    )
    assert list(
        AuditEntry.objects.filter(
            code__in=["jackpot.adjustment.requested", "jackpot.meter.adjusted"]
        )
        .order_by("position")
        .values_list("code", "actor_id")
    ) == [
        ("jackpot.adjustment.requested", manager.pk),
        ("jackpot.meter.adjusted", other_manager.pk),
    ]
    with pytest.raises(AdjustmentClosed):
        services.adjustment_approve(adjustment_id=asked.pk, manager=other_manager)


def test_a_rejected_adjustment_changes_no_meter(bank, manager, other_manager):
    asked = services.adjustment_request(
        bank_id=bank.pk, reserve_after_cents=1, reason="transfer", manager=manager
    )
    services.adjustment_reject(adjustment_id=asked.pk, manager=other_manager, reason="no")
    assert Bank.objects.get(pk=bank.pk).reserve_cents != 1
    assert AuditEntry.objects.filter(code="jackpot.adjustment.rejected").count() == 1
    with pytest.raises(AdjustmentClosed):
        services.adjustment_approve(adjustment_id=asked.pk, manager=other_manager)


@pytest.mark.parametrize("role", [Role.DEALER, Role.SUPERVISOR, Role.AUDITOR, Role.STAFF_ADMIN])
def test_only_a_manager_asks_or_approves(bank, manager, role):
    someone = make_staff(role)
    asked = services.adjustment_request(
        bank_id=bank.pk, meter_after_cents=1, reason="x", manager=manager
    )
    before = _picture(bank)
    with pytest.raises(RoleRequired):
        services.adjustment_request(
            bank_id=bank.pk, meter_after_cents=1, reason="x", manager=someone
        )
    with pytest.raises(RoleRequired):
        services.adjustment_approve(adjustment_id=asked.pk, manager=someone)
    assert _picture(bank) == before


def test_an_adjustment_needs_a_reason_and_a_whole_amount(bank, manager):
    for kwargs in (
        {"reason": " ", "meter_after_cents": 1},
        {"reason": "x"},
        {"reason": "x", "meter_after_cents": -1},
        {"reason": "x", "meter_after_cents": 1.5},
        {"reason": "x", "meter_after_cents": 2**70},
    ):
        with pytest.raises(InvalidAdjustment):
            services.adjustment_request(bank_id=bank.pk, manager=manager, **kwargs)
    assert not AdjustmentRequest.objects.exists()
