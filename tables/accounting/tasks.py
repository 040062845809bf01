"""Celery: roll up the gaming days that closed (run it once a day after the gaming day's
start, e.g. in CELERY_BEAT_SCHEDULE); the reports are right without it, only slower."""

from celery import shared_task

from tables.accounting.summary import summarize_closed_days


@shared_task(name="accounting.summarize_closed_days")
def summarize_closed_days_task() -> int:
    return len(summarize_closed_days())
