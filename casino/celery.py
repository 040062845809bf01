import atexit
import logging
import os
import queue
import threading

from celery import Celery
from kombu.exceptions import OperationalError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

log = logging.getLogger(__name__)

app = Celery("tapis")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def broker_warm_up() -> None:
    """Load the tasks and open the broker connection now. A web worker calls this at start:
    otherwise its first request that queues a task (a progressive contribution, a big-win
    check) spends about a second doing it. With eager Celery there is no broker; with the
    broker down, the first request finds out as it would have (and runs the task itself)."""
    app.finalize()
    if app.conf.task_always_eager:
        return
    try:
        with app.producer_or_acquire() as producer:
            producer.connection.ensure_connection(max_retries=1)
    except Exception:  # a warm-up is never a reason not to start
        log.warning("the Celery broker did not answer at start", exc_info=True)


def delay_or_run(task, *args) -> None:
    """Queue `task` for a worker; when the broker cannot be reached (Redis down: kombu's
    OperationalError), run it here and now instead: late rather than lost. For the work a
    request hands over after its commit (a contribution's posting, a big-win check)."""
    try:
        task.delay(*args)
    except OperationalError:
        log.warning("no broker for %s%s: run in this process", task.name, args)
        task(*args)


class _Handoff:
    """One thread per process that hands tasks to the broker for `delay_soon`, in the order
    given. At a normal exit (a worker stopped) it finishes what it was given first."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.idle = threading.Event()
        self.idle.set()
        self.pending = 0
        self.lock = threading.Lock()
        threading.Thread(target=self._work, name="celery-handoff", daemon=True).start()
        atexit.register(self.wait, timeout=10)

    def post(self, task, args) -> None:
        with self.lock:
            self.pending += 1
            self.idle.clear()
        self.jobs.put((task, args))

    def wait(self, timeout: float) -> bool:
        """True once everything posted so far is handed over (or run here)."""
        return self.idle.wait(timeout)

    def _work(self) -> None:
        from django.db import close_old_connections

        while True:
            task, args = self.jobs.get()
            try:
                delay_or_run(task, *args)
            except Exception:
                # As a failed hook after commit always was: the change is committed; what the
                # task does is also done by the next posting, reading or check.
                log.exception("%s%s could not be handed to a worker", task.name, args)
            finally:
                close_old_connections()  # a task run here (no broker) used this thread's
                with self.lock:
                    self.pending -= 1
                    if not self.pending:
                        self.idle.set()


_handoff: _Handoff | None = None
_handoff_lock = threading.Lock()


def _handoff_thread() -> _Handoff:
    global _handoff
    with _handoff_lock:
        # A forked Celery child must not use its parent's thread (not running in the child).
        if _handoff is None or _handoff.pid != os.getpid():
            _handoff = _Handoff()
        return _handoff


def delay_soon(task, *args) -> None:
    """delay_or_run without waiting for the broker: for work a request hands over after its
    commit, whose answer needs nothing from it. Handing a task to Redis cost a request about
    2 ms after a pause (README, "Benchmark: 8 tables against `make serve`"). With eager Celery
    (the embedded defaults, the tests) it runs now, as delay_or_run."""
    if app.conf.task_always_eager:
        delay_or_run(task, *args)
    else:
        _handoff_thread().post(task, args)
