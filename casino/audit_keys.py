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

from django.core import checks

from casino.secret_keys import KeyRing

DEVELOPMENT_KEY = "tapis-development-audit-key-not-for-production"

RING = KeyRing(
    name="AUDIT_HMAC_KEY",
    previous_name="AUDIT_HMAC_PREVIOUS_KEYS",
    development_key=DEVELOPMENT_KEY,
    id_label=b"tapis-audit-key-id:",
    missing_warning="the audit chain is keyed with the embedded development key, which anyone "
    "can read in the source, so its entries could be rewritten unseen.",
    missing_id="casino.W001",
    short_id="casino.W002",
    rotation_doc="casino/audit_keys.py",
)
key_id = RING.key_id
current_key = RING.current_key
current_key_id = RING.current_key_id
known_keys = RING.known_keys


def mac(key: str, message: bytes) -> str:
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()


@checks.register(checks.Tags.security, deploy=True)
def check_audit_key(app_configs=None, **kwargs):
    return RING.deploy_warnings()
