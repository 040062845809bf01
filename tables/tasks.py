"""Celery: a round's news told to its listeners (tables.events) and a base-game par sheet
computed (minutes of CPU): a worker's work, never a request's."""

import logging

from celery import shared_task

log = logging.getLogger(__name__)


# Late acknowledgement: a worker that dies while telling leaves the news to another. Every
# listener may hear it twice (an alert is raised once by key; pricing and summaries replace).
@shared_task(name="tables.tasks.tell", ignore_result=True, acks_late=True)
def tell(news: str, kwargs: dict) -> None:
    """Send a round's news (tables.events.ROUND_NEWS) to its listeners, which do their work
    here. A listener that fails is logged and the others still hear it: each has its own
    sweep or recovery."""
    from tables.events import ROUND_NEWS
    from tables.models import Round

    for receiver, result in ROUND_NEWS[news].send_robust(sender=Round, **kwargs):
        if isinstance(result, Exception):
            log.error("%s failed on %s %s", receiver, news, kwargs, exc_info=result)


@shared_task(name="tables.tasks.compute_parsheet", ignore_result=True, acks_late=True)
def compute_parsheet(sheet_id: int) -> None:
    from tables.services.parsheets import parsheet_compute

    parsheet_compute(sheet_id=sheet_id)


@shared_task(name="tables.tasks.compute_missing_parsheets", ignore_result=True)
def compute_missing_parsheets() -> None:
    """Every rule set version's par sheet, without anybody asking: queue the missing ones and
    compute them here, one after the other (a few minutes each, once per base game)."""
    from tables.services.parsheets import parsheet_compute, parsheet_queue_missing

    for sheet in parsheet_queue_missing():
        parsheet_compute(sheet_id=sheet.pk)
