"""Progressive hits: commit order, reseed from the reserve, verification and payment."""

import pytest
from django.db import transaction

from casino.errors import RoleRequired
from casino.models import AuditEntry
from jackpot import services
from jackpot.errors import (
    BankClosed,
    BankNotFound,
    HitAlreadyPaid,
    HitAlreadyVerified,
    HitAmountMismatch,
    HitNotFound,
    HitNotVerified,
    JackpotError,
    TwoPeopleRequired,
    UnknownLevel,
)
from jackpot.models import Hit, MeterEntry
from jackpot.selectors import hit_counters, hit_history, level_amount, levels_now
from tests.jackpot.factories import contribute, hit, make_bank


def test_a_royal_flush_takes_the_meter_and_the_reserve_reseeds_it(db, manager, dealer):
    bank = make_bank(manager=manager, hidden_rate_ppm=500_000)
    contribute(bank, dealer, ref="a", wagers=250)  # meter +5,000, reserve +12,500
    assert (bank.meter_cents, bank.reserve_cents) == (15_000, 12_500)
    won = hit(bank, dealer, table="UTH-2", seat=5)
    assert (won.amount_cents, won.meter_before_cents, won.meter_after_cents) == (
        15_000,
        15_000,
        10_000,
    )
    reset = bank.entries.get(kind=MeterEntry.Kind.RESET, hit=won)
    assert (reset.meter_delta_cents, reset.reserve_delta_cents, reset.house_funded_cents) == (
        10_000,
        -10_000,
        0,
    )
    assert (bank.meter_cents, bank.reserve_cents) == (10_000, 2_500)
    assert (bank.hits_count, bank.paid_total_cents) == (1, 15_000)


def test_the_house_funds_what_the_reserve_cannot_and_it_is_recorded(bank, dealer):
    contribute(bank, dealer, ref="a", wagers=50)  # meter 11,000, reserve 250
    hit(bank, dealer)
    reset = bank.entries.get(kind=MeterEntry.Kind.RESET, hit__isnull=False)
    assert (reset.reserve_delta_cents, reset.house_funded_cents) == (-250, 9_750)
    assert (bank.meter_cents, bank.reserve_cents, bank.house_funded_cents) == (10_000, 0, 19_750)


def test_a_lower_tier_pays_its_percentage_and_leaves_the_rest(db, manager, dealer):
    bank = make_bank(manager=manager, hidden_rate_ppm=500_000)
    contribute(bank, dealer, ref="a", wagers=250)  # meter 15,000
    won = hit(bank, dealer, level="straight_flush")
    assert won.amount_cents == 1_500
    assert bank.meter_cents == 13_500  # still above the reset: no reseed
    assert not bank.entries.filter(kind=MeterEntry.Kind.RESET, hit=won).exists()


def test_a_lower_tier_that_drops_the_meter_below_the_reset_is_topped_up(bank, dealer):
    contribute(bank, dealer, ref="a", wagers=3)  # meter 10,060, reserve 15
    won = hit(bank, dealer, level="straight_flush")
    assert won.amount_cents == 1_006
    reset = bank.entries.get(kind=MeterEntry.Kind.RESET, hit=won)
    assert (reset.meter_delta_cents, reset.reserve_delta_cents, reset.house_funded_cents) == (
        946,
        -15,
        931,
    )
    assert bank.meter_cents == 10_000


def test_hits_of_one_round_are_paid_from_the_meter_as_it_stands_and_reseeded_after_the_last(
    bank, dealer
):
    """As the engine pays them (spec/settle.md: seat by seat, each from the meter as it then
    stands): a reseed between two straight flushes of one round would pay the second from
    the reset amount, an amount the engine's settlement does not have."""
    contribute(bank, dealer, ref="a", wagers=3)  # meter 10,060
    with transaction.atomic():
        locked = services.bank_lock_and_post(bank.pk)
        first = services.hit_record(
            bank_id=bank.pk,
            table_label="UTH-1",
            seat=2,
            level="straight_flush",
            amount_cents=level_amount(locked, "straight_flush"),
            actor=dealer,
            reference="round-9",
            reseed=False,
        )
        assert (first.amount_cents, first.meter_after_cents) == (1_006, 9_054)  # below 10,000
        second = services.hit_record(
            bank_id=bank.pk,
            table_label="UTH-1",
            seat=5,
            level="straight_flush",
            amount_cents=905,  # 10 % of 9,054, rounded down
            actor=dealer,
            reference="round-9",
        )
    bank.refresh_from_db()
    assert second.meter_before_cents == 9_054 and bank.meter_cents == 10_000
    reseeds = bank.entries.filter(kind=MeterEntry.Kind.RESET, hit__isnull=False)
    assert [e.hit_id for e in reseeds] == [second.pk]


def test_two_tables_hitting_at_once_are_each_paid_from_the_meter_at_their_turn(
    bank, dealer, other_dealer
):
    contribute(bank, dealer, ref="a", wagers=50)  # meter 11,000
    first = hit(bank, dealer, table="UTH-1", seat=2)
    second = hit(bank, other_dealer, table="UTH-4", seat=6)
    assert (first.order, first.amount_cents) == (1, 11_000)
    assert (second.order, second.amount_cents) == (2, 10_000)  # the reseeded meter
    hits = bank.entries.filter(kind=MeterEntry.Kind.HIT).order_by("seq")
    assert [e.hit.order for e in hits] == [1, 2]


def test_a_stale_amount_is_refused_and_changes_nothing(bank, dealer):
    contribute(bank, dealer, ref="a")
    with pytest.raises(HitAmountMismatch) as err:
        services.hit_record(
            bank_id=bank.pk,
            table_label="UTH-1",
            seat=1,
            level="royal_flush",
            amount_cents=10_000,
            actor=dealer,
        )
    assert "10020" in err.value.message
    bank.refresh_from_db()
    assert (bank.meter_cents, bank.hits_count) == (10_020, 0)
    assert not Hit.objects.exists()


def test_an_unknown_level_is_refused(bank, dealer):
    with pytest.raises(UnknownLevel):
        services.hit_record(
            bank_id=bank.pk,
            table_label="UTH-1",
            seat=1,
            level="four_aces",
            amount_cents=1,
            actor=dealer,
        )


def test_a_hit_on_a_closed_bank_is_refused_and_changes_nothing(closed_bank, dealer):
    audits = AuditEntry.objects.count()
    with pytest.raises(BankClosed) as err:
        services.hit_record(
            bank_id=closed_bank.pk,
            table_label="UTH-1",
            seat=1,
            level="royal_flush",
            amount_cents=10_000,
            actor=dealer,
        )
    assert err.value.code == "bank_closed"
    closed_bank.refresh_from_db()
    assert (closed_bank.meter_cents, closed_bank.hits_count, closed_bank.ledger_seq) == (
        10_000,
        0,
        1,
    )
    assert AuditEntry.objects.count() == audits


def test_a_hit_on_an_unknown_bank_is_a_clear_error(db, dealer):
    with pytest.raises(BankNotFound):
        services.hit_record(
            bank_id=424242,
            table_label="UTH-1",
            seat=1,
            level="royal_flush",
            amount_cents=1,
            actor=dealer,
        )


def test_a_retried_hit_for_the_same_round_seat_and_level_is_recorded_once(bank, dealer):
    first = hit(bank, dealer, ref="round-9")
    again = services.hit_record(
        bank_id=bank.pk,
        table_label="UTH-1",
        seat=3,
        level="royal_flush",
        amount_cents=bank.meter_cents,
        actor=dealer,
        reference="round-9",
    )
    assert again.pk == first.pk
    bank.refresh_from_db()
    assert bank.hits_count == 1


def test_the_tables_layer_settles_and_records_in_one_transaction(bank, dealer):
    """Lock, read the level's amount, contribute and record the hit: one commit."""
    with transaction.atomic():
        locked = services.bank_lock_and_post(bank.pk)
        services.bank_contribute(
            bank_id=bank.pk, reference="r1", wager_count=2, wager_cents=100, actor=dealer
        )
        locked.refresh_from_db()
        amount = level_amount(locked, "royal_flush")
        won = services.hit_record(
            bank_id=bank.pk,
            table_label="UTH-3",
            seat=4,
            level="royal_flush",
            amount_cents=amount,
            actor=dealer,
        )
    assert won.amount_cents == 10_040  # the hand's own wager counts toward the meter it wins


def test_a_supervisor_verifies_then_pays_a_hit(bank, dealer, supervisor, other_supervisor):
    won = hit(bank, dealer)
    assert won.state == Hit.State.PENDING
    services.hit_verify(hit_id=won.pk, supervisor=supervisor)
    paid = services.hit_pay(hit_id=won.pk, supervisor=other_supervisor)
    assert paid.state == Hit.State.PAID
    assert (paid.verified_by, paid.paid_by) == (supervisor, other_supervisor)
    codes = list(AuditEntry.objects.filter(subject_id=str(won.pk), code__startswith="jackpot.hit."))
    assert [a.code for a in codes] == [
        "jackpot.hit.recorded",
        "jackpot.hit.verified",
        "jackpot.hit.paid",
    ]


def test_a_second_verification_of_the_same_hit_is_refused_and_changes_nothing(
    bank, dealer, supervisor, other_supervisor
):
    won = hit(bank, dealer)
    services.hit_verify(hit_id=won.pk, supervisor=supervisor)
    audits = AuditEntry.objects.count()
    with pytest.raises(HitAlreadyVerified) as err:
        services.hit_verify(hit_id=won.pk, supervisor=other_supervisor)
    assert err.value.code == "hit_already_verified"
    won.refresh_from_db()
    assert won.verified_by == supervisor
    assert AuditEntry.objects.count() == audits


def test_who_recorded_a_hit_may_not_verify_it(bank, supervisor):
    won = hit(bank, supervisor)
    with pytest.raises(TwoPeopleRequired):
        services.hit_verify(hit_id=won.pk, supervisor=supervisor)
    won.refresh_from_db()
    assert won.state == Hit.State.PENDING


def test_a_dealer_cannot_verify_a_hit(bank, dealer, other_dealer):
    won = hit(bank, dealer)
    with pytest.raises(RoleRequired):
        services.hit_verify(hit_id=won.pk, supervisor=other_dealer)


def test_a_hit_is_paid_once_and_only_after_verification(bank, dealer, supervisor):
    won = hit(bank, dealer)
    with pytest.raises(HitNotVerified):
        services.hit_pay(hit_id=won.pk, supervisor=supervisor)
    services.hit_verify(hit_id=won.pk, supervisor=supervisor)
    services.hit_pay(hit_id=won.pk, supervisor=supervisor)
    with pytest.raises(HitAlreadyPaid):
        services.hit_pay(hit_id=won.pk, supervisor=supervisor)


def test_verifying_an_unknown_hit_is_a_clear_error(db, supervisor):
    with pytest.raises(HitNotFound):
        services.hit_verify(hit_id=31337, supervisor=supervisor)


def test_the_history_keeps_the_last_25_hits_and_counters_per_level(bank, dealer):
    for i in range(27):
        hit(bank, dealer, level="straight_flush" if i % 3 else "royal_flush", seat=1 + i % 7)
    history = hit_history(bank)
    assert len(history) == 25
    assert [h.order for h in history] == list(range(27, 2, -1))
    counters = hit_counters(bank)
    assert counters["royal_flush"]["count"] == 9
    assert counters["straight_flush"]["count"] == 18
    bank.refresh_from_db()
    assert (
        counters["royal_flush"]["total_cents"] + counters["straight_flush"]["total_cents"]
        == bank.paid_total_cents
    )


def test_levels_show_their_share_of_the_meter_rounded_down(bank, dealer):
    contribute(bank, dealer, ref="a", wagers=3)  # 10,060
    shown = {lvl["level"]: lvl["amount_cents"] for lvl in levels_now(bank)}
    assert shown == {"royal_flush": 10_060, "straight_flush": 1_006}


def test_the_feed_hears_of_a_hit_only_after_commit(
    bank, dealer, supervisor, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr("jackpot.feed.send_to_group", lambda slug, payload: sent.append(payload))
    monkeypatch.setattr(
        "jackpot.feed.request_meter_publish", lambda slug: sent.append({"type": "meter"})
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        won = hit(bank, dealer, table="UTH-7", seat=2)
        assert sent == []
    for callback in callbacks:
        callback()
    assert [m["type"] for m in sent] == ["hit", "meter"]
    assert (sent[0]["table"], sent[0]["state"], sent[0]["amount_cents"]) == (
        "UTH-7",
        "pending",
        10_000,
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.hit_verify(hit_id=won.pk, supervisor=supervisor)
    assert sent[-1]["state"] == "verified"


def test_a_hit_without_its_table_or_seat_is_refused(bank, dealer):
    for table_label, seat in (("", 1), ("UTH-1", 0)):
        with pytest.raises(JackpotError) as err:
            services.hit_record(
                bank_id=bank.pk,
                table_label=table_label,
                seat=seat,
                level="royal_flush",
                amount_cents=10_000,
                actor=dealer,
            )
        assert err.value.code == "invalid_hit"
    assert not Hit.objects.exists()
