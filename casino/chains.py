"""The project's hash chains (the audit log, each round's events, each bank's meter ledger)
made one way: one link digest and one walker, so a tamper check proven on one holds for all.

A link is the HMAC (casino.audit_keys) of a row's canonical JSON with the previous row's hash
in it: the formula every chain has used since its first row, so no stored hash changes. Each
chain says what of a row it covers and words the walker's breaks for its own readers.
"""

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from casino.audit_keys import mac

GENESIS = "0" * 64  # the previous hash of a chain's first row


def canonical(body: dict) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), default=str).encode()


def link_digest(body: dict, prev_hash: str, key: str) -> str:
    """The MAC under `key` of `body` linked to the row before it by `prev_hash`."""
    return mac(key, canonical({**body, "prev_hash": prev_hash}))


# The kinds of break the walker names: a number not after the one before (inserted or
# renumbered), numbers missing before a row (deleted), a key the ring does not know (forged
# or unsealed), a MAC that does not hold (edited or forged), a link to another previous hash
# (reordered or re-chained), and a chain's own check refused (`reason` says why).
RENUMBERED, MISSING, UNKNOWN_KEY, EDITED, RELINKED, REFUSED = (
    "renumbered",
    "missing",
    "unknown_key",
    "edited",
    "relinked",
    "refused",
)


@dataclass
class Break:
    row: object
    kind: str
    at: int  # the row's number
    previous: tuple  # (number, hash, id) of the row before it in its chain
    reason: str = ""

    @property
    def missing(self) -> tuple[int, int]:
        """The first and last numbers gone before the row (kind MISSING)."""
        return self.previous[0] + 1, self.at - 1


@dataclass
class Walk:
    broken: Break | None
    heads: dict  # chain (None when one) -> (last number, its hash, its id)


def walk(
    rows: Iterable,
    *,
    keys: dict[str, str],
    digest: Callable[[object, str], str],
    number: str,
    chain: Callable[[object], object] | None = None,
    check: Callable[[object], str | None] | None = None,
    then: Callable[[object], str | None] = lambda row: None,
) -> Walk:
    """Walk `rows` in order (by `chain(row)`, then `number`) and stop at the first that does
    not hold. `check` runs before a row's seal is checked, `then` after it; either names a
    break of the chain's own (REFUSED) by returning why."""
    heads: dict = {}
    for row in rows:
        name = chain(row) if chain is not None else None
        previous = heads.get(name, (0, GENESIS, 0))
        at = getattr(row, number)
        kind, reason = None, ""
        if at <= previous[0]:
            kind = RENUMBERED
        elif at != previous[0] + 1:
            kind = MISSING
        elif check is not None and (reason := check(row)):
            kind = REFUSED
        elif row.key_id not in keys:
            kind = UNKNOWN_KEY
        elif row.hash != digest(row, keys[row.key_id]):
            kind = EDITED
        elif row.prev_hash != previous[1]:
            kind = RELINKED
        elif reason := then(row):
            kind = REFUSED
        if kind is not None:
            return Walk(Break(row, kind, at, previous, reason or ""), heads)
        heads[name] = (at, row.hash, row.pk)
    return Walk(None, heads)
