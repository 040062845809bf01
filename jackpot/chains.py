"""The meter ledger's checks for `audit_verify`: each bank's lines walked as a chain
(casino.chains), their balances followed line to line and each contribution held against the
audit entry posting wrote for it; each bank's head held against the audit checkpoints.

Sums alone (the reconciliation) miss an amount moved between lines, an edited balance or a
deleted contribution; the chain alone misses its own end cut off with the bank row rewritten
to match, which any checkpoint written before the cut shows. See
docs/architecture/audit-chain.md.
"""

from django.db.models import Max

from casino.audit import ChainBreak, register_chain
from casino.audit_keys import known_keys
from casino.audit_records import register_record
from casino.chains import EDITED, REFUSED, RELINKED, UNKNOWN_KEY, walk
from casino.checkpoints import Checkpoint, register_heads
from casino.models import AuditEntry
from jackpot.models import LEDGER_GENESIS, Bank, Hit, MeterEntry, meter_entry_digest

# audit data key -> ledger line field, for a contribution.
CONTRIBUTION_FIELDS = {
    "ref": "reference",
    "wagers": "wager_count",
    "meter": "meter_delta_cents",
    "reserve": "reserve_delta_cents",
    "overflow": "overflow_delta_cents",
    "meter_carry": "meter_carry_delta_ppm",
    "reserve_carry": "reserve_carry_delta_ppm",
}
BALANCES = (
    ("meter_delta_cents", "meter_after_cents"),
    ("reserve_delta_cents", "reserve_after_cents"),
    ("overflow_delta_cents", "overflow_after_cents"),
)


def _contribution_audits() -> dict[tuple[int, int], tuple[int, dict]]:
    found = {}
    rows = AuditEntry.objects.filter(
        code="jackpot.contribution.recorded", subject_type="jackpot.bank"
    ).values_list("pk", "subject_id", "data")
    for pk, bank_id, data in rows.iterator(chunk_size=2000):
        found[(int(bank_id), int(data.get("seq", 0)))] = (pk, data)
    return found


_SEAL_BREAKS = {
    UNKNOWN_KEY: (
        "its key id {key_id!r} is not a known key (forged, unsealed, or the key is missing "
        "from AUDIT_HMAC_PREVIOUS_KEYS)"
    ),
    EDITED: "its content no longer matches its MAC (edited, renumbered, re-chained or forged)",
    RELINKED: "its previous-hash does not match the hash of the line before it",
}


def _bank_break(bank: Bank, audits: dict) -> ChainBreak | None:
    """The first line of the bank's ledger that does not hold, or its end that does not match
    the bank row. Contribution lines found are taken out of `audits`."""
    balances = {after: 0 for _, after in BALANCES}

    def follows(line: MeterEntry) -> str | None:
        """Its balances follow from the line before, and a contribution is as audited."""
        for delta, after in BALANCES:
            expected = balances[after] + getattr(line, delta)
            if getattr(line, after) != expected:
                return (
                    f"its {after} is {getattr(line, after)}, but the line before and its "
                    f"own {delta} give {expected} (edited)"
                )
            balances[after] = expected
        if line.kind == MeterEntry.Kind.CONTRIBUTION:
            recorded = audits.pop((bank.pk, line.seq), None)
            if recorded is None:
                return "no audit entry records this contribution (inserted, or renumbered)"
            entry_id, data = recorded
            for key, field in CONTRIBUTION_FIELDS.items():
                if data.get(key) != getattr(line, field):
                    return (
                        f"its {field} is {getattr(line, field)!r} but audit entry #{entry_id} "
                        f"recorded {data.get(key)!r} (edited)"
                    )
        return None

    walked = walk(
        MeterEntry.objects.filter(bank=bank).order_by("seq").iterator(chunk_size=2000),
        keys=known_keys(),
        digest=meter_entry_digest,
        number="seq",
        check=follows,
    )
    broken = walked.broken
    if broken is not None:
        line = broken.row
        where = f"bank {bank.slug}, line {line.seq} ({line.kind})"
        if broken.kind in _SEAL_BREAKS:
            reason = _SEAL_BREAKS[broken.kind].format(key_id=line.key_id)
        elif broken.kind == REFUSED:
            reason = broken.reason
        else:
            first, last = broken.missing
            gone = f"line {first} is" if first == last else f"lines {first} to {last} are"
            reason = f"{gone} missing (deleted) before it"
        return ChainBreak(line, line.pk, where, reason)
    previous_seq, previous_hash, _id = walked.heads.get(None, (0, LEDGER_GENESIS, 0))
    if previous_seq != bank.ledger_seq:
        reason = (
            f"the bank counts {bank.ledger_seq} lines but its ledger ends at line "
            f"{previous_seq} (its last lines deleted, or the table truncated)"
        )
        return ChainBreak(None, bank.pk, f"bank {bank.slug}", reason)
    if previous_seq and bank.ledger_hash != previous_hash:
        reason = (
            f"the bank's last-line hash is not the hash of its line {previous_seq} (the "
            "ledger's end was replaced, or the bank row rewritten)"
        )
        return ChainBreak(None, bank.pk, f"bank {bank.slug}", reason)
    return None


def ledger_find_break() -> ChainBreak | None:
    audits = _contribution_audits()
    for bank in Bank.objects.order_by("pk"):
        broken = _bank_break(bank, audits)
        if broken is not None:
            return broken
    if audits:
        (bank_id, seq), (entry_id, _data) = min(audits.items())
        reason = (
            f"audit entry #{entry_id} records contribution line {seq} of bank #{bank_id}, "
            "which the ledger no longer has (deleted)"
        )
        return ChainBreak(None, entry_id, f"bank #{bank_id}, line {seq}", reason)
    return None


def ledger_heads() -> list[dict]:
    """Each bank's head as the bank row keeps it (a bank without lines has none): the row is
    saved in the transaction that inserts its lines, so it always names a committed line."""
    rows = Bank.objects.filter(ledger_seq__gt=0).order_by("pk")
    return [
        {"bank_id": pk, "bank": slug, "seq": seq, "hash": digest}
        for pk, slug, seq, digest in rows.values_list("pk", "slug", "ledger_seq", "ledger_hash")
    ]


def _hashes_at(bank_id: int, numbers: list[int]) -> dict[int, str]:
    found = {}
    for start in range(0, len(numbers), 500):  # SQLite's limit on a query's parameters
        chunk = numbers[start : start + 500]
        rows = MeterEntry.objects.filter(bank_id=bank_id, seq__in=chunk)
        found.update(rows.values_list("seq", "hash"))
    return found


def ledger_heads_find_break(checkpoints: list[Checkpoint]) -> ChainBreak | None:
    """The first bank whose ledger lost or changed a line a checkpoint recorded as its head: a
    changed line is named at the lowest such number (the ledger was rewritten there or before),
    a cut-off end at the furthest head recorded beyond it."""
    # (bank id) -> {line number: (hash, the first checkpoint that recorded it, its code then)}
    recorded: dict[int, dict[int, tuple[str, Checkpoint, str]]] = {}
    for checkpoint in checkpoints:
        for head in checkpoint.heads.get("meter ledger", []):
            lines = recorded.setdefault(int(head["bank_id"]), {})
            lines.setdefault(int(head["seq"]), (head["hash"], checkpoint, head.get("bank", "")))
    banks = dict(Bank.objects.filter(pk__in=recorded).values_list("pk", "slug"))
    ends = dict(
        MeterEntry.objects.filter(bank_id__in=recorded)
        .values("bank_id")
        .annotate(end=Max("seq"))
        .values_list("bank_id", "end")
    )
    for bank_id in sorted(recorded):
        heads = recorded[bank_id]
        if bank_id not in banks:
            seq = max(heads)
            _hash, checkpoint, code = heads[seq]
            reason = (
                f"the checkpoint written at {checkpoint.written_at} recorded its line {seq}, "
                "but the bank is no longer in the database (deleted)"
            )
            return ChainBreak(None, bank_id, f"bank #{bank_id} ({code})", reason)
        slug, end = banks[bank_id], ends.get(bank_id, 0)
        found = _hashes_at(bank_id, sorted(heads))
        for seq in sorted(heads):
            expected, checkpoint, _code = heads[seq]
            if seq in found and found[seq] != expected:
                reason = (
                    f"its hash is {found[seq]}, but the checkpoint written at "
                    f"{checkpoint.written_at} recorded {expected} for this line: the ledger "
                    "was rewritten at or before it"
                )
                return ChainBreak(None, bank_id, f"bank {slug}, line {seq}", reason)
        missing = [seq for seq in heads if seq not in found]
        if missing:
            seq = max(missing)
            expected, checkpoint, _code = heads[seq]
            written = f"the checkpoint written at {checkpoint.written_at}"
            if seq > end:
                cut = f"line {seq} was" if seq == end + 1 else f"lines {end + 1} to {seq} were"
                reason = (
                    f"the ledger ends at line {end}, but {written} recorded line {seq} with hash "
                    f"{expected}: {cut} cut off (deleted, and the bank's count and last hash "
                    "rewritten to match)"
                )
            else:
                reason = f"{written} recorded this line with hash {expected}, but it is gone"
            return ChainBreak(None, bank_id, f"bank {slug}, line {seq}", reason)
    return None


register_chain("meter ledger", ledger_find_break)
register_heads(
    "meter ledger",
    provide=ledger_heads,
    find_break=ledger_heads_find_break,
    describe=lambda head: f"bank {head['bank']} at line {head['seq']}, hash {head['hash']}",
)

# A hit is tamper-evident as the money records of the tables are: each of its entries carries
# the digest of the hit as it then stood (casino.audit_records.register_record), so an amount, a
# recorder or a state changed since, a hit deleted or one with no entry is named.
register_record(
    Hit,
    fields=(
        "bank_id",
        "order",
        "table_label",
        "seat",
        "level",
        "percent",
        "amount_cents",
        "meter_before_cents",
        "meter_after_cents",
        "reference",
        "state",
        "recorded_at",
        "gaming_date",
        "shift",
        "recorded_by_id",
        "verified_by_id",
        "verified_at",
        "paid_by_id",
        "paid_at",
    ),
    codes=["jackpot.hit.recorded", "jackpot.hit.verified", "jackpot.hit.paid"],
    name="progressive hit",
)
