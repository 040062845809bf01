"""Benchmark (b): many display sockets on one bank, against PostgreSQL, Redis, a real ASGI
server (uvicorn workers) and a real Celery worker, for each channel layer.

Every commit is a real progressive contribution (jackpot.services.bank_contribute). For each
commit and each socket we measure the time from the commit to the first meter message whose
seq covers it (a meter message may carry several commits), and at the end we
count the sockets whose last meter value is the committed one.
"""

import asyncio
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections, connection, transaction

LAYERS = {
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    "core": "channels_redis.core.RedisChannelLayer",
}
TARGET_P99_MS = 250
BANK = "bench-sockets"


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


class Command(BaseCommand):
    help = (
        "Open many display sockets on one bank through a real ASGI server and Celery worker, "
        "commit meter changes, print commit-to-receipt p50/p99/max per channel layer."
    )

    def add_arguments(self, parser):
        parser.add_argument("--sockets", type=int, default=500)
        parser.add_argument("--commits", type=int, default=40)
        parser.add_argument("--interval", type=float, default=0.25, help="seconds between commits")
        parser.add_argument("--workers", type=int, default=2, help="uvicorn worker processes")
        parser.add_argument("--layer", choices=["pubsub", "core", "both"], default="both")
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument(
            "--repeat",
            type=int,
            default=1,
            help="runs per layer, alternating (the machine is shared)",
        )

    def handle(self, *args, sockets, commits, interval, workers, layer, port, repeat, **options):
        self.verbosity = options["verbosity"]
        if connection.vendor != "postgresql" or not settings.REDIS_URL:
            raise CommandError(
                "run it against PostgreSQL and Redis, e.g. "
                "DATABASE_URL=postgres://postgres@127.0.0.1:5432/tapis_bench_sockets "
                "REDIS_URL=redis://127.0.0.1:6379/7 manage.py jackpot_bench_sockets"
            )
        from casino.celery import app

        if app.conf.task_always_eager:
            raise CommandError("Celery runs eagerly here: set REDIS_URL so a worker publishes")
        call_command("migrate", verbosity=0)
        bank_id, dealer = self._floor()
        run = uuid.uuid4().hex[:6]
        raws = self._issue(sockets, run)
        rows = []
        try:
            for turn in range(repeat):
                names = ["pubsub", "core"] if layer == "both" else [layer]
                # Alternate which layer goes first: the first run of a series runs colder.
                for name in names if turn % 2 == 0 else names[::-1]:
                    self.stdout.write(
                        f"\n== {LAYERS[name]}: {sockets} sockets, {commits} commits =="
                    )
                    rows.append(
                        self._measure(name, bank_id, dealer, raws, commits, interval, workers, port)
                    )
        finally:
            self._revoke(run)
        if repeat > 1:
            rows += [
                self._pooled([r for r in rows if r["layer"] == name])
                for name in dict.fromkeys(r["layer"] for r in rows)
            ]
        self._report(rows, sockets, commits, workers, interval)

    # --- the floor -----------------------------------------------------------------------

    def _floor(self):
        from casino.models import Property, Staff
        from casino.roles import Role
        from casino.staffing import staff_create
        from jackpot import services
        from jackpot.models import Bank

        Property.objects.get_or_create(name="Casino de benchmark", defaults={"currency": "EUR"})
        people = {}
        for username, role in (("bench-manager", Role.MANAGER), ("bench-dealer", Role.DEALER)):
            people[role] = Staff.objects.filter(username=username).first() or staff_create(
                username=username, roles=[role], password=uuid.uuid4().hex
            )
        bank = Bank.objects.filter(slug=BANK).first()
        if bank is None:
            bank = services.bank_create(
                slug=BANK,
                name="Benchmark",
                manager=people[Role.MANAGER],
                reset_cents=1_000_000,
                increment_rate_ppm=250_000,
                levels=[
                    {"level": "royal_flush", "percent": 100},
                    {"level": "straight_flush", "percent": 10},
                ],
            )
        if bank.status != Bank.Status.OPEN:
            services.bank_open(bank_id=bank.pk, actor=people[Role.MANAGER], reason="benchmark")
        return bank.pk, people[Role.DEALER]

    def _issue(self, count: int, run: str) -> list[str]:
        from jackpot.display_tokens import display_token_issue

        started = time.monotonic()
        raws = [
            display_token_issue(bank_slug=BANK, name=f"bench-{run}-{i}")[1] for i in range(count)
        ]
        self.stdout.write(f"issued {count} display tokens in {time.monotonic() - started:.1f} s")
        return raws

    def _revoke(self, run: str) -> None:
        from jackpot.display_tokens import display_token_revoke
        from jackpot.models import DisplayToken

        close_old_connections()
        for pk in DisplayToken.objects.filter(
            name__startswith=f"bench-{run}-", revoked_at__isnull=True
        ).values_list("pk", flat=True):
            display_token_revoke(token_id=pk)

    # --- one layer -----------------------------------------------------------------------

    def _processes(self, layer: str, workers: int, port: int) -> list[subprocess.Popen]:
        env = {
            **os.environ,
            "CHANNEL_LAYER_BACKEND": LAYERS[layer],
            "DJANGO_DEBUG": "False",
            "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or uuid.uuid4().hex * 2,
            "DJANGO_SECURE_SSL_REDIRECT": "False",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "LOG_LEVEL": "WARNING",
        }
        root = Path(settings.BASE_DIR)
        server = [
            sys.executable, "-m", "uvicorn", "casino.asgi:application",
            "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers),
            "--ws", "websockets-sansio", "--log-level", "warning", "--no-access-log",
        ]  # fmt: skip
        worker = [
            sys.executable, "-m", "celery", "-A", "casino", "worker", "-l", "warning",
            "-c", "2", "--without-gossip", "--without-mingle", "-n", f"bench-{uuid.uuid4().hex[:6]}@%h",
        ]  # fmt: skip
        return [
            subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.DEVNULL)
            for cmd in (server, worker)
        ]

    def _wait_ready(self, port: int, raw: str) -> None:
        import urllib.request

        from casino.celery import app

        deadline = time.monotonic() + 60
        url = f"http://127.0.0.1:{port}/api/jackpot/{BANK}/?token={raw}"
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise CommandError("the ASGI server did not answer within 60 s")
            time.sleep(0.3)
        while not app.control.ping(timeout=0.5):
            if time.monotonic() > deadline:
                raise CommandError("the Celery worker did not answer within 60 s")

    def _measure(self, layer, bank_id, dealer, raws, commits, interval, workers, port):
        procs = self._processes(layer, workers, port)
        try:
            self._wait_ready(port, raws[0])
            return asyncio.run(self._drive(layer, bank_id, dealer, raws, commits, interval, port))
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()

    async def _drive(self, layer, bank_id, dealer, raws, commits, interval, port):
        from websockets.asyncio.client import connect

        arrivals: list[list[tuple[int, float, int]]] = [[] for _ in raws]
        gate = asyncio.Semaphore(50)

        async def open_socket(i: int, raw: str):
            async with gate:
                ws = await connect(
                    f"ws://127.0.0.1:{port}/ws/jackpot/{BANK}/?token={raw}",
                    open_timeout=30,
                    ping_interval=None,
                    max_queue=None,
                )
                first = json.loads(await ws.recv())
                assert first["type"] == "snapshot", first
                return ws

        started = time.monotonic()
        sockets = await asyncio.gather(*(open_socket(i, raw) for i, raw in enumerate(raws)))
        self.stdout.write(f"opened {len(sockets)} sockets in {time.monotonic() - started:.1f} s")

        async def listen(i, ws):
            try:
                async for raw in ws:
                    now = time.monotonic()
                    message = json.loads(raw)
                    if message["type"] == "meter":
                        arrivals[i].append(
                            (message["seq"], now, message["levels"][0]["amount_cents"])
                        )
            except Exception:
                pass

        listeners = [asyncio.create_task(listen(i, ws)) for i, ws in enumerate(sockets)]
        # Warm-up, not measured: each Celery child and server worker opens its database and
        # Redis connections on first use; that once-per-process cost is not the steady state.
        for n in range(4):
            await asyncio.to_thread(self._commit, bank_id, dealer, n)
            await asyncio.sleep(0.3)
        committed: list[tuple[int, float, int]] = []  # (seq, commit time, meter)
        for n in range(commits):
            committed.append(await asyncio.to_thread(self._commit, bank_id, dealer, n))
            await asyncio.sleep(interval)
        last_seq, _, last_meter = committed[-1]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(a and a[-1][0] >= last_seq for a in arrivals):
            await asyncio.sleep(0.05)
        for ws in sockets:
            await ws.close()
        for task in listeners:
            task.cancel()
        await asyncio.to_thread(close_old_connections)

        latencies, missing = [], 0
        for got in arrivals:
            for seq, at, _ in committed:
                first = next((t for s, t, _ in got if s >= seq), None)
                if first is None:
                    missing += 1
                else:
                    latencies.append((first - at) * 1000)
        # Where the time goes: the first socket to hear a commit (the Celery hop and the
        # layer) and the spread until the last one hears it (the fan-out to every socket).
        firsts, spreads = [], []
        for seq, at, _ in committed:
            heard = [next((t for s, t, _ in got if s >= seq), None) for got in arrivals]
            heard = [t for t in heard if t is not None]
            if heard:
                firsts.append((min(heard) - at) * 1000)
                spreads.append((max(heard) - min(heard)) * 1000)
                if self.verbosity >= 2:
                    self.stdout.write(
                        f"  seq {seq}: first {firsts[-1]:.1f} ms, last {(max(heard) - at) * 1000:.1f} ms"
                    )
        on_value = sum(1 for got in arrivals if got and got[-1][2] == last_meter)
        return self._row(
            LAYERS[layer].rsplit(".", 1)[1], latencies, firsts, spreads, missing, on_value
        )

    def _row(self, layer, latencies, firsts, spreads, missing, on_value, runs=1) -> dict:
        return {
            "layer": layer if runs == 1 else f"{layer} x{runs}",
            "name": layer,
            "latencies": latencies,
            "firsts": firsts,
            "spreads": spreads,
            "runs": runs,
            "p50": percentile(latencies, 50),
            "p99": percentile(latencies, 99),
            "max": max(latencies) if latencies else float("nan"),
            "missing": missing,
            "on_value": on_value,
            "first": percentile(firsts, 50),
            "spread": percentile(spreads, 50),
        }

    def _pooled(self, rows: list[dict]) -> dict:
        return self._row(
            rows[0]["name"],
            [x for r in rows for x in r["latencies"]],
            [x for r in rows for x in r["firsts"]],
            [x for r in rows for x in r["spreads"]],
            sum(r["missing"] for r in rows),
            sum(r["on_value"] for r in rows),
            runs=len(rows),
        )

    def _commit(self, bank_id: int, dealer, n: int) -> tuple[int, float, int]:
        from jackpot import services
        from jackpot.models import Bank

        stamp: list[float] = []
        with transaction.atomic():
            # Registered first, so it runs right at commit, before the feed's own callback.
            transaction.on_commit(lambda: stamp.append(time.monotonic()))
            # The bank held: the contribution is posted in this transaction, so the commit is
            # the meter's change (otherwise a worker posts it later, off the clock).
            services.bank_lock_and_post(bank_id)
            services.bank_contribute(
                bank_id=bank_id,
                reference=f"bench-{uuid.uuid4().hex}",
                wager_count=1 + n % 7,
                wager_cents=100,
                actor=dealer,
            )
        bank = Bank.objects.get(pk=bank_id)
        return bank.feed_seq, stamp[0], bank.meter_cents

    def _report(self, rows, sockets, commits, workers, interval) -> None:
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        out = [
            "",
            f"Benchmark (b): {sockets} display sockets on one bank, {commits} commits "
            f"{interval * 1000:.0f} ms apart per run, uvicorn x{workers} + Celery worker (prefork "
            f"x2), PostgreSQL + Redis; {os.cpu_count()} CPUs, load average {load}",
            f"{'channel layer':<26}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}"
            f"{'target p99':>12}{'  ':2}{'ends on committed value':<24}{'missed':>7}"
            f"{'first ms':>10}{'spread ms':>11}",
        ]
        for r in rows:
            verdict = "OK " if r["p99"] < TARGET_P99_MS else "MISS"
            out.append(
                f"{r['layer']:<26}{r['p50']:>9.1f}{r['p99']:>9.1f}{r['max']:>9.1f}"
                f"{'< ' + str(TARGET_P99_MS) + ' ' + verdict:>12}  "
                f"{str(r['on_value']) + '/' + str(sockets * r['runs']):<24}{r['missing']:>7}"
                f"{r['first']:>10.1f}{r['spread']:>11.1f}"
            )
        out.append(
            "first ms: median time from a commit to the first socket hearing it (Celery hop + "
            "layer); spread ms: median time from that first socket to the last one (fan-out)."
        )
        self.stdout.write("\n".join(out) + "\n")
