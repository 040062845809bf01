"""The pit's periodic checks (open tables idle too long, dealers past their rotation time) and
the checks a settlement asks for. Tasks only call services (the schedule is in
casino/settings.py CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from casino.celery import delay_soon
from tables.pit import alerts


@shared_task(name="tables.pit.tasks.alerts_check", ignore_result=True)
def alerts_check() -> int:
    """The number of alerts raised by this run (a condition already alerted counts once)."""
    return sum(1 for alert in alerts.alerts_check() if alert.is_new)


# Late acknowledgement: a worker that dies during the check leaves it to another worker
# (the check raises each alert once, by key, so running it twice raises nothing twice).
@shared_task(name="tables.pit.tasks.big_wins_check", ignore_result=True, acks_late=True)
def big_wins_check(round_id: int) -> int:
    """The number of big-win alerts this run raised (one already raised counts once)."""
    return sum(1 for alert in alerts.big_wins_raise(round_id=round_id) if alert.is_new)


def big_wins_check_soon(round_id: int) -> None:
    """The big-win check of a settled or corrected round, by a worker: off the dealer's
    request, whose answer waits for nothing the dealer needs (here and now with no broker)."""
    delay_soon(big_wins_check, round_id)
