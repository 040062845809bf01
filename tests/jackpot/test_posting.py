"""Contributions are queued without a lock, then posted to the meter in batches."""

import contextlib
import threading
import time

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from casino.audit import audit, verify_chain
from casino.models import AuditEntry
from casino.roles import Role
from jackpot import services
from jackpot.errors import AlreadyReversed, ContributionConflict
from jackpot.models import MeterEntry, PendingContribution, PendingReversal
from jackpot.selectors import ledger_totals, pending_count
from jackpot.services.posting import POSTING_LOCK
from tests.factories import make_staff
from tests.jackpot.factories import hit, make_bank, reverse


def queue(bank, dealer, *, ref: str, wagers: int = 1) -> PendingContribution:
    """A contribution accepted while another process was posting: written, not posted yet."""
    return PendingContribution.objects.create(
        bank=bank,
        reference=ref,
        wager_count=wagers,
        wager_cents=bank.wager_cents,
        actor=dealer,
        created_at=timezone.now(),
    )


def contribute(bank, dealer, *, ref: str, wagers: int = 1) -> PendingContribution:
    return services.bank_contribute(
        bank_id=bank.pk, reference=ref, wager_count=wagers, wager_cents=100, actor=dealer
    )


def test_a_contribution_is_queued_then_posted_as_one_ledger_line(bank, dealer):
    pending = contribute(bank, dealer, ref="r1", wagers=3)
    bank.refresh_from_db()
    assert pending.entry.kind == MeterEntry.Kind.CONTRIBUTION
    assert (pending.entry.wager_count, pending.entry.meter_delta_cents) == (3, 60)
    stored = PendingContribution.objects.get(pk=pending.pk)
    assert stored.entry_id == pending.entry.pk
    assert (bank.meter_cents, bank.reserve_cents, pending_count(bank)) == (10_060, 15, 0)
    audit_line = AuditEntry.objects.get(code="jackpot.contribution.recorded")
    assert audit_line.actor_id == dealer.pk
    assert audit_line.data["seq"] == pending.entry.seq and audit_line.data["ref"] == "r1"


def test_a_retried_round_counts_once_while_waiting_and_once_posted(bank, dealer):
    waiting = queue(bank, dealer, ref="r7", wagers=2)
    first = contribute(bank, dealer, ref="r7", wagers=2)  # the table retries: it posts
    assert first.pk == waiting.pk and first.entry is not None
    again = contribute(bank, dealer, ref="r7", wagers=2)  # and again, posted this time
    assert again.pk == waiting.pk and again.entry_id == first.entry_id
    bank.refresh_from_db()
    assert bank.meter_cents == 10_040
    assert bank.entries.filter(kind=MeterEntry.Kind.CONTRIBUTION).count() == 1
    assert PendingContribution.objects.filter(bank=bank).count() == 1


@pytest.mark.parametrize("posted", [False, True])
def test_the_same_round_with_other_wagers_is_refused_and_changes_nothing(bank, dealer, posted):
    if posted:
        contribute(bank, dealer, ref="r7", wagers=2)
    else:
        queue(bank, dealer, ref="r7", wagers=2)
    bank.refresh_from_db()
    before = (bank.meter_cents, bank.ledger_seq, AuditEntry.objects.count())
    with pytest.raises(ContributionConflict) as err:
        contribute(bank, dealer, ref="r7", wagers=3)
    assert err.value.code == "contribution_conflict"
    bank.refresh_from_db()
    assert (bank.meter_cents, bank.ledger_seq, AuditEntry.objects.count()) == before
    assert PendingContribution.objects.get(bank=bank, reference="r7").wager_count == 2


def test_the_next_hit_posts_a_waiting_contribution_before_it_reads_the_meter(bank, dealer):
    waiting = queue(bank, dealer, ref="r1", wagers=5)  # 5 x 20 cents
    paid = hit(bank, dealer, ref="r2")
    assert paid.amount_cents == paid.meter_before_cents == 10_100
    waiting.refresh_from_db()
    kinds = list(bank.entries.order_by("seq").values_list("kind", flat=True))
    assert kinds[1:3] == [MeterEntry.Kind.CONTRIBUTION, MeterEntry.Kind.HIT]
    assert waiting.entry.seq < paid.entries.get(kind=MeterEntry.Kind.HIT).seq


def test_a_contribution_still_waiting_can_be_reversed(bank, dealer, supervisor):
    queue(bank, dealer, ref="void", wagers=2)
    reversal = reverse(bank, supervisor, ref="void")
    bank.refresh_from_db()
    assert reversal.reverses.reference == "void"
    assert (bank.meter_cents, bank.reserve_cents, bank.contributions_count) == (10_000, 0, 0)


def test_readings_and_reconciliation_post_first(bank, dealer, supervisor):
    queue(bank, dealer, ref="r1", wagers=4)  # 80 cents
    reading = services.meter_reading_take(bank_id=bank.pk, reason="manual", actor=supervisor)
    assert reading.meter_cents == 10_080
    queue(bank, dealer, ref="r2", wagers=1)
    assert services.bank_reconcile(bank_id=bank.pk) == []
    bank.refresh_from_db()
    assert (bank.meter_cents, pending_count(bank)) == (10_100, 0)


def test_a_batch_posts_in_id_order_with_the_carries_exact(db, manager, dealer):
    bank = make_bank(manager=manager, increment_rate_ppm=123_456, hidden_rate_ppm=0)
    for i in range(3):
        queue(bank, dealer, ref=f"r{i}")
    assert services.bank_post_pending(bank_id=bank.pk) == 3
    lines = list(bank.entries.filter(kind=MeterEntry.Kind.CONTRIBUTION).order_by("seq"))
    # 12.3456 cents each: 12 (carry .3456), 12 (carry .6912), 13 (carry .0368).
    assert [(e.reference, e.meter_delta_cents) for e in lines] == [
        ("r0", 12),
        ("r1", 12),
        ("r2", 13),
    ]
    bank.refresh_from_db()
    assert (bank.meter_cents, bank.meter_carry_ppm) == (10_037, 36_800)
    assert services.bank_post_pending(bank_id=bank.pk) == 0  # nothing waits: nothing happens
    assert verify_chain() is None


def test_the_cached_totals_stay_the_ledger_sums_after_batches(db, manager, dealer):
    bank = make_bank(manager=manager, increment_rate_ppm=123_456, hidden_rate_ppm=77_777)
    for i in range(25):
        queue(bank, dealer, ref=f"r{i}", wagers=1 + i % 7)
    hit(bank, dealer, level="straight_flush")
    for i in range(25, 30):
        queue(bank, dealer, ref=f"r{i}", wagers=7)
    services.bank_post_pending(bank_id=bank.pk)
    bank.refresh_from_db()
    totals = ledger_totals(bank)
    for name in ("meter_cents", "reserve_cents", "meter_carry_ppm", "contributions_count"):
        assert totals[name] == getattr(bank, name), name
    assert bank.contributions_count == sum(1 + i % 7 for i in range(25)) + 5 * 7


# --- PostgreSQL: real concurrency -----------------------------------------------------------


@contextlib.contextmanager
def _posting_lock_held_elsewhere(bank):
    """Another session holds the bank's posting lock (a poster at work) for the block."""
    import psycopg
    from django.conf import settings

    db = settings.DATABASES["default"]
    other = psycopg.connect(
        host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], dbname=db["NAME"],
        autocommit=True,
    )  # fmt: skip
    try:
        other.execute("SELECT pg_advisory_lock(%s, %s)", [POSTING_LOCK, bank.pk])
        yield
        other.execute("SELECT pg_advisory_unlock(%s, %s)", [POSTING_LOCK, bank.pk])
    finally:
        other.close()


def _wait_for_a_blocked_lock(timeout: float = 10.0) -> None:
    with connections["default"].cursor() as cursor:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
                " WHERE NOT l.granted AND a.datname = current_database()"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.02)
    raise AssertionError("the poster never waited for the bank")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("holder_ends", ["commit", "rollback"])
def test_a_row_written_while_another_holds_the_bank_is_never_stranded(holder_ends):
    manager = make_staff(Role.MANAGER)
    dealer, other = make_staff(Role.DEALER), make_staff(Role.DEALER)
    bank = make_bank(manager=manager)
    release, errors, posted = threading.Event(), [], {}

    def holder():  # a round being settled: the bank locked for a while
        try:
            with transaction.atomic():
                services.bank_lock_and_post(bank.pk)
                release.wait(10)
                if holder_ends == "rollback":
                    raise RuntimeError("the round failed to settle")
        except RuntimeError:
            pass
        except Exception as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    def poster():  # the first writer: gets the posting lock, then waits for the bank
        try:
            posted["poster"] = contribute(bank, other, ref="f1", wagers=2)
        except Exception as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=holder)]
    threads[0].start()
    time.sleep(0.2)
    threads.append(threading.Thread(target=poster))
    threads[1].start()
    _wait_for_a_blocked_lock()
    # This writer commits its row, finds the posting lock taken and returns at once.
    mine = contribute(bank, dealer, ref="w1", wagers=3)
    assert mine.entry is None
    assert PendingContribution.objects.get(pk=mine.pk).entry_id is None
    release.set()
    for t in threads:
        t.join(20)
    assert not errors, errors
    # The poster looked again after releasing its lock: the row is on the meter.
    assert PendingContribution.objects.get(pk=mine.pk).entry_id is not None
    assert posted["poster"].entry is not None
    bank.refresh_from_db()
    assert bank.meter_cents == 10_000 + 5 * 20
    assert pending_count(bank) == 0
    assert ledger_totals(bank)["meter_cents"] == bank.meter_cents


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_writer_that_finds_posting_running_does_two_statements(django_assert_num_queries):
    manager, dealer = make_staff(Role.MANAGER), make_staff(Role.DEALER)
    bank = make_bank(manager=manager)
    contribute(bank, dealer, ref="warm-up")  # roles cached
    with _posting_lock_held_elsewhere(bank):
        # The clock's read (no property here: one query; casino.clock keeps no cache), the
        # accepting INSERT, the try of the posting lock.
        with django_assert_num_queries(3):
            pending = contribute(bank, dealer, ref="r1")
        assert pending.entry is None
    assert services.bank_post_pending(bank_id=bank.pk) == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_inside_a_transaction_that_does_not_hold_the_bank_posting_waits_for_the_commit():
    manager, dealer = make_staff(Role.MANAGER), make_staff(Role.DEALER)
    bank = make_bank(manager=manager)
    with transaction.atomic():
        pending = contribute(bank, dealer, ref="r1", wagers=2)
        assert pending.entry is None  # not committed yet: nobody else could post it
    assert PendingContribution.objects.get(pk=pending.pk).entry_id is not None
    bank.refresh_from_db()
    assert bank.meter_cents == 10_040


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_tables_layer_locks_the_bank_then_contributes_in_its_transaction():
    manager, dealer = make_staff(Role.MANAGER), make_staff(Role.DEALER)
    bank = make_bank(manager=manager)
    with transaction.atomic():
        services.bank_lock_and_post(bank.pk)
        pending = contribute(bank, dealer, ref="r1", wagers=2)
        assert pending.entry is not None  # posted in the caller's transaction
        services.bank_lock_and_post(bank.pk)  # locking it again after the audit is fine
    bank.refresh_from_db()
    assert bank.meter_cents == 10_040


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_locking_a_bank_after_writing_the_audit_log_is_allowed():
    # A writer no longer takes the audit chain's lock (the sealer does, after the commit), so
    # no lock order between a bank and the chain is left to keep.
    manager = make_staff(Role.MANAGER)
    bank = make_bank(manager=manager)
    with transaction.atomic():
        audit(actor=manager, code="test.something", data={})
        services.bank_lock_and_post(bank.pk)
    assert AuditEntry.objects.get(code="test.something").position is not None  # sealed


def test_the_minute_beat_posts_what_a_failed_posting_left_waiting(bank, dealer, casino_property):
    services.readings_take_at_shift_change()  # this shift's reading is taken now
    queue(bank, dealer, ref="r1", wagers=2)
    assert services.readings_take_at_shift_change() == []  # no reading due this time
    bank.refresh_from_db()
    assert (bank.meter_cents, pending_count(bank)) == (10_040, 0)


# --- a void's reversal, queued like a contribution ---------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_reversal_is_queued_without_waiting_for_the_bank_another_transaction_holds():
    manager, dealer = make_staff(Role.MANAGER), make_staff(Role.DEALER)
    supervisor = make_staff(Role.SUPERVISOR)
    bank = make_bank(manager=manager)
    contribute(bank, dealer, ref="void", wagers=2)
    holding, release, errors = threading.Event(), threading.Event(), []

    def holder():  # a round being settled at another table: the bank locked for a while
        try:
            with transaction.atomic():
                services.bank_lock_and_post(bank.pk)
                holding.set()
                release.wait(10)
        except Exception as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=holder)
    thread.start()
    assert holding.wait(10)
    with transaction.atomic():
        with connection.cursor() as cursor:  # were the approval to wait for the bank: an error
            cursor.execute("SET LOCAL lock_timeout = '2s'")
        pending = services.bank_reverse(
            bank_id=bank.pk, reference="void", actor=supervisor, reason="misdeal"
        )
        assert pending.entry is None
        release.set()  # this transaction commits after the holder's: posting then goes ahead
        thread.join(20)
    assert not errors, errors
    posted = PendingReversal.objects.select_related("entry").get(pk=pending.pk)
    assert (posted.entry.kind, posted.entry.actor_id) == (MeterEntry.Kind.REVERSAL, supervisor.pk)
    assert posted.entry.reverses.reference == "void"
    assert posted.entry.data == {"reason": "misdeal"}
    bank.refresh_from_db()
    assert (bank.meter_cents, bank.reserve_cents, bank.contributions_count) == (10_000, 0, 0)
    assert services.bank_reconcile(bank_id=bank.pk) == []
    reversed_ = AuditEntry.objects.get(code="jackpot.contribution.reversed")
    assert (reversed_.actor_id, reversed_.data["ref"]) == (supervisor.pk, "void")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_reversal_committed_while_another_posts_is_posted_by_the_next_look():
    manager, dealer = make_staff(Role.MANAGER), make_staff(Role.DEALER)
    supervisor = make_staff(Role.SUPERVISOR)
    bank = make_bank(manager=manager)
    contribute(bank, dealer, ref="void")
    with _posting_lock_held_elsewhere(bank):
        pending = services.bank_reverse(bank_id=bank.pk, reference="void", actor=supervisor)
        assert PendingReversal.objects.get(pk=pending.pk).entry_id is None  # left to the poster
    # The poster's look after its release (and the minute's beat) finds a waiting reversal too.
    assert services.bank_post_pending(bank_id=bank.pk) == 0  # no contribution was waiting
    assert PendingReversal.objects.get(pk=pending.pk).entry_id is not None
    bank.refresh_from_db()
    assert bank.meter_cents == 10_000


def test_a_contribution_and_its_reversal_waiting_together_post_in_that_order(
    bank, dealer, supervisor
):
    queue(bank, dealer, ref="a", wagers=3)
    PendingReversal.objects.create(
        bank=bank, reference="a", actor=supervisor, created_at=timezone.now()
    )
    queue(bank, dealer, ref="b")  # accepted after the reversal: still posted before it
    services.bank_post_pending(bank_id=bank.pk)
    kinds = list(bank.entries.order_by("seq").values_list("kind", "reference"))
    assert kinds[1:] == [
        (MeterEntry.Kind.CONTRIBUTION, "a"),
        (MeterEntry.Kind.CONTRIBUTION, "b"),
        (MeterEntry.Kind.REVERSAL, "a"),
    ]
    bank.refresh_from_db()
    assert (bank.meter_cents, bank.contributions_count) == (10_020, 1)
    assert services.bank_reconcile(bank_id=bank.pk) == []


def test_the_migration_gives_reversals_already_in_the_ledger_their_row(bank, dealer, supervisor):
    """Upgraded from before the queue: a round reversed then is refused a second reversal."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("jackpot.migrations.0007_pending_reversal")
    contribute(bank, dealer, ref="a")
    line = reverse(bank, supervisor, ref="a", reason="misdeal")
    PendingReversal.objects.all().delete()  # as the ledger stood before the queue existed
    migration.record_past_reversals(apps, None)
    row = PendingReversal.objects.get(bank=bank, reference="a")
    assert (row.entry_id, row.actor_id, row.reason) == (line.pk, supervisor.pk, "misdeal")
    with pytest.raises(AlreadyReversed):
        services.bank_reverse(bank_id=bank.pk, reference="a", actor=supervisor)
