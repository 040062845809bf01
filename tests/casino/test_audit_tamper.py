"""Records that cannot be rewritten without it showing (issue 11, item 3): one test per kind of
tampering, each caught by `audit_verify` and named; the checkpoints outside the database; the
key and its rotation; TRUNCATE refused on PostgreSQL.

The attacker here writes the database directly (on PostgreSQL after switching the row
triggers off, which a table owner can do) but does not hold AUDIT_HMAC_KEY.
"""

import datetime as dt
import hashlib
import json
from pathlib import Path

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from casino import audit_keys
from casino.audit import _digest, atomic_audit, audit_checkpoint, find_break
from casino.checkpoints import checkpoints_read, shift_checkpoint
from casino.models import AuditEntry
from tests.factories import PropertyFactory
from tests.tamper import audit_verify as verify
from tests.tamper import sealed, write_unguarded

KEY = "test-audit-key-" + "k" * 40
OLD_KEY = "test-audit-old-key-" + "o" * 40


@pytest.fixture(autouse=True)
def _production_key(settings):
    settings.AUDIT_HMAC_KEY = KEY
    settings.AUDIT_HMAC_PREVIOUS_KEYS = ""


def sql(statement: str, params: list | None = None) -> None:
    write_unguarded("casino_auditentry", statement, params)


def write(n: int) -> list[AuditEntry]:
    return sealed([atomic_audit(actor=None, code="test.entry", data={"n": i}) for i in range(n)])


def sha256_digest(entry: AuditEntry) -> str:
    """The project's digest before this change (plain SHA-256): what anyone can compute."""
    body = {
        "position": entry.position,
        "created_at": entry.created_at.isoformat(),
        "actor": entry.actor_id,
        "code": entry.code,
        "subject_type": entry.subject_type,
        "subject_id": entry.subject_id,
        "data": entry.data,
        "gaming_date": entry.gaming_date.isoformat() if entry.gaming_date else None,
        "shift": entry.shift,
        "prev_hash": entry.prev_hash,
    }
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def rechain(from_position: int, digest) -> None:
    """Recompute every hash and link from `from_position` on with `digest`."""
    entries = list(AuditEntry.objects.order_by("position"))
    previous = entries[from_position - 2].hash if from_position > 1 else "0" * 64
    for entry in entries[from_position - 1 :]:
        entry.prev_hash = previous
        entry.hash = previous = digest(entry)
        sql(
            "UPDATE casino_auditentry SET prev_hash = %s, hash = %s WHERE id = %s",
            [entry.prev_hash, entry.hash, entry.pk],
        )


def test_entries_carry_their_key_id_never_the_key(db):
    (entry,) = write(1)
    assert entry.key_id == audit_keys.key_id(KEY) and KEY not in entry.key_id
    assert verify()[0] == 0


def test_an_edit_is_named_at_the_edited_entry(db):
    entries = write(5)
    sql("UPDATE casino_auditentry SET data = %s WHERE id = %s", ['{"n": 99}', entries[2].pk])
    code, message = verify()
    assert code == 1 and f"entry #{entries[2].pk} (test.entry)" in message
    assert "no longer matches its MAC" in message


def test_an_edit_rehashed_with_the_old_digest_is_named_exactly_not_at_the_next(db):
    # The issue: an edit of #20 re-hashed was reported at #21.
    entries = write(25)
    forged = AuditEntry.objects.get(pk=entries[19].pk)
    forged.data = {"n": 42}
    sql(
        "UPDATE casino_auditentry SET data = %s, hash = %s WHERE id = %s",
        ['{"n": 42}', sha256_digest(forged), forged.pk],
    )
    code, message = verify()
    assert code == 1 and f"entry #{entries[19].pk} (test.entry)" in message


def test_a_whole_rechain_after_an_edit_without_the_key_is_named_at_the_edit(db):
    entries = write(10)
    sql("UPDATE casino_auditentry SET data = %s WHERE id = %s", ['{"n": 77}', entries[3].pk])
    rechain(4, sha256_digest)
    code, message = verify()
    assert code == 1 and f"entry #{entries[3].pk} (test.entry)" in message


def test_a_rechain_with_the_embedded_development_key_is_named_at_the_edit(db):
    entries = write(6)
    sql("UPDATE casino_auditentry SET data = %s WHERE id = %s", ['{"n": 7}', entries[1].pk])
    rechain(2, lambda e: _digest(e, audit_keys.DEVELOPMENT_KEY))
    code, message = verify()
    assert code == 1 and f"entry #{entries[1].pk} (test.entry)" in message


def test_a_rechain_with_the_key_itself_is_caught_by_the_checkpoint(db):
    # Whoever holds the key can recompute every MAC: the checkpoint outside the database
    # still holds the old hash of position 6.
    entries = write(6)
    audit_checkpoint()
    write(2)
    sql("UPDATE casino_auditentry SET data = %s WHERE id = %s", ['{"n": 5}', entries[2].pk])
    rechain(3, lambda e: _digest(e, KEY))
    assert find_break() is not None
    code, message = verify()
    assert code == 1 and f"entry #{entries[5].pk}" in message
    assert "differs from the checkpoint" in message and "position 6" in message


@pytest.mark.parametrize("which", [0, 3, 6])
def test_a_deleted_entry_anywhere_is_named_by_its_position(db, which):
    entries = write(7)
    audit_checkpoint()
    sql("DELETE FROM casino_auditentry WHERE id = %s", [entries[which].pk])
    code, message = verify()
    assert code == 1
    if which < 6:
        assert f"position {which + 1} is missing" in message
        assert f"entry #{entries[which + 1].pk}" in message
    else:  # the last one: only the checkpoint knows it existed
        assert "positions 7 to 7 were cut off" in message


def test_deleting_the_last_entries_is_caught_by_the_checkpoint(db):
    entries = write(10)
    audit_checkpoint()
    sql("DELETE FROM casino_auditentry WHERE position > 6")
    code, message = verify()
    assert code == 1 and "the chain ends at position 6" in message
    assert "positions 7 to 10 were cut off" in message and f"#{entries[9].pk}" in message


def test_an_emptied_log_is_not_reported_as_holding(db):
    # The issue: after a TRUNCATE, audit_verify said "holds: 0 entries".
    write(4)
    audit_checkpoint()
    sql("DELETE FROM casino_auditentry")
    code, message = verify()
    assert code == 1 and "the chain ends at position 0" in message
    assert "positions 1 to 4 were cut off" in message


def test_a_forged_append_with_the_projects_digest_but_not_the_key_is_named(db):
    entries = write(3)
    last = entries[-1]
    forged = AuditEntry(
        id=last.pk + 1,
        created_at=timezone.now(),
        code="casino.pin.unlocked",
        data={},
        position=4,
        key_id=last.key_id,
        prev_hash=last.hash,
    )
    forged.hash = _digest(forged, audit_keys.DEVELOPMENT_KEY)  # the source's own key
    AuditEntry.objects.bulk_create([forged], _chained=True)
    code, message = verify()
    assert code == 1 and f"entry #{forged.pk} (casino.pin.unlocked)" in message


def test_a_forged_append_under_a_made_up_key_id_is_named(db):
    (last,) = write(1)
    forged = AuditEntry(
        id=last.pk + 1,
        created_at=timezone.now(),
        code="forged",
        data={},
        position=2,
        key_id="kmadeup",
        prev_hash=last.hash,
    )
    forged.hash = _digest(forged, "anything")
    AuditEntry.objects.bulk_create([forged], _chained=True)
    code, message = verify()
    assert code == 1 and f"entry #{forged.pk} (forged)" in message
    assert "not a known key" in message


def test_a_forged_entry_at_position_zero_is_named(db):
    # The issue: it printed "positions 1 to -1".
    (first,) = write(1)
    forged = AuditEntry(
        id=first.pk + 1000,
        created_at=timezone.now(),
        code="forged",
        data={},
        position=0,
        key_id=first.key_id,
        prev_hash="0" * 64,
    )
    forged.hash = sha256_digest(forged)
    AuditEntry.objects.bulk_create([forged], _chained=True)
    code, message = verify()
    assert code == 1 and f"entry #{forged.pk} (forged)" in message
    assert "-1" not in message


def test_an_entry_whose_id_was_changed_is_named(db):
    entries = write(4)
    sql("UPDATE casino_auditentry SET id = %s WHERE id = %s", [entries[1].pk + 500, entries[1].pk])
    code, message = verify()
    assert code == 1 and f"entry #{entries[1].pk + 500} (test.entry)" in message
    assert "MAC" in message


def test_an_edited_checkpoint_line_is_refused(db, settings):
    write(2)
    audit_checkpoint()
    path = Path(settings.AUDIT_CHECKPOINT_PATH)
    line = json.loads(path.read_text())
    line["position"] = 1
    path.write_text(json.dumps(line) + "\n")
    code, message = verify()
    assert code == 1 and "not a genuine checkpoint" in message


def test_a_checkpoint_is_written_at_every_shift_change_and_given_to_the_shift_report(
    db, monkeypatch, django_capture_on_commit_callbacks
):
    PropertyFactory()  # Europe/Paris: day 06:00, swing 14:00, grave 22:00
    morning = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)  # 10:00 in Paris: day
    monkeypatch.setattr(timezone, "now", lambda: morning)
    with django_capture_on_commit_callbacks(execute=True):
        day_entries = write(3)
    assert checkpoints_read() == ([], [])
    monkeypatch.setattr(timezone, "now", lambda: morning + dt.timedelta(hours=5))  # swing
    with django_capture_on_commit_callbacks(execute=True):
        write(1)
        write(1)  # still swing: no second checkpoint
    (checkpoint,), bad = checkpoints_read()
    assert bad == []
    assert (checkpoint.position, checkpoint.hash) == (3, day_entries[-1].hash)
    assert (checkpoint.gaming_date, checkpoint.shift) == ("2026-12-01", "day")
    assert shift_checkpoint(dt.date(2026, 12, 1), "day") == checkpoint
    assert shift_checkpoint(dt.date(2026, 12, 1), "swing") is None  # still running


def test_a_key_rotation_keeps_the_old_entries_verifiable(db, settings):
    settings.AUDIT_HMAC_KEY = OLD_KEY
    old = write(2)
    settings.AUDIT_HMAC_KEY, settings.AUDIT_HMAC_PREVIOUS_KEYS = KEY, OLD_KEY
    new = write(2)
    assert {e.key_id for e in old} == {audit_keys.key_id(OLD_KEY)}
    assert {e.key_id for e in new} == {audit_keys.key_id(KEY)}
    assert verify()[0] == 0
    settings.AUDIT_HMAC_PREVIOUS_KEYS = ""  # the old key forgotten: its entries cannot verify
    code, message = verify()
    assert code == 1 and f"entry #{old[0].pk}" in message and "not a known key" in message


APPEND_ONLY_TABLES = [
    "casino_auditentry",
    "tables_roundevent",
    "tables_settlementline",
    "tables_correction",
    "jackpot_meterentry",
    "jackpot_meterreading",
    "jackpot_pendingcontribution",
]


@pytest.mark.postgres
@pytest.mark.parametrize("table", APPEND_ONLY_TABLES)
def test_postgresql_refuses_to_truncate_an_append_only_table(db, table):
    write(1)
    with pytest.raises(DatabaseError, match="TRUNCATE is refused"), transaction.atomic():
        with connection.cursor() as cursor:
            # What every session but the test runner's has (tests/conftest.py turns it on).
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("SET LOCAL tapis.allow_truncate = 'off'")
            cursor.execute(f"TRUNCATE {table} CASCADE")
    assert AuditEntry.objects.count() == 1


@pytest.mark.postgres
def test_a_truncate_forced_through_is_caught_by_the_checkpoint(db):
    write(5)
    audit_checkpoint()
    sql("TRUNCATE casino_auditentry")
    code, message = verify()
    assert code == 1 and "positions 1 to 5 were cut off" in message


def test_the_migration_reseals_a_chain_written_with_the_old_digest(db):
    import importlib

    from django.db.migrations.loader import MigrationLoader

    # The models as the migration sees them (plain managers, as in a real migrate).
    apps = (
        MigrationLoader(connection)
        .project_state(("casino", "0006_audit_hmac_and_no_truncate"))
        .apps
    )

    migration = importlib.import_module("casino.migrations.0006_audit_hmac_and_no_truncate")
    entries = write(3)
    previous = "0" * 64
    for entry in entries:  # as 0004 left them: SHA-256 by position, no key
        entry.prev_hash = previous
        entry.hash = previous = sha256_digest(entry)
        sql(
            "UPDATE casino_auditentry SET prev_hash = %s, hash = %s, key_id = '' WHERE id = %s",
            [entry.prev_hash, entry.hash, entry.pk],
        )
    assert find_break() is not None

    class Editor:
        connection = connection

        def execute(self, statement, params=None):
            with connection.cursor() as cursor:
                cursor.execute(statement, params)

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    migration.reseal(apps, Editor())
    assert find_break() is None
    assert set(AuditEntry.objects.values_list("key_id", flat=True)) == {audit_keys.key_id(KEY)}


def test_the_migration_refuses_to_reseal_a_broken_chain(db):
    import importlib

    from django.db.migrations.loader import MigrationLoader

    # The models as the migration sees them (plain managers, as in a real migrate).
    apps = (
        MigrationLoader(connection)
        .project_state(("casino", "0006_audit_hmac_and_no_truncate"))
        .apps
    )

    migration = importlib.import_module("casino.migrations.0006_audit_hmac_and_no_truncate")
    write(2)  # keyed entries do not verify under the old rule: a "broken" old chain

    class Editor:
        connection = connection

        def execute(self, statement, params=None):
            raise AssertionError("nothing is written")

    with pytest.raises(RuntimeError, match="does not verify"):
        migration.reseal(apps, Editor())
