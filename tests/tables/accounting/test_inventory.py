"""Tray counts: the opener and the closer by denomination, signed by the table's dealer and a
supervisor with their PINs; an opener that differs from the previous closer is flagged."""

import pytest

from casino.errors import PinRejected, TwoPeopleRequired
from casino.models import AuditEntry
from tables.accounting import services
from tables.accounting.errors import AccountingRefused
from tables.accounting.models import Inventory
from tests.tables.accounting.conftest import pin


def _count(table, kind, counts, *, dealer, supervisor, by=None):
    return services.inventory_record(
        table_id=table.pk,
        kind=kind,
        counts=counts,
        recorded_by=by or supervisor,
        dealer_pin=pin(dealer),
        supervisor_pin=pin(supervisor),
    )


def test_an_opener_equal_to_the_previous_closer_is_not_flagged(table, dealer, supervisor, chip_set):
    tray = {"100000": 10, "10000": 40, "2500": 80}
    _count(table, "opener", tray, dealer=dealer, supervisor=supervisor)
    closer = _count(table, "closer", tray, dealer=dealer, supervisor=supervisor)
    opener = _count(table, "opener", tray, dealer=dealer, supervisor=supervisor)
    assert closer.total_cents == 10 * 100_000 + 40 * 10_000 + 80 * 2_500 == 1_600_000
    assert opener.previous == closer
    assert (opener.flagged, opener.discrepancy, opener.discrepancy_cents) == (False, {}, 0)


def test_an_opener_short_of_the_previous_closer_is_flagged_by_denomination(
    table, dealer, supervisor, chip_set
):
    _count(table, "opener", {"10000": 40}, dealer=dealer, supervisor=supervisor)
    _count(table, "closer", {"10000": 40, "2500": 8}, dealer=dealer, supervisor=supervisor)
    opener = _count(
        table, "opener", {"10000": 38, "2500": 8, "500": 2}, dealer=dealer, supervisor=supervisor
    )
    # two black chips gone, two red ones appeared: 2 x 100 € - 2 x 5 € missing
    assert opener.flagged
    assert opener.discrepancy == {"10000": -2, "500": 2}
    assert opener.discrepancy_cents == -2 * 10_000 + 2 * 500 == -19_000
    entry = AuditEntry.objects.get(code="accounting.inventory.opener", subject_id=str(opener.pk))
    assert entry.data["discrepancy_cents"] == -19_000


def test_a_closer_needs_an_opener_and_an_opener_needs_the_closer_before(
    table, dealer, supervisor, chip_set
):
    with pytest.raises(AccountingRefused) as refused:
        _count(table, "closer", {"10000": 1}, dealer=dealer, supervisor=supervisor)
    assert refused.value.code == "no_opener"
    _count(table, "opener", {"10000": 1}, dealer=dealer, supervisor=supervisor)
    with pytest.raises(AccountingRefused) as refused:
        _count(table, "opener", {"10000": 1}, dealer=dealer, supervisor=supervisor)
    assert refused.value.code == "opener_twice"


def test_a_count_is_signed_by_a_dealer_and_a_supervisor_each_with_their_pin(
    table, dealer, supervisor, chip_set
):
    with pytest.raises(PinRejected):
        services.inventory_record(
            table_id=table.pk,
            kind="opener",
            counts={"10000": 1},
            recorded_by=supervisor,
            dealer_pin=pin(dealer, "9999"),
            supervisor_pin=pin(supervisor),
        )
    with pytest.raises(Exception) as refused:  # the dealer's PIN where the supervisor's goes
        services.inventory_record(
            table_id=table.pk,
            kind="opener",
            counts={"10000": 1},
            recorded_by=supervisor,
            dealer_pin=pin(dealer),
            supervisor_pin=pin(dealer),
        )
    assert refused.value.code == "role_required"
    assert not Inventory.objects.exists()


def test_one_person_cannot_sign_a_count_twice(table, chip_set):
    from casino.roles import Role
    from tests.factories import make_staff

    both = make_staff(Role.DEALER, Role.SUPERVISOR, username="both", pin="4321")
    with pytest.raises(TwoPeopleRequired):
        services.inventory_record(
            table_id=table.pk,
            kind="opener",
            counts={"10000": 1},
            recorded_by=both,
            dealer_pin=pin(both, "4321"),
            supervisor_pin=pin(both, "4321"),
        )


def test_a_count_without_a_chip_set_is_refused(table, dealer, supervisor):
    with pytest.raises(AccountingRefused) as refused:
        _count(table, "opener", {"10000": 1}, dealer=dealer, supervisor=supervisor)
    assert refused.value.code == "no_chip_set"
