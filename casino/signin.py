"""Sign-in that resists guessing: throttling by source, by tablet and overall; one answer, in
one time, whatever was wrong; sessions on shared tablets that end.

Throttling counts failed sign-ins (PIN or password) in Django's cache (Redis when REDIS_URL
is set, so every worker shares the counts; the process's memory otherwise):

- per source (the client's IP address), per tablet (its binding cookie) and for the whole
  house, each within SIGNIN_THROTTLE_WINDOW_SECONDS;
- past its limit a key is blocked for SIGNIN_THROTTLE_BLOCK_SECONDS: every sign-in from it is
  answered "wait N seconds" at once, without looking at the credential, so a spray learns
  nothing more; the block is audited and announced to the pit once
  (`casino.events.signin_throttled`).

A refused sign-in answers with the same words whether the number is unknown, the PIN wrong or
the account locked, after a whole multiple of SIGNIN_FAILURE_MIN_SECONDS (every path already
hashes once; the rounding up hides what is left: audit writes, a lock, a loaded server).

PIN approvals (a supervisor's PIN typed at a dealer's tablet: casino.pins.pin_verify with a
role) are throttled the same way and counted with the sign-ins: otherwise one PIN tried
against 200 supervisor numbers, each locking after 3 wrong tries, would be 200 guesses. The
services that ask for an approval sit deep below the view and have no request; the request
being served is remembered here (RequestOriginMiddleware, `current_origin`), so that its
address and tablet are the ones counted.
"""

import hashlib
import math
import os
import time
from contextvars import ContextVar

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from casino import events
from casino.audit import atomic_audit
from casino.errors import CasinoError
from casino.live import after_commit

# The binding cookie of a tablet (tables.devices.cookie.BINDING_COOKIE; casino sits below
# tables and must not import it).
TABLET_BINDING_COOKIE = "tapis_tablet_binding"
KEY_PREFIX = "tapis:signin"


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
    """A Django setting, else the environment variable of that name, else `default`."""
    return type(default)(getattr(settings, name, os.environ.get(name, default)))


def window_seconds() -> int:
    return _setting("SIGNIN_THROTTLE_WINDOW_SECONDS", 300)


def block_seconds() -> int:
    return _setting("SIGNIN_THROTTLE_BLOCK_SECONDS", 300)


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
    """(kind, identity, limit) for each throttle this request falls under (None: no request,
    the house's limit only)."""
    keys = []
    if request is not None:
        limit = _setting("SIGNIN_THROTTLE_SOURCE_FAILURES", 10)
        keys.append(("source", client_ip(request), limit))
        device = tablet_fingerprint(request)
        if device:
            keys.append(("device", device, _setting("SIGNIN_THROTTLE_DEVICE_FAILURES", 10)))
    keys.append(("overall", "all", _setting("SIGNIN_THROTTLE_TOTAL_FAILURES", 100)))
    return keys


def _source_label(kind: str, identity: str) -> str:
    # What the pit is told: an address, a tablet's binding hash, or the house.
    return {"source": identity, "device": f"tablet:{identity}", "overall": "all"}[kind]


def _block_key(kind: str, identity: str) -> str:
    return f"{KEY_PREFIX}:block:{kind}:{identity}"


def throttle_wait(request) -> int:
    """Seconds before this request's source, tablet or the house may try again (0: now)."""
    now = time.time()
    blocks = cache.get_many([_block_key(kind, ident) for kind, ident, _limit in _keys(request)])
    remaining = [until - now for until in blocks.values() if until and until > now]
    return math.ceil(max(remaining)) if remaining else 0


def throttle_check(request, *, approval: bool = False) -> None:
    """Raise SigninThrottled (ApprovalThrottled for a PIN approval) when this request must
    wait."""
    seconds = throttle_wait(request)
    if seconds:
        raise ApprovalThrottled(seconds) if approval else SigninThrottled(seconds)


def _count(key: str, window: int) -> int:
    cache.add(key, 0, timeout=window)  # the window starts at the first failure
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=window)
        return 1


def throttle_failure(request, *, approval: bool = False) -> None:
    """Count one failed sign-in (or PIN approval) from this request; block what went past its
    limit."""
    window, block = window_seconds(), block_seconds()
    for kind, identity, limit in _keys(request):
        attempts = _count(f"{KEY_PREFIX}:fail:{kind}:{identity}", window)
        if attempts < limit:
            continue
        if cache.add(_block_key(kind, identity), time.time() + block, timeout=block):
            _announce(kind, identity, attempts, approval=approval)


def _announce(kind: str, identity: str, attempts: int, *, approval: bool = False) -> None:
    source = _source_label(kind, identity)
    data = {"kind": kind, "source": source, "attempts": attempts, "seconds": block_seconds()}
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
