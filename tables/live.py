"""The table's live channel (`/ws/tables/<id>/`): what the services announce after commit.

A message is built from the committed rows when it is sent, so a socket always ends on the
committed state; `seq` only grows, and a client drops a round message older than the one
it shows.
"""

from casino.live import after_commit, group_send


def table_group(table_id: int) -> str:
    return f"tables.table.{table_id}"


def announce_round(round_id: int) -> None:
    """A write to the round commits in this transaction: the table's sockets hear it after."""
    after_commit(lambda: publish_round(round_id))


def publish_round(round_id: int) -> None:
    from tables.models import Round
    from tables.snapshots import round_snapshot

    round_ = Round.objects.select_related("dealer").filter(pk=round_id).first()
    if round_ is not None:
        payload = {"type": "round", "round": round_snapshot(round_)}
        group_send(table_group(round_.table_id), {"type": "table.message", "payload": payload})


def announce_table(table_id: int) -> None:
    """The table opened or closed, or its dealer changed, in this transaction."""
    after_commit(lambda: publish_table(table_id))


def publish_table(table_id: int) -> None:
    from tables.selectors import table_detail

    found = table_detail(table_id)
    if found is not None:
        payload = {"type": "table", "table": found}
        group_send(table_group(table_id), {"type": "table.message", "payload": payload})
