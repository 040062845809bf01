"""The meter as an append-only ledger in integer cents (issue: the linked progressive, 2)."""

import pytest
from django.db import connection, transaction

from casino.errors import RoleRequired
from casino.models import AuditEntry
from jackpot import services
from jackpot.errors import (
    AlreadyReversed,
    BankClosed,
    BankNotFound,
    ContributionConflict,
    ContributionNotFound,
    InvalidAdjustment,
    TwoPeopleRequired,
    WrongContributionAmount,
)
from jackpot.models import AppendOnly, Bank, MeterEntry, PendingReversal
from jackpot.selectors import ledger_totals
from tests.jackpot.factories import adjust, contribute, hit, make_bank, reverse

STATE_FIELDS = (
    "meter_cents",
    "reserve_cents",
    "overflow_cents",
    "meter_carry_ppm",
    "reserve_carry_ppm",
    "contributions_count",
    "wagered_cents",
    "ledger_seq",
)


def state(bank: Bank) -> dict:
    bank.refresh_from_db()
    return {name: getattr(bank, name) for name in STATE_FIELDS}


def test_a_new_bank_starts_at_its_reset_amount_paid_by_the_house(closed_bank):
    seed = closed_bank.entries.get()
    assert seed.kind == MeterEntry.Kind.RESET
    assert (seed.meter_delta_cents, seed.house_funded_cents) == (10_000, 10_000)
    assert closed_bank.meter_cents == 10_000
    assert closed_bank.reserve_cents == 0


def test_a_contribution_feeds_the_meter_and_the_reserve_at_their_rates(bank, dealer):
    entry = contribute(bank, dealer, ref="round-1", wagers=3)
    # 3 wagers of 1.00: 20 % -> 60 cents to the meter, 5 % -> 15 cents to the reserve.
    assert (entry.meter_delta_cents, entry.reserve_delta_cents) == (60, 15)
    assert (bank.meter_cents, bank.reserve_cents) == (10_060, 15)
    assert (bank.contributions_count, bank.wagered_cents) == (3, 300)
    assert (entry.meter_after_cents, entry.reserve_after_cents) == (10_060, 15)


def test_sub_cent_parts_are_carried_to_the_next_contribution(db, manager, dealer):
    bank = make_bank(manager=manager, increment_rate_ppm=123_456, hidden_rate_ppm=0)
    deltas = [contribute(bank, dealer, ref=f"r{i}").meter_delta_cents for i in range(3)]
    # 12.3456 cents each: 12 (carry .3456), 12 (carry .6912), 13 (carry .0368).
    assert deltas == [12, 12, 13]
    assert bank.meter_cents == 10_037
    assert bank.meter_carry_ppm == 36_800
    # Nothing lost: 3 x 12.3456 = 37.0368 cents exactly.
    assert (bank.meter_cents - 10_000) * 1_000_000 + bank.meter_carry_ppm == 3 * 12_345_600


def test_above_the_cap_contributions_go_to_the_overflow(db, manager, dealer):
    bank = make_bank(manager=manager, cap_cents=10_050)
    first = contribute(bank, dealer, ref="r1", wagers=3)  # 60 cents: 50 fit under the cap
    assert (first.meter_delta_cents, first.overflow_delta_cents) == (50, 10)
    contribute(bank, dealer, ref="r2")
    assert (bank.meter_cents, bank.overflow_cents) == (10_050, 30)
    assert bank.reserve_cents == 20  # the hidden share is not capped


def test_a_retried_contribution_counts_once(bank, dealer):
    first = contribute(bank, dealer, ref="round-7", wagers=2)
    again = contribute(bank, dealer, ref="round-7", wagers=2)
    assert again.pk == first.pk
    assert bank.meter_cents == 10_040
    assert bank.entries.filter(kind=MeterEntry.Kind.CONTRIBUTION).count() == 1


def test_the_same_round_key_with_other_wagers_is_refused_and_changes_nothing(bank, dealer):
    contribute(bank, dealer, ref="round-7", wagers=2)
    before = state(bank)
    with pytest.raises(ContributionConflict):
        contribute(bank, dealer, ref="round-7", wagers=3)
    assert state(bank) == before


def test_a_contribution_of_the_wrong_amount_is_refused_and_changes_nothing(bank, dealer):
    before, audits = state(bank), AuditEntry.objects.count()
    with pytest.raises(WrongContributionAmount) as err:
        services.bank_contribute(
            bank_id=bank.pk, reference="r1", wager_count=1, wager_cents=500, actor=dealer
        )
    assert err.value.code == "wrong_contribution_amount"
    assert "100" in err.value.message
    assert state(bank) == before
    assert AuditEntry.objects.count() == audits


def test_a_contribution_of_no_wager_is_refused(bank, dealer):
    with pytest.raises(WrongContributionAmount):
        services.bank_contribute(
            bank_id=bank.pk, reference="r1", wager_count=0, wager_cents=100, actor=dealer
        )


def test_a_contribution_to_an_unknown_bank_is_a_clear_error(db, dealer):
    with pytest.raises(BankNotFound) as err:
        services.bank_contribute(
            bank_id=999_999, reference="r1", wager_count=1, wager_cents=100, actor=dealer
        )
    assert err.value.code == "bank_not_found"
    assert MeterEntry.objects.count() == 0


def test_a_closed_bank_takes_no_contribution(closed_bank, dealer):
    before = state(closed_bank)
    with pytest.raises(BankClosed):
        contribute(closed_bank, dealer, ref="r1")
    assert state(closed_bank) == before


def test_only_floor_staff_contribute(bank, auditor):
    with pytest.raises(RoleRequired):
        services.bank_contribute(
            bank_id=bank.pk, reference="r1", wager_count=1, wager_cents=100, actor=auditor
        )


def test_reversing_the_latest_contribution_restores_the_bank_exactly(
    db, manager, dealer, supervisor
):
    bank = make_bank(manager=manager, increment_rate_ppm=123_456, hidden_rate_ppm=33_333)
    contribute(bank, dealer, ref="a")
    after_a = state(bank)
    contribute(bank, dealer, ref="b", wagers=2)
    reversal = reverse(bank, supervisor, ref="b")
    restored = state(bank)
    assert reversal.reverses.reference == "b"
    assert {k: v for k, v in restored.items() if k != "ledger_seq"} == {
        k: v for k, v in after_a.items() if k != "ledger_seq"
    }
    assert restored["ledger_seq"] == after_a["ledger_seq"] + 2  # nothing erased: one more line


def test_reversing_an_older_contribution_keeps_the_sub_cent_total_exact(
    db, manager, dealer, supervisor
):
    # 12.5 cents a wager: a = 12 (carry .5), b = 13 (carry 0). Taking a back leaves b alone:
    # 12.5 cents = 12 cents + .5 carried, so one whole cent moves with the carry.
    bank = make_bank(manager=manager, increment_rate_ppm=125_000, hidden_rate_ppm=0)
    contribute(bank, dealer, ref="a")
    contribute(bank, dealer, ref="b")
    assert (bank.meter_cents, bank.meter_carry_ppm) == (10_025, 0)
    reversal = reverse(bank, supervisor, ref="a")
    bank.refresh_from_db()
    assert (reversal.meter_delta_cents, reversal.meter_carry_delta_ppm) == (-13, 500_000)
    assert (bank.meter_cents, bank.meter_carry_ppm) == (10_012, 500_000)
    assert (bank.contributions_count, bank.wagered_cents) == (1, 100)


def test_a_reversal_gives_back_the_overflow_share_too(db, manager, dealer, supervisor):
    bank = make_bank(manager=manager, cap_cents=10_050)
    contribute(bank, dealer, ref="a", wagers=3)  # 50 to the meter, 10 to the overflow
    services.bank_reverse(bank_id=bank.pk, reference="a", actor=supervisor)
    bank.refresh_from_db()
    assert (bank.meter_cents, bank.overflow_cents, bank.reserve_cents) == (10_000, 0, 0)


def test_a_second_reversal_of_the_same_round_is_refused(bank, dealer, supervisor):
    contribute(bank, dealer, ref="a")
    services.bank_reverse(bank_id=bank.pk, reference="a", actor=supervisor)
    before = state(bank)
    with pytest.raises(AlreadyReversed):
        services.bank_reverse(bank_id=bank.pk, reference="a", actor=supervisor)
    assert state(bank) == before
    assert PendingReversal.objects.filter(bank=bank).count() == 1  # nothing queued again


def test_reversing_a_round_that_never_contributed_is_a_clear_error(bank, dealer, supervisor):
    with pytest.raises(ContributionNotFound):
        services.bank_reverse(bank_id=bank.pk, reference="ghost", actor=supervisor)


def test_a_void_on_a_closed_bank_still_reverses_its_contribution(bank, dealer, supervisor):
    contribute(bank, dealer, ref="a")
    services.bank_close(bank_id=bank.pk, actor=supervisor, reason="link fault")
    services.bank_reverse(bank_id=bank.pk, reference="a", actor=supervisor)
    bank.refresh_from_db()
    assert bank.meter_cents == 10_000


def test_an_adjustment_needs_two_managers_and_keeps_reason_and_before_after(
    bank, dealer, manager, other_manager
):
    contribute(bank, dealer, ref="a", wagers=3)
    entry = adjust(
        bank_id=bank.pk,
        meter_after_cents=10_500,
        reason="display malfunction, meter restored from the last reading",
        requested_by=manager,
        approved_by=other_manager,
    )
    bank.refresh_from_db()
    assert entry.kind == MeterEntry.Kind.ADJUSTMENT
    assert entry.meter_delta_cents == 440
    assert entry.data["before"]["meter"] == 10_060
    assert entry.data["after"]["meter"] == 10_500
    assert (entry.data["requested_by"], entry.data["approved_by"]) == (manager.pk, other_manager.pk)
    assert bank.meter_cents == 10_500


def test_one_manager_alone_cannot_adjust_the_meter(bank, manager):
    with pytest.raises(TwoPeopleRequired):
        adjust(
            bank_id=bank.pk,
            meter_after_cents=0,
            reason="x",
            requested_by=manager,
            approved_by=manager,
        )
    bank.refresh_from_db()
    assert bank.meter_cents == 10_000


def test_an_adjustment_without_reason_or_target_is_refused(bank, manager, other_manager):
    with pytest.raises(InvalidAdjustment):
        adjust(
            bank_id=bank.pk,
            meter_after_cents=1,
            reason=" ",
            requested_by=manager,
            approved_by=other_manager,
        )
    with pytest.raises(InvalidAdjustment):
        adjust(bank_id=bank.pk, reason="why", requested_by=manager, approved_by=other_manager)


def test_the_ledger_cannot_be_edited_or_deleted_through_the_orm(bank):
    entry = bank.entries.first()
    entry.meter_delta_cents = 1
    with pytest.raises(AppendOnly):
        entry.save()
    with pytest.raises(AppendOnly):
        entry.delete()
    with pytest.raises(AppendOnly):
        MeterEntry.objects.filter(bank=bank).update(meter_delta_cents=0)
    with pytest.raises(AppendOnly):
        MeterEntry.objects.filter(bank=bank).delete()
    assert bank.entries.get().meter_delta_cents == 10_000


def test_every_entry_kind_keeps_the_cached_totals_equal_to_the_ledger(
    db, manager, other_manager, dealer, supervisor
):
    bank = make_bank(
        manager=manager, increment_rate_ppm=123_456, hidden_rate_ppm=77_777, cap_cents=11_000
    )
    for i in range(40):
        contribute(bank, dealer, ref=f"r{i}", wagers=1 + i % 7)
    services.bank_reverse(bank_id=bank.pk, reference="r3", actor=supervisor)
    hit(bank, dealer, level="straight_flush")
    adjust(
        bank_id=bank.pk,
        reserve_after_cents=5,
        reason="transfer",
        requested_by=manager,
        approved_by=other_manager,
    )
    hit(bank, dealer, level="royal_flush")
    for i in range(40, 45):
        contribute(bank, dealer, ref=f"r{i}", wagers=7)
    kinds = set(bank.entries.values_list("kind", flat=True))
    assert kinds == set(MeterEntry.Kind.values)
    bank.refresh_from_db()
    totals = ledger_totals(bank)
    for name in (*STATE_FIELDS, "hits_count", "paid_total_cents", "house_funded_cents"):
        assert totals[name] == getattr(bank, name), name
    # Every line reads on its own: its balance after equals the running sum up to it.
    running = 0
    for entry in bank.entries.order_by("seq"):
        running += entry.meter_delta_cents
        assert entry.meter_after_cents == running


def test_the_meter_never_goes_down_except_by_hit_reversal_or_adjustment(bank, dealer):
    for i in range(30):
        contribute(bank, dealer, ref=f"r{i}", wagers=1 + i % 3)
    hit(bank, dealer, level="straight_flush")
    decreasing = bank.entries.filter(meter_delta_cents__lt=0).values_list("kind", flat=True)
    assert set(decreasing) <= {
        MeterEntry.Kind.HIT,
        MeterEntry.Kind.REVERSAL,
        MeterEntry.Kind.ADJUSTMENT,
    }
    assert list(decreasing) == [MeterEntry.Kind.HIT]


def test_each_ledger_service_writes_the_audit_log(bank, dealer, manager, other_manager, supervisor):
    contribute(bank, dealer, ref="a")
    services.bank_reverse(bank_id=bank.pk, reference="a", actor=supervisor, reason="misdeal")
    adjust(
        bank_id=bank.pk,
        meter_after_cents=10_001,
        reason="fix",
        requested_by=manager,
        approved_by=other_manager,
    )
    codes = list(
        AuditEntry.objects.filter(code__startswith="jackpot.").values_list("code", flat=True)
    )
    assert codes[-4:] == [
        "jackpot.contribution.recorded",
        "jackpot.contribution.reversed",
        "jackpot.adjustment.requested",
        "jackpot.meter.adjusted",
    ]
    adjusted = AuditEntry.objects.get(code="jackpot.meter.adjusted")
    assert adjusted.actor == other_manager  # the second manager acted herself
    reversal = AuditEntry.objects.get(code="jackpot.contribution.reversed")
    assert reversal.data["reason"] == "misdeal"
    assert reversal.actor == supervisor


def test_the_feed_hears_of_a_contribution_only_after_commit(
    bank, dealer, monkeypatch, django_capture_on_commit_callbacks
):
    published = []
    monkeypatch.setattr("jackpot.feed.request_meter_publish", lambda slug: published.append(slug))
    seq_before = bank.feed_seq
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        contribute(bank, dealer, ref="a")
        assert published == []
    for callback in callbacks:
        callback()
    assert published == [bank.slug]
    assert bank.feed_seq == seq_before + 1


def test_a_rolled_back_caller_transaction_leaves_no_trace_and_tells_no_display(
    bank, dealer, monkeypatch, django_capture_on_commit_callbacks
):
    published = []
    monkeypatch.setattr("jackpot.feed.request_meter_publish", lambda slug: published.append(slug))
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            services.bank_lock_and_post(bank.pk)
            contribute(bank, dealer, ref="a")
            raise RuntimeError("the round failed to settle")
    bank.refresh_from_db()
    assert bank.meter_cents == 10_000
    assert not bank.entries.filter(reference="a").exists()
    assert published == []


def test_a_contribution_stays_within_its_query_budget(
    bank, dealer, casino_property, django_assert_max_num_queries
):
    contribute(bank, dealer, ref="warm-up")  # roles are cached on the staff object
    # The accepting INSERT, then the posting: savepoint, bank lock, waiting rows, ledger INSERT,
    # last audit entry, audit INSERT, pending UPDATE, totals, feed seq, release = 11. Here the
    # property was created in this test's open transaction, so the clock reads it afresh
    # (2 queries, twice); once committed it comes from the clock's cache. PostgreSQL adds the
    # audit chain's advisory lock and, inside a caller's transaction (the test's), the lock
    # order bookkeeping (which banks this transaction holds).
    budget = 15 if connection.vendor == "sqlite" else 17
    with django_assert_max_num_queries(budget):
        services.bank_contribute(
            bank_id=bank.pk, reference="r1", wager_count=7, wager_cents=100, actor=dealer
        )


def test_a_round_voided_after_a_hit_never_leaves_the_meter_below_the_reset(
    bank, dealer, supervisor
):
    contribute(bank, dealer, ref="a", wagers=3)  # meter 10,060, reserve 15
    hit(bank, dealer)  # pays 10,060; reseeded to 10,000 (15 from the reserve, 9,985 house)
    services.bank_reverse(bank_id=bank.pk, reference="a", actor=supervisor, reason="misdeal")
    bank.refresh_from_db()
    reversal, reseed = bank.entries.order_by("-seq")[:2][::-1]
    assert (reversal.kind, reversal.meter_delta_cents, reversal.reserve_delta_cents) == (
        MeterEntry.Kind.REVERSAL,
        -60,
        -15,
    )
    assert (reseed.kind, reseed.meter_delta_cents, reseed.house_funded_cents) == (
        MeterEntry.Kind.RESET,
        60,
        60,
    )
    assert bank.meter_cents == 10_000
    assert bank.reserve_cents == -15  # the hidden share was already spent: a recorded deficit


def test_a_reversal_and_a_hit_keep_the_feed_seq_on_the_bank_row(bank, dealer, supervisor):
    """The seq is saved with the bank's totals (one UPDATE): a seq taken but not saved would
    be given again to the next message, and a display would drop that message as seen."""
    contribute(bank, dealer, ref="a")
    before = Bank.objects.get(pk=bank.pk).feed_seq
    services.bank_reverse(bank_id=bank.pk, reference="a", actor=supervisor)
    assert Bank.objects.get(pk=bank.pk).feed_seq == before + 1  # the meter's message
    hit(bank, dealer)
    assert Bank.objects.get(pk=bank.pk).feed_seq == before + 3  # the hit's and the meter's
