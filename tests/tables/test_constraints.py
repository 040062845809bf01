"""The database keeps the floor's invariants even where the services are bypassed."""

import datetime as dt
import threading

import pytest
from django.db import IntegrityError, connection, transaction

from tables import services
from tables.models import DealerAssignment, Table

NINE = dt.datetime(2026, 11, 29, 9, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    "change",
    [{"seats": 0}, {"seats": 8}, {"min_bet_cents": 0}, {"max_bet_cents": 999}],
)
def test_the_database_refuses_impossible_tables(closed_table, change):
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.filter(pk=closed_table.pk).update(**change)


def test_the_database_refuses_a_second_open_assignment(closed_table, other_table, dealer):
    DealerAssignment.objects.create(dealer=dealer, table=closed_table, starts_at=NINE)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealerAssignment.objects.create(dealer=dealer, table=other_table, starts_at=NINE)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_rotations_at_once_leave_one_dealer_at_the_table(
    closed_table, dealer, other_dealer, supervisor
):
    barrier = threading.Barrier(2)
    errors = []

    def rotate(who):
        try:
            barrier.wait()
            services.dealer_rotate(
                table_id=closed_table.pk, dealer_id=who.pk, supervisor=supervisor
            )
        except Exception as exc:  # collected and asserted below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=rotate, args=(d,)) for d in (dealer, other_dealer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert errors == []
    assignments = list(DealerAssignment.objects.filter(table=closed_table).order_by("starts_at"))
    assert len(assignments) == 2
    first, second = assignments
    # The table row's lock serialises them: the second rotation ends the first one.
    assert first.ends_at == second.starts_at
    assert second.ends_at is None
