"""Checkpoints of the audit chain's head, kept where the database cannot rewrite them.

A checkpoint is (position, hash) of the latest entry at a moment, appended as one JSON line to
AUDIT_CHECKPOINT_PATH (a setting or environment variable; by default named after the database,
see `checkpoint_path`). The chain alone cannot show entries cut off its end (a TRUNCATE, a
deleted tail); `audit_verify` compares the chain with every checkpoint, so it can.

Written at every shift change (when the sealer seals the first entry of the new shift,
casino.audit), by the sealer's sweep whenever the chain's head moved since the last line
(every few seconds under play), and on demand (`manage.py audit_checkpoint`, e.g. before a
backup); the shift report shows the one that closed its shift (`shift_checkpoint`). Each
line carries an HMAC under the audit key, so a line written by someone without the key is
refused. Make the file append-only for the server's user (`chattr +a`, or a log host), and
copy it off the database server.

A checkpoint also records the heads of the other chains that cannot show their own cut-off
end (the meter ledger's banks: each bank's last line number and hash; the rounds that moved
lately: each one's last event), under "heads". casino
sits below the apps that own them, so each app registers here what to record and how to check
it (`register_heads`); `audit_verify` then asks each one whether every head a checkpoint
recorded is still in place (`heads_find_breaks`). A line written before heads existed has none
and is checked for the audit chain alone.
"""

import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import transaction
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
    # chain name -> the heads its app recorded (jackpot: [{"bank_id", "bank", "seq", "hash"}]);
    # empty for a line written before heads were recorded.
    heads: dict = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class HeadsKeeper:
    """What an app records of its chain's heads in each checkpoint, and how it checks them.

    provide(): the heads now, JSON values (a list of dicts).
    find_break(checkpoints): given the checkpoints that recorded this chain's heads, in file
    order, the first head no longer in place (a ChainBreak of casino.audit) or None.
    describe(head): one head in words, for the checkpoint command and the shift report."""

    provide: Callable[[], list]
    find_break: Callable[[list], object]
    describe: Callable[[dict], str]


# name (the chain's name in casino.audit.CHAINS, e.g. "meter ledger") -> its keeper.
HEADS: dict[str, HeadsKeeper] = {}


def register_heads(
    name: str, *, provide: Callable, find_break: Callable, describe: Callable | None = None
) -> None:
    describe = describe or (lambda head: ", ".join(f"{k} {v}" for k, v in head.items()))
    HEADS[name] = HeadsKeeper(provide=provide, find_break=find_break, describe=describe)


def describe_head(name: str, head: dict) -> str:
    """A recorded head in words; a chain no longer registered is shown field by field."""
    keeper = HEADS.get(name)
    if keeper is None:
        return ", ".join(f"{k} {v}" for k, v in head.items())
    return keeper.describe(head)


def heads_now() -> dict[str, list]:
    """Every registered chain's heads now. One that cannot be read is left out and logged
    loudly: the checkpoint of the audit chain is still worth writing (a shift change writes it
    after its commit, where an exception would fail a request whose change is committed)."""
    heads = {}
    for name, keeper in HEADS.items():
        try:
            # A savepoint inside the caller's transaction: a failed read must not abort it.
            with transaction.atomic():
                provided = keeper.provide()
            if provided:  # nothing to record (no round moved lately) leaves the chain out
                heads[name] = provided
        except Exception:
            log.exception("the %s heads could not be read for the audit checkpoint", name)
    return heads


def heads_find_breaks(checkpoints: list[Checkpoint]) -> list[tuple[str, object]]:
    """(chain name, its first break) for each registered chain whose recorded heads are not all
    in place; [] when every head every checkpoint recorded still is."""
    found = []
    for name, keeper in HEADS.items():
        recorded = [c for c in checkpoints if name in c.heads]
        broken = keeper.find_break(recorded) if recorded else None
        if broken is not None:
            found.append((name, broken))
    return found


def checkpoint_path() -> Path:
    """AUDIT_CHECKPOINT_PATH; by default a file named after the database, so that two
    databases (a test server's, `make run`'s) never share checkpoints: beside a SQLite file,
    or `audit-checkpoints.<database name>.jsonl` in the project for PostgreSQL."""
    configured = getattr(settings, "AUDIT_CHECKPOINT_PATH", None)
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
    *,
    position: int,
    hash: str,
    entry_id,
    gaming_date,
    shift: str,
    reason: str,
    heads: dict | None = None,
) -> dict:
    """Append one checkpoint line (O_APPEND: never rewrites what is there) and flush it.
    `heads`: the other chains' heads to record; by default every registered one's, read now."""
    body = {
        "position": position,
        "hash": hash,
        "entry_id": entry_id,
        "gaming_date": gaming_date.isoformat() if gaming_date else None,
        "shift": shift or "",
        "written_at": timezone.now().isoformat(),
        "reason": reason,
        "key_id": current_key_id(),
        "heads": heads_now() if heads is None else heads,
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
                heads=body.get("heads") or {},
            )
        )
    return good, bad


def last_checkpoint_position() -> int:
    """The position the file's last line recorded (0 when there is none), read from its end
    only: the sealer's sweep asks it every few seconds. Genuineness is audit_verify's job."""
    path = checkpoint_path()
    try:
        with path.open("rb") as file:
            file.seek(0, os.SEEK_END)
            file.seek(max(0, file.tell() - 65536))
            lines = [line for line in file.read().splitlines() if line.strip()]
    except FileNotFoundError:
        return 0
    for raw in reversed(lines):
        try:
            return int(json.loads(raw)["position"])
        except (ValueError, KeyError, TypeError):
            continue  # a line cut by the 64 KiB window, or not a checkpoint: the one before
    return 0


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
