"""Progressive banks for tests, built through the services (so the ledger is real)."""

from casino.roles import Role
from jackpot import services
from jackpot.models import Bank
from tests.factories import make_staff

LEVELS = [
    {
        "level": "royal_flush",
        "percent": 100,
        "label_fr": "Quinte flush royale",
        "label_en": "Royal flush",
    },
    {
        "level": "straight_flush",
        "percent": 10,
        "label_fr": "Quinte flush",
        "label_en": "Straight flush",
    },
]

# A 1.00 wager sends 20 cents to the meter and 5 cents to the reserve; the meter starts at 100.00.
DEFAULTS = {
    "wager_cents": 100,
    "reset_cents": 10_000,
    "increment_rate_ppm": 200_000,
    "hidden_rate_ppm": 50_000,
    "cap_cents": None,
    "levels": LEVELS,
}

_n = iter(range(1, 10**9))


def make_bank(*, manager=None, opened: bool = True, slug: str | None = None, **params) -> Bank:
    manager = manager or make_staff(Role.MANAGER)
    bank = services.bank_create(
        slug=slug or f"bank-{next(_n)}",
        name="Progressive UTH",
        manager=manager,
        **{**DEFAULTS, **params},
    )
    if opened:
        bank = services.bank_open(bank_id=bank.pk, actor=manager)
    bank.refresh_from_db()
    return bank


def contribute(bank: Bank, dealer, *, ref: str, wagers: int = 1):
    """Contribute and return the ledger line it was posted as (one test thread: the call
    always posts its own row). More wagers than one round has seats are spread over as many
    rounds as needed (`ref`, `ref.2`, ...): the sub-cent carries keep the meter exact."""
    counts = [wagers] if wagers <= 7 else [min(7, wagers - n) for n in range(0, wagers, 7)]
    for number, count in enumerate(counts, start=1):
        pending = services.bank_contribute(
            bank_id=bank.pk,
            reference=ref if number == 1 else f"{ref}.{number}",
            wager_count=count,
            wager_cents=bank.wager_cents,
            actor=dealer,
        )
        assert pending.entry is not None, "the contribution was not posted"
    bank.refresh_from_db()
    return pending.entry


def reverse(bank: Bank, supervisor, *, ref: str, reason: str = ""):
    """Reverse a round's contribution and return the ledger line it was posted as (one test
    thread, the bank made in the test's transaction: the call posts its own row)."""
    pending = services.bank_reverse(bank_id=bank.pk, reference=ref, actor=supervisor, reason=reason)
    pending.refresh_from_db()
    assert pending.entry is not None, "the reversal was not posted"
    bank.refresh_from_db()
    return pending.entry


def hit(
    bank: Bank,
    dealer,
    *,
    level: str = "royal_flush",
    table: str = "UTH-1",
    seat: int = 3,
    ref: str = "",
):
    """Record a hit the way the tables layer does: lock, read the level's amount, record."""
    from django.db import transaction

    from jackpot.selectors import level_amount

    with transaction.atomic():
        locked = services.bank_lock_and_post(bank.pk)
        recorded = services.hit_record(
            bank_id=bank.pk,
            table_label=table,
            seat=seat,
            level=level,
            amount_cents=level_amount(locked, level),
            actor=dealer,
            reference=ref,
        )
    bank.refresh_from_db()
    return recorded


def adjust(*, bank_id, reason, requested_by, approved_by, **targets):
    """A meter adjustment asked for by one manager and approved by another, herself."""
    from jackpot import services

    asked = services.adjustment_request(
        bank_id=bank_id, reason=reason, manager=requested_by, **targets
    )
    return services.adjustment_approve(adjustment_id=asked.pk, manager=approved_by)
