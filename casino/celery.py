import atexit
import logging
import os
import queue
import threading

from celery import Celery
from celery.signals import before_task_publish
from kombu.exceptions import OperationalError

from casino.per_process import PerProcess

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

log = logging.getLogger(__name__)

app = Celery("tapis")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@before_task_publish.connect
def _heartbeat_sent(sender=None, **kwargs) -> None:
    from casino.heartbeat import beat_sent  # needs Django's settings, loaded by then

    beat_sent(sender=sender)


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


def _queue_or_run(task, *args) -> None:
    """Queue `task` for a worker; when the broker cannot be reached (Redis down: kombu's
    OperationalError), run it here and now instead: late rather than lost."""
    try:
        task.delay(*args)
    except OperationalError:
        log.warning("no broker for %s%s: run in this process", task.name, args)
        task(*args)


class _Handoff:
    """One thread per process that hands tasks to the broker for `delay_soon`, in the order
    given. At a normal exit (a worker stopped) it finishes what it was given first."""

    def __init__(self) -> None:
        self.jobs: queue.Queue = queue.Queue()
        threading.Thread(target=self._work, name="celery-handoff", daemon=True).start()
        atexit.register(self.wait, timeout=10)

    def post(self, task, args) -> None:
        self.jobs.put((task, args))

    def wait(self, timeout: float) -> bool:
        """True once everything posted so far is handed over (or run here)."""
        joined = threading.Thread(target=self.jobs.join, daemon=True)  # join() has no timeout
        joined.start()
        joined.join(timeout)
        return not joined.is_alive()

    def _work(self) -> None:
        from django.db import close_old_connections

        while True:
            task, args = self.jobs.get()
            try:
                _queue_or_run(task, *args)
            except Exception:
                # As a failed hook after commit always was: the change is committed; what the
                # task does is also done by the next posting, reading or check.
                log.exception("%s%s could not be handed to a worker", task.name, args)
            finally:
                close_old_connections()  # a task run here (no broker) used this thread's
                self.jobs.task_done()


_handoff_thread = PerProcess(_Handoff).get


def delay_soon(task, *args) -> None:
    """Queue `task` for a worker without waiting for the broker: for work a request hands
    over after its commit, whose answer needs nothing from it (a contribution's posting, the
    pit's checks): handing a task to Redis made the request wait for the broker
    (docs/architecture/overview.md, "Where a tap's time goes"). With the broker down, the
    hand-off thread runs the task itself; with eager Celery (the embedded defaults, the
    tests) it runs now."""
    if app.conf.task_always_eager:
        _queue_or_run(task, *args)
    else:
        _handoff_thread().post(task, args)
