"""A round's money made tamper-evident with the audit chain (casino.audit_records.register_record), and
the round events' heads recorded in every audit checkpoint (casino.checkpoints.register_heads).

A round's money is what its confirmation, its void or its corrections wrote: the settlement
and its input stored on the round, its stage once finished, its settlement lines (the
corrections' lines too), its corrections, and the reversals its void queued for the progressive.
Each entry that changes it (`tables.round.settled`, `void_approved`, `corrected`) carries the
digest of all of it, so audit_verify names a line, a stored settlement, a correction or a
queued reversal edited, added or deleted since.

The round events chain each round's steps, but a round's last events deleted with the round's
`seq` and stage rewritten leave a chain that holds: every checkpoint records the head (last
event number and hash) of each round that moved lately, and audit_verify checks each recorded
head is still there. See docs/architecture/audit-chain.md.
"""

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from casino.audit import ChainBreak
from casino.audit_records import register_record
from casino.checkpoints import register_heads
from jackpot.models import PendingReversal
from tables.models import Correction, Round, RoundEvent, SettlementLine

# A checkpoint records the heads of the rounds opened, settled or voided within this long, or
# still in progress: the sweep checkpoints every few seconds, so each step is recorded by a
# few checkpoints before its round drops out.
HEADS_WINDOW = timedelta(minutes=10)

ROUND_MONEY_CODES = ("tables.round.settled", "tables.round.void_approved", "tables.round.corrected")


# What an entry of each code knows is still empty when it is written, so that writing it
# does not read it (a confirmation makes no correction and queues no reversal; a void writes
# no line and no correction; a correction is of a settled round, never voided). audit_verify
# reads everything: a row added there since shows as a mismatch all the same.
EMPTY_WHEN_WRITTEN = {
    "tables.round.settled": {"corrections", "reversals"},
    "tables.round.void_approved": {"lines", "corrections"},
    "tables.round.corrected": {"reversals"},
}


LINE_FIELDS = (
    "pk",
    "correction_id",
    "seat",
    "bet",
    "stake_cents",
    "net_cents",
    "paid_from",
    "hit_id",
    "gaming_date",
    "shift",
    "at",
)
CORRECTION_FIELDS = (
    "pk",
    "number",
    "key",
    "reason",
    "requested_by_id",
    "supervisor_id",
    "input",
    "output",
    "at",
)
REVERSAL_FIELDS = ("pk", "bank_id", "reference", "reason", "actor_id", "created_at")


def round_money(round_: Round, code: str | None = None) -> dict:
    """Everything of a round's money that changes only with an entry of ROUND_MONEY_CODES.
    `code`: the entry being written (None: audit_verify, which reads it all)."""
    empty = EMPTY_WHEN_WRITTEN.get(code, set())
    related = {
        "lines": (SettlementLine.objects.filter(round_id=round_.pk), LINE_FIELDS),
        "corrections": (Correction.objects.filter(round_id=round_.pk), CORRECTION_FIELDS),
        "reversals": (
            PendingReversal.objects.filter(reference=f"round-{round_.pk}"),
            REVERSAL_FIELDS,
        ),
    }
    return {
        "stage": round_.stage if round_.stage in Round.FINISHED else "",
        "settlement": round_.settlement,
        "settlement_input": round_.settlement_input,
        "settled_at": round_.settled_at,
        **{
            name: [] if name in empty else list(rows.order_by("pk").values_list(*fields))
            for name, (rows, fields) in related.items()
        },
    }


register_record(
    Round,
    fields=("stage", "settlement", "settlement_input", "settled_at"),
    content=round_money,
    codes=ROUND_MONEY_CODES,
    # A round with money: confirmed, voided, or (a void refused leaves none) settled.
    present=lambda: Round.objects.filter(Q(stage__in=Round.FINISHED) | Q(settlement__isnull=False)),
    name="round",
)


def round_heads() -> list[dict]:
    since = timezone.now() - HEADS_WINDOW
    moving = Round.objects.filter(
        Q(opened_at__gte=since) | Q(settled_at__gte=since) | ~Q(stage__in=Round.FINISHED)
    ).values_list("pk", flat=True)
    heads: dict[int, dict] = {}
    events = RoundEvent.objects.filter(round_id__in=list(moving)).order_by("round_id", "seq")
    for round_id, seq, hash_ in events.values_list("round_id", "seq", "hash"):
        heads[round_id] = {"round": round_id, "seq": seq, "hash": hash_}
    return list(heads.values())


def round_heads_find_break(checkpoints: list) -> ChainBreak | None:
    """The first round-event head a checkpoint recorded that is no longer in place."""
    recorded = [(c, head) for c in checkpoints for head in c.heads.get("round events", [])]
    rounds = sorted({head["round"] for _c, head in recorded})
    present: dict[tuple[int, int], str] = {}
    for start in range(0, len(rounds), 1000):
        events = RoundEvent.objects.filter(round_id__in=rounds[start : start + 1000])
        for round_id, seq, hash_ in events.values_list("round_id", "seq", "hash"):
            present[(round_id, seq)] = hash_
    for checkpoint, head in recorded:
        found = present.get((head["round"], head["seq"]))
        if found == head["hash"]:
            continue
        where = f"round {head['round']}, event {head['seq']}"
        what = "is missing (deleted)" if found is None else "has another hash (rewritten)"
        reason = (
            f"the checkpoint written at {checkpoint.written_at} recorded this event as the "
            f"round's last, with hash {head['hash']}; it {what}"
        )
        return ChainBreak(None, head["round"], where, reason)
    return None


register_heads(
    "round events",
    provide=round_heads,
    find_break=round_heads_find_break,
    describe=lambda head: f"round {head['round']}: event {head['seq']}",
)
