"""How a PIN is stored: PBKDF2-SHA256 over an HMAC of the PIN under PIN_HMAC_KEY.

Why not the password hasher. A PIN is 4 to 8 digits: against a copy of the database, a slow
hash does not protect so few (10^4 guesses at the password hasher's 0.2 to 0.4 s take half
an hour to an hour on one CPU); a key the database never sees does: without PIN_HMAC_KEY no guess can be
checked at all. Against guesses at the tablet the protection is the lockout and the throttle
(casino.pins). The password hasher's million iterations cost that 0.2 to 0.4 s of CPU on every
sign-in and every supervisor approval: a void approval was the slowest request of the floor,
and anybody sending PINs could keep the web workers' CPUs busy. NIST SP 800-63B (rev. 3,
5.1.1.2) asks for what is done here: a salt, PBKDF2 with at least 10,000 iterations, and a
further keyed step whose secret is kept apart from the hashes.

Stored as "pin_hmac_pbkdf2$<key id>$<iterations>$<salt>$<hash>". A PIN stored before (by the
password hasher) or under an earlier key is still checked, and stored again under the current
key at its owner's next right PIN (casino.pins.pin_verify).

The key ring (casino.secret_keys): `PIN_HMAC_KEY`, 32+ random characters; on rotation the old
key goes to `PIN_HMAC_PREVIOUS_KEYS` until every PIN has been typed once under the new one.

A right PIN is remembered by the process that checked it, for PIN_CHECK_MEMO_SECONDS (15
minutes; 0: never), so that a pit boss's next approvals do not pay the slow hash again (it was
the largest part of a void's approval). `pin_check` is a pure function of the PIN and the
stored hash, so what is remembered is that answer and nothing else: an HMAC of the PIN and the
stored hash under a random key that this process draws at start and never writes anywhere.
Everything else about the person (active, locked, wrong tries, role, temporary PIN) is read
from the database at every request as before. A new PIN is a new stored hash, which nothing
remembers; a PIN whose key left the ring matches nothing, remembered or not. A wrong PIN, or a
PIN not remembered, takes the slow hash as before, so a wrong PIN and an unknown number still
take as long as each other. A reader of this process's memory could try guesses at a remembered
PIN with one HMAC each instead of PBKDF2; they would also hold PIN_HMAC_KEY and see the PINs
typed here as they arrive: hence one process, and a quarter of an hour.
"""

import base64
import hashlib
import hmac
import secrets
import threading
import time
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.core import checks
from django.utils.crypto import constant_time_compare, get_random_string, pbkdf2

from casino.secret_keys import KeyRing

ALGORITHM = "pin_hmac_pbkdf2"
ITERATIONS = 20_000  # about 4 ms on the development machine

RING = KeyRing(
    name="PIN_HMAC_KEY",
    previous_name="PIN_HMAC_PREVIOUS_KEYS",
    development_key="tapis-development-pin-key-not-for-production",
    id_label=b"tapis-pin-key-id:",
    missing_warning="PINs are keyed with the embedded development key, which anyone can read "
    "in the source, so a copy of the database would give up every PIN in minutes.",
    missing_id="casino.W003",
    short_id="casino.W004",
    rotation_doc="casino/pin_hashing.py",
)


def _iterations() -> int:
    # A setting only so that the tests can hash cheaply, as they do passwords (tests/conftest.py).
    return int(getattr(settings, "PIN_HASH_ITERATIONS", ITERATIONS))


# Right PINs this process checked lately: {stored hash: (HMAC of the PIN, monotonic expiry)}.
_MEMO_KEY = secrets.token_bytes(32)  # drawn per process, never stored: a memo means nothing outside
_MEMO_SIZE = 1024
_memo: dict[str, tuple[bytes, float]] = {}
_memo_lock = threading.Lock()


def _memo_seconds() -> float:
    return float(getattr(settings, "PIN_CHECK_MEMO_SECONDS", 15 * 60))


def _memo_digest(pin: str, stored: str) -> bytes:
    return hmac.new(_MEMO_KEY, f"{stored}\x00{pin}".encode(), hashlib.sha256).digest()


def _remembered_right(pin: str, stored: str) -> bool:
    with _memo_lock:
        found = _memo.get(stored)
        if found is not None and time.monotonic() >= found[1]:
            del _memo[stored]
            found = None
    return found is not None and hmac.compare_digest(found[0], _memo_digest(pin, stored))


def _remember_right(pin: str, stored: str) -> None:
    seconds = _memo_seconds()
    if seconds <= 0:
        return
    # Remembered from the slow check only, never renewed by a remembered one: a PIN is
    # hashed again at least every PIN_CHECK_MEMO_SECONDS.
    entry = (_memo_digest(pin, stored), time.monotonic() + seconds)
    with _memo_lock:
        if stored not in _memo and len(_memo) >= _MEMO_SIZE:
            del _memo[next(iter(_memo))]  # the oldest
        _memo[stored] = entry


def pin_memo_forget() -> None:
    """Forget every remembered PIN (tests that count the slow hash)."""
    with _memo_lock:
        _memo.clear()


def _digest(pin: str, key: str, salt: str, iterations: int) -> str:
    keyed = hmac.new(key.encode(), pin.encode(), hashlib.sha256).digest()
    raw = pbkdf2(keyed, salt, iterations, digest=hashlib.sha256)
    return base64.b64encode(raw).decode("ascii").strip()


def pin_hash(pin: str) -> str:
    """The stored form of `pin`, under the current key (a new salt each time)."""
    salt = get_random_string(22)
    iterations = _iterations()
    digest = _digest(str(pin), RING.current_key(), salt, iterations)
    return f"{ALGORITHM}${RING.current_key_id()}${iterations}${salt}${digest}"


@dataclass(frozen=True)
class PinCheck:
    matches: bool
    outdated: bool  # right, but stored otherwise than pin_hash would store it now


def pin_check(pin: str, stored: str) -> PinCheck:
    """Whether `pin` is the one `stored` was made from. Costs about one pin_hash, or
    microseconds for a right PIN this process checked in the last PIN_CHECK_MEMO_SECONDS."""
    pin = str(pin)
    parts = stored.split("$")
    if parts[0] != ALGORITHM:
        # Stored by the password hasher, before PINs had their own.
        matches = check_password(pin, stored)
        return PinCheck(matches=matches, outdated=matches)
    try:
        _, key_id, iterations_text, salt, digest = parts
        iterations = int(iterations_text)
    except ValueError:
        return PinCheck(matches=False, outdated=False)
    key = RING.known_keys().get(key_id)
    if key is None:
        # Its key is no longer listed: no PIN can be checked against it (a new one is set).
        return PinCheck(matches=False, outdated=False)
    matches = _remembered_right(pin, stored)
    if not matches:
        matches = constant_time_compare(_digest(pin, key, salt, iterations), digest)
        if matches:
            _remember_right(pin, stored)
    outdated = key_id != RING.current_key_id() or iterations != _iterations()
    return PinCheck(matches=matches, outdated=matches and outdated)


@checks.register(checks.Tags.security, deploy=True)
def check_pin_key(app_configs=None, **kwargs):
    return RING.deploy_warnings()
