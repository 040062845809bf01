"""Subprocesses the tests start in a process group of their own (servers, workers)."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings as django_settings
from django.db import connection
from kombu import pools as kombu_pools

from casino.celery import app as celery_app
from tests.conftest import service_missing


def stop_group(process: subprocess.Popen, *, grace: float = 5) -> None:
    """SIGTERM the process's group, then SIGKILL it if it has not ended within `grace` s."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5)):
        if process.poll() is not None:
            return
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def port_answers(port: int) -> bool:
    """Something listens on 127.0.0.1:`port`."""
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def start_redis_server(port: int, directory: Path) -> subprocess.Popen:
    """A redis-server of the test's own on `port` (nothing saved, its files in `directory`),
    in a process group of its own, returned once it answers: for the test to kill."""
    binary = shutil.which("redis-server")
    if binary is None:
        service_missing("needs redis-server (apt-get install redis-server)")
    if port_answers(port):
        pytest.fail(f"port {port} is taken: this test starts its own redis-server there")
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(directory)],
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 10
    while not port_answers(port):
        if time.monotonic() > deadline or process.poll() is not None:
            stop_group(process, grace=0)
            raise AssertionError(f"redis-server did not start on port {port}")
        time.sleep(0.05)
    return process


def subprocess_database_url() -> str:
    """The pytest test database (its suffixed NAME), for a process that is not pytest (a
    worker, a server)."""
    db = connection.settings_dict
    credentials = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        credentials += ":" + quote(db["PASSWORD"], safe="")
    host = db["HOST"] or ""
    if db["PORT"]:
        host += f":{db['PORT']}"
    return f"postgres://{credentials}@{host}/{quote(db['NAME'], safe='')}"


def start_in_own_group(
    command: list[str], *, env: dict, log_path: Path, application_name: str, append=False
) -> subprocess.Popen:
    """`command` started in a process group of its own (stop_group kills it as one), its
    output in `log_path`, its PostgreSQL connections named `application_name` (libpq's
    PGAPPNAME, pg_stat_activity.application_name): a test ends those, never this process's."""
    with log_path.open("ab" if append else "wb") as log:
        return subprocess.Popen(
            command,
            cwd=django_settings.BASE_DIR,
            env={**env, "PGAPPNAME": application_name},
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


class CeleryWorker:
    """A `celery worker` subprocess on the test database, its broker `redis_url` (a Redis
    database of its own: it consumes every task queued there). `pool`: "solo", or "prefork"
    as under `make serve`."""

    APPLICATION_NAME = "tapis-test-celery-worker"

    def __init__(self, log_path: Path, *, redis_url: str, pool: str = "solo") -> None:
        self.log_path = log_path
        self.name = f"e2e-{uuid.uuid4().hex[:8]}@%h"
        celery = Path(sys.executable).with_name("celery")
        env = {
            **os.environ,
            "DATABASE_URL": subprocess_database_url(),
            "REDIS_URL": redis_url,
            "CHANNEL_LAYER_BACKEND": django_settings.CHANNEL_LAYER_BACKEND,
        }
        env.pop("CELERY_BROKER_URL", None)  # it would win over REDIS_URL in the worker
        # -l info, not warning: "ready." and "Task ...[id] received" are INFO lines, and they
        # are how we know the worker listens and that it, not this process, ran the task.
        command = [
            str(celery), "-A", "casino", "worker", "--pool", pool, "--concurrency", "1",
            "-l", "info", "-n", self.name,
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ]  # fmt: skip
        self.process = start_in_own_group(
            command, env=env, log_path=log_path, application_name=self.APPLICATION_NAME
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for_line(self, text: str, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if text in self.log():
                return True
            if self.process.poll() is not None:
                return False
            time.sleep(0.1)
        return text in self.log()

    def stop(self) -> None:
        stop_group(self.process, grace=10)


def use_broker(url: str) -> None:
    """This process's Celery app on the broker at `url`."""
    # The app caches its broker connection pools: drop them so the next publish uses `url`.
    # Its producer pool lives in kombu's global registry, which keeps a closed pool under its
    # broker's key: reset the registry too, or a later test's publish meets "Acquire on
    # closed pool" (eager tasks acquire a producer as well).
    if celery_app._pool is not None:
        celery_app._pool.force_close_all()
    kombu_pools.reset()
    celery_app.conf.broker_url = url
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
