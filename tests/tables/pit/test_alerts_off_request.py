"""The alerts a dealer's step raises after its commit (a declared void, too many voids, a
progressive hit) are raised by a worker, off the dealer's request; with no broker to take the
task, in the request as before. A redelivered task raises nothing twice."""

import pytest
from kombu.exceptions import OperationalError

from jackpot import events as jackpot_events
from tables.pit import tasks
from tables.pit.models import Alert
from tests.tables.rounds.conftest import SUPERVISOR_PIN, deal_to


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def declare_void(felt):
    deal_to(felt, "preflop", seats=(1,))
    return felt.step("irregularity_declared", irregularity="preflop_card_exposed")


def test_a_declared_void_queues_its_alert_and_the_worker_raises_it(felt, committed, monkeypatch):
    queued = []
    monkeypatch.setattr(tasks.void_request_alert, "delay", lambda round_id: queued.append(round_id))
    with committed():
        round_id = declare_void(felt)["id"]
    assert queued == [round_id]
    assert not Alert.objects.filter(kind=Alert.Kind.VOID_REQUESTED).exists()  # not in the request
    assert tasks.void_request_alert(round_id) == 1  # the worker's run
    assert Alert.objects.filter(kind=Alert.Kind.VOID_REQUESTED).count() == 1
    assert tasks.void_request_alert(round_id) == 0  # redelivered: nothing twice


def test_with_no_broker_the_void_alert_is_raised_in_the_request(felt, committed, monkeypatch):
    def broker_down(round_id):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.void_request_alert, "delay", broker_down)
    with committed():
        declare_void(felt)
    assert Alert.objects.filter(kind=Alert.Kind.VOID_REQUESTED).count() == 1


def test_an_approved_void_queues_the_too_many_voids_check(felt, supervisor, committed, monkeypatch):
    queued = []
    monkeypatch.setattr(tasks.many_voids_check, "delay", lambda round_id: queued.append(round_id))
    with committed():
        round_id = declare_void(felt)["id"]
        felt.step(
            "void_approved",
            supervisor={"employee_number": supervisor.employee_number, "pin": SUPERVISOR_PIN},
        )
    assert queued == [round_id]


def test_a_recorded_hit_queues_its_alert(transactional_db, monkeypatch):
    # transactional_db: the signal is sent after a commit, outside any transaction.
    queued = []
    monkeypatch.setattr(tasks.hit_alert, "delay", lambda hit_id: queued.append(hit_id))
    jackpot_events.hit_recorded.send(sender=None, hit_id=41)
    assert queued == [41]
