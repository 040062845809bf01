"""`make simulate` plays on as a dealer would: a closed table is waited for until a supervisor
opens it, a server that stops answering (a restart) until it is back, and each is said."""

import io
import threading
import time

import pytest
from django.core.management import call_command

from casino.models import Staff
from tables import services, simulator
from tables.models import Round, RoundEvent
from tests.e2e.conftest import AsgiServer, asgi_server  # noqa: F401 - fixture

pytestmark = pytest.mark.slow


def _dealer(server, said: list[str], rounds: int) -> simulator.TableDealer:
    call_command("load_demo", stdout=io.StringIO())
    [table] = simulator.floor_prepare(1)
    return simulator.TableDealer(
        base=server.url,
        table=table,
        rounds=rounds,
        speed=20,  # a step every 50 to 100 ms
        seed="waits",
        rig_every=0,
        void_every=0,
        supervisor=simulator.demo_supervisor_credentials(),
        run="waits",
        patience=60,
        say=said.append,
    )


def _play(dealer) -> threading.Thread:
    def work():
        try:
            dealer.sign_in()
            dealer.play()
        except Exception as exc:  # kept, as run_dealers keeps it
            dealer.result.problems.append(f"{type(exc).__name__}: {exc}")

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread


def _settled(dealer) -> list[str]:
    return list(
        Round.objects.filter(pk__in=dealer.result.round_ids).values_list("stage", flat=True)
    )


def test_a_closed_table_is_waited_for_until_it_opens(asgi_server):  # noqa: F811
    said: list[str] = []
    dealer = _dealer(asgi_server, said, rounds=1)
    supervisor = Staff.objects.get(username="inspecteur")
    table_id = dealer.table.table_id
    asgi_server.run_sync(services.table_close, table_id=table_id, supervisor=supervisor)
    thread = _play(dealer)
    deadline = time.monotonic() + 10
    while not any("closed" in line for line in said):
        assert time.monotonic() < deadline and thread.is_alive(), (said, dealer.result.problems)
        time.sleep(0.1)
    time.sleep(2)
    assert not dealer.result.round_ids  # nothing opened at a closed table
    asgi_server.run_sync(services.table_open, table_id=table_id, supervisor=supervisor)
    thread.join(timeout=60)
    assert not thread.is_alive() and dealer.result.problems == []
    assert _settled(dealer) == ["settled"]
    assert said[0] == "SIM 1 is closed: the dealer waits for it to open"
    assert said[-1].startswith("SIM 1: the table is open again after ")
    assert dealer.result.waited >= 2


def test_a_server_restart_is_waited_for_and_the_step_sent_again_once(asgi_server):  # noqa: F811
    said: list[str] = []
    dealer = _dealer(asgi_server, said, rounds=2)
    thread = _play(dealer)
    deadline = time.monotonic() + 20
    while not RoundEvent.objects.filter(round_id__in=dealer.result.round_ids).count() >= 3:
        assert time.monotonic() < deadline and thread.is_alive(), dealer.result.problems
        time.sleep(0.05)
    asgi_server.stop()  # mid-round
    time.sleep(3)
    server = AsgiServer(asgi_server.port).start()
    try:
        thread.join(timeout=90)
        assert not thread.is_alive() and dealer.result.problems == []
    finally:
        server.stop()
    assert _settled(dealer) == ["settled", "settled"]
    assert said[0].startswith("SIM 1: the server does not answer (")
    assert said[-1].startswith("SIM 1: the server answers again after ")
    assert dealer.result.waited >= 2
    # Every step has one event however often it was sent: the books hold.
    checks = simulator.floor_checks(dealer.result.round_ids, [dealer.table.table_id])
    assert [c.label for c in checks if not c.ok] == []
