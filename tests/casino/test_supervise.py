"""`make serve` restarts what dies (issue 23, item 4: after `kill -9` of the Celery worker
nothing started it again). The real supervisor (casino/supervise.py) runs two stand-in
programs; one is killed with SIGKILL and comes back, the other is left alone; SIGTERM stops
everything."""

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SLEEPER = f"{sys.executable} -c 'import time; time.sleep(120)'"


class Lines:
    """The supervisor's output, read line by line with a deadline."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.process, self.buffer, self.seen = process, b"", []

    def until(self, pattern: str, timeout: float = 15) -> re.Match:
        deadline = time.monotonic() + timeout
        while True:
            *done, self.buffer = self.buffer.split(b"\n")
            for raw in done:
                line = raw.decode()
                self.seen.append(line)
                if found := re.search(pattern, line):
                    self.buffer = b"\n".join([*done[done.index(raw) + 1 :], self.buffer])
                    return found
            left = deadline - time.monotonic()
            assert left > 0, (pattern, self.seen)
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 4096)
                assert chunk, ("the supervisor ended", self.seen)
                self.buffer += chunk


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_program_killed_is_started_again_and_sigterm_stops_all():
    supervisor = subprocess.Popen(
        [sys.executable, "-m", "casino.supervise", f"worker={SLEEPER}", f"beat={SLEEPER}"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        env={**os.environ, "SUPERVISE_RESTART_DELAY": "0.2", "SUPERVISE_STOP_SECONDS": "5"},
    )
    lines = Lines(supervisor)
    try:
        worker = int(lines.until(r"worker started \(pid (\d+)\)")[1])
        beat = int(lines.until(r"beat started \(pid (\d+)\)")[1])
        os.kill(worker, signal.SIGKILL)
        lines.until(rf"worker \(pid {worker}\) exited with -9")
        again = int(lines.until(r"worker started \(pid (\d+)\)")[1])
        assert again != worker and alive(again)
        assert alive(beat)  # the other program is left alone

        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(timeout=15) == 0
        time.sleep(0.2)
        assert not alive(again) and not alive(beat)
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
            supervisor.wait()


def test_make_serve_runs_the_worker_beat_and_web_under_the_supervisor():
    makefile = (REPO / "Makefile").read_text()
    recipe = makefile.split("\nserve:", 1)[1].split("\n\n", 1)[0]
    assert "-m casino.supervise" in recipe
    for program, command in (
        ("worker", "celery -A casino worker"),
        ("beat", "celery -A casino beat"),
        ("web", "uvicorn casino.asgi:application"),
    ):
        assert re.search(rf'"{program}=\S*{command}', recipe), (program, recipe)
    assert " & " not in recipe  # nothing started in the background, unwatched


def test_each_production_unit_restarts_its_program_whatever_ends_it():
    """docs/operations/systemd/: web, worker and beat, each restarted always, never given up
    on, with the same command as `make serve`."""
    units = REPO / "docs" / "operations" / "systemd"
    for name, command in (
        ("web", "uvicorn casino.asgi:application"),
        ("worker", "celery -A casino worker"),
        ("beat", "celery -A casino beat"),
    ):
        text = (units / f"tapis-{name}.service").read_text()
        assert re.search(rf"^ExecStart=\S+/{command}", text, re.MULTILINE), name
        assert re.search(r"^Restart=always$", text, re.MULTILINE), name
        assert re.search(r"^StartLimitIntervalSec=0$", text, re.MULTILINE), name
        assert f"tapis-{name}.service" in (units / "tapis.target").read_text()
