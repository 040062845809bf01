"""The big-win check of a settlement runs on a worker, where the round's news is told
(tables.tasks.tell), off the dealer's request, and still runs when no broker can take the news
(Redis down): late rather than lost."""

import pytest
from kombu.exceptions import OperationalError

from tables import tasks
from tables.pit.models import Alert, TableAlertThreshold
from tests.tables.rounds.conftest import deal_to


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def big_win_at_five_euros(table):
    TableAlertThreshold.objects.create(table=table, big_win_cents=500)


def big_wins(round_id):
    return Alert.objects.filter(kind=Alert.Kind.BIG_WIN, key__startswith=f"big_win:{round_id}:")


def test_the_settlement_queues_its_news_and_the_worker_raises_the_alert(
    felt, big_win_at_five_euros, committed, monkeypatch
):
    queued = []
    monkeypatch.setattr(tasks.tell, "delay", lambda news, kwargs: queued.append((news, kwargs)))
    with committed():
        round_id = deal_to(felt, "settled")["id"]
    assert queued == [("round_settled", {"round_id": round_id})]
    assert not Alert.objects.filter(kind=Alert.Kind.BIG_WIN).exists()  # not in the request
    tasks.tell(*queued[0])  # the worker's run
    assert (raised := big_wins(round_id).count()) >= 1
    tasks.tell(*queued[0])  # the news redelivered (acknowledged late) raises nothing twice
    assert big_wins(round_id).count() == raised


def test_with_no_broker_the_check_runs_in_the_request(
    felt, big_win_at_five_euros, committed, monkeypatch
):
    def broker_down(news, kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.tell, "delay", broker_down)
    with committed():
        round_id = deal_to(felt, "settled")["id"]
    assert big_wins(round_id).exists()
