"""What ratings do when the tables below them change: a table's close closes its ratings."""

from django.dispatch import receiver

from tables import events as tables_events
from tables.ratings.services import ratings_close_for_table


@receiver(tables_events.table_closing, dispatch_uid="ratings.table_closing")
def on_table_closing(*, table_id, staff, **kwargs):
    # Inside the table's transaction: a failure here keeps the table open (nothing half done).
    ratings_close_for_table(table_id=table_id, staff=staff)
