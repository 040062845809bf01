"""Checkpoints of the audit chain's head, kept where the database cannot rewrite them.

A checkpoint is (position, hash) of the latest entry at a moment, appended as one JSON line to
AUDIT_CHECKPOINT_PATH (a setting or environment variable; by default named after the database,
see `checkpoint_path`). The chain alone cannot show entries cut off its end (a TRUNCATE, a
deleted tail); `audit_verify` compares the chain with every checkpoint, so it can.

Written at every shift change (by the first entry of the new shift, casino.audit) and on
demand (`manage.py audit_checkpoint`, e.g. before a backup); the shift report shows the one
that closed its shift (`shift_checkpoint`). Each line carries an HMAC under the audit key, so
a line written by someone without the key is refused. Make the file append-only for the
server's user (`chattr +a`, or a log host), and copy it off the database server.
"""

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from casino.audit_keys import current_key, current_key_id, known_keys, mac

log = logging.getLogger("casino.audit")


@dataclass(frozen=True)
class Checkpoint:
    line: int
    position: int
    hash: str
    entry_id: int | None
    gaming_date: str | None
    shift: str
    written_at: str
    reason: str


def checkpoint_path() -> Path:
    """AUDIT_CHECKPOINT_PATH; by default a file named after the database, so that two
    databases (a test server's, `make run`'s) never share checkpoints: beside a SQLite file,
    or `audit-checkpoints.<database name>.jsonl` in the project for PostgreSQL."""
    configured = getattr(settings, "AUDIT_CHECKPOINT_PATH", None) or os.environ.get(
        "AUDIT_CHECKPOINT_PATH"
    )
    if configured:
        return Path(configured)
    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        return Path(f"{database['NAME']}.audit-checkpoints.jsonl")
    name = "".join(c if c.isalnum() or c in "-_" else "_" for c in str(database["NAME"]))
    return Path(settings.BASE_DIR) / f"audit-checkpoints.{name}.jsonl"


def _canonical(body: dict) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


def checkpoint_write(
    *, position: int, hash: str, entry_id, gaming_date, shift: str, reason: str
) -> dict:
    """Append one checkpoint line (O_APPEND: never rewrites what is there) and flush it."""
    body = {
        "position": position,
        "hash": hash,
        "entry_id": entry_id,
        "gaming_date": gaming_date.isoformat() if gaming_date else None,
        "shift": shift or "",
        "written_at": timezone.now().isoformat(),
        "reason": reason,
        "key_id": current_key_id(),
    }
    body["mac"] = mac(current_key(), _canonical(body))
    path = checkpoint_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
    try:
        os.write(fd, _canonical(body) + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    return body


def checkpoint_write_safely(**kwargs) -> None:
    """For the audit writer: a checkpoint that cannot be written is logged loudly, never a
    reason to refuse the change being audited (audit_verify then trusts an older one)."""
    try:
        checkpoint_write(**kwargs)
    except OSError:
        log.exception("audit checkpoint could not be written to %s", checkpoint_path())


def checkpoints_read() -> tuple[list[Checkpoint], list[str]]:
    """(the genuine checkpoints in file order, a description of every line that is not)."""
    path = checkpoint_path()
    if not path.exists():
        return [], []
    keys = known_keys()
    good, bad = [], []
    for number, raw in enumerate(path.read_bytes().splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            body = json.loads(raw)
            claimed = body.pop("mac")
            key = keys.get(body.get("key_id"))
            genuine = key is not None and mac(key, _canonical(body)) == claimed
        except (ValueError, KeyError, TypeError, AttributeError):
            genuine = False
        if not genuine:
            bad.append(f"line {number} of {path} is not a genuine checkpoint (edited or forged)")
            continue
        good.append(
            Checkpoint(
                line=number,
                position=int(body["position"]),
                hash=body["hash"],
                entry_id=body.get("entry_id"),
                gaming_date=body.get("gaming_date"),
                shift=body.get("shift", ""),
                written_at=body["written_at"],
                reason=body.get("reason", ""),
            )
        )
    return good, bad


def shift_checkpoint(gaming_date, shift: str) -> Checkpoint | None:
    """The checkpoint that closed a shift (its last entry's position and hash), for the shift
    report; None while the shift runs or when it recorded nothing."""
    wanted = gaming_date.isoformat() if hasattr(gaming_date, "isoformat") else str(gaming_date)
    found = [
        c
        for c in checkpoints_read()[0]
        if c.reason == "shift_change" and c.gaming_date == wanted and c.shift == shift
    ]
    return found[-1] if found else None
