"""The secret that keys the audit chain (HMAC-SHA256), kept out of the database.

Whoever can write the database but does not hold the key cannot compute an entry's hash, so
an edited, re-chained or forged entry shows. The key comes from the environment:

- `AUDIT_HMAC_KEY`: the key new entries and checkpoints are written with (32+ random bytes,
  e.g. `python3 -c 'import secrets; print(secrets.token_urlsafe(48))'`);
- `AUDIT_HMAC_PREVIOUS_KEYS`: comma-separated keys used before, still needed to verify the
  entries written with them.

Each entry stores the id of its key (`key_id`: a fingerprint of the key, never the key).
Rotation: put the current key at the front of AUDIT_HMAC_PREVIOUS_KEYS, set the new one as
AUDIT_HMAC_KEY, restart every process (web, Celery), then `manage.py audit_checkpoint`. A key
is dropped from the list only with the entries it keyed (never, in practice).

Without AUDIT_HMAC_KEY an embedded development key is used (`make run`); the deployment check
(`manage.py check --deploy`, run by `make serve`) warns about it (casino.W001).
"""

import hashlib
import hmac
import os

from django.conf import settings
from django.core import checks

DEVELOPMENT_KEY = "tapis-development-audit-key-not-for-production"


def _setting(name: str) -> str:
    return str(getattr(settings, name, None) or os.environ.get(name, "") or "")


def key_id(key: str) -> str:
    """A key's public name: a fingerprint from which the key cannot be found."""
    return "k" + hashlib.sha256(b"tapis-audit-key-id:" + key.encode()).hexdigest()[:15]


def current_key() -> str:
    return _setting("AUDIT_HMAC_KEY") or DEVELOPMENT_KEY


def current_key_id() -> str:
    return key_id(current_key())


def known_keys() -> dict[str, str]:
    """Every key that may have written an entry, by id (the current one first)."""
    keys = [current_key()] + [
        k.strip() for k in _setting("AUDIT_HMAC_PREVIOUS_KEYS").split(",") if k.strip()
    ]
    return {key_id(k): k for k in keys}


def mac(key: str, message: bytes) -> str:
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()


@checks.register(checks.Tags.security, deploy=True)
def check_audit_key(app_configs=None, **kwargs):
    if _setting("AUDIT_HMAC_KEY"):
        if len(_setting("AUDIT_HMAC_KEY")) < 32:
            return [
                checks.Warning(
                    "AUDIT_HMAC_KEY is shorter than 32 characters.",
                    hint="Use 32 or more random characters (secrets.token_urlsafe(48)).",
                    id="casino.W002",
                )
            ]
        return []
    return [
        checks.Warning(
            "AUDIT_HMAC_KEY is not set: the audit chain is keyed with the embedded development "
            "key, which anyone can read in the source, so its entries could be rewritten "
            "unseen.",
            hint="Set AUDIT_HMAC_KEY to 32+ random characters, kept outside the database "
            "(see casino/audit_keys.py for the rotation).",
            id="casino.W001",
        )
    ]
