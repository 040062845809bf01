"""Ids drawn before the INSERT, so that a row's own MAC or digest can cover its id (a copy of
the row under another id then fails it). The one place the project does this. Hand-written SQL
on PostgreSQL: `nextval` of the table's sequence, which the ORM cannot reach."""

from django.db import connection


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
