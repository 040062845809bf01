"""The three reads of every step of a round, written in SQL.

A dealer's tap reads the round (locked) with who deals its table now, the write already kept
under the request's key (a retry) and the round's events. Through the ORM, building these
queries cost several times the database's own answer, on every tap
(docs/architecture/overview.md, "Where a tap's time goes"). Everything else a step does
stays in the ORM.
"""

import json

from django.db import connection

from casino.ids import db_id
from casino.models import Staff
from tables.models import DealerAssignment, IdempotentWrite, Round, RoundEvent, Table


def _json(value):
    """A JSON column as the database driver returns it: text (Django leaves the decoding to the
    model field), or already decoded by another driver."""
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def _sql(text: str) -> str:
    return text.format(
        round=Round._meta.db_table,
        assignment=DealerAssignment._meta.db_table,
        event=RoundEvent._meta.db_table,
        kept=IdempotentWrite._meta.db_table,
        staff=Staff._meta.db_table,
        table=Table._meta.db_table,
    )


def _locking(sql: str, *, of: str = "") -> str:
    """`sql` locking the round's row until the transaction ends: FOR NO KEY UPDATE (see
    tables.services._base) of `of` (the round's alias), where the database has row locks."""
    if not connection.features.has_select_for_update:
        return sql
    if connection.vendor != "postgresql":
        return sql + " FOR UPDATE"
    return sql + " FOR NO KEY UPDATE" + (f" OF {of}" if of else "")


# "Who deals the table at this instant" is DealerAssignment.objects.covering(at) (from
# `starts_at` included to `ends_at` excluded; the latest first, as `current_assignment` takes
# it): the same here, tested against it in tests/tables/rounds/test_round_reads.py.
_ROUND_LOCKED = _sql(
    """
    SELECT r.*, d.username AS dealer_username, d.first_name AS dealer_first_name,
        d.last_name AS dealer_last_name, d.is_active AS dealer_is_active,
        t.name AS table_name, t.min_bet_cents AS table_min_bet_cents,
        t.max_bet_cents AS table_max_bet_cents, t.trips_min_cents AS table_trips_min_cents,
        t.trips_max_cents AS table_trips_max_cents, (
        SELECT a.dealer_id FROM {assignment} a
        WHERE a.table_id = r.table_id AND a.starts_at <= %s
          AND (a.ends_at IS NULL OR a.ends_at > %s)
        ORDER BY a.starts_at DESC LIMIT 1
    ) AS dealing_id
    FROM {round} r JOIN {staff} d ON d.id = r.dealer_id JOIN {table} t ON t.id = r.table_id
    WHERE r.id = %s
    """
)


def round_locked(round_id, *, at, lock: bool = True) -> Round | None:
    """The round, its row locked until the transaction ends (FOR NO KEY UPDATE: see
    tables.services._base), with `dealing_id`: who deals its table at `at` (None: nobody).
    None when there is no such round. `lock=False`: the same, read without the lock (before
    an approval's PIN is checked)."""
    round_id = db_id(round_id)
    if round_id is None:
        return None
    sql = _locking(_ROUND_LOCKED, of="r") if lock else _ROUND_LOCKED
    at = connection.ops.adapt_datetimefield_value(at)  # as the ORM would send it
    found = list(Round.objects.raw(sql, [at, at, round_id]))
    if not found:
        return None
    round_ = found[0]
    # The dealer as a round's snapshot names them (id and name), read with the round; any other
    # field of theirs is read when first used.
    dealer = Staff.from_db(
        connection.alias,
        ["id", "username", "first_name", "last_name", "is_active"],
        [
            round_.dealer_id,
            round_.dealer_username,
            round_.dealer_first_name,
            round_.dealer_last_name,
            bool(round_.dealer_is_active),
        ],
    )
    Round.dealer.field.set_cached_value(round_, dealer)
    # Its table's name and limits, which a step checks or names; the rest when first used.
    table = Table.from_db(
        connection.alias,
        TABLE_FIELDS,
        [round_.table_id, *(getattr(round_, f"table_{name}") for name in TABLE_FIELDS[1:])],
    )
    Round.table.field.set_cached_value(round_, table)
    return round_


_SEQ = _sql("SELECT seq FROM {round} WHERE id = %s")


def round_seq_locked(round_id: int) -> int | None:
    """The round's seq, its row locked as by round_locked (None: no such round)."""
    with connection.cursor() as cursor:
        cursor.execute(_locking(_SEQ), [round_id])
        row = cursor.fetchone()
    return row[0] if row else None


# In the order of the model's fields (Model.from_db).
TABLE_FIELDS = [
    "id",
    "name",
    "min_bet_cents",
    "max_bet_cents",
    "trips_min_cents",
    "trips_max_cents",
]


_EVENTS = _sql("SELECT data, hash FROM {event} WHERE round_id = %s ORDER BY seq")


def round_events(round_id: int) -> list[tuple[dict, str]]:
    """Each event's data and hash, in order."""
    with connection.cursor() as cursor:
        cursor.execute(_EVENTS, [round_id])
        return [(_json(data), hash_) for data, hash_ in cursor.fetchall()]


# Read after the round's lock is granted, never in the locking statement: a retry of the same
# key that waited for that lock must see the write the first one kept meanwhile (a locking
# statement's joins keep the snapshot taken before the wait).
_KEPT = _sql("SELECT body_hash, status, response FROM {kept} WHERE scope = %s AND key = %s")


def write_kept(scope: str, key: str) -> tuple[str, int, dict] | None:
    """The write kept under this key in this scope: its body's digest, status and answer."""
    with connection.cursor() as cursor:
        cursor.execute(_KEPT, [scope, key])
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1], _json(row[2]))
