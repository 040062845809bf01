"""Is the Celery worker running tasks, is beat sending them? (docs/operations/resilience.md)

Beat sends `casino.heartbeat` every HEARTBEAT_SECONDS: the moment it hands the task over, beat
records its own heartbeat (the `before_task_publish` signal, in beat's process); the worker
records its heartbeat when it runs the task. Both go to the shared cache (Redis), which every
process reads. The pit shows a process silent for HEARTBEAT_SILENT_SECONDS (tables.pit.alerts),
read by the web process: a dead worker cannot report its own death.

In the embedded profile (eager Celery) there is no worker nor beat to watch: nothing is silent.
"""

import logging
import time

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

TASK = "casino.heartbeat"
PROCESSES = ("worker", "beat")
_KEY = "tapis:heartbeat:{}"


def heartbeat_record(process: str) -> None:
    cache.set(_KEY.format(process), time.time(), timeout=None)


@shared_task(name=TASK, ignore_result=True, expires=60)
def heartbeat() -> None:
    heartbeat_record("worker")


def beat_sent(sender=None, **kwargs) -> None:
    """Connected to `before_task_publish` in casino/celery.py (every Celery process imports
    it, beat too). Only beat sends the heartbeat task; a failure must never stop the sending."""
    if sender == TASK:
        try:
            heartbeat_record("beat")
        except Exception:
            log.warning("the beat heartbeat could not be recorded", exc_info=True)


def silent_processes(now: float | None = None) -> list[dict]:
    """[{"process": "worker" | "beat", "seen": epoch seconds or None}] for each process not
    heard from within HEARTBEAT_SILENT_SECONDS; [{"process": "cache", "seen": None}] when the
    heartbeats cannot be read (Redis down: the worker and beat cannot work either)."""
    from casino.celery import app

    if app.conf.task_always_eager:
        return []
    now = time.time() if now is None else now
    try:
        seen = cache.get_many([_KEY.format(p) for p in PROCESSES])
    except Exception:
        log.warning("the heartbeats cannot be read", exc_info=True)
        return [{"process": "cache", "seen": None}]
    silent = []
    for process in PROCESSES:
        at = seen.get(_KEY.format(process))
        if at is None or now - at > settings.HEARTBEAT_SILENT_SECONDS:
            silent.append({"process": process, "seen": at})
    return silent
