"""The table's live channel (`/ws/tables/<id>/`): what the services announce after commit.

Nothing is sent before commit; a round's `seq` only grows, and a client drops a round
message older than the one it shows.
"""

from casino.live import after_commit, group_send, group_sends

#: Every table's changes, in one group: for screens that watch the whole floor (the pit).
#: Only the table's id travels; the screen reads what it shows.
FLOOR_GROUP = "tables.floor"


def table_group(table_id: int) -> str:
    return f"tables.table.{table_id}"


def floor_event(table_id: int) -> dict:
    return {"type": "floor.changed", "table": table_id}


def table_message(table_id: int, payload: dict) -> tuple[str, dict]:
    """The send of `payload` to the table's sockets: its group and its event."""
    return table_group(table_id), {"type": "table.message", "payload": payload}


def announce_round(round_body: dict) -> None:
    """A write to the round commits in this transaction: after commit, the table's sockets
    get the round as the write answered it (its `seq` orders messages that cross)."""
    table_id = round_body["table"]
    sends = [
        table_message(table_id, {"type": "round", "round": round_body}),
        (FLOOR_GROUP, floor_event(table_id)),
    ]
    after_commit(lambda: group_sends(sends))


def announce_table(table_id: int) -> None:
    """The table opened or closed, or its dealer changed, in this transaction."""
    after_commit(lambda: publish_table(table_id))


def publish_table(table_id: int) -> None:
    from tables.selectors import table_detail

    found = table_detail(table_id)
    sends = [] if found is None else [table_message(table_id, {"type": "table", "table": found})]
    group_sends([*sends, (FLOOR_GROUP, floor_event(table_id))])


def seats_message(table_id: int) -> dict:
    """The tablet's seat labels now: `{"type": "seats", "seats": {"3": "alias"}}` (a seat
    without a label is absent: an alias only, never a name, a card or a figure)."""
    from tables.seat_labels import seat_labels

    seats = {str(n): label for n, label in sorted(seat_labels(table_id).items())}
    return {"type": "seats", "seats": seats}


def publish_seats(table_id: int) -> None:
    """Send the table's sockets its seat labels. Call it after commit (tables.ratings'
    `rating_changed` is sent then); a socket that connects later has them in its snapshot."""
    group_send(*table_message(table_id, seats_message(table_id)))
