"""`manage.py jackpot_bench contributions`: concurrent writers feeding one bank.

Processes, not threads: a contribution is mostly Python work between database round trips,
and the GIL would serialise threads. Each writer has its own connection. A contribution is
queued, then posted to the meter in batches (jackpot.services.posting): the clock stops when
every writer has returned AND every queued contribution is posted (a final posting drains
what is left, inside the measured time), so only posted contributions are counted. The expected
meter is computed here independently (integer arithmetic on the wagers sent) and compared
with the bank, the ledger is summed and compared with the bank's cached totals, and every
queued contribution must have its ledger line.
"""

import multiprocessing as mp
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections

TARGET_PER_SECOND = 1_000
PPM = 1_000_000
BENCH_PARAMS = {
    "wager_cents": 100,
    "reset_cents": 1_000_000,
    "increment_rate_ppm": 123_456,  # not a whole cent per wager: the carry is exercised
    "hidden_rate_ppm": 45_678,
    "cap_cents": None,
    "levels": [{"level": "royal_flush", "percent": 100}],
}


def wagers_for(writer: int, i: int) -> int:
    return 1 + (writer * 7 + i) % 7  # 1 to 7 seats, like a real table


def _writer(writer: int, bank_id: int, dealer_id: int, count: int, run: str, barrier, results):
    from casino.models import Staff
    from casino.roles import Role, has_role
    from jackpot.services import bank_contribute

    connection.close()  # a fresh connection of this process's own
    try:
        dealer = Staff.objects.get(pk=dealer_id)
        has_role(dealer, Role.DEALER)  # cache the roles, as a logged-in session would
        barrier.wait()
        started = time.perf_counter()
        for i in range(count):
            bank_contribute(
                bank_id=bank_id,
                reference=f"{run}-w{writer}-{i}",
                wager_count=wagers_for(writer, i),
                wager_cents=BENCH_PARAMS["wager_cents"],
                actor=dealer,
            )
        results.put((writer, count, time.perf_counter() - started, ""))
    except Exception as exc:  # reported by the parent, which then fails
        results.put((writer, 0, 0.0, repr(exc)))
        barrier.abort()
    finally:
        connection.close()


class Command(BaseCommand):
    help = "Measure the progressive's hot paths against PostgreSQL (contributions)."

    def add_arguments(self, parser):
        parser.add_argument("what", choices=["contributions"])
        parser.add_argument("--writers", type=int, default=8)
        parser.add_argument("--per-writer", type=int, default=500)
        parser.add_argument(
            "--publish-inline",
            action="store_true",
            help="embedded profile: publish to the displays inside the posting process",
        )

    def handle(self, *args, what, writers, per_writer, publish_inline, **opts):
        if connection.vendor != "postgresql":
            raise CommandError(
                "jackpot_bench measures PostgreSQL row locking: SQLite serialises every writer "
                "and the figure would mean nothing. Run it with "
                "DATABASE_URL=postgres://postgres@127.0.0.1:5432/tapis_bench"
            )
        bank, dealer = self._setup()
        from casino.celery import app

        publishing = "queued to the Celery broker (a worker's work, not measured)"
        if app.conf.task_always_eager and publish_inline:
            publishing = "inline, in the posting process (--publish-inline)"
        elif app.conf.task_always_eager:
            # The embedded profile would publish to the displays inside each posting process;
            # in production a Celery worker does it. Queue it (in memory) as there.
            app.conf.task_always_eager = False
            publishing = "queued in memory (a worker's work in production, not measured)"
        self.publishing = publishing
        run = f"bench-{int(time.time())}"
        connections.close_all()  # children must not share the parent's socket
        connection.close_pool()  # nor its pool's (DB_POOL_MAX_SIZE): each opens its own
        ctx = mp.get_context("fork")
        barrier = ctx.Barrier(writers + 1)
        results = ctx.Queue()
        procs = [
            ctx.Process(
                target=_writer, args=(w, bank.pk, dealer.pk, per_writer, run, barrier, results)
            )
            for w in range(writers)
        ]
        for p in procs:
            p.start()
        try:
            barrier.wait(timeout=60)
        except Exception:
            pass
        started = time.perf_counter()
        outcome = [results.get(timeout=600) for _ in procs]
        writers_done = time.perf_counter() - started
        # Whatever the last poster has not posted yet is posted now, on the clock.
        from jackpot.services import bank_post_pending

        drained = bank_post_pending(bank_id=bank.pk)
        elapsed = time.perf_counter() - started
        for p in procs:
            p.join()
        errors = [err for _, _, _, err in outcome if err]
        if errors:
            raise CommandError(f"a writer failed: {errors[0]}")
        self._report(bank, writers, per_writer, elapsed, writers_done, drained)

    def _setup(self):
        from casino.models import Property, Shift
        from casino.roles import Role
        from casino.staffing import staff_create
        from jackpot.services import bank_create, bank_open

        if not Property.objects.exists():  # the audit stamps gaming date and shift
            prop = Property.objects.create(name="Bench casino")
            for code, hour in (("day", 6), ("swing", 14), ("grave", 22)):
                Shift.objects.create(property=prop, code=code, starts_at=f"{hour:02d}:00")

        def staff(username, role):
            from casino.models import Staff

            return Staff.objects.filter(username=username).first() or staff_create(
                username=username, roles=[role]
            )

        manager = staff("bench-manager", Role.MANAGER)
        dealer = staff("bench-dealer", Role.DEALER)
        bank = bank_create(
            slug=f"bench-{int(time.time() * 1000)}",
            name="Bench bank",
            manager=manager,
            **BENCH_PARAMS,
        )
        bank_open(bank_id=bank.pk, actor=manager)
        return bank, dealer

    def _report(self, bank, writers, per_writer, elapsed, writers_done, drained):
        from jackpot.models import MeterEntry, PendingContribution
        from jackpot.selectors import ledger_totals
        from jackpot.services.readings import RECONCILED_FIELDS

        total = writers * per_writer
        wagers = sum(wagers_for(w, i) for w in range(writers) for i in range(per_writer))
        wagered = wagers * BENCH_PARAMS["wager_cents"]
        meter_share, meter_carry = divmod(wagered * BENCH_PARAMS["increment_rate_ppm"], PPM)
        reserve_share, reserve_carry = divmod(wagered * BENCH_PARAMS["hidden_rate_ppm"], PPM)
        expected = {
            "meter_cents": BENCH_PARAMS["reset_cents"] + meter_share,
            "meter_carry_ppm": meter_carry,
            "reserve_cents": reserve_share,
            "reserve_carry_ppm": reserve_carry,
            "contributions_count": wagers,
            "wagered_cents": wagered,
        }
        bank.refresh_from_db()
        ledger = ledger_totals(bank)
        entries = bank.entries.filter(kind=MeterEntry.Kind.CONTRIBUTION).count()
        queued = PendingContribution.objects.filter(bank=bank)
        waiting = queued.filter(entry__isnull=True).count()
        linked = queued.filter(entry__kind=MeterEntry.Kind.CONTRIBUTION).count()
        all_posted = waiting == 0 and linked == queued.count() == total
        exact = all(getattr(bank, k) == v for k, v in expected.items()) and entries == total
        matches = all(ledger[k] == getattr(bank, k) for k in RECONCILED_FIELDS)
        posted = min(entries, linked)  # only what is on the meter counts
        rate = posted / elapsed if elapsed else 0.0

        def verdict(ok):
            return self.style.SUCCESS("OK") if ok else self.style.ERROR("FAIL")

        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            version = cursor.fetchone()[0]
        w = self.stdout.write
        w(f"jackpot_bench contributions on PostgreSQL {version}, bank {bank.slug}")
        w(f"  writers (processes)      {writers}")
        w(f"  display publishing       {self.publishing}")
        w(f"  contributions            {total} ({wagers} wagers), {elapsed:.2f} s")
        w(
            f"  writers returned after   {writers_done:.2f} s; the final posting drained "
            f"{drained} waiting contribution(s)"
        )
        w(f"  {'measure':<24} {'measured':>14} {'target':>14}")
        w(
            f"  {'contributions/s':<24} {rate:>14,.0f} {'>= ' + format(TARGET_PER_SECOND, ','):>14}"
            f"   {verdict(rate >= TARGET_PER_SECOND)}"
        )
        w(
            f"  {'meter (cents)':<24} {bank.meter_cents:>14,} {expected['meter_cents']:>14,}"
            f"   {verdict(bank.meter_cents == expected['meter_cents'])}"
        )
        w(
            f"  {'reserve (cents)':<24} {bank.reserve_cents:>14,} {expected['reserve_cents']:>14,}"
            f"   {verdict(bank.reserve_cents == expected['reserve_cents'])}"
        )
        w(
            f"  {'contribution entries':<24} {entries:>14,} {total:>14,}   {verdict(entries == total)}"
        )
        w(f"  {'still waiting (queue)':<24} {waiting:>14,} {0:>14,}   {verdict(all_posted)}")
        w(f"  exact total (meter == seed + expected, carries, counts)   {verdict(exact)}")
        w(f"  ledger sums == cached totals                              {verdict(matches)}")
        w(f"  every queued contribution posted as one ledger line       {verdict(all_posted)}")
        if not (exact and matches and all_posted):
            raise CommandError("the totals do not add up")
