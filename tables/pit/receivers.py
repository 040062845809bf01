"""Alerts raised from the services' signals (casino.events, jackpot.events, tables.events,
tables.ratings.events), and the seat maps' notice after a rating write.

The signals are sent after the change committed, so an alert never reports a change that was
rolled back. A receiver that fails logs the failure and lets the other receivers run: the
service's answer was given already, and a lost alert must not cost another listener its turn.
"""

import functools
import logging

from django.dispatch import receiver

from casino import events as casino_events
from jackpot import events as jackpot_events
from tables import events as tables_events
from tables.accounting import events as accounting_events
from tables.pit import alerts, tasks
from tables.ratings import events as ratings_events

log = logging.getLogger("tables.pit.alerts")


def _logged(fn):
    @functools.wraps(fn)
    def run(sender, **kwargs):
        try:
            fn(**kwargs)
        except Exception:
            log.exception("pit alert from %s failed (%s)", fn.__name__, kwargs)

    return run


# A round's news is told by a worker (tables.tasks.tell, acknowledged late): the checks that
# follow a dealer's step run there, each a receiver of its own, so that one failing keeps no
# other from its turn. Each raises its alert once, by key, however often it runs.


@receiver(tables_events.round_settled, dispatch_uid="pit.alerts.round_settled")
@receiver(tables_events.round_corrected, dispatch_uid="pit.alerts.round_corrected")
@_logged
def check_big_wins(*, round_id, **kwargs):
    alerts.big_wins_raise(round_id=round_id)  # a correction may turn a result into one


@receiver(tables_events.round_settled, dispatch_uid="pit.alerts.ghost_ratings")
@_logged
def check_ghost_ratings(*, round_id, **kwargs):
    alerts.ghost_ratings_raise(round_id=round_id)  # a rated seat with no wager


@receiver(tables_events.round_settled, dispatch_uid="pit.alerts.aml_winnings.settled")
@receiver(tables_events.round_corrected, dispatch_uid="pit.alerts.aml_winnings.corrected")
@_logged
def check_aml_winnings(*, round_id, **kwargs):
    # A rated player's winnings over the gaming day (France), a correction's too.
    alerts.aml_winnings_raise(round_id=round_id)


@receiver(tables_events.correction_requested, dispatch_uid="pit.correction_requested")
@_logged
def on_correction_requested(*, round_id, **kwargs):
    from tables.pit import live

    live.announce_floor_changed()  # the queue shows it


@receiver(tables_events.void_requested, dispatch_uid="pit.alerts.void_requested")
@_logged
def on_void_requested(*, round_id, **kwargs):
    alerts.void_request_alert_raise(round_id=round_id)


@receiver(tables_events.void_decided, dispatch_uid="pit.alerts.void_decided")
@_logged
def on_void_decided(*, round_id, approved, **kwargs):
    if approved:
        alerts.many_voids_raise(round_id=round_id)


@receiver(jackpot_events.hit_recorded, dispatch_uid="pit.alerts.hit_recorded")
@_logged
def on_hit_recorded(*, hit_id, **kwargs):
    tasks.hit_alert.delay_on_commit(hit_id)


@receiver(jackpot_events.reconciliation_alert_raised, dispatch_uid="pit.alerts.reconciliation")
@_logged
def on_reconciliation_alert(*, alert_id, **kwargs):
    alerts.reconciliation_alert_raise(alert_id=alert_id)


@receiver(jackpot_events.display_link_lost, dispatch_uid="pit.alerts.display_link_lost")
@_logged
def on_display_link_lost(*, token_id, **kwargs):
    alerts.display_link_lost_raise(token_id=token_id)


@receiver(casino_events.pin_locked, dispatch_uid="pit.alerts.pin_locked")
@_logged
def on_pin_locked(*, staff_id, **kwargs):
    alerts.pin_locked_raise(staff_id=staff_id)


@receiver(casino_events.signin_throttled, dispatch_uid="pit.alerts.signin_throttled")
@_logged
def on_signin_throttled(*, source, attempts, **kwargs):
    alerts.signin_throttled_raise(source=source, attempts=attempts)


@receiver(accounting_events.counted_win_changed, dispatch_uid="pit.alerts.counted_win_changed")
@_logged
def on_counted_win_changed(*, table_id, gaming_date, **kwargs):
    alerts.variance_alert_raise(table_id=table_id, gaming_date=gaming_date)


@receiver(ratings_events.excluded_player_refused, dispatch_uid="pit.alerts.excluded_player")
@_logged
def on_excluded_player_refused(*, player_id, table_id, seat, staff_id, **kwargs):
    alerts.excluded_player_alert_raise(
        player_id=player_id, table_id=table_id, seat=seat, staff_id=staff_id
    )


@receiver(ratings_events.cash_in_recorded, dispatch_uid="pit.alerts.aml_identity")
@_logged
def on_cash_in_recorded(*, player_id, table_id, at, **kwargs):
    alerts.aml_identity_alert_raise(player_id=player_id, table_id=table_id, at=at)


@receiver(ratings_events.rating_adjusted, dispatch_uid="pit.alerts.rating_adjusted")
@_logged
def on_rating_adjusted(*, rating_id, staff_id, **kwargs):
    tasks.repeated_ratings_check.delay_on_commit(rating_id, staff_id)


@receiver(ratings_events.rating_changed, dispatch_uid="pit.seats.rating_changed")
@_logged
def on_rating_changed(*, table_id, **kwargs):
    # Sent after commit: another supervisor's page of that table shows the seat map now.
    from tables.pit import live

    live.announce_seats(table_id)


@receiver(ratings_events.rating_time_corrected, dispatch_uid="pit.alerts.rating_time_corrected")
@_logged
def on_rating_time_corrected(*, correction_id, **kwargs):
    alerts.rating_time_edited_raise(correction_id=correction_id)


@receiver(ratings_events.rating_closed_with_walk, dispatch_uid="pit.alerts.rating_closed")
@_logged
def on_rating_closed_with_walk(*, rating_id, **kwargs):
    tasks.chips_gap_check.delay_on_commit(rating_id)  # the figures are read off the request
