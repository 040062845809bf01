"""Idempotent answers: every write to a round carries a client key, and a retry of the same
key with the same body gets the first answer again, written nothing (spec/round-api.md,
"Keys"). What a write answers is a domain result (RoundWrite); the API turns it into HTTP."""

import hashlib
import hmac
import json
from dataclasses import dataclass
from enum import IntEnum

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.models import Staff
from tables.errors import KeyReused, RoundRefused
from tables.models import IdempotentWrite
from tables.services.rounds import reads

KEY_MAX = 64


class Outcome(IntEnum):
    """What a write did. Each value is the code kept with the answer under its key
    (IdempotentWrite.status), the one the round API answers with."""

    RECORDED = 200  # a step, a void decided, a correction written
    OPENED = 201  # a new round
    WAITING = 202  # a correction waiting for its second person


@dataclass(frozen=True)
class RoundWrite:
    """What a write to a round answers: what it did, the round as it left it (tables.snapshots,
    with the waiting correction request if any), and whether it is a retry's replay."""

    status: Outcome
    body: dict
    replayed: bool = False

    @property
    def round_id(self) -> int:
        return self.body["id"]


def check_key(key) -> str:
    # A NUL byte reaches here from a form (the pit's void): PostgreSQL's text refuses it.
    if not isinstance(key, str) or not 1 <= len(key) <= KEY_MAX or "\x00" in key:
        raise RoundRefused(
            _("Every write needs a key of 1 to %(max)s characters, without a NUL byte.")
            % {"max": KEY_MAX},
            code="bad_key",
            field="key",
        )
    return key


def fingerprint(body: dict, *, secret: str | None = None) -> str:
    """The request body's digest, keyed with the server's secret: a PIN inside the body
    cannot be recovered from it."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    secret = settings.SECRET_KEY if secret is None else secret
    return hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()


def remembered(scope: str, key: str, body: dict) -> RoundWrite | None:
    """The answer kept under this key, for the same body; KeyReused for another body."""
    kept = reads.write_kept(scope, key)
    if kept is None:
        return None
    body_hash, status, response = kept
    # A retry after the secret key was rotated still matches (SECRET_KEY_FALLBACKS).
    secrets = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    if not any(hmac.compare_digest(body_hash, fingerprint(body, secret=s)) for s in secrets):
        raise KeyReused(_("This key was already used for another request: use a new key."))
    return RoundWrite(Outcome(status), response, replayed=True)


def kept(scope: str, key: str, body: dict, written: RoundWrite, staff: Staff) -> IdempotentWrite:
    """The answer to keep under the key (not saved yet)."""
    return IdempotentWrite(
        scope=scope,
        key=key,
        body_hash=fingerprint(body),
        status=written.status,
        response=written.body,
        staff=staff,
        at=timezone.now(),
    )


def remember(scope: str, key: str, body: dict, written: RoundWrite, staff: Staff) -> RoundWrite:
    kept(scope, key, body, written, staff).save()
    return written
