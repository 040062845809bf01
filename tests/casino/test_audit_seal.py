"""The audit chain sealed after commit (issue 24, item 1): a writer inserts its entry with its own
MAC and takes no lock; the sealer gives committed entries their place in the chain; an entry
forged without the key is never sealed; an entry left unsealed too long is a break."""

import threading

import pytest
from django.db import DatabaseError, connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from casino import audit_keys
from casino.audit import (
    GENESIS,
    _digest,
    _entry_mac,
    atomic_audit,
    audit,
    find_break,
    seal_pending,
)
from casino.ids import draw_ids
from casino.models import AuditEntry, Property
from tests.tamper import audit_verify as verify
from tests.tamper import write_unguarded

KEY = "test-seal-key-" + "s" * 40


@pytest.fixture(autouse=True)
def _production_key(settings):
    settings.AUDIT_HMAC_KEY = KEY
    settings.AUDIT_HMAC_PREVIOUS_KEYS = ""


def test_an_entry_is_written_unsealed_with_its_own_mac(db):
    entry = atomic_audit(actor=None, code="test.entry", data={"n": 1})
    stored = AuditEntry.objects.get(pk=entry.pk)
    assert (stored.position, stored.hash, stored.prev_hash) == (None, None, "")
    assert stored.entry_mac == _entry_mac(stored, KEY)
    code, message = verify()  # not sealed yet, but well within the allowed lag
    assert code == 0 and message.startswith("Audit chain holds: 0 entries verified; ")
    assert "1 entries written lately wait for the sealer." in message


def test_the_sealer_seals_in_id_order_and_only_once(db):
    first = atomic_audit(actor=None, code="test.entry", data={"n": 1})
    second = atomic_audit(actor=None, code="test.entry", data={"n": 2})
    assert seal_pending() == 2
    assert seal_pending() == 0
    a, b = AuditEntry.objects.get(pk=first.pk), AuditEntry.objects.get(pk=second.pk)
    assert (a.position, a.prev_hash, b.position, b.prev_hash) == (1, GENESIS, 2, a.hash)
    assert b.hash == _digest(b, KEY)
    code, message = verify()
    assert code == 0 and message.startswith("Audit chain holds: 2 entries verified; ")


@pytest.mark.django_db(transaction=True)
def test_with_eager_celery_an_entry_is_sealed_right_after_its_commit():
    Property.objects.create(name="Casino")
    entry = atomic_audit(actor=None, code="test.entry", data={})
    assert AuditEntry.objects.get(pk=entry.pk).position == 1
    with transaction.atomic():
        audit(actor=None, code="test.inside", data={})
        # Not before the commit: the entry exists exactly when its change commits.
        assert not AuditEntry.objects.filter(code="test.inside", position__isnull=False).exists()
    assert AuditEntry.objects.get(code="test.inside").position == 2


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_entry_is_never_sealed_and_leaves_no_gap():
    Property.objects.create(name="Casino")
    with pytest.raises(RuntimeError), transaction.atomic():
        audit(actor=None, code="test.rolled_back", data={})
        raise RuntimeError("the change fails")
    atomic_audit(actor=None, code="test.entry", data={})
    assert list(AuditEntry.objects.values_list("code", "position")) == [("test.entry", 1)]
    assert find_break() is None


@pytest.mark.postgres
def test_a_writer_takes_no_lock_of_the_chain(db):
    atomic_audit(actor=None, code="test.warm_up", data={})
    with CaptureQueriesContext(connection) as queries:
        atomic_audit(actor=None, code="test.entry", data={})
    statements = [q["sql"] for q in queries.captured_queries]
    assert not any("advisory" in sql for sql in statements), statements
    assert sum('INSERT INTO "casino_auditentry"' in sql for sql in statements) == 1


def test_an_entry_left_unsealed_longer_than_the_allowed_lag_is_named(db, settings):
    entry = atomic_audit(actor=None, code="test.held_back", data={})
    settings.AUDIT_SEAL_MAX_LAG_SECONDS = 0
    code, message = verify()
    assert code == 1 and f"entry #{entry.pk} (test.held_back)" in message
    assert "still not sealed" in message and "AUDIT_SEAL_MAX_LAG_SECONDS = 0" in message
    seal_pending()
    assert verify()[0] == 0


def test_a_forged_unsealed_entry_is_never_sealed_and_is_named(db):
    (sealed,) = [atomic_audit(actor=None, code="test.entry", data={})]
    seal_pending()
    forged = AuditEntry(
        id=sealed.pk + 1,
        created_at=timezone.now(),
        code="casino.pin.unlocked",
        data={},
        key_id=audit_keys.key_id(KEY),
    )
    forged.entry_mac = _entry_mac(forged, audit_keys.DEVELOPMENT_KEY)  # not the key
    AuditEntry.objects.bulk_create([forged], _chained=True)
    assert seal_pending() == 0
    assert AuditEntry.objects.get(pk=forged.pk).position is None
    code, message = verify()
    assert code == 1 and f"entry #{forged.pk} (casino.pin.unlocked)" in message
    assert "not sealed and its content does not match its MAC" in message


def test_an_unsealed_entry_copied_under_another_id_is_never_sealed(db):
    entry = atomic_audit(actor=None, code="casino.pin.unlocked", data={})
    copy = AuditEntry.objects.get(pk=entry.pk)
    copy.pk = entry.pk + 100
    copy._state.adding = True
    AuditEntry.objects.bulk_create([copy], _chained=True)
    assert seal_pending() == 1  # the original only
    code, message = verify()
    assert code == 1 and f"entry #{entry.pk + 100} (casino.pin.unlocked)" in message


def test_an_unsealed_entry_edited_is_named(db):
    entry = atomic_audit(actor=None, code="test.entry", data={"n": 1})
    write_unguarded(
        "casino_auditentry",
        "UPDATE casino_auditentry SET data = %s WHERE id = %s",
        ['{"n": 2}', entry.pk],
    )
    code, message = verify()
    assert code == 1 and f"entry #{entry.pk} (test.entry)" in message
    assert seal_pending() == 0


@pytest.mark.postgres
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE casino_auditentry SET code = 'forged' WHERE id = %s",
        "UPDATE casino_auditentry SET position = 1, hash = 'x', data = '{}' WHERE id = %s",
        "UPDATE casino_auditentry SET prev_hash = 'x' WHERE id = %s",
    ],
)
def test_postgresql_lets_an_unsealed_entry_be_sealed_and_nothing_else(db, statement):
    entry = atomic_audit(actor=None, code="test.entry", data={"n": 1})
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(statement, [entry.pk])
    seal_pending()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:  # sealed: not even its seal may change
            cursor.execute("UPDATE casino_auditentry SET position = 7 WHERE id = %s", [entry.pk])
    assert AuditEntry.objects.get(pk=entry.pk).position == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_writers_and_sealers_at_once_keep_one_valid_chain():
    Property.objects.create(name="Casino")
    writers, per_writer = 6, 20
    barrier = threading.Barrier(writers + 1)
    errors = []

    def writer(w: int):
        try:
            barrier.wait()
            for i in range(per_writer):
                atomic_audit(actor=None, code="test.concurrent", data={"w": w, "i": i})
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    def sealer():
        try:
            barrier.wait()
            for _ in range(30):
                seal_pending()
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(writers)]
    threads.append(threading.Thread(target=sealer))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seal_pending()
    assert errors == []
    positions = sorted(AuditEntry.objects.values_list("position", flat=True))
    assert positions == list(range(1, writers * per_writer + 1))
    assert find_break() is None


def test_forged_entries_never_hold_up_the_ones_after_them(db, monkeypatch):
    from casino import audit as audit_module

    monkeypatch.setattr(audit_module, "SEAL_BATCH", 2)
    atomic_audit(actor=None, code="test.entry", data={})
    forged = []
    for pk in draw_ids(AuditEntry, 3):  # as the sequence gives them
        entry = AuditEntry(
            id=pk,
            created_at=timezone.now(),
            code="forged",
            data={},
            key_id=audit_keys.key_id(KEY),
            entry_mac="0" * 64,
        )
        forged.append(entry)
    AuditEntry.objects.bulk_create(forged, _chained=True)
    later = atomic_audit(actor=None, code="test.later", data={})
    assert later.pk > forged[-1].pk
    assert seal_pending() == 2
    assert AuditEntry.objects.get(pk=later.pk).position == 2
