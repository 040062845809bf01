"""A round's news (tables.events.ROUND_NEWS) is told by a worker once the change commits: the
dealer's request hands one task to the broker, and the listeners (the pit's alerts, the
decisions' pricing, the ratings' summaries) run in that task, not in the request."""

import logging

import pytest
from django.db import transaction

from casino.celery import app
from tables import events, tasks
from tests.tables.rounds.conftest import deal_to, pin_of


@pytest.fixture
def told(monkeypatch, celery_not_eager):
    """What the request handed to the broker for tables.tasks.tell, as (news, kwargs)."""
    handed = []
    monkeypatch.setattr(tasks.tell, "delay", lambda news, kwargs: handed.append((news, kwargs)))
    return handed


@pytest.fixture
def heard():
    """Who heard what, by a listener connected for the test."""
    seen = []

    def listener(sender, **kwargs):
        seen.append(kwargs)

    for signal in events.ROUND_NEWS.values():
        signal.connect(listener, dispatch_uid="test.round_news")
    yield seen
    for signal in events.ROUND_NEWS.values():
        signal.disconnect(dispatch_uid="test.round_news")


def test_a_settlement_hands_its_news_to_a_worker_and_no_listener_runs_in_the_request(
    felt, told, heard, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        round_id = deal_to(felt, "settled")["id"]
    assert told == [("round_settled", {"round_id": round_id})]
    assert heard == []  # nobody heard it in the request
    app.conf.task_always_eager = True  # the worker: the listeners' own tasks run at once
    tasks.tell(*told[0])
    assert heard == [{"signal": events.round_settled, "round_id": round_id}]


def test_a_void_is_told_twice_when_declared_and_when_decided(
    felt, supervisor, told, heard, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        round_id = deal_to(felt, "flop")["id"]
        felt.step("irregularity_declared", irregularity="community_card_exposed")
        felt.step("void_approved", supervisor=pin_of(supervisor))
    assert [news for news, _kwargs in told] == ["void_requested", "void_decided"]
    assert told[1][1] == {"round_id": round_id, "approved": True}
    assert heard == []


def test_the_news_waits_for_the_commit_and_a_rolled_back_change_tells_nothing(
    db, told, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            events.tell_after_commit("round_settled", round_id=7)
        with pytest.raises(RuntimeError), transaction.atomic():
            events.tell_after_commit("round_settled", round_id=8)
            raise RuntimeError("rolled back")
        assert told == []  # not before the commit
    assert told == [("round_settled", {"round_id": 7})]


def test_only_a_round_s_news_can_be_told():
    with pytest.raises(ValueError, match="no round news called 'table_closing'"):
        events.tell_after_commit("table_closing", table_id=1)


def test_a_listener_that_fails_is_logged_and_the_next_ones_still_hear(caplog):
    after = []

    def failing(sender, **kwargs):
        raise RuntimeError("listener down")

    def listening(sender, **kwargs):
        after.append(kwargs["round_id"])

    events.round_settled.connect(failing, dispatch_uid="test.failing")
    events.round_settled.connect(listening, dispatch_uid="test.after")  # heard after the failure
    try:
        with caplog.at_level(logging.ERROR, logger="tables.tasks"):
            tasks.tell("round_settled", {"round_id": 5})
    finally:
        events.round_settled.disconnect(dispatch_uid="test.failing")
        events.round_settled.disconnect(dispatch_uid="test.after")
    assert after == [5]
    assert any("listener down" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)
