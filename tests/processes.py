"""Subprocesses the tests start in a process group of their own (servers, workers)."""

import os
import signal
import subprocess


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
