"""The big-win check of a settlement runs on a worker, off the dealer's request, and still
runs when no broker can take it (Redis down): late rather than lost."""

import pytest
from kombu.exceptions import OperationalError

from tables.pit import tasks
from tables.pit.models import Alert, TableAlertThreshold
from tests.tables.rounds.conftest import deal_to


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def big_win_at_five_euros(table):
    TableAlertThreshold.objects.create(table=table, big_win_cents=500)


def test_the_settlement_queues_the_check_and_the_worker_raises_the_alert(
    felt, big_win_at_five_euros, committed, monkeypatch
):
    queued = []
    monkeypatch.setattr(tasks.big_wins_check, "delay", lambda round_id: queued.append(round_id))
    with committed():
        round_id = deal_to(felt, "settled")["id"]
    assert queued == [round_id]
    assert not Alert.objects.filter(kind=Alert.Kind.BIG_WIN).exists()  # not in the request
    assert tasks.big_wins_check(round_id) >= 1  # the worker's run
    assert Alert.objects.filter(kind=Alert.Kind.BIG_WIN, key__startswith=f"big_win:{round_id}:")
    assert tasks.big_wins_check(round_id) == 0  # a redelivered task raises nothing twice


def test_with_no_broker_the_check_runs_in_the_request(
    felt, big_win_at_five_euros, committed, monkeypatch
):
    def broker_down(round_id):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.big_wins_check, "delay", broker_down)
    with committed():
        round_id = deal_to(felt, "settled")["id"]
    assert Alert.objects.filter(kind=Alert.Kind.BIG_WIN, key__startswith=f"big_win:{round_id}:")
