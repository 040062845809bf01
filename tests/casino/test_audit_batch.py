"""A batch of audit entries is appended in one INSERT, each with its final hash; positions run
1, 2, 3... with no gap, so a deleted entry shows even when the rest still chains."""

import datetime as dt

import pytest
from django.db import connection, transaction

from casino import clock
from casino.audit import GENESIS, _digest, audit, audit_many, find_break, verify_chain
from casino.models import AuditEntry, Property, Shift
from tests.tamper import sealed, write_unguarded


def tamper(statement: str, params: list | None = None) -> None:
    write_unguarded("casino_auditentry", statement, params)


def batch(n: int, **extra) -> list[AuditEntry]:
    with transaction.atomic():
        written = audit_many([{"code": "test.batch", "data": {"n": i}, **extra} for i in range(n)])
    return sealed(written)


def test_a_batch_is_chained_in_order_with_contiguous_positions(db, dealer):
    (first,) = batch(1)
    rows = batch(3, actor_id=dealer.pk)
    assert first.position == 1 and first.prev_hash == GENESIS
    assert [r.position for r in rows] == [2, 3, 4]
    assert [r.prev_hash for r in rows] == [first.hash, rows[0].hash, rows[1].hash]
    stored = list(AuditEntry.objects.order_by("position"))
    assert [e.pk for e in stored[1:]] == [r.pk for r in rows]
    assert all(e.hash == _digest(e) for e in stored)
    assert stored[2].actor_id == dealer.pk and stored[2].data == {"n": 1}
    assert verify_chain() is None


def test_a_single_audit_and_a_batch_share_one_chain(db):
    with transaction.atomic():
        one = audit(actor=None, code="test.one", data={})
    (one,) = sealed([one])
    rows = batch(2)
    assert rows[0].prev_hash == one.hash and rows[0].position == one.position + 1
    assert find_break() is None


def test_an_edited_entry_of_a_batch_is_named(db):
    rows = batch(4)
    tamper("UPDATE casino_auditentry SET data = %s WHERE id = %s", ['{"n": 99}', rows[2].pk])
    broken = find_break()
    assert broken.id == rows[2].pk and "edited" in broken.reason


def test_a_deleted_entry_leaves_a_gap_in_the_positions(db):
    rows = batch(4)
    tamper("DELETE FROM casino_auditentry WHERE id = %s", [rows[1].pk])
    broken = find_break()
    assert broken.id == rows[2].pk
    assert "position 2 is missing" in broken.reason


def test_a_deleted_entry_is_found_even_if_the_next_link_is_forged(db):
    rows = batch(3)
    forged = AuditEntry.objects.get(pk=rows[2].pk)
    forged.prev_hash = rows[0].hash  # relinked over the deleted entry, and rehashed
    tamper("DELETE FROM casino_auditentry WHERE id = %s", [rows[1].pk])
    tamper(
        "UPDATE casino_auditentry SET prev_hash = %s, hash = %s WHERE id = %s",
        [forged.prev_hash, _digest(forged), forged.pk],
    )
    broken = find_break()
    assert broken.id == rows[2].pk and "position 2 is missing" in broken.reason


def test_an_empty_batch_writes_nothing(db):
    with transaction.atomic():
        assert audit_many([]) == []
    assert AuditEntry.objects.count() == 0


@pytest.mark.postgres
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE casino_auditentry SET hash = hash WHERE id = %s",
        "UPDATE casino_auditentry SET position = position + 100 WHERE id = %s",
    ],
)
def test_postgresql_refuses_any_update_even_one_that_changes_nothing(db, sql):
    from django.db import DatabaseError

    (entry,) = batch(1)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(sql, [entry.pk])


# --- the clock ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_saved_shift_is_seen_at_once_and_a_rolled_back_one_never():
    prop = Property.objects.create(name="Casino", time_zone="Europe/Paris")
    swing = Shift.objects.create(property=prop, code="swing", starts_at=dt.time(14))
    Shift.objects.create(property=prop, code="day", starts_at=dt.time(6))
    at = dt.datetime(2026, 6, 15, 10, 0, tzinfo=dt.UTC)  # 12:00 in Paris
    assert clock.stamp(at)[1] == "day"
    swing.starts_at = dt.time(11)
    swing.save()
    assert clock.stamp(at)[1] == "swing"
    with pytest.raises(RuntimeError), transaction.atomic():
        swing.starts_at = dt.time(13)
        swing.save()
        assert clock.stamp(at)[1] == "day"  # this transaction sees its own change
        raise RuntimeError("rolled back")
    assert clock.stamp(at)[1] == "swing"
