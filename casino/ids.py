"""Row ids: what a form, an address or a socket may name as one (`db_id`), and ids drawn
before the INSERT so that a row's own MAC or digest can cover its id (a copy of the row under
another id then fails it). The one place the project does each. Hand-written SQL on
PostgreSQL: `nextval` of the table's sequence, which the ORM cannot reach."""

from django.db import connection

#: The largest id a row has: the database's BIGINT (BigAutoField).
MAX_ID = 2**63 - 1


def db_id(value: object) -> int | None:
    """`value` as a row id (an int, or ASCII digits as typed or in an address) when a row can
    have it, 1 to MAX_ID; None otherwise, so that a huge, negative, foreign or boolean value
    never reaches the database (where it would be an overflow, not a "not found")."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 19:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ID:
        return None
    return value


def draw_ids(model, count: int) -> list[int]:
    """`count` new ids for `model`, ascending."""
    if count <= 0:
        return []
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                [model._meta.db_table, count],
            )
            return sorted(row[0] for row in cursor.fetchall())
    # SQLite serialises writers itself (IMMEDIATE transactions): the next ids are the free ones.
    top = model._default_manager.order_by("-pk").values_list("pk", flat=True).first() or 0
    return list(range(top + 1, top + 1 + count))
