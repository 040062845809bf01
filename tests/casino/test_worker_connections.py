"""A Celery worker's connections to PostgreSQL, end to end: a real `celery worker` process
(prefork, as under `make serve`), its pooled connection kept from task to task
(CELERY_DB_REUSE_MAX and casino.celery), and a connection PostgreSQL dropped replaced before
the next task, which still gets through."""

import time
from urllib.parse import urlsplit

import pytest
from django.db import connection, transaction

from casino.audit import audit
from casino.models import AuditEntry
from tests.conftest import TEST_REDIS_URL
from tests.processes import CeleryWorker, use_broker

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# The worker consumes every task queued in its Redis database: no other test may share it.
WORKER_REDIS_DB = 12
READY_SECONDS = 30
SEAL_SECONDS = 10
TASKS = 8


@pytest.fixture
def prefork_worker(transactional_db, tmp_path):
    """A prefork `celery worker` on the test database, this process queuing on its broker.
    Stopped before the test database is flushed (it depends on transactional_db)."""
    from casino.celery import app

    url = urlsplit(TEST_REDIS_URL)._replace(path=f"/{WORKER_REDIS_DB}").geturl()
    worker = CeleryWorker(tmp_path / "celery-worker.log", redis_url=url, pool="prefork")
    broker, eager = app.conf.broker_url, app.conf.task_always_eager
    try:
        if not worker.wait_for_line(" ready.", READY_SECONDS):
            pytest.fail(f"the worker was not ready within {READY_SECONDS} s:\n{worker.log()}")
        use_broker(url)
        app.conf.task_always_eager = False
        yield worker
    finally:
        worker.stop()
        use_broker(broker)
        app.conf.task_always_eager = eager


def sealed_by_the_worker(actor, worker: CeleryWorker) -> AuditEntry:
    """An audit entry committed here, which queues the sealer's task: sealed by the worker."""
    with transaction.atomic():
        entry = audit(actor=actor, code="test.entry", subject=actor, data={})
    deadline = time.monotonic() + SEAL_SECONDS
    while time.monotonic() < deadline:
        entry.refresh_from_db()
        if entry.position is not None:
            return entry
        time.sleep(0.05)
    pytest.fail(f"entry #{entry.pk} not sealed within {SEAL_SECONDS} s:\n{worker.log()}")


def sessions_started() -> int:
    """PostgreSQL's count of the connections ever made to the test database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


def test_a_worker_keeps_its_connection_from_task_to_task(prefork_worker, manager):
    sealed_by_the_worker(manager, prefork_worker)  # the worker's pool is open
    before = sessions_started()
    for _ in range(TASKS):
        sealed_by_the_worker(manager, prefork_worker)
    # Celery's default closes the pool around each task: two new connections a task (16).
    assert sessions_started() - before <= 2, prefork_worker.log()


def test_a_connection_postgresql_dropped_is_replaced_before_the_next_task(prefork_worker, manager):
    sealed_by_the_worker(manager, prefork_worker)
    # The worker's connections only: one of this process's (a thread another test left) would
    # stay dead for the next test.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [CeleryWorker.APPLICATION_NAME],
        )
        assert cursor.fetchone()[0] >= 1  # kept idle in its pool
    entry = sealed_by_the_worker(manager, prefork_worker)
    assert entry.hash
    assert "Traceback" not in prefork_worker.log()
