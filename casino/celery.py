import logging
import os

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
