"""A server killed with kill -9 in the middle of a round, and restarted, serves the same round
at the same step: the committed events are the truth, not anything a process kept in memory.

A real `uvicorn casino.asgi:application` process on the PostgreSQL test database (so it sees
the rows this test commits, and this test sees its rows) is driven over HTTP like a tablet:
a round is played partway, one more write is sent whose answer the client never reads, and
the server is SIGKILLed. A fresh server on the same database then serves the same round to a
new session, answers the retried writes exactly as the first time without a second effect,
and takes the round on to a confirmed settlement that the rules CLI settles again, with the
progressive contribution counted once and the bank reconciling.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from jackpot.models import PendingContribution
from jackpot.services import bank_reconcile
from tables.models import IdempotentWrite, Round, RoundEvent
from tests.processes import start_in_own_group, stop_group, subprocess_database_url
from tests.tables.rounds.conftest import SUPERVISOR_PIN
from tests.tables.rounds.http_client import ApiClient, Tablet, wait_until_answers

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

DEALER_PIN = "1234"  # tests.factories.make_staff
PORTS = range(8430, 8441)
READY_SECONDS = 20
COMMIT_SECONDS = 10


@pytest.fixture(autouse=True)
def _fast_password_hasher():
    """Overrides tests/conftest.py's: the server processes check PINs with the production
    hashers (MD5 is not among them), so the staff made here are hashed with those too."""
    yield


def port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        # As uvicorn binds: a port whose only sockets are a killed server's TIME_WAIT is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class Server:
    """One `uvicorn casino.asgi:application` process, in its own process group."""

    APPLICATION_NAME = "tapis-test-server"

    def __init__(self, port: int, log_path: Path) -> None:
        self.port, self.log_path = port, log_path
        self.base = f"http://127.0.0.1:{port}"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "casino.settings",
            "DATABASE_URL": subprocess_database_url(),
            "DJANGO_DEBUG": "True",
            # The same secret as this process: the idempotency fingerprints are keyed with it.
            "DJANGO_SECRET_KEY": django_settings.SECRET_KEY,
            "PYTHONUNBUFFERED": "1",
        }
        for name in ("REDIS_URL", "CELERY_BROKER_URL"):  # the in-memory layer, eager Celery
            env.pop(name, None)
        command = [
            sys.executable, "-m", "uvicorn", "casino.asgi:application",
            "--host", "127.0.0.1", "--port", str(port), "--lifespan", "off",
        ]  # fmt: skip
        self.process = start_in_own_group(
            command,
            env=env,
            log_path=log_path,
            application_name=self.APPLICATION_NAME,
            append=True,
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill9(self) -> None:
        os.kill(self.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        stop_group(self.process, grace=5)


@pytest.fixture
def start_server(transactional_db, tmp_path):
    """start_server(prefer=port) -> a Server answering HTTP on a free port of 8430-8440.
    Every server started is stopped before the test database is flushed (this fixture
    depends on transactional_db), whatever happens in the test."""
    started: list[Server] = []

    def start(prefer: int | None = None) -> Server:
        ports = [prefer] if prefer is not None else []
        ports += [p for p in PORTS if p != prefer]
        for port in ports:
            if not port_is_free(port):
                continue
            server = Server(port, tmp_path / f"uvicorn-{len(started) + 1}.log")
            started.append(server)
            if wait_until_answers(server.base, READY_SECONDS, alive=server.alive):
                return server
            log = server.log()
            server.stop()
            if "address already in use" not in log.lower():
                pytest.fail(f"uvicorn on port {port} did not answer in {READY_SECONDS} s:\n{log}")
        pytest.fail(f"no free port in {PORTS.start}-{PORTS.stop - 1}")

    try:
        yield start
    finally:
        for server in started:
            server.stop()


def wait_for_commit(round_id: int, key: str) -> None:
    """Until the server has committed the write sent with `key` (its remembered answer is
    written in the same transaction as the event)."""
    deadline = time.monotonic() + COMMIT_SECONDS
    scope = f"round:{round_id}:events"
    while time.monotonic() < deadline:
        if IdempotentWrite.objects.filter(scope=scope, key=key).exists():
            return
        time.sleep(0.02)
    pytest.fail(f"the write with key {key} was not committed within {COMMIT_SECONDS} s")


def without_hit_ids(output: dict) -> dict:
    """A settle.md output as the CLI gives it: the confirmed one adds each hit's id and state."""
    output = json.loads(json.dumps(output))
    for hit in output["progressive"]["hits"]:
        hit.pop("hit", None), hit.pop("state", None)
    return output


THE_STEP = ("seq", "stage", "seats", "board", "dealer", "cards_expected", "pending_void", "void")


def test_a_round_survives_kill_9_of_its_server(
    start_server, table, dealer, supervisor, progressive
):
    first = start_server()
    api = ApiClient(first.base)
    me = api.sign_in(dealer.employee_number, DEALER_PIN)
    assert me["id"] == dealer.pk and "dealer" in me["roles"]
    tablet = Tablet(api, prefix="before")
    opened = tablet.open(table.pk)
    open_write = tablet.last
    assert opened["seq"] == 0 and opened["stage"] == "betting"

    # Three seats, two with the progressive wager; pre-flop decisions; the flop.
    tablet.step("wagers_placed", seat=1, ante=1000, blind=1000, trips=1000, progressive=100)
    tablet.step("wagers_placed", seat=2, ante=2000, blind=2000, trips=0, progressive=100)
    tablet.step("wagers_placed", seat=3, ante=1000, blind=1000, trips=0, progressive=0)
    tablet.step("bets_locked")
    tablet.step("decision", seat=1, action="bet", multiple=4)
    tablet.step("decision", seat=2, action="check")
    tablet.step("decision", seat=3, action="check")
    flop = tablet.step("cards_entered", place="board", cards=["Kh", "9d", "4c"])
    flop_write = tablet.last
    assert flop["stage"] == "flop" and flop["board"] == ["Kh", "9d", "4c"]

    # One more write, committed by the server, whose answer the client never reads.
    unanswered_path, unanswered = tablet.event_write("decision", seat=2, action="bet", multiple=2)
    conn = api.send_without_reading("POST", unanswered_path, unanswered)
    try:
        wait_for_commit(tablet.round_id, unanswered["key"])
        status, before = api.get(f"/api/rounds/{tablet.round_id}")  # the truth before the kill
        assert status == 200 and before["seq"] == flop["seq"] + 1, before
        first.kill9()
    finally:
        conn.close()
    assert not first.alive()
    round_id = tablet.round_id
    events_before = RoundEvent.objects.filter(round_id=round_id).count()
    assert events_before == before["seq"] == 9
    assert [s["to_act"] for s in before["seats"]] == [False, False, True]  # seat 3 on the flop

    # A fresh server on the same database (the same address when it is still free), and a
    # new session: the same round at the same step.
    second = start_server(prefer=first.port)
    api = ApiClient(second.base)
    api.sign_in(dealer.employee_number, DEALER_PIN)
    status, after = api.get(f"/api/rounds/{round_id}")
    assert status == 200
    for field in THE_STEP:
        assert after[field] == before[field], field
    assert [s["actions"] for s in after["seats"]] == [s["actions"] for s in before["seats"]]
    assert after == before
    status, table_now = api.get(f"/api/tables/{table.pk}/")
    assert status == 200 and table_now["round"] == {"id": round_id, "stage": "flop"}

    # The retried writes (the one never answered, the last one answered, and the opening)
    # answer as the first time, across the restart, and add no event.
    assert api.post(unanswered_path, unanswered) == (200, before)
    assert api.post(flop_write.path, flop_write.body) == (flop_write.status, flop_write.answer)
    assert api.post(open_write.path, open_write.body) == (201, opened)
    assert RoundEvent.objects.filter(round_id=round_id).count() == events_before
    assert api.get(f"/api/rounds/{round_id}") == (200, before)

    # The round goes on from where the events left it, to the confirmed settlement.
    tablet = Tablet(api, prefix="after")
    tablet.round = before
    tablet.step("decision", seat=3, action="check")
    tablet.step("cards_entered", place="board", cards=["2s", "7h"])
    tablet.step("decision", seat=3, action="fold")
    holes = {"dealer": ["Qc", "Qd"], "1": ["Ks", "8d"], "2": ["As", "Ad"], "3": ["Jc", "Th"]}
    assert tablet.round["stage"] == "showdown"
    assert set(tablet.round["cards_expected"]) == set(holes)
    for place, cards in holes.items():
        tablet.step("cards_entered", place=place if place == "dealer" else int(place), cards=cards)
    assert tablet.round["cards_expected"] == {}
    done = tablet.step("settlement_confirmed")
    assert done["stage"] == "settled" and done["settled_at"]
    nets = {s["seat"]: s["net"] for s in done["settlement"]["seats"]}
    # Seat 1: kings beat queens, 4x: Ante +1000, Blind push, Play +4000; Trips and
    # progressive lost. Seat 2: aces, 2x: +2000 +4000, progressive lost. Seat 3 folded.
    assert nets == {1: 1000 + 4000 - 1000 - 100, 2: 2000 + 4000 - 100, 3: -2000}
    assert Round.objects.get(pk=round_id).seq == done["seq"] == events_before + 8

    # The supervisor's export settles again through the rules CLI, to the same output.
    records = ApiClient(second.base)
    records.sign_in(supervisor.employee_number, SUPERVISOR_PIN)
    status, export = records.get(f"/api/rounds/{round_id}/export")
    assert status == 200, export
    assert export["output"] == done["settlement"]
    cli = subprocess.run(
        [sys.executable, "-m", "tables.rules", "settle", "-"],
        input=json.dumps(export["input"]),
        capture_output=True,
        text=True,
        check=True,
        cwd=django_settings.BASE_DIR,
    )
    assert json.loads(cli.stdout) == without_hit_ids(export["output"])

    # The progressive wagers reached the bank once, and its ledger agrees with its meters.
    contributions = PendingContribution.objects.filter(
        bank_id=progressive.pk, reference=f"round-{round_id}"
    )
    assert [(c.wager_count, c.wager_cents) for c in contributions] == [(2, progressive.wager_cents)]
    assert bank_reconcile(bank_id=progressive.pk) == []
    progressive.refresh_from_db()
    # Two 1.00 wagers send 2 x 20 cents to the meter (tests/jackpot/factories.DEFAULTS).
    assert progressive.meter_cents == progressive.reset_cents + 2 * 20
