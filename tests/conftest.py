"""Shared fixtures: the people of the floor, and the rules for tests that need services.

Tests marked `postgres` or `redis` skip with a reason when the service is not configured,
and fail instead when REQUIRE_SERVICES=1 (CI sets it).
"""

import os

import pytest
from django.db import connection

from casino.roles import Role
from tests.factories import PropertyFactory, make_staff

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
# Helpers running the suite side by side on one PostgreSQL name their own test database:
# pytest-django suffixes the test database name with TOX_PARALLEL_ENV.
if os.environ.get("PYTEST_XDIST_WORKER") and not os.environ.get("TOX_PARALLEL_ENV"):
    os.environ["TOX_PARALLEL_ENV"] = os.environ["PYTEST_XDIST_WORKER"]
TEST_REDIS_URL = os.environ.get("REDIS_URL", "")
# The browser the e2e tests drive (browsers that download themselves cannot be fetched here).
CHROMIUM = "/usr/bin/chromium"


def service_missing(reason: str) -> None:
    """A service or program a test needs is missing: a skip, a failure under REQUIRE_SERVICES=1."""
    if REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def pytest_configure(config):
    """No connection pool in the test process. tests/e2e serves the application from a thread
    of this process and pytest-django flushes the database around each browser test; pool
    connections checked out by that server's short-lived threads were not all returned, and
    after some tests the pool was empty (PoolTimeout). The pooled path is what the real
    servers use: the recovery test's uvicorn and simulate_floor's `make serve`."""
    from django.conf import settings

    settings.DATABASES["default"].get("OPTIONS", {}).pop("pool", None)


def pytest_runtest_setup(item):
    if item.get_closest_marker("postgres") and connection.vendor != "postgresql":
        service_missing("needs PostgreSQL: set DATABASE_URL=postgres://...")
    if item.get_closest_marker("e2e") and not os.path.exists(CHROMIUM):
        service_missing(f"needs Debian's chromium at {CHROMIUM}: apt-get install chromium")
    if item.get_closest_marker("redis"):
        if not TEST_REDIS_URL:
            service_missing("needs Redis: set REDIS_URL=redis://...")
        import redis

        try:
            redis.Redis.from_url(TEST_REDIS_URL, socket_connect_timeout=2).ping()
        except redis.RedisError as exc:
            service_missing(f"Redis at {TEST_REDIS_URL} does not answer: {exc}")


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the project's language: a request made in the test's thread (the
    test client, or the e2e server's sync thread) activates its reader's language and Django
    leaves it active in that thread afterwards."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _embedded_layers(request, settings):
    """Unit tests use the in-memory channel layer and eager Celery even where REDIS_URL is set;
    tests marked `redis` configure Redis themselves."""
    if request.node.get_closest_marker("redis"):
        yield
        return
    from casino.celery import app

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager


@pytest.fixture
def celery_not_eager():
    """Celery as under `make serve`: a task is given to the broker (delay_on_commit: once the
    change is committed), not run at once as the embedded defaults and other tests run it."""
    from casino.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield
    app.conf.task_always_eager = eager


@pytest.fixture(autouse=True)
def _fresh_cache(settings, request):
    """Each test gets an empty cache of its own (the sign-in throttle's counts live there),
    never the Redis one REDIS_URL would configure: counts must not leak between tests."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-{request.node.nodeid}",
        }
    }
    yield


@pytest.fixture(autouse=True)
def _own_audit_checkpoints(settings, tmp_path):
    """Each test keeps the audit checkpoints it writes (casino.checkpoints) in a file of its
    own: a rolled-back test's checkpoint must not accuse the next test's chain."""
    settings.AUDIT_CHECKPOINT_PATH = str(tmp_path / "audit-checkpoints.jsonl")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database may be emptied between tests (the runner's flush is a TRUNCATE),
    which the append-only tables refuse elsewhere (casino migration 0006)."""
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        name = connection.ops.quote_name(connection.settings_dict["NAME"])
        cursor.execute(f"ALTER DATABASE {name} SET tapis.allow_truncate = 'on'")
        cursor.execute("SET tapis.allow_truncate = 'on'")


@pytest.fixture
def casino_property(db):
    return PropertyFactory()


@pytest.fixture
def dealer(db):
    return make_staff(Role.DEALER, username="dealer")


@pytest.fixture
def other_dealer(db):
    return make_staff(Role.DEALER, username="other_dealer")


@pytest.fixture
def supervisor(db):
    return make_staff(Role.SUPERVISOR, username="supervisor")


@pytest.fixture
def other_supervisor(db):
    return make_staff(Role.SUPERVISOR, username="other_supervisor")


@pytest.fixture
def manager(db):
    return make_staff(Role.MANAGER, username="manager")


@pytest.fixture
def other_manager(db):
    return make_staff(Role.MANAGER, username="other_manager")


@pytest.fixture
def auditor(db):
    return make_staff(Role.AUDITOR, username="auditor")


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """PINs and passwords are hashed on every make_staff; the production hashers (PBKDF2)
    would dominate the run. tests/casino checks production hashing separately."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.PIN_HASH_ITERATIONS = 1
