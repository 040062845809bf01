"""The meter ledger, verified against itself and against the audit chain (`audit_verify`).

Sums alone (the reconciliation) did not see 500 cents moved between two lines, an edited
`meter_after_cents` or a deleted posted contribution. Here every bank's ledger is walked line
by line:

- numbers 1, 2, 3... with no gap, up to the bank's `ledger_seq` (a deleted line, a cut-off end);
- each line's balances after it follow from the line before and its own amounts (meter,
  reserve, overflow), so an edited amount or balance is named at that line;
- every contribution line equals the audit entry posting wrote for it in the same transaction
  (`jackpot.contribution.recorded`: number, round key, wagers, the meter/reserve/overflow
  split and carries), and every such entry still has its line;
- every line, whatever its kind, holds its MAC under the key it names (AUDIT_HMAC_KEY or one
  of AUDIT_HMAC_PREVIOUS_KEYS: casino.audit_keys, a secret outside the database) and links to
  the line before by its hash, and the bank row's `ledger_hash` is the last line's. So a hit's,
  a reset's or an adjustment's amount rewritten with every later balance, a tail re-chained
  without the key, a forged line and a changed id are each named at their line.
"""

from casino.audit import ChainBreak, register_chain
from casino.audit_keys import known_keys
from casino.models import AuditEntry
from jackpot.models import LEDGER_GENESIS, Bank, MeterEntry, meter_entry_digest

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


def _seal_break(line: MeterEntry, keys: dict[str, str], previous_hash: str) -> str | None:
    """Why the line's own seal does not hold (None: it holds)."""
    if line.key_id not in keys:
        return (
            f"its key id {line.key_id!r} is not a known key (forged, unsealed, or the key is "
            "missing from AUDIT_HMAC_PREVIOUS_KEYS)"
        )
    if line.hash != meter_entry_digest(line, keys[line.key_id]):
        return "its content no longer matches its MAC (edited, renumbered, re-chained or forged)"
    if line.prev_hash != previous_hash:
        return "its previous-hash does not match the hash of the line before it"
    return None


def ledger_find_break() -> ChainBreak | None:
    audits = _contribution_audits()
    keys = known_keys()
    for bank in Bank.objects.order_by("pk"):
        previous_seq, balances = 0, {after: 0 for _, after in BALANCES}
        previous_hash = LEDGER_GENESIS
        lines = MeterEntry.objects.filter(bank=bank).order_by("seq").iterator(chunk_size=2000)
        for line in lines:
            where = f"bank {bank.slug}, line {line.seq} ({line.kind})"
            if line.seq != previous_seq + 1:
                first, last = previous_seq + 1, line.seq - 1
                gone = f"line {first} is" if first == last else f"lines {first} to {last} are"
                return ChainBreak(line, line.pk, where, f"{gone} missing (deleted) before it")
            for delta, after in BALANCES:
                expected = balances[after] + getattr(line, delta)
                if getattr(line, after) != expected:
                    reason = (
                        f"its {after} is {getattr(line, after)}, but the line before and its "
                        f"own {delta} give {expected} (edited)"
                    )
                    return ChainBreak(line, line.pk, where, reason)
                balances[after] = expected
            if line.kind == MeterEntry.Kind.CONTRIBUTION:
                recorded = audits.pop((bank.pk, line.seq), None)
                if recorded is None:
                    reason = "no audit entry records this contribution (inserted, or renumbered)"
                    return ChainBreak(line, line.pk, where, reason)
                entry_id, data = recorded
                for key, field in CONTRIBUTION_FIELDS.items():
                    if data.get(key) != getattr(line, field):
                        reason = (
                            f"its {field} is {getattr(line, field)!r} but audit entry #{entry_id} "
                            f"recorded {data.get(key)!r} (edited)"
                        )
                        return ChainBreak(line, line.pk, where, reason)
            reason = _seal_break(line, keys, previous_hash)
            if reason is not None:
                return ChainBreak(line, line.pk, where, reason)
            previous_seq, previous_hash = line.seq, line.hash
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
    if audits:
        (bank_id, seq), (entry_id, _data) = min(audits.items())
        reason = (
            f"audit entry #{entry_id} records contribution line {seq} of bank #{bank_id}, "
            "which the ledger no longer has (deleted)"
        )
        return ChainBreak(None, entry_id, f"bank #{bank_id}, line {seq}", reason)
    return None


register_chain("meter ledger", ledger_find_break)
