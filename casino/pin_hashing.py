"""How a PIN is stored: PBKDF2-SHA256 over an HMAC of the PIN under PIN_HMAC_KEY, a key the
database never sees (4 to 8 digits are too few for a slow hash alone to protect).

Stored as "pin_hmac_pbkdf2$<key id>$<iterations>$<salt>$<hash>". A PIN stored by the password
hasher or under an earlier key (`PIN_HMAC_PREVIOUS_KEYS`) is still checked, and stored again
under the current key at its owner's next right PIN (casino.pins). Every check pays the hash,
right or wrong: no process remembers a PIN. Costs and the reasons behind the choice:
docs/benchmarks.md ("Sign-in timing").
"""

import base64
import hashlib
import hmac
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.core import checks
from django.utils.crypto import constant_time_compare, get_random_string, pbkdf2

from casino.secret_keys import KeyRing

ALGORITHM = "pin_hmac_pbkdf2"
ITERATIONS = 20_000  # docs/benchmarks.md, "Sign-in timing"

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
    """Whether `pin` is the one `stored` was made from. Costs one pin_hash, right or wrong."""
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
    matches = constant_time_compare(_digest(pin, key, salt, iterations), digest)
    outdated = key_id != RING.current_key_id() or iterations != _iterations()
    return PinCheck(matches=matches, outdated=matches and outdated)


@checks.register(checks.Tags.security, deploy=True)
def check_pin_key(app_configs=None, **kwargs):
    return RING.deploy_warnings()
