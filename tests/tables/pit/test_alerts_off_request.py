"""The alerts a dealer's step raises after its commit (a declared void, too many voids, a
progressive hit) are raised by a worker, off the dealer's request (a round's where its news is
told, tables.tasks.tell); with no broker to take the task, in the request as before. A
redelivered task raises nothing twice."""

import pytest
from kombu.exceptions import OperationalError

from jackpot import events as jackpot_events
from tables import tasks as tables_tasks
from tables.pit import alerts, tasks
from tables.pit.models import Alert
from tests.tables.rounds.conftest import SUPERVISOR_PIN, deal_to


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def declare_void(felt):
    deal_to(felt, "preflop", seats=(1,))
    return felt.step("irregularity_declared", irregularity="preflop_card_exposed")


def queue_the_news(monkeypatch):
    queued = []
    monkeypatch.setattr(
        tables_tasks.tell, "delay", lambda news, kwargs: queued.append((news, kwargs))
    )
    return queued


def test_a_declared_void_queues_its_alert_and_the_worker_raises_it(felt, committed, monkeypatch):
    queued = queue_the_news(monkeypatch)
    with committed():
        round_id = declare_void(felt)["id"]
    assert queued == [("void_requested", {"round_id": round_id})]
    assert not Alert.objects.filter(kind=Alert.Kind.VOID_REQUESTED).exists()  # not in the request
    tables_tasks.tell(*queued[0])  # the worker's run
    assert Alert.objects.filter(kind=Alert.Kind.VOID_REQUESTED).count() == 1
    tables_tasks.tell(*queued[0])  # redelivered: nothing twice
    assert Alert.objects.filter(kind=Alert.Kind.VOID_REQUESTED).count() == 1


def test_with_no_broker_the_void_alert_is_raised_in_the_request(felt, committed, monkeypatch):
    def broker_down(news, kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tables_tasks.tell, "delay", broker_down)
    with committed():
        declare_void(felt)
    assert Alert.objects.filter(kind=Alert.Kind.VOID_REQUESTED).count() == 1


def test_an_approved_void_queues_the_too_many_voids_check(felt, supervisor, committed, monkeypatch):
    queued = queue_the_news(monkeypatch)
    with committed():
        round_id = declare_void(felt)["id"]
        felt.step(
            "void_approved",
            supervisor={"employee_number": supervisor.employee_number, "pin": SUPERVISOR_PIN},
        )
    assert ("void_decided", {"round_id": round_id, "approved": True}) in queued
    calls = []
    monkeypatch.setattr(alerts, "many_voids_raise", lambda round_id: calls.append(round_id))
    tables_tasks.tell("void_decided", {"round_id": round_id, "approved": True})  # the worker's run
    assert calls == [round_id]


def test_a_recorded_hit_queues_its_alert(transactional_db, monkeypatch):
    # transactional_db: the signal is sent after a commit, outside any transaction.
    queued = []
    monkeypatch.setattr(tasks.hit_alert, "delay", lambda hit_id: queued.append(hit_id))
    jackpot_events.hit_recorded.send(sender=None, hit_id=41)
    assert queued == [41]
