"""After a PostgreSQL restart, pooled connections are dead; they gave 500s (issue 23, item 4).
A real server with its connection pool (as `make serve` runs it) answers, every backend it
holds is ended with pg_terminate_backend (what a restart does to it), and the next requests
still answer 200: each connection is checked before the pool hands it out."""

import pytest
from django.db import connection

from casino.roles import Role
from tests.factories import make_staff
from tests.tables.rounds.http_client import ApiClient, wait_until_answers
from tests.tables.rounds.test_recovery import READY_SECONDS, Server, port_is_free

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PORTS = range(8531, 8536)


@pytest.fixture(autouse=True)
def _fast_password_hasher():
    """The server checks PINs with the production hashers (see test_recovery)."""
    yield


@pytest.fixture
def server(transactional_db, tmp_path, monkeypatch):
    monkeypatch.setenv("DB_POOL_MAX_SIZE", "2")  # every connection of the pool is ended
    for port in PORTS:
        if port_is_free(port):
            started = Server(port, tmp_path / "uvicorn.log")
            try:
                assert wait_until_answers(started.base, READY_SECONDS, alive=started.alive), (
                    started.log()
                )
                yield started
            finally:
                started.stop()
            return
    pytest.fail(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


def end_the_servers_backends() -> int:
    """What a PostgreSQL restart does to the server's connections. Only the server's: a
    connection of this process (a thread another test left) would stay dead for the next."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [Server.APPLICATION_NAME],
        )
        return cursor.fetchone()[0]


def test_requests_after_the_servers_connections_died_answer_200(server):
    dealer = make_staff(Role.DEALER)
    tablet = ApiClient(server.base)
    tablet.sign_in(dealer.employee_number, "1234")
    for _ in range(3):  # the pool's connections in use
        assert tablet.get("/api/tables/")[0] == 200
    assert end_the_servers_backends() >= 1
    answers = [tablet.get("/api/tables/")[0] for _ in range(6)]
    assert answers == [200] * 6, server.log()[-3000:]
