"""Dealer assignments: one table per dealer and one dealer per table at any instant."""

import datetime as dt

import pytest
from django.contrib.admin.sites import AdminSite
from django.test import RequestFactory
from django.utils import timezone

from casino.errors import RoleRequired
from casino.models import AuditEntry
from tables import services
from tables.admin import DealerAssignmentAdmin
from tables.errors import AssignmentRefused
from tables.models import DealerAssignment
from tables.selectors import current_dealer, dealer_current_table

NINE = dt.datetime(2026, 11, 29, 9, 0, tzinfo=dt.UTC)


def _h(hours: float) -> dt.datetime:
    return NINE + dt.timedelta(hours=hours)


def test_an_assignment_makes_the_current_dealer(closed_table, dealer, supervisor):
    services.assignment_create(
        table_id=closed_table.pk,
        dealer_id=dealer.pk,
        supervisor=supervisor,
        starts_at=_h(0),
        ends_at=_h(2),
    )
    assert current_dealer(closed_table, at=_h(1)) == dealer
    assert dealer_current_table(dealer, at=_h(1)) == closed_table
    assert current_dealer(closed_table, at=_h(2)) is None  # the end is exclusive
    assert current_dealer(closed_table, at=_h(-0.5)) is None


def test_a_dealer_cannot_deal_two_tables_at_once(closed_table, other_table, dealer, supervisor):
    services.assignment_create(
        table_id=closed_table.pk,
        dealer_id=dealer.pk,
        supervisor=supervisor,
        starts_at=_h(0),
        ends_at=_h(2),
    )
    with pytest.raises(AssignmentRefused) as refused:
        services.assignment_create(
            table_id=other_table.pk, dealer_id=dealer.pk, supervisor=supervisor, starts_at=_h(1.5)
        )
    assert "UTH 1" in refused.value.message
    # Back to back is no overlap.
    services.assignment_create(
        table_id=other_table.pk, dealer_id=dealer.pk, supervisor=supervisor, starts_at=_h(2)
    )
    assert dealer_current_table(dealer, at=_h(3)) == other_table


def test_a_table_has_one_dealer_at_a_time(closed_table, dealer, other_dealer, supervisor):
    services.assignment_create(
        table_id=closed_table.pk, dealer_id=dealer.pk, supervisor=supervisor, starts_at=_h(1)
    )
    with pytest.raises(AssignmentRefused):
        services.assignment_create(
            table_id=closed_table.pk,
            dealer_id=other_dealer.pk,
            supervisor=supervisor,
            starts_at=_h(0),
            ends_at=_h(1.25),
        )
    assert DealerAssignment.objects.count() == 1


def test_only_staff_with_the_dealer_role_deal(closed_table, auditor, supervisor):
    with pytest.raises(AssignmentRefused):
        services.assignment_create(
            table_id=closed_table.pk, dealer_id=auditor.pk, supervisor=supervisor
        )
    with pytest.raises(AssignmentRefused):
        services.dealer_rotate(
            table_id=closed_table.pk, dealer_id=auditor.pk, supervisor=supervisor
        )
    assert not DealerAssignment.objects.exists()


def test_a_dealer_cannot_assign_or_rotate(closed_table, dealer, other_dealer):
    with pytest.raises(RoleRequired):
        services.dealer_rotate(
            table_id=closed_table.pk, dealer_id=other_dealer.pk, supervisor=dealer
        )
    with pytest.raises(RoleRequired):
        services.assignment_create(table_id=closed_table.pk, dealer_id=dealer.pk, supervisor=dealer)


def test_a_rotation_ends_the_outgoing_dealer_and_starts_the_next(
    open_table, dealer, other_dealer, supervisor
):
    first = services.dealer_rotate(
        table_id=open_table.pk, dealer_id=dealer.pk, supervisor=supervisor, at=_h(0)
    )
    second = services.dealer_rotate(
        table_id=open_table.pk, dealer_id=other_dealer.pk, supervisor=supervisor, at=_h(1)
    )
    first.refresh_from_db()
    assert first.ends_at == _h(1)
    assert (second.dealer, second.starts_at, second.ends_at) == (other_dealer, _h(1), None)
    assert current_dealer(open_table, at=_h(0.5)) == dealer
    assert current_dealer(open_table, at=_h(1)) == other_dealer
    entry = AuditEntry.objects.filter(code="tables.dealer.rotated").last()
    assert entry.actor == supervisor
    assert entry.data["incoming"] == other_dealer.pk
    assert entry.data["outgoing"] == dealer.pk


def test_a_rotating_dealer_leaves_the_table_they_were_dealing(
    closed_table, other_table, dealer, supervisor
):
    services.dealer_rotate(
        table_id=closed_table.pk, dealer_id=dealer.pk, supervisor=supervisor, at=_h(0)
    )
    services.dealer_rotate(
        table_id=other_table.pk, dealer_id=dealer.pk, supervisor=supervisor, at=_h(1)
    )
    assert current_dealer(closed_table, at=_h(1.5)) is None
    assert dealer_current_table(dealer, at=_h(1.5)) == other_table
    entry = AuditEntry.objects.filter(code="tables.dealer.rotated").last()
    assert entry.data["left_table"] == closed_table.pk


def test_rotating_in_the_dealer_already_dealing_is_refused(open_table, dealer, supervisor):
    services.dealer_rotate(
        table_id=open_table.pk, dealer_id=dealer.pk, supervisor=supervisor, at=_h(0)
    )
    with pytest.raises(AssignmentRefused):
        services.dealer_rotate(
            table_id=open_table.pk, dealer_id=dealer.pk, supervisor=supervisor, at=_h(1)
        )


def test_a_rotation_at_now_by_default(open_table, dealer, supervisor):
    before = timezone.now()
    assignment = services.dealer_rotate(
        table_id=open_table.pk, dealer_id=dealer.pk, supervisor=supervisor
    )
    assert assignment.starts_at >= before
    assert current_dealer(open_table) == dealer
    assert dealer_current_table(dealer) == open_table


def test_ending_an_assignment_frees_the_table(open_table, dealer, supervisor):
    assignment = services.dealer_rotate(
        table_id=open_table.pk, dealer_id=dealer.pk, supervisor=supervisor, at=_h(0)
    )
    services.assignment_end(assignment_id=assignment.pk, supervisor=supervisor, at=_h(0.5))
    assert current_dealer(open_table, at=_h(1)) is None
    assert AuditEntry.objects.filter(code="tables.assignment.ended", actor=supervisor).count() == 1


def test_the_admin_refuses_an_overlapping_assignment(
    closed_table, dealer, other_dealer, supervisor, manager
):
    services.assignment_create(
        table_id=closed_table.pk,
        dealer_id=dealer.pk,
        supervisor=supervisor,
        starts_at=_h(0),
        ends_at=_h(2),
    )
    request = RequestFactory().post("/")
    request.user = manager
    form_class = DealerAssignmentAdmin(DealerAssignment, AdminSite()).get_form(request)
    form = form_class(
        data={
            "table": closed_table.pk,
            "dealer": other_dealer.pk,
            "starts_at_0": "2026-11-29",
            "starts_at_1": "10:00:00",
            "ends_at_0": "",
            "ends_at_1": "",
        }
    )
    assert not form.is_valid()
    assert "UTH 1" in " ".join(form.non_field_errors())
