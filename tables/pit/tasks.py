"""The pit's periodic checks (open tables idle too long, dealers past their rotation time) and
the checks that follow a progressive hit or a rating write, which tables/pit/receivers.py hands
over with `delay_on_commit` (a round's own checks run where its news is told, tables.tasks.tell).
Tasks only call services (the schedule is in casino/settings.py CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from tables.pit import alerts


@shared_task(name="tables.pit.tasks.alerts_check", ignore_result=True)
def alerts_check() -> int:
    """The number of alerts raised by this run (a condition already alerted counts once)."""
    return sum(1 for alert in alerts.alerts_check() if alert.is_new)


# Late acknowledgement, for this check and the ones below: a worker that dies during one
# leaves it to another (each raises its alert once, by key, so twice raises nothing twice).
@shared_task(name="tables.pit.tasks.hit_alert", ignore_result=True, acks_late=True)
def hit_alert(hit_id: int) -> int:
    """1 when this run raised the progressive hit's alert (once per hit)."""
    alert = alerts.hit_alert_raise(hit_id=hit_id)
    return int(bool(alert and alert.is_new))


@shared_task(name="tables.pit.tasks.repeated_ratings_check", ignore_result=True, acks_late=True)
def repeated_ratings_check(rating_id: int, staff_id: int) -> int:
    """1 when this run raised the supervisor's repeated-ratings alert for the player."""
    alert = alerts.repeated_ratings_raise(rating_id=rating_id, staff_id=staff_id)
    return int(bool(alert and alert.is_new))


@shared_task(name="tables.pit.tasks.chips_gap_check", ignore_result=True, acks_late=True)
def chips_gap_check(rating_id: int) -> int:
    """1 when this run raised the closed rating's chips-gap alert."""
    alert = alerts.chips_gap_raise(rating_id=rating_id)
    return int(bool(alert and alert.is_new))
