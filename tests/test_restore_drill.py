"""The restore drill of docs/operations/backup-restore.md, run as written: rounds played over
the round API (settled, a progressive hit, a void approved by PIN), a checkpoint written,
`pg_dump` of the database, `pg_restore` into a fresh one, then against the restored database
`audit_verify` (the audit chain, round events, meter ledger, checkpointed heads) and
`books_verify` (every round replays to its stored state, every bank reconciles).

The restored database is checked by `manage.py` in a process of its own, as an operator would
run it, with DATABASE_URL naming the restored database.
"""

import io
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from casino.models import AuditEntry
from jackpot.models import Hit, MeterEntry
from tables.models import Round

ROOT = Path(__file__).resolve().parents[1]


def _postgres_url(name: str) -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    auth = f"{user}:{db['PASSWORD']}" if db.get("PASSWORD") else user
    return f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{name}"


def _run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


def _manage(url: str, checkpoints: str, *command: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": url, "AUDIT_CHECKPOINT_PATH": checkpoints}
    env.pop("DB_POOL_MAX_SIZE", None)
    return _run(sys.executable, "manage.py", *command, env=env)


@pytest.mark.postgres
@pytest.mark.slow
def test_a_dump_restored_into_a_fresh_database_verifies_and_reconciles(
    transactional_db, live_server, settings, tmp_path
):
    call_command("load_demo", stdout=io.StringIO())
    call_command(
        "simulate_floor",
        tables=1,
        rounds=4,
        speed=0,
        seed="restore",
        rig_hit_every=2,
        void_every=3,
        base=live_server.url,
        stdout=io.StringIO(),
    )
    call_command("audit_checkpoint", stdout=io.StringIO())  # step 1 of the procedure
    stages = sorted(Round.objects.values_list("stage", flat=True))
    assert stages == ["settled", "settled", "settled", "void"]
    assert Hit.objects.count() == 2
    counts = (AuditEntry.objects.count(), MeterEntry.objects.count(), Round.objects.count())

    source = connection.settings_dict["NAME"]
    dump = tmp_path / "tapis.dump"
    done = _run("pg_dump", "--format=custom", f"--file={dump}", _postgres_url(source))
    assert done.returncode == 0, done.stderr

    restored = f"{os.environ.get('TOX_PARALLEL_ENV', 'tapis')}_restore_{uuid.uuid4().hex[:8]}"
    admin = _postgres_url("postgres")
    assert _run("psql", admin, "-qc", f'CREATE DATABASE "{restored}"').returncode == 0
    try:
        done = _run(
            "pg_restore", "--no-owner", "--exit-on-error", f"--dbname={_postgres_url(restored)}",
            str(dump),
        )  # fmt: skip
        assert done.returncode == 0, done.stderr

        url, checkpoints = _postgres_url(restored), settings.AUDIT_CHECKPOINT_PATH
        verified = _manage(url, checkpoints, "audit_verify")
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert f"Audit chain holds: {counts[0]} entries verified; agrees with" in verified.stdout
        assert "Meter ledger heads: all" in verified.stdout

        books = _manage(url, checkpoints, "books_verify")
        assert books.returncode == 0, books.stdout + books.stderr
        assert "FAILED" not in books.stdout
        assert "each round's cached state equals the engine's replay" in books.stdout
        assert "bank demo: reconciliation raises no alert" in books.stdout

        rows = _run(
            "psql", url, "-tAc",
            "SELECT (SELECT count(*) FROM casino_auditentry), "
            "(SELECT count(*) FROM jackpot_meterentry), (SELECT count(*) FROM tables_round)",
        )  # fmt: skip
        assert tuple(int(n) for n in rows.stdout.strip().split("|")) == counts

        # The restored database is still append-only: its triggers came back with it.
        refused = _run("psql", url, "-qc", "DELETE FROM casino_auditentry")
        assert refused.returncode != 0
        assert "the audit log is append-only" in refused.stderr
    finally:
        _run("psql", admin, "-qc", f'DROP DATABASE IF EXISTS "{restored}" WITH (FORCE)')
