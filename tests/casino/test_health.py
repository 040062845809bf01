"""/healthz and /readyz: public, JSON, never cached; readiness says which dependency fails."""

import socket

import pytest


def test_healthz_answers_without_a_login(client):
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok"}
    assert "no-store" in answer["Cache-Control"] or "max-age=0" in answer["Cache-Control"]


@pytest.mark.django_db
def test_readyz_is_ready_with_the_database_and_no_redis_configured(client, settings):
    settings.REDIS_URL = ""
    answer = client.get("/readyz")
    assert answer.status_code == 200
    assert answer.json() == {
        "status": "ready",
        "checks": {"database": "ok", "redis": "not configured"},
    }


@pytest.mark.django_db
def test_readyz_is_not_ready_when_redis_does_not_answer(client, settings):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.json() == {
        "status": "not ready",
        "checks": {"database": "ok", "redis": "failing"},
    }


@pytest.mark.django_db
def test_readyz_is_not_ready_when_the_database_refuses_the_query(client, settings):
    from django.db import connection

    settings.REDIS_URL = ""
    with connection.cursor() as cursor:  # the schema gone from under the worker
        cursor.execute("ALTER TABLE casino_staff RENAME TO casino_staff_away")
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.json() == {
        "status": "not ready",
        "checks": {"database": "failing", "redis": "not configured"},
    }


def test_both_refuse_a_post(client):
    assert client.post("/healthz").status_code == 405
    assert client.post("/readyz").status_code == 405
