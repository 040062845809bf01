"""The Celery worker and beat leave heartbeats; the pit shows the one that went silent (issue
23, item 4): after `kill -9` of the worker nothing on the floor said so."""

import time

import pytest

from casino import heartbeat
from casino.celery import app
from tests.tables.rounds.conftest import supervisor  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def watched(settings, celery_not_eager):
    """As under `make serve`: a worker and beat exist, so their silence means something."""
    settings.HEARTBEAT_SILENT_SECONDS = 60
    return settings


def names(silent) -> set[str]:
    return {p["process"] for p in silent}


def test_nothing_is_silent_in_the_embedded_profile(settings):
    assert app.conf.task_always_eager  # no worker, no beat: nothing to watch
    assert heartbeat.silent_processes() == []


def test_a_process_never_heard_from_is_silent(watched):
    assert names(heartbeat.silent_processes()) == {"worker", "beat"}


def test_beat_sending_and_the_worker_running_the_heartbeat_keep_both_heard(watched):
    heartbeat.heartbeat.apply_async()  # beat's sending (the in-memory broker of the tests)
    assert names(heartbeat.silent_processes()) == {"worker"}  # sent, not run: no worker
    heartbeat.heartbeat()  # what the worker runs
    assert heartbeat.silent_processes() == []


def test_a_worker_silent_past_the_limit_is_silent_and_beat_still_heard(watched):
    heartbeat.heartbeat.apply_async()
    heartbeat.heartbeat()
    later = time.time() + 61
    heartbeat.heartbeat_record("beat")  # beat goes on; the worker was killed
    heartbeat.cache.set("tapis:heartbeat:beat", later - 5, timeout=None)
    silent = heartbeat.silent_processes(now=later)
    assert names(silent) == {"worker"}
    assert silent[0]["seen"] < later - 60


def test_the_heartbeat_is_on_beats_schedule(settings):
    sent = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == heartbeat.TASK]
    assert sent and sent[0]["schedule"] < settings.HEARTBEAT_SILENT_SECONDS


def test_the_pit_shows_a_silent_worker_and_clears_when_it_beats_again(
    client,
    watched,
    supervisor,  # noqa: F811
):
    client.force_login(supervisor)
    heartbeat.heartbeat.apply_async()
    shown = client.get("/pit/fragments/alerts/").content.decode()
    assert "process_silent:worker" in shown and "process_silent:beat" not in shown
    assert "Celery worker" in shown
    assert "process_silent:worker" in client.get("/pit/").content.decode()
    heartbeat.heartbeat()
    assert "process_silent" not in client.get("/pit/fragments/alerts/").content.decode()
