"""Sign-in that resists guessing without letting a guesser stop the floor: failed sign-ins and
PIN approvals counted per source and per tablet in Django's cache (shared through Redis; the
process's memory without it), blocks that double, an alert but never a block for the whole
house, and one answer in one time whatever was wrong; sessions on shared tablets that end.
The policy, its settings and why: docs/operations/signin-and-throttling.md.

The services that ask for an approval have no request: the one being served is remembered here
(RequestOriginMiddleware, `current_origin`), so that its address and tablet are counted.
"""

import hashlib
import logging
import math
import time
from contextvars import ContextVar

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from redis.exceptions import RedisError

from casino import events
from casino.audit import atomic_audit
from casino.errors import CasinoError
from casino.live import after_commit

# The binding cookie of a tablet (tables.devices.cookie.BINDING_COOKIE; casino sits below
# tables and must not import it).
TABLET_BINDING_COOKIE = "tapis_tablet_binding"
KEY_PREFIX = "tapis:signin"

log = logging.getLogger(__name__)


class SigninThrottled(CasinoError):
    code = "signin_throttled"
    http_status = 429

    def __init__(self, seconds: int) -> None:
        super().__init__(
            ngettext(
                "Too many failed sign-ins from here. Wait %(seconds)d second and try again.",
                "Too many failed sign-ins from here. Wait %(seconds)d seconds and try again.",
                seconds,
            )
            % {"seconds": seconds}
        )
        self.seconds = seconds

    @property
    def headers(self) -> dict:
        return {"Retry-After": str(self.seconds)}  # RFC 9110: when to try again


class ApprovalThrottled(SigninThrottled):
    """A PIN approval from a source, a tablet or a house past its limit of failures."""

    code = "approval_throttled"

    def __init__(self, seconds: int) -> None:
        CasinoError.__init__(
            self,
            ngettext(
                "Too many wrong PINs from here. Wait %(seconds)d second and try again.",
                "Too many wrong PINs from here. Wait %(seconds)d seconds and try again.",
                seconds,
            )
            % {"seconds": seconds},
        )
        self.seconds = seconds


class SigninRefused(CasinoError):
    """Unknown number, wrong PIN or locked account: one answer for all three."""

    code = "signin_refused"
    http_status = 403


def _setting(name: str, default):
    """A setting (casino/settings.py reads each from the environment), else `default`."""
    return type(default)(getattr(settings, name, default))


def window_seconds() -> int:
    return _setting("SIGNIN_THROTTLE_WINDOW_SECONDS", 300)


def block_seconds(blocks_before: int = 0) -> int:
    """How long a source or a tablet waits after its limit, doubled for each block it earned
    before in a row, up to SIGNIN_THROTTLE_MAX_BLOCK_SECONDS."""
    first = _setting("SIGNIN_THROTTLE_BLOCK_SECONDS", 300)
    longest = max(first, _setting("SIGNIN_THROTTLE_MAX_BLOCK_SECONDS", 3600))
    return min(longest, first * 2 ** min(blocks_before, 32))


def failure_min_seconds() -> float:
    return _setting("SIGNIN_FAILURE_MIN_SECONDS", 1.0)


def refused_message(kind: str = "pin") -> str:
    if kind == "password":
        return _(
            "Sign-in refused: wrong username or password, or an account locked after too "
            "many wrong tries (a supervisor can unlock it)."
        )
    return _(
        "Sign-in refused: wrong employee number or PIN, or an account locked after too many "
        "wrong tries (a supervisor can unlock it)."
    )


def client_ip(request) -> str:
    """The client's address. Behind a proxy that appends the client to X-Forwarded-For, set
    SIGNIN_TRUSTED_PROXIES to the number of proxies in front (the address that many hops from
    the right is the client's); 0 (the default) trusts REMOTE_ADDR only."""
    hops = _setting("SIGNIN_TRUSTED_PROXIES", 0)
    if hops > 0:
        forwarded = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if len(forwarded) >= hops:
            return forwarded[-hops][:64]
    return str(request.META.get("REMOTE_ADDR", "") or "unknown")[:64]


def tablet_fingerprint(request) -> str | None:
    """The SHA-256 of the tablet's binding cookie (what tables stores as its token_hash)."""
    raw = request.COOKIES.get(TABLET_BINDING_COOKIE)
    if not raw:
        return None
    return hashlib.sha256(raw.encode()).hexdigest()


_current_request: ContextVar = ContextVar("tapis_signin_request", default=None)


def current_origin():
    """The request being served (None outside a request: a command, a task), for the throttle
    of PIN approvals asked for by services that have no request (RequestOriginMiddleware)."""
    return _current_request.get()


class RequestOriginMiddleware:
    """Remembers the request being served, so that a PIN approval asked for deep below its view
    is counted against its address and tablet (casino.pins.pin_verify)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        _current_request.set(request)
        try:
            return self.get_response(request)
        finally:
            _current_request.set(None)  # a worker thread serves other requests next


def _keys(request) -> list[tuple[str, str, int]]:
    """(kind, identity, limit) for each throttle this request falls under (None: no request:
    none; the house-wide count only alerts)."""
    keys = []
    if request is not None:
        limit = _setting("SIGNIN_THROTTLE_SOURCE_FAILURES", 10)
        keys.append(("source", client_ip(request), limit))
        device = tablet_fingerprint(request)
        if device:
            keys.append(("device", device, _setting("SIGNIN_THROTTLE_DEVICE_FAILURES", 10)))
    return keys


def _source_label(kind: str, identity: str) -> str:
    # What the pit is told: an address, a tablet's binding hash, or the house.
    return {"source": identity, "device": f"tablet:{identity}", "overall": "all"}[kind]


def _block_key(kind: str, identity: str) -> str:
    return f"{KEY_PREFIX}:block:{kind}:{identity}"


# --- the counts' store: the shared cache, else this process's memory --------------------------

# While Redis does not answer, the counts live in this process's memory (a per-process store,
# because correctness needs one: a throttle that fails must neither let guesses through
# uncounted nor answer every sign-in and approval with a 500). Redis is tried again after
# SIGNIN_CACHE_RETRY_SECONDS; the counts kept meanwhile are not carried over (they are short).
_fallback = LocMemCache(
    "tapis-signin-fallback", {"TIMEOUT": None, "OPTIONS": {"MAX_ENTRIES": 100_000}}
)
_shared_failed_at = [float("-inf")]


def _counts(operation):
    """`operation(store)` on the shared cache, or on this process's memory while the shared
    one fails."""
    retry = _setting("SIGNIN_CACHE_RETRY_SECONDS", 5.0)
    if time.monotonic() - _shared_failed_at[0] >= retry:
        try:
            return operation(cache)
        except (RedisError, OSError) as exc:
            _shared_failed_at[0] = time.monotonic()
            log.warning("sign-in throttle: the cache does not answer (%s); counting locally", exc)
    return operation(_fallback)


def throttle_reset_fallback() -> None:
    """Forget the counts kept in this process's memory and try the shared cache at once (tests
    that stop the shared cache)."""
    _fallback.clear()
    _shared_failed_at[0] = float("-inf")


def throttle_wait(request) -> int:
    """Seconds before this request's source or tablet may try again (0: now)."""
    keys = [_block_key(kind, ident) for kind, ident, _limit in _keys(request)]
    if not keys:
        return 0
    now = time.time()
    blocks = _counts(lambda store: store.get_many(keys))
    remaining = [until - now for until in blocks.values() if until and until > now]
    return math.ceil(max(remaining)) if remaining else 0


def throttle_check(request, *, approval: bool = False) -> None:
    """Raise SigninThrottled (ApprovalThrottled for a PIN approval) when this request must
    wait."""
    seconds = throttle_wait(request)
    if seconds:
        raise ApprovalThrottled(seconds) if approval else SigninThrottled(seconds)


def _count(store, key: str, window: int) -> int:
    store.add(key, 0, timeout=window)  # the window starts at the first failure
    try:
        attempts = store.incr(key)
    except ValueError:  # expired between add and incr
        store.set(key, 1, timeout=window)
        return 1
    store.touch(key, window)  # and runs on from the last one
    return attempts


def throttle_failure(request, *, approval: bool = False) -> None:
    """Count one failed sign-in (or PIN approval) from this request; block its source or
    tablet at its limit, and again for twice as long at each failure after a block; alert the
    pit once per window when the house's failures reach SIGNIN_ALERT_TOTAL_FAILURES."""
    window = window_seconds()
    blocked = _counts(lambda store: _count_and_block(store, request, window))
    for kind, identity, attempts, seconds in blocked:
        _announce(kind, identity, attempts, seconds, approval=approval)


def _count_and_block(store, request, window: int) -> list[tuple[str, str, int, int]]:
    """What the failure blocked (or alerted about): (kind, identity, attempts, seconds)."""
    found = []
    for kind, identity, limit in _keys(request):
        key = f"{KEY_PREFIX}:fail:{kind}:{identity}"
        attempts = _count(store, key, window)
        if attempts < limit:
            continue
        seconds = block_seconds(attempts - limit)
        # The count outlives the block, so that the next failure after it doubles the wait.
        store.touch(key, seconds + window)
        store.set(_block_key(kind, identity), time.time() + seconds, timeout=seconds)
        found.append((kind, identity, attempts, seconds))
    total = _count(store, f"{KEY_PREFIX}:fail:overall:all", window)
    alert_at = _setting("SIGNIN_ALERT_TOTAL_FAILURES", 100)
    if total >= alert_at and store.add(f"{KEY_PREFIX}:alerted:overall", 1, timeout=window):
        found.append(("overall", "all", total, 0))
    return found


def _announce(kind: str, identity: str, attempts: int, seconds: int, *, approval=False) -> None:
    source = _source_label(kind, identity)
    data = {"kind": kind, "source": source, "attempts": attempts, "seconds": seconds}
    if approval:
        data["after"] = "pin_approval"  # the failure that crossed the limit was an approval
    atomic_audit(actor=None, code="casino.signin.throttled", data=data)
    after_commit(
        lambda: events.signin_throttled.send(
            sender=SigninThrottled, source=source, attempts=attempts
        )
    )


def answer_no_sooner(started: float) -> None:
    """Hold a refusal until a whole multiple of SIGNIN_FAILURE_MIN_SECONDS after `started`
    (time.monotonic()): at least one, and the next one up when a loaded server took longer to
    hash, so that what is left of a difference between the cases stays hidden."""
    quantum = failure_min_seconds()
    if quantum <= 0:
        return
    elapsed = time.monotonic() - started
    rest = quantum * max(1, math.ceil(elapsed / quantum)) - elapsed
    if rest > 0:
        time.sleep(rest)
