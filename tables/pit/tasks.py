"""The pit's periodic checks (open tables idle too long, dealers past their rotation time) and
the checks a round's steps ask for. Tasks only call services (the schedule is in
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
    request, whose answer waits for nothing the dealer needs (in this process with no broker)."""
    delay_soon(big_wins_check, round_id)


@shared_task(name="tables.pit.tasks.void_request_alert", ignore_result=True, acks_late=True)
def void_request_alert(round_id: int) -> int:
    """1 when this run raised the round's void request alert (raised once per declaration)."""
    alert = alerts.void_request_alert_raise(round_id=round_id)
    return int(bool(alert and alert.is_new))


@shared_task(name="tables.pit.tasks.many_voids_check", ignore_result=True, acks_late=True)
def many_voids_check(round_id: int) -> int:
    """1 when this run raised the table's too-many-voids alert (once per condition)."""
    alert = alerts.many_voids_raise(round_id=round_id)
    return int(bool(alert and alert.is_new))


@shared_task(name="tables.pit.tasks.hit_alert", ignore_result=True, acks_late=True)
def hit_alert(hit_id: int) -> int:
    """1 when this run raised the progressive hit's alert (once per hit)."""
    alert = alerts.hit_alert_raise(hit_id=hit_id)
    return int(bool(alert and alert.is_new))


def hit_alert_soon(hit_id: int) -> None:
    """The pit's alert of a recorded progressive hit, by a worker: a settlement with a hit
    answers the dealer without it (in this process with no broker)."""
    delay_soon(hit_alert, hit_id)


def void_request_alert_soon(round_id: int) -> None:
    """The supervisor's alert of a declared void, by a worker: the dealer's answer waits for
    nothing from it (in this process with no broker)."""
    delay_soon(void_request_alert, round_id)


def many_voids_check_soon(round_id: int) -> None:
    """The too-many-voids check after an approved void, by a worker (as above)."""
    delay_soon(many_voids_check, round_id)
