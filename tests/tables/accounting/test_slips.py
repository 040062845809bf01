"""Fill and credit slips: one continuous series of numbers per gaming year, fills and credits
together, never given twice; approved by a supervisor's PIN, never the asker's; a wrong slip
is voided and keeps its number."""

import datetime as dt

import pytest

from casino.errors import PinRejected, TwoPeopleRequired
from casino.models import AuditEntry
from tables.accounting import services
from tables.accounting.errors import AccountingRefused
from tables.accounting.models import ChipSlip
from tables.errors import RoleRequired
from tests.tables.accounting.conftest import pin


def _ask(table, by, kind="fill", counts=None):
    return services.slip_request(
        kind=kind, table_id=table.pk, counts=counts or {"10000": 5}, requested_by=by
    )


def test_slips_are_numbered_in_one_series_across_gaming_days(table, dealer, chip_set, clock):
    clock.set(dt.datetime(2026, 3, 10, 22, 0))
    first = _ask(table, dealer)
    clock.set(dt.datetime(2026, 3, 11, 5, 59))  # still the gaming day of the 10th
    second = _ask(table, dealer, kind="credit")
    clock.set(dt.datetime(2026, 3, 11, 6, 0))
    third = _ask(table, dealer)
    assert [(s.number, s.gaming_date.day) for s in (first, second, third)] == [
        (1, 10),
        (2, 10),
        (3, 11),
    ]
    assert {s.gaming_year for s in (first, second, third)} == {2026}


def test_a_new_gaming_year_starts_at_one_when_its_first_gaming_day_starts(
    table, dealer, chip_set, clock
):
    clock.set(dt.datetime(2026, 12, 31, 23, 0))
    december = _ask(table, dealer)
    clock.set(dt.datetime(2027, 1, 1, 5, 0))  # before 06:00: the gaming day of Dec 31
    night = _ask(table, dealer)
    clock.set(dt.datetime(2027, 1, 1, 6, 30))
    january = _ask(table, dealer)
    assert (december.gaming_year, december.number) == (2026, 1)
    assert (night.gaming_year, night.number) == (2026, 2)
    assert (january.gaming_year, january.number, january.reference) == (2027, 1, "2027-000001")


def test_a_voided_slip_keeps_its_number_and_the_next_slip_takes_a_new_one(
    table, dealer, supervisor, chip_set
):
    wrong = _ask(table, dealer)
    services.slip_void(slip_id=wrong.pk, voided_by=supervisor, reason="Wrong table")
    again = _ask(table, dealer)
    wrong.refresh_from_db()
    assert (wrong.state, wrong.number, wrong.void_reason) == ("void", 1, "Wrong table")
    assert again.number == 2
    assert ChipSlip.objects.count() == 2  # voided, not deleted
    assert AuditEntry.objects.filter(code="accounting.fill.voided").count() == 1


def test_a_slip_is_approved_with_a_supervisors_pin(table, dealer, supervisor, chip_set):
    slip = _ask(table, dealer)
    approved = services.slip_approve(slip_id=slip.pk, actor=dealer, supervisor_pin=pin(supervisor))
    assert (approved.state, approved.approved_by) == ("approved", supervisor)
    assert AuditEntry.objects.filter(code="accounting.fill.approved", actor=supervisor).exists()


def test_the_supervisor_who_asked_cannot_approve_their_own_slip(table, supervisor, chip_set):
    slip = _ask(table, supervisor)
    with pytest.raises(TwoPeopleRequired):
        services.slip_approve(slip_id=slip.pk, actor=supervisor, supervisor_pin=pin(supervisor))
    slip.refresh_from_db()
    assert slip.state == "requested"


def test_a_wrong_pin_approves_nothing(table, dealer, supervisor, chip_set):
    slip = _ask(table, dealer)
    with pytest.raises(PinRejected):
        services.slip_approve(slip_id=slip.pk, actor=dealer, supervisor_pin=pin(supervisor, "0000"))
    slip.refresh_from_db()
    assert slip.state == "requested"


def test_a_dealers_pin_does_not_approve_a_slip(table, dealer, supervisor, chip_set):
    slip = _ask(table, supervisor)
    with pytest.raises(Exception) as refused:
        services.slip_approve(slip_id=slip.pk, actor=supervisor, supervisor_pin=pin(dealer))
    assert refused.value.code == "role_required"


def test_a_void_needs_a_reason_and_a_supervisor_or_manager(table, dealer, supervisor, chip_set):
    slip = _ask(table, dealer)
    with pytest.raises(RoleRequired):
        services.slip_void(slip_id=slip.pk, voided_by=dealer, reason="mine")
    with pytest.raises(AccountingRefused):
        services.slip_void(slip_id=slip.pk, voided_by=supervisor, reason="  ")
    services.slip_void(slip_id=slip.pk, voided_by=supervisor, reason="typo")
    with pytest.raises(AccountingRefused):  # void is final
        services.slip_approve(slip_id=slip.pk, actor=dealer, supervisor_pin=pin(supervisor))


def test_a_slip_counts_only_the_property_chips(table, dealer, chip_set):
    with pytest.raises(AccountingRefused) as refused:
        _ask(table, dealer, counts={"777": 1})
    assert refused.value.code == "unknown_chip"
    with pytest.raises(AccountingRefused):
        _ask(table, dealer, counts={"10000": 0})
    assert not ChipSlip.objects.exists()


def test_an_auditor_asks_for_nothing(table, auditor, chip_set):
    with pytest.raises(RoleRequired):
        _ask(table, auditor)
