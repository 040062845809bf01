"""The pit's live channel: every open dashboard is in one group.

Alerts: the services announce an alert by its id after commit; the consumer reads it
(`alerts.alert_for_pit`) and words it in each reader's language, so no words travel here.
"""

from casino.live import group_send

PIT_GROUP = "pit"


def announce_alert(alert_id: int) -> None:
    """An alert was raised or acknowledged (call it after commit)."""
    group_send(PIT_GROUP, {"type": "pit.alert", "alert_id": alert_id})


def announce_floor_changed() -> None:
    """Something the pit shows changed through a pit action (a hit verified, a parameter
    change decided...): every dashboard reads its queue and cards again."""
    group_send(PIT_GROUP, {"type": "pit.changed"})


def announce_seats(table_id: int) -> None:
    """A rating at the table opened, paused, resumed, moved or closed (call it after commit):
    every pit page showing that table's seat map reads it again. Only the table's id travels."""
    group_send(PIT_GROUP, {"type": "pit.seats", "table": table_id})
