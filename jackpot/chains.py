"""The meter ledger, verified against itself and against the audit chain (`audit_verify`).

Sums alone (the reconciliation) did not see 500 cents moved between two lines, an edited
`meter_after_cents` or a deleted posted contribution. Here every bank's ledger is walked line
by line:

- numbers 1, 2, 3... with no gap, up to the bank's `ledger_seq` (a deleted line, a cut-off end);
- each line's balances after it follow from the line before and its own amounts (meter,
  reserve, overflow), so an edited amount or balance is named at that line;
- every contribution line equals the audit entry posting wrote for it in the same transaction
  (`jackpot.contribution.recorded`: number, round key, wagers, the meter/reserve/overflow
  split and carries), and every such entry still has its line. The audit chain is keyed by a
  secret outside the database (casino.audit_keys), so the ledger's contributions are too.
"""

from casino.audit import ChainBreak, register_chain
from casino.models import AuditEntry
from jackpot.models import Bank, MeterEntry

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


def ledger_find_break() -> ChainBreak | None:
    audits = _contribution_audits()
    for bank in Bank.objects.order_by("pk"):
        previous_seq, balances = 0, {after: 0 for _, after in BALANCES}
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
            previous_seq = line.seq
        if previous_seq != bank.ledger_seq:
            reason = (
                f"the bank counts {bank.ledger_seq} lines but its ledger ends at line "
                f"{previous_seq} (its last lines deleted, or the table truncated)"
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
