"""The Celery app. A service hands work to a worker after its commit with Celery's own
`task.delay_on_commit(...)`; with no broker to take it (Redis down), the task runs in the
process instead: late rather than lost."""

import functools
import logging
import os

from celery import Celery
from celery.contrib.django.task import DjangoTask
from celery.signals import before_task_publish, task_postrun, task_prerun
from django.db import close_old_connections, transaction
from kombu.exceptions import OperationalError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

log = logging.getLogger(__name__)


class Task(DjangoTask):
    def delay_on_commit(self, *args, **kwargs) -> None:
        """Celery's delay_on_commit, robust: the change is committed whatever happens to the
        hand-over (a failure is logged; the next posting, reading or sweep does the work)."""
        transaction.on_commit(functools.partial(self._delay_or_run, args, kwargs), robust=True)

    def _delay_or_run(self, args, kwargs) -> None:
        try:
            self.delay(*args, **kwargs)
        except OperationalError:
            log.warning("no broker for %s%s: run in this process", self.name, args)
            self(*args, **kwargs)


app = Celery("tapis", task_cls=Task)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _connections_as_for_a_request(sender=None, **kwargs) -> None:
    """Around each task, what Django does around each request: the connection goes back to
    its pool, and a dead one (PostgreSQL restarted) is replaced before the next use. Celery's
    own step closes the pool instead (CELERY_DB_REUSE_MAX turns it off, casino.settings),
    which started a PostgreSQL backend or two per task. An eager task runs inside its
    caller's transaction: left alone."""
    if not getattr(getattr(sender, "request", None), "is_eager", False):
        close_old_connections()


@before_task_publish.connect
def _heartbeat_sent(sender=None, **kwargs) -> None:
    from casino.heartbeat import beat_sent  # needs Django's settings, loaded by then

    beat_sent(sender=sender)


def broker_warm_up() -> None:
    """Load the tasks and open the broker connection at a web worker's start, not in its
    first request that queues a task (about a second). A warm-up never stops a start."""
    app.finalize()
    if app.conf.task_always_eager:
        return
    try:
        with app.producer_or_acquire() as producer:
            producer.connection.ensure_connection(max_retries=1)
    except Exception:
        log.warning("the Celery broker did not answer at start", exc_info=True)
