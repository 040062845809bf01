"""What ratings do when the tables below them change (a table's close closes its ratings), and
what the tables hear of ratings (the tablet's seat labels after every rating write)."""

import logging

from django.dispatch import receiver

from tables import events as tables_events
from tables.live import publish_seats
from tables.ratings import events
from tables.ratings.services import ratings_close_for_table

logger = logging.getLogger(__name__)


@receiver(tables_events.table_closing, dispatch_uid="ratings.table_closing")
def on_table_closing(*, table_id, staff, **kwargs):
    # Inside the table's transaction: a failure here keeps the table open (nothing half done).
    ratings_close_for_table(table_id=table_id, staff=staff)


@receiver(events.rating_changed, dispatch_uid="ratings.tablet_seats")
def on_rating_changed_tell_the_tablets(*, table_id, **kwargs):
    # Sent after commit: the table's tablets show the rated seats' aliases at once. A failed
    # send (the channel layer down) is logged and keeps the signal's other receivers going;
    # a tablet reads the aliases again at its next load.
    try:
        publish_seats(table_id)
    except Exception:
        logger.exception("The seats of table #%s were not announced", table_id)


# The reports' summaries (tables.ratings.summaries), refreshed after commit: the events are
# sent then, so nothing here is on the dealer's request path before the answer is committed.
@receiver(tables_events.round_settled, dispatch_uid="ratings.summaries.settled")
@receiver(tables_events.round_corrected, dispatch_uid="ratings.summaries.corrected")
@receiver(tables_events.void_decided, dispatch_uid="ratings.summaries.void")
def on_round_counted(*, round_id, **kwargs):
    from tables.ratings.summaries import refresh_for_round

    refresh_for_round(round_id)


@receiver(events.rating_changed, dispatch_uid="ratings.summaries.rating_changed")
def on_rating_changed_keep_the_summaries(*, table_id, **kwargs):
    from tables.ratings.summaries import refresh_for_table

    refresh_for_table(table_id)
