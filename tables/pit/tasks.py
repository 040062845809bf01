"""The pit's periodic checks (open tables idle too long, dealers past their rotation time) and
the checks a round's steps ask for, which tables/pit/receivers.py hands over with
`delay_on_commit`. Tasks only call services (the schedule is in
casino/settings.py CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from tables.pit import alerts


@shared_task(name="tables.pit.tasks.alerts_check", ignore_result=True)
def alerts_check() -> int:
    """The number of alerts raised by this run (a condition already alerted counts once)."""
    return sum(1 for alert in alerts.alerts_check() if alert.is_new)


# Late acknowledgement, for this check and the ones below: a worker that dies during one
# leaves it to another (each raises its alert once, by key, so twice raises nothing twice).
@shared_task(name="tables.pit.tasks.big_wins_check", ignore_result=True, acks_late=True)
def big_wins_check(round_id: int) -> int:
    """The number of big-win alerts this run raised (one already raised counts once)."""
    return sum(1 for alert in alerts.big_wins_raise(round_id=round_id) if alert.is_new)


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


@shared_task(name="tables.pit.tasks.ghost_ratings_check", ignore_result=True, acks_late=True)
def ghost_ratings_check(round_id: int) -> int:
    """The number of ghost-rating alerts this run raised (one per rating)."""
    return sum(1 for alert in alerts.ghost_ratings_raise(round_id=round_id) if alert.is_new)


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


@shared_task(name="tables.pit.tasks.aml_winnings_check", ignore_result=True, acks_late=True)
def aml_winnings_check(round_id: int) -> int:
    """After a round is settled or corrected: the rated players it counts for, whose winnings
    over the gaming day may now cross the identity threshold (France). The alerts raised."""
    from tables.ratings.aml_log import rated_in_round

    raised = 0
    for player_id, table_id, at in rated_in_round(round_id):
        alert = alerts.aml_identity_alert_raise(player_id=player_id, table_id=table_id, at=at)
        raised += bool(alert and alert.is_new)
    return raised
