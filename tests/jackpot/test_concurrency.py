"""Many tables contributing at once, with hits in the middle (PostgreSQL, real row locks)."""

import threading

import pytest
from django.db import connection, transaction

from casino.roles import Role
from jackpot import services
from jackpot.models import PPM, Hit, MeterEntry
from jackpot.selectors import ledger_totals, level_amount
from jackpot.services.readings import RECONCILED_FIELDS
from tests.factories import make_staff
from tests.jackpot.factories import make_bank

THREADS = 8
ROUNDS = 30
HIT_AT = {2: 12, 5: 15}  # thread -> the round after which its table hits the royal flush


def wagers_for(thread: int, i: int) -> int:
    return 1 + (thread + i) % 7


def table(bank_id: int, thread: int, dealer, barrier, errors):
    try:
        barrier.wait(timeout=30)
        for i in range(ROUNDS):
            ref = f"t{thread}-r{i}"
            args = dict(
                bank_id=bank_id, reference=ref, wager_count=wagers_for(thread, i), wager_cents=100
            )
            services.bank_contribute(**args, actor=dealer)
            if i == 0:
                services.bank_contribute(**args, actor=dealer)  # a retry: must not count twice
            if HIT_AT.get(thread) == i:
                with transaction.atomic():  # as the tables layer settles: lock, read, record
                    locked = services.bank_lock_and_post(bank_id)
                    services.hit_record(
                        bank_id=bank_id,
                        table_label=f"UTH-{thread}",
                        seat=1,
                        level="royal_flush",
                        amount_cents=level_amount(locked, "royal_flush"),
                        actor=dealer,
                        reference=ref,
                    )
    except Exception as exc:  # reported by the test
        errors.append(exc)
    finally:
        connection.close()  # each thread had its own connection


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_eight_tables_contributing_at_once_with_hits_lose_nothing_and_count_nothing_twice():
    manager = make_staff(Role.MANAGER)
    bank = make_bank(manager=manager, increment_rate_ppm=123_456, hidden_rate_ppm=45_678)
    dealers = [make_staff(Role.DEALER) for _ in range(THREADS)]
    barrier, errors = threading.Barrier(THREADS), []
    threads = [
        threading.Thread(target=table, args=(bank.pk, n, dealers[n], barrier, errors))
        for n in range(THREADS)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    bank.refresh_from_db()

    # The cached totals are the ledger's sums, to the cent.
    totals = ledger_totals(bank)
    for name in RECONCILED_FIELDS:  # the reconciliation's own list, house_funded_cents too
        assert totals[name] == getattr(bank, name), name
    assert totals["entries"] == bank.ledger_seq  # no gap, no duplicate line

    # Nothing lost, nothing counted twice.
    wagers = sum(wagers_for(t, i) for t in range(THREADS) for i in range(ROUNDS))
    contributions = bank.entries.filter(kind=MeterEntry.Kind.CONTRIBUTION)
    assert contributions.count() == THREADS * ROUNDS
    assert bank.contributions_count == wagers
    fed = sum(e.meter_delta_cents * PPM + e.meter_carry_delta_ppm for e in contributions)
    assert fed == wagers * 100 * 123_456  # every millionth of a cent is accounted for

    # Hits in one consistent order: numbered 1, 2 in ledger order, each paid the meter as the
    # ledger stood just before it.
    hits = list(Hit.objects.filter(bank=bank).order_by("order"))
    assert [h.order for h in hits] == [1, 2]
    running, seen = 0, []
    for entry in bank.entries.order_by("seq"):
        if entry.kind == MeterEntry.Kind.HIT:
            assert entry.hit.meter_before_cents == running == entry.hit.amount_cents
            seen.append(entry.hit.order)
        running += entry.meter_delta_cents
        assert entry.meter_after_cents == running
    assert seen == [1, 2]
    assert bank.meter_cents == running


def test_the_bench_refuses_sqlite_with_a_clear_message(monkeypatch):
    from types import SimpleNamespace

    from django.core.management import CommandError, call_command

    monkeypatch.setattr(
        "jackpot.management.commands.jackpot_bench.connection", SimpleNamespace(vendor="sqlite")
    )
    with pytest.raises(CommandError, match="PostgreSQL"):
        call_command("jackpot_bench", "contributions", "--writers", "1", "--per-writer", "1")
