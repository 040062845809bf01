"""`make serve`'s process supervisor: start each program, restart whichever dies.

    python -m casino.supervise NAME=COMMAND [NAME=COMMAND ...]

Each COMMAND is split as a shell would (shlex), run in a process group of its own, and started
again when it exits, whatever its exit code: after RESTART_DELAY seconds, doubled on each
quick death (a program that ran less than STABLE_SECONDS) up to MAX_DELAY, back to
RESTART_DELAY once it has run STABLE_SECONDS. SIGTERM or SIGINT (Ctrl-C) stops every program
(SIGTERM to its group, SIGKILL after STOP_SECONDS) and exits. Production runs under systemd
instead (docs/operations/systemd/), which does the same per unit.

It reads the settings module (where every environment variable is read) and nothing else of
the project: no app, no database, so that it runs whatever state the application is in.
"""

import os
import shlex
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

from casino import settings as house

RESTART_DELAY = house.SUPERVISE_RESTART_DELAY
MAX_DELAY = house.SUPERVISE_MAX_DELAY
STABLE_SECONDS = house.SUPERVISE_STABLE_SECONDS
STOP_SECONDS = house.SUPERVISE_STOP_SECONDS
POLL_SECONDS = 0.2


def say(text: str) -> None:
    print(f"supervise: {text}", flush=True)


@dataclass
class Program:
    name: str
    argv: list[str]
    process: subprocess.Popen | None = None
    started: float = 0.0
    delay: float = RESTART_DELAY
    due: float = 0.0  # when to start it again, once it has died
    restarts: int = 0

    def start(self) -> None:
        # A group of its own: stopping reaches the program's own children (uvicorn's workers,
        # celery's pool), and a Ctrl-C in the terminal reaches only the supervisor.
        self.process = subprocess.Popen(self.argv, process_group=0)
        self.started = time.monotonic()
        say(f"{self.name} started (pid {self.process.pid})")

    def check(self, now: float) -> None:
        """Start it again if it died and its delay has passed."""
        if self.process is None:
            if now >= self.due:
                self.restarts += 1
                self.start()
            return
        code = self.process.poll()
        if code is None:
            return
        ran = now - self.started
        if ran >= STABLE_SECONDS:
            self.delay = RESTART_DELAY
        wait, self.delay = self.delay, min(self.delay * 2, MAX_DELAY)
        say(
            f"{self.name} (pid {self.process.pid}) exited with {code} after {ran:.1f} s: "
            f"started again in {wait:.1f} s"
        )
        self.process, self.due = None, now + wait

    def send(self, signum: int) -> None:
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signum)
            except ProcessLookupError:
                pass


def parse(args: list[str]) -> list[Program]:
    programs = []
    for arg in args:
        name, sep, command = arg.partition("=")
        if not sep or not name or not command.strip():
            raise SystemExit(f"supervise: {arg!r} is not NAME=COMMAND")
        programs.append(Program(name, shlex.split(command)))
    if not programs:
        raise SystemExit(__doc__)
    return programs


def stop(programs: list[Program]) -> None:
    for program in programs:
        program.send(signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    while time.monotonic() < deadline and any(
        p.process is not None and p.process.poll() is None for p in programs
    ):
        time.sleep(POLL_SECONDS)
    for program in programs:
        program.send(signal.SIGKILL)
        if program.process is not None:
            program.process.wait()
    say("stopped")


def main(args: list[str]) -> int:
    programs = parse(args)
    stopping = []

    def on_signal(signum, frame):
        stopping.append(signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    for program in programs:
        program.start()
    while not stopping:
        now = time.monotonic()
        for program in programs:
            program.check(now)
        time.sleep(POLL_SECONDS)
    stop(programs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
