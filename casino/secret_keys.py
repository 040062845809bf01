"""Secrets kept out of the database, each named by an environment variable, with rotation.

A key ring is a current key (e.g. `AUDIT_HMAC_KEY`) and the keys used before it (e.g.
`AUDIT_HMAC_PREVIOUS_KEYS`, comma-separated), still needed to check what they keyed. Each
keyed record stores the id of its key (a fingerprint, never the key). Without the current key
an embedded development key is used (`make run`); the deployment check (`manage.py check
--deploy`, run by `make serve`) warns about it. casino.audit_keys (the audit log's and the
ledgers' chains) and casino.pin_hashing (the PINs) each hold one.
"""

import hashlib
from dataclasses import dataclass

from django.conf import settings
from django.core import checks

MIN_LENGTH = 32


def setting(name: str) -> str:
    """Read at each use, never kept: a test or a settings module may change it."""
    return str(getattr(settings, name, None) or "")


@dataclass(frozen=True)
class KeyRing:
    name: str  # the setting holding the current key, e.g. "AUDIT_HMAC_KEY"
    previous_name: str  # and the one holding the earlier keys, "AUDIT_HMAC_PREVIOUS_KEYS"
    development_key: str
    id_label: bytes  # mixed into the ids, so that one key has different ids in two rings
    missing_warning: str  # what is at risk with the development key (deploy check)
    missing_id: str
    short_id: str
    rotation_doc: str  # where the rotation is explained

    def key_id(self, key: str) -> str:
        """A key's public name: a fingerprint from which the key cannot be found."""
        return "k" + hashlib.sha256(self.id_label + key.encode()).hexdigest()[:15]

    def current_key(self) -> str:
        return setting(self.name) or self.development_key

    def current_key_id(self) -> str:
        return self.key_id(self.current_key())

    def known_keys(self) -> dict[str, str]:
        """Every key that may have keyed a record, by id (the current one first)."""
        keys = [self.current_key()] + [
            k.strip() for k in setting(self.previous_name).split(",") if k.strip()
        ]
        return {self.key_id(k): k for k in keys}

    def deploy_warnings(self) -> list[checks.Warning]:
        value = setting(self.name)
        if value and len(value) < MIN_LENGTH:
            return [
                checks.Warning(
                    f"{self.name} is shorter than {MIN_LENGTH} characters.",
                    hint=f"Use {MIN_LENGTH} or more random characters (secrets.token_urlsafe(48)).",
                    id=self.short_id,
                )
            ]
        if value:
            return []
        return [
            checks.Warning(
                f"{self.name} is not set: {self.missing_warning}",
                hint=f"Set {self.name} to {MIN_LENGTH}+ random characters, kept outside the "
                f"database (see {self.rotation_doc} for the rotation).",
                id=self.missing_id,
            )
        ]
