"""Real server processes for the feed's tests: a migrated SQLite file with the demo floor,
the environment of a process on the embedded defaults or on Redis, a server in its own
process group."""

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from tests.processes import stop_group

PORTS = {"embedded": 8121, "redis": 8122}
BASE_DIR = Path(django_settings.BASE_DIR)
PYTHON = sys.executable


def server_env(sqlite: Path, redis_url: str = "") -> dict:
    env = {**os.environ, "SQLITE_PATH": str(sqlite), "DJANGO_DEBUG": "True"}
    env["PYTHONUNBUFFERED"] = "1"  # daphne writes its access log to stdout: see it at once
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


def manage(env: dict, *args: str) -> str:
    done = subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def demo_database(tmp_path_factory):
    """A migrated SQLite file with the demo floor (demo bank, its display `Démo`)."""
    path = tmp_path_factory.mktemp("feed-db") / "template.sqlite3"
    env = server_env(path)
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "load_demo")
    return path


@pytest.fixture
def database(demo_database, tmp_path):
    path = tmp_path / "floor.sqlite3"
    shutil.copy(demo_database, path)
    return path


class Server:
    def __init__(self, command: list[str], env: dict, port: int, log: Path) -> None:
        self.port, self.log_path = port, log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                command,
                cwd=BASE_DIR,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.2)
        pytest.fail(f"the server did not listen within 30 s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        stop_group(self.process)
