"""Row locks never hold up another transaction's foreign-key check at COMMIT.

A table locked for a change (`get_locked`) while someone else commits a row that points at
it (an alert about the table, a dealer's assignment): with FOR UPDATE that commit waits for
the lock, and if the lock holder then waits for the audit chain's lock, which the committer
holds until it commits, PostgreSQL finds a deadlock. FOR NO KEY UPDATE lets the check through.
"""

import threading

import pytest
from django.db import connection, transaction

from tables.models import Table
from tables.pit.alerts import alert_raise
from tables.services._base import get_locked

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_locked_table_does_not_hold_up_the_commit_of_an_alert_about_it(open_table):
    locked, release = threading.Event(), threading.Event()

    def supervisor_at_work():
        try:
            with transaction.atomic():
                get_locked(Table, open_table.pk)
                locked.set()
                release.wait(timeout=20)
        finally:
            connection.close()

    holder = threading.Thread(target=supervisor_at_work)
    holder.start()
    try:
        assert locked.wait(timeout=10)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            # Audited (the chain's lock), and its table foreign key is checked at COMMIT.
            alert_raise(kind="table_idle", key="lock-order", table=open_table, params={})
    finally:
        release.set()
        holder.join(timeout=20)
    assert not holder.is_alive()
