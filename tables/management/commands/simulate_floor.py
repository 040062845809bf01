"""`manage.py simulate_floor`: dealers playing real rounds through the round API, then the
books checked in the database (tables/simulator.py does the work)."""

import os
import threading
import uuid

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from tables import simulator as sim

HELP = f"""Play real Ultimate Texas Hold'em rounds through the HTTP round API
(spec/round-api.md) as dealers at their tablets would, print the round rate and the time of
every request beside the targets (p95 < {sim.TARGET_SETTLE_MS} ms for settlement_confirmed,
< {sim.TARGET_EVENT_MS} ms for the other events), then check the invariants in the database
and exit non-zero when one fails (a missed time target is printed, it does not fail the run).

A server must answer at --base, on the database this command uses (the same DATABASE_URL):
the command prepares the floor in that database, then plays through HTTP only.

It needs the demo floor (manage.py load_demo) and creates on it, through the services, with
the demo manager 'directeur' and supervisor 'inspecteur' as the audited actors, only what is
missing: tables "SIM 1".."SIM N" (SIM i copies UTH ((i-1) % 4 + 1): seats, limits, rule set
and progressive bank), opened; dealers sim-dealer-1..N (employee number and PIN 9001, 9002,
...), each assigned now to its SIM table. A second run reuses them; a round left in progress
at a SIM table is played to its end first. Voids are approved by the demo supervisor (employee
2001, PIN 3333).

Like a dealer, a simulated dealer waits when its table is closed (until a supervisor opens it)
or the server stops answering (a restart), says so, and goes on: a step that got no answer is
sent again under its key, so it has one effect. It gives up the table after --patience
seconds."""


class Command(BaseCommand):
    help = HELP
    _saying = threading.Lock()

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=2, help="tables played at once (2)")
        parser.add_argument("--rounds", type=int, default=10, help="rounds per table (10)")
        parser.add_argument(
            "--speed",
            type=float,
            default=1.0,
            help="0: as fast as possible (the benchmark); X > 0: a human dealer's pace (1 to "
            "2 s between steps, 3 to 5 s between rounds) divided by X (1)",
        )
        parser.add_argument(
            "--base",
            default="http://127.0.0.1:8000",
            help="the server's address (http://127.0.0.1:8000: make run)",
        )
        parser.add_argument("--seed", help="seed of the players' and the decks' randomness")
        parser.add_argument(
            "--patience",
            type=float,
            default=sim.PATIENCE,
            metavar="SECONDS",
            help="how long a dealer waits for a closed table to open again or a server that "
            f"stopped answering (a restart) to come back before giving up the table "
            f"({sim.PATIENCE:g})",
        )
        parser.add_argument(
            "--rig-hit-every",
            type=int,
            default=0,
            metavar="K",
            help="every K-th round at a table, stack the deck: one progressive seat's hole "
            "cards and the flop make a royal or straight flush (a progressive hit)",
        )
        parser.add_argument(
            "--no-ratings",
            action="store_true",
            help="nobody rates a player at the tables: the rounds alone, as the floor was "
            "played before player ratings (to compare with figures measured then)",
        )
        parser.add_argument(
            "--void-every",
            type=int,
            default=0,
            metavar="K",
            help="every K-th round at a table (not a rigged one), expose a card pre-flop or "
            "on the flop and have the void approved with the supervisor's PIN",
        )

    def handle(
        self,
        *args,
        tables,
        rounds,
        speed,
        base,
        seed,
        rig_hit_every,
        void_every,
        patience,
        no_ratings=False,
        **o,
    ):
        if tables < 1 or rounds < 1 or speed < 0 or rig_hit_every < 0 or void_every < 0:
            raise CommandError("--tables and --rounds are at least 1; the others are not negative")
        base = base.rstrip("/")
        try:
            sim.server_probe(base)
        except sim.NoServer as exc:
            raise CommandError(
                f"{exc}. Start one first (make run, or make serve) or point --base at it."
            ) from None
        floor = sim.floor_prepare(tables, rated=not no_ratings)
        for table in floor:
            for what in table.created:
                self.stdout.write(f"created: {what}")
        run = uuid.uuid4().hex[:8]
        dealers = [
            sim.TableDealer(
                base=base,
                table=table,
                rounds=rounds,
                speed=speed,
                seed=seed,
                rig_every=rig_hit_every,
                void_every=void_every,
                supervisor=sim.demo_supervisor_credentials(),
                run=run,
                patience=patience,
                say=self._say,
            )
            for table in floor
        ]
        self.stdout.write(
            f"simulate_floor: {tables} table(s) x {rounds} round(s) at {base}, speed {speed:g}"
        )
        elapsed = sim.run_dealers(dealers)
        results = [d.result for d in dealers]
        self._figures(results, elapsed)
        checks = self._checks(results, floor)
        failed = [c for c in checks if not c.ok]
        if failed:
            raise CommandError(f"{len(failed)} check(s) failed")

    def _say(self, text: str) -> None:
        # Dealers play in threads: one line at a time, each whole.
        with self._saying:
            self.stdout.write(f"  {text}")
            self.stdout.flush()

    def _figures(self, results, elapsed) -> None:
        w = self.stdout.write
        played = sum(len(r.round_ids) for r in results)
        settled, void = sum(r.settled for r in results), sum(r.void for r in results)
        hits = sum(r.hits for r in results)
        database = connection.vendor
        if database == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SHOW server_version")
                database = f"PostgreSQL {cursor.fetchone()[0]}"
        w(f"  database                 {database}; {os.cpu_count()} CPUs, load {_load()}")
        w(f"  rounds played            {played}")
        w(f"  settled                  {settled}")
        w(f"  void                     {void}")
        w(f"  progressive hits         {hits} ({sum(len(r.rigged) for r in results)} rigged)")
        ratings = sum(len(r.rated_rounds) for r in results)
        if ratings:
            writes = sum(r.rating_writes for r in results)
            w(f"  ratings                  {ratings} ({writes} rating writes by the supervisor)")
        skipped = sum(r.rig_skipped for r in results)
        if skipped:
            w(f"  rigged turns skipped     {skipped} (no open progressive bank at the table)")
        resumed, stale = sum(r.resumed for r in results), sum(r.stale for r in results)
        if resumed or stale:
            w(f"  resumed rounds / stale   {resumed} / {stale}")
        waited = sum(r.waited for r in results)
        if waited:
            w(f"  waited                   {waited:.1f} s (a closed table, a server restarting)")
        rate = played / elapsed if elapsed else 0.0
        w(f"  elapsed                  {elapsed:.2f} s")
        w(f"  rounds per second        {rate:.2f}")
        w(
            "  Server time per request: what the server spent on it (its Server-Timing header:"
            "\n  from the first middleware in to the response out, without the network or the"
            " wait for a worker)."
        )
        self._timing_table([t for r in results for t in r.server_timings])
        w(
            "  Of which the database: the time spent waiting on the answers to its statements"
            " (Server-Timing's db;\n  the commit is not a statement and counts as the server's"
            " own time)."
        )
        self._timing_table([t for r in results for t in r.db_timings], targets=False)
        w(
            "  Client wall time per request: from sending it to the last byte of the answer "
            "(with the network and\n  the wait for a free worker: at --speed 0 every table "
            "sends at once, so this is mostly queueing)."
        )
        self._timing_table([t for r in results for t in r.timings])

    def _timing_table(self, timings: list, targets: bool = True) -> None:
        w = self.stdout.write
        heading = "  target p95" if targets else ""
        w(f"  {'request':<34}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{heading}")
        for row in sim.timing_rows(timings):
            target = row["target"] if targets else None
            verdict = ""
            if target is not None:
                verdict = f"< {target}  " + ("OK" if row["p95"] < target else "MISS")
            w(
                f"  {row['label']:<34}{row['count']:>7}{row['p50']:>9.1f}{row['p95']:>9.1f}"
                f"{row['p99']:>9.1f}  {verdict}"
            )

    def _checks(self, results, floor) -> list[sim.Check]:
        round_ids = [pk for r in results for pk in r.round_ids]
        problems = [p for r in results for p in r.problems]
        checks = [
            sim.Check(
                "every request answered as the contract says",
                not problems,
                "\n      ".join(problems[:20]),
            ),
            *sim.floor_checks(round_ids, [t.table_id for t in floor]),
        ]
        recorded, settled_hits = sim.hits_recorded(round_ids), sum(r.hits for r in results)
        checks.append(
            sim.Check(
                "each hit in a settlement is recorded as a jackpot Hit",
                recorded == settled_hits,
                f"{recorded} recorded, {settled_hits} in settlements",
            )
        )
        rated = {pk: n for r in results for pk, n in r.rated_rounds.items()}
        checks += sim.rating_checks(rated)
        self.stdout.write("Checks against the database:")
        for check in checks:
            verdict = self.style.SUCCESS("OK") if check.ok else self.style.ERROR("FAILED")
            detail = f"  ({check.detail})" if check.detail else ""
            self.stdout.write(f"  {verdict:<6} {check.label}{detail}")
        return checks


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())
