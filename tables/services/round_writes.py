"""The writes of every step of a round, in one statement on PostgreSQL.

A step appends its event, stores the round's new state and keeps its answer under the
request's key. Through the ORM these are three statements, each a round trip and CPU to
build; on PostgreSQL they are one statement (data-modifying WITH clauses; docs/benchmarks.md,
"Round API: 8 tables against `make serve`", measures the taps). Elsewhere (SQLite, the
newcomer's database) the ORM writes them.

The values are prepared by the model fields themselves (`get_db_prep_save`), as the ORM would
send them; the rows are the same either way (tests/tables/rounds/test_round_writes.py).
"""

from functools import cache

from django.db import connection

from tables.models import IdempotentWrite, Round, RoundEvent

# What a step changes on the round's row.
ROUND_FIELDS = ("seq", "state", "stage", "settled_at", "settlement", "settlement_input")


def _fields(model, names=None) -> list:
    return [
        f
        for f in model._meta.concrete_fields
        if not f.primary_key and (names is None or f.name in names)
    ]


@cache
def _statement() -> tuple[str, list, list, list]:
    """The statement (PostgreSQL), and the fields whose values it takes, in order."""
    quote = connection.ops.quote_name
    event, round_, kept = (
        _fields(RoundEvent),
        _fields(Round, ROUND_FIELDS),
        _fields(IdempotentWrite),
    )

    def columns(fields):
        return ", ".join(quote(f.column) for f in fields)

    def marks(fields):
        return ", ".join(["%s"] * len(fields))

    sets = ", ".join(f"{quote(f.column)} = %s" for f in round_)
    sql = (
        f"WITH event AS (INSERT INTO {quote(RoundEvent._meta.db_table)} ({columns(event)})"
        f" VALUES ({marks(event)})),"
        f" updated AS (UPDATE {quote(Round._meta.db_table)} SET {sets}"
        f" WHERE {quote(Round._meta.pk.column)} = %s RETURNING 1)"
        f" INSERT INTO {quote(IdempotentWrite._meta.db_table)} ({columns(kept)})"
        f" SELECT {marks(kept)} FROM updated"
    )
    return sql, event, round_, kept


def _values(obj, fields, *, add: bool) -> list:
    return [f.get_db_prep_save(f.pre_save(obj, add), connection) for f in fields]


def step_write(round_: Round, event: RoundEvent, kept: IdempotentWrite) -> None:
    """Write the step: `event` (sealed on its way in), the round's ROUND_FIELDS, the kept
    answer. The caller holds the round's lock, in its transaction."""
    if connection.vendor != "postgresql":
        event.save()
        round_.save(update_fields=ROUND_FIELDS)
        kept.save()
        return
    sql, event_fields, round_fields, kept_fields = _statement()
    event.seal()  # as RoundEvent.save does
    params = [
        *_values(event, event_fields, add=True),
        *_values(round_, round_fields, add=False),
        round_.pk,
        *_values(kept, kept_fields, add=True),
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:  # the caller holds the round's row: it is there
            raise RuntimeError(f"round #{round_.pk} was not updated")
