"""The pit's periodic checks: open tables idle too long, dealers past their rotation time.
Tasks only call services (the schedule is in casino/settings.py CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from tables.pit import alerts


@shared_task(name="tables.pit.tasks.alerts_check", ignore_result=True)
def alerts_check() -> int:
    """The number of alerts raised by this run (a condition already alerted counts once)."""
    return sum(1 for alert in alerts.alerts_check() if alert.is_new)
