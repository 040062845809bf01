"""What every progressive service shares: the clock, the ledger append, the cached totals, the
role check and the two-person check.

It imports no other service module (the bank lock lives in services.posting).
"""

import datetime as dt

from django.utils import timezone
from django.utils.translation import gettext as _

from casino import errors as casino_errors
from casino.audit_keys import current_key_id, known_keys
from casino.clock import stamp
from casino.duties import require_independent
from casino.ids import draw_ids
from casino.roles import has_role, role_list
from jackpot.errors import RoleRequired, TwoPeopleRequired
from jackpot.models import LEDGER_GENESIS, Bank, MeterEntry, meter_entry_digest

# The cached totals a service writes back; feed_seq belongs to jackpot.feed, which updates it.
TOTAL_FIELDS = [
    "meter_cents",
    "reserve_cents",
    "overflow_cents",
    "meter_carry_ppm",
    "reserve_carry_ppm",
    "contributions_count",
    "wagered_cents",
    "hits_count",
    "paid_total_cents",
    "house_funded_cents",
    "ledger_seq",
    "hit_seq",
]
# Saved with the totals, but not a total: the reconciliation leaves it to jackpot.chains.
CHAIN_FIELDS = ["ledger_hash"]


def seal_lines(bank: Bank, entries: list[MeterEntry], ids: list[int] | None = None) -> None:
    """Chain new lines of `bank`, in number order, to its last one and key them, just
    before their INSERT: one HMAC per line, and the previous hash is the one on the bank's
    row, which the caller holds locked (and saves with the totals), so the ledger is not read.
    `ids`: ids already drawn for them."""
    if not entries:
        return
    ids = ids if ids is not None else draw_ids(MeterEntry, len(entries))
    key_id = current_key_id()
    key = known_keys()[key_id]
    previous = bank.ledger_hash or LEDGER_GENESIS
    for pk, entry in zip(ids, entries, strict=True):
        entry.pk = pk
        entry.prev_hash, entry.key_id = previous, key_id
        entry.hash = previous = meter_entry_digest(entry, key)
    bank.ledger_hash = previous


def require_role(staff, *roles: str) -> None:
    """casino.roles' check, refused as the progressive's RoleRequired (a JackpotError)."""
    if not has_role(staff, *roles):
        raise RoleRequired(
            _("This needs the role: %(roles)s.") % {"roles": role_list(roles)},
            params={"roles": [str(role) for role in roles]},
        )


def require_two_people(*, approver, asker, action: str, subject=None) -> None:
    """casino.duties.require_independent, refused as the progressive's TwoPeopleRequired.
    Call it before the service's transaction: the refusal is audited and committed."""
    try:
        require_independent(approver=approver, asker=asker, action=action, subject=subject)
    except casino_errors.TwoPeopleRequired as exc:
        raise TwoPeopleRequired(exc.message) from exc


class When:
    """One instant, with the gaming date and shift the server assigns to it."""

    __slots__ = ("at", "gaming_date", "shift")

    def __init__(self, at: dt.datetime, gaming_date, shift: str) -> None:
        self.at, self.gaming_date, self.shift = at, gaming_date, shift

    @classmethod
    def now(cls) -> "When":
        at = timezone.now()
        gaming_date, shift = stamp(at)
        return cls(at, gaming_date, shift)

    @classmethod
    def of_audit(cls, entry) -> "When":
        # The audit entry was stamped a moment ago: reuse it rather than ask the clock again.
        return cls(entry.created_at, entry.gaming_date, entry.shift)


def build_entry(
    bank: Bank,
    *,
    kind: str,
    when: When,
    actor=None,
    meter: int = 0,
    reserve: int = 0,
    overflow: int = 0,
    meter_carry: int = 0,
    reserve_carry: int = 0,
    **fields,
) -> MeterEntry:
    """The next ledger line, not saved yet; the bank's cached totals move by its amounts.

    The caller holds the bank lock, saves the line and the bank (TOTAL_FIELDS) before commit.
    """
    bank.ledger_seq += 1
    bank.meter_cents += meter
    bank.reserve_cents += reserve
    bank.overflow_cents += overflow
    bank.meter_carry_ppm += meter_carry
    bank.reserve_carry_ppm += reserve_carry
    bank.house_funded_cents += fields.get("house_funded_cents", 0)
    entry = MeterEntry(
        bank=bank,
        seq=bank.ledger_seq,
        kind=kind,
        created_at=when.at,
        gaming_date=when.gaming_date,
        shift=when.shift,
        actor=actor if getattr(actor, "pk", None) else None,
        meter_delta_cents=meter,
        reserve_delta_cents=reserve,
        overflow_delta_cents=overflow,
        meter_carry_delta_ppm=meter_carry,
        reserve_carry_delta_ppm=reserve_carry,
        meter_after_cents=bank.meter_cents,
        reserve_after_cents=bank.reserve_cents,
        overflow_after_cents=bank.overflow_cents,
        **fields,
    )
    return entry


def append_entry(bank: Bank, **kwargs) -> MeterEntry:
    """Add one ledger line (see build_entry), chained and keyed, and save it."""
    entry = build_entry(bank, **kwargs)
    seal_lines(bank, [entry])
    entry.save(force_insert=True)
    return entry


def save_totals(bank: Bank) -> None:
    """The bank's totals, its ledger's head and its feed seq (taken by feed.announce_* with
    `save=False` before this call), in one UPDATE of the row the caller holds locked."""
    bank.save(update_fields=[*TOTAL_FIELDS, *CHAIN_FIELDS, "feed_seq"])


def reset_to_seed(bank: Bank, *, when: When, actor=None, hit=None, reference: str = ""):
    """Bring the meter up to the reset amount, drawn from the reserve; the house pays what
    the reserve cannot (recorded on the entry). Nothing is written if the meter is already
    at or above the reset amount."""
    need = bank.reset_cents - bank.meter_cents
    if need <= 0:
        return None
    from_reserve = min(max(bank.reserve_cents, 0), need)
    return append_entry(
        bank,
        kind=MeterEntry.Kind.RESET,
        when=when,
        actor=actor,
        meter=need,
        reserve=-from_reserve,
        house_funded_cents=need - from_reserve,
        hit=hit,
        reference=reference,
        data={"reset_cents": bank.reset_cents, "from_reserve_cents": from_reserve},
    )
