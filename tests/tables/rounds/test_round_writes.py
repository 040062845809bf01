"""A step's writes (tables.services.rounds.writes): the event, the round's new state and the
kept answer, three statements through the ORM, the same on every database."""

from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.models import IdempotentWrite, Round, RoundEvent
from tables.models.rounds import round_events_find_break
from tables.services.rounds import reads as round_reads
from tables.services.rounds import writes as round_writes


def _fields(obj):
    return {
        f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields if not f.primary_key
    }


def _step(felt, *, key="w1"):
    """One wagers_placed written through step_write, as the services build it."""
    with transaction.atomic():
        round_ = round_reads.round_locked(felt.round["id"], at=timezone.now())
        events = round_reads.round_events(round_.pk)
        round_.seq += 1
        event = RoundEvent(
            round=round_,
            seq=round_.seq,
            kind="wagers_placed",
            data={"kind": "wagers_placed", "seat": 2, "ante": 500, "blind": 500, "note": "é"},
            key=key,
            actor=felt.dealer,
            at=timezone.now(),
            prev_hash=events[-1][1],
        )
        round_.state = {**round_.state, "written": ["by", "step_write", 1]}
        round_.settlement = {"nested": {"cents": 12345}}
        kept = IdempotentWrite(
            scope=f"round:{round_.pk}:events",
            key=key,
            body_hash="0" * 64,
            status=200,
            response={"id": round_.pk, "seq": round_.seq, "seats": [{"seat": 2, "net": -5}]},
            staff=felt.dealer,
            at=timezone.now(),
        )
        with CaptureQueriesContext(connection) as seen:
            round_writes.step_write(round_, event, kept)
    return round_, event, kept, seen


def test_a_step_writes_its_event_the_round_and_the_kept_answer(felt):
    felt.open()
    felt.wagers(1)
    round_, event, kept, _seen = _step(felt)
    stored = RoundEvent.objects.get(round_id=round_.pk, seq=round_.seq)
    assert _fields(stored) == _fields(event)
    assert (
        stored.hash
        and stored.prev_hash == RoundEvent.objects.get(round_id=round_.pk, seq=round_.seq - 1).hash
    )
    again = Round.objects.get(pk=round_.pk)
    for name in round_writes.ROUND_FIELDS:
        assert getattr(again, name) == getattr(round_, name), name
    assert again.state["written"] == ["by", "step_write", 1]
    assert again.settlement == {"nested": {"cents": 12345}}
    assert _fields(IdempotentWrite.objects.get(scope=kept.scope, key=kept.key)) == _fields(kept)
    assert round_events_find_break() is None  # the chain holds


def test_the_three_writes_are_three_statements_on_every_database(felt):
    felt.open()
    felt.wagers(1)
    _round, _event, _kept, seen = _step(felt)
    statements = [q["sql"] for q in seen.captured_queries]
    assert [sql.split(" ", 2)[:2] for sql in statements] == [
        ["INSERT", "INTO"],
        ["UPDATE", '"tables_round"'],
        ["INSERT", "INTO"],
    ]


def test_the_services_steps_go_through_it(felt, monkeypatch):
    felt.open()
    calls = []
    write = round_writes.step_write
    monkeypatch.setattr(round_writes, "step_write", lambda *a: calls.append(a) or write(*a))
    felt.wagers(1)
    assert len(calls) == 1 and calls[0][1].kind == "wagers_placed"
    assert RoundEvent.objects.filter(round_id=felt.round["id"]).count() == 1
