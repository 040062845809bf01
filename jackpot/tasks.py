"""Celery tasks of the progressive. They only call services (the schedule is in
casino/settings.py CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

import jackpot.feed  # noqa: F401  (registers the feed's tasks in the worker)
from jackpot import display_tokens, services


@shared_task(name="jackpot.tasks.meter_readings_periodic", ignore_result=True)
def meter_readings_periodic() -> int:
    return len(services.readings_take_periodic())


@shared_task(name="jackpot.tasks.meter_readings_shift_change", ignore_result=True)
def meter_readings_shift_change() -> int:
    return len(services.readings_take_at_shift_change())


@shared_task(name="jackpot.tasks.reconcile_banks", ignore_result=True)
def reconcile_banks() -> int:
    return len(services.banks_reconcile())


@shared_task(name="jackpot.tasks.display_connections_prune", ignore_result=True)
def display_connections_prune() -> int:
    return display_tokens.display_connections_prune()


# Late acknowledgement: a worker that dies while posting leaves the task to another (posting
# twice posts nothing twice: a posted row is no longer waiting).
@shared_task(name="jackpot.tasks.post_pending", ignore_result=True, acks_late=True)
def post_pending(bank_id: int) -> int:
    """Post the contributions the tables have committed (services.posting)."""
    return services.bank_post_pending(bank_id=bank_id)
