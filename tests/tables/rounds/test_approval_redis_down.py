"""With Redis down, void approvals and sign-ins go on (issue 23, item 4): the probe stopped
Redis under play and every PIN approval and page sign-in answered 500 (14 void approvals
failed). The throttle's counts then live in the process (casino.signin), never a 500."""

import pytest
import redis

from casino import signin
from tests.processes import port_answers, start_redis_server, stop_group
from tests.tables.rounds import test_approval_throttle as throttle
from tests.tables.rounds.test_approval_throttle import SPRAYED_PIN, approve

# The round waiting for a void's approval, and thirty supervisors, as in the throttle's tests.
pending_void = throttle.pending_void
supervisors = throttle.supervisors

#: Ports of this suite's own throw-away Redis, and one nothing listens on.
THROWAWAY_PORT = 8518
DEAD_PORT = 8519


def _cache_at(settings, port: int) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    signin.throttle_reset_fallback()


@pytest.fixture(autouse=True)
def _forget_local_counts():
    signin.throttle_reset_fallback()
    yield
    signin.throttle_reset_fallback()


def test_a_void_is_approved_with_redis_down(pending_void, supervisors, settings):
    tablet, round_ = pending_void
    _cache_at(settings, DEAD_PORT)
    answer = approve(tablet, round_, supervisors[0], "5000")
    assert answer.status_code == 200, answer.content
    assert answer.json()["stage"] == "void"


def test_with_redis_down_wrong_approvals_are_still_counted_and_refused(
    pending_void, supervisors, settings
):
    tablet, round_ = pending_void
    _cache_at(settings, DEAD_PORT)
    codes = [
        approve(tablet, round_, boss, SPRAYED_PIN).json()["error"]["code"]
        for boss in supervisors[:11]
    ]
    assert codes == ["pin_rejected"] * 10 + ["approval_throttled"]


@pytest.fixture
def throwaway_redis(tmp_path):
    """A redis-server of this test's own, on THROWAWAY_PORT, for the test to kill."""
    process = start_redis_server(THROWAWAY_PORT, tmp_path)
    yield process
    stop_group(process)


def test_redis_killed_under_play_approvals_go_on(
    pending_void, supervisors, settings, throwaway_redis
):
    tablet, round_ = pending_void
    _cache_at(settings, THROWAWAY_PORT)
    for boss in supervisors[:3]:
        assert approve(tablet, round_, boss, SPRAYED_PIN).status_code == 403
    counted = redis.Redis(port=THROWAWAY_PORT).keys("*tapis:signin:fail:source:*")
    assert counted  # the counts were in Redis while it ran
    stop_group(throwaway_redis, grace=0)  # SIGTERM; nothing saved
    assert not port_answers(THROWAWAY_PORT)  # it is gone
    answer = approve(tablet, round_, supervisors[3], "5003")
    assert answer.status_code == 200, answer.content
    assert answer.json()["stage"] == "void"
