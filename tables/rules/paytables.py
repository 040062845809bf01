"""Paytables as data: the presets of the spec and the parsing of an operator's explicit table.

A paytable maps a hand category (the spec's names, `"flush"`, `"royal_flush"`...) to a value:

- `Odds(n, m)`: pays `n` for `m` of the stake (`"3:2"`), in every table except Envy;
- `Percent(ppm)`: a share of the progressive meter (`"10%"`), progressive table only;
- `Cents(amount)`: a fixed amount, Envy table only.

Categories a table does not list lose (Trips, progressive), push (Blind) or pay nothing (Envy).
Money is integer cents and rates are integer ppm: no float is ever involved.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeAlias

from .errors import InputError

#: The hand categories, lowest first, as the spec spells them.
CATEGORIES: tuple[str, ...] = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)
_CATEGORY_SET = frozenset(CATEGORIES)

PPM = 1_000_000


class TableKind(StrEnum):
    """Which bet a paytable settles; it decides which kinds of values are allowed."""

    BLIND = "blind"
    TRIPS = "trips"
    PROGRESSIVE = "progressive"
    ENVY = "envy"


@dataclass(frozen=True, slots=True)
class Odds:
    """Pays `n` for `m` of the stake; the stake is returned as well."""

    n: int
    m: int

    def winnings(self, stake: int) -> int:
        """What a winning stake earns, rounded down to the cent (a fraction of a cent is never paid)."""
        return stake * self.n // self.m

    def to_json(self) -> str:
        return f"{self.n}:{self.m}"


@dataclass(frozen=True, slots=True)
class Percent:
    """A share of the progressive meter, in ppm of it (100% = 1,000,000 ppm)."""

    ppm: int

    @property
    def is_whole_meter(self) -> bool:
        return self.ppm == PPM

    def of(self, meter_cents: int) -> int:
        """The share of a meter, rounded down to the cent."""
        return meter_cents * self.ppm // PPM

    def to_json(self) -> str:
        whole, rest = divmod(self.ppm, 10_000)
        if rest == 0:
            return f"{whole}%"
        return f"{whole}.{rest:04d}".rstrip("0") + "%"


@dataclass(frozen=True, slots=True)
class Cents:
    """A fixed amount in cents (Envy)."""

    amount: int

    def to_json(self) -> int:
        return self.amount


PayValue: TypeAlias = Odds | Percent | Cents


@dataclass(frozen=True)
class Paytable:
    """An immutable paytable: `lines` in category order, and a dict view for fast look-ups."""

    kind: TableKind
    lines: tuple[tuple[str, PayValue], ...]
    _by_category: Mapping[str, PayValue] = field(
        init=False, repr=False, compare=False, hash=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_category", dict(self.lines))

    def get(self, category: str) -> PayValue | None:
        """The value for a category, or None when the table does not list it."""
        return self._by_category.get(category)

    def __contains__(self, category: object) -> bool:
        return category in self._by_category

    def categories(self) -> tuple[str, ...]:
        return tuple(c for c, _ in self.lines)

    def to_json(self) -> dict[str, str | int]:
        return {category: value.to_json() for category, value in self.lines}


# ASCII digits only ("٣:٢" is not odds), and few enough that int() never refuses them.
_ODDS = re.compile(r"\s*([0-9]{1,18})\s*:\s*([0-9]{1,18})\s*", re.ASCII)
_PERCENT = re.compile(r"\s*([0-9]{1,18})(?:\.([0-9]{1,4}))?\s*%\s*", re.ASCII)
#: The message key saying what a value of each kind of table must be (Envy: `not_envy_amount`).
_NOT_ALLOWED: dict[TableKind, str] = {
    TableKind.BLIND: "paytable.not_odds",
    TableKind.TRIPS: "paytable.not_odds",
    TableKind.PROGRESSIVE: "paytable.not_odds_or_percent",
}


def _shown(value: object) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def parse_value(kind: TableKind, value: object, path: str) -> PayValue:
    """One paytable value, checked against what this kind of table may hold."""
    if kind is TableKind.ENVY:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(
                "paytable.not_envy_amount", code="bad_paytable", path=path, value=_shown(value)
            )
        if value < 0:
            raise InputError("paytable.negative_envy", code="bad_paytable", path=path, value=value)
        return Cents(value)
    if not isinstance(value, str):
        raise InputError(_NOT_ALLOWED[kind], code="bad_paytable", path=path, value=_shown(value))
    shown = f'"{value}"'
    odds = _ODDS.fullmatch(value)
    if odds:
        n, m = int(odds.group(1)), int(odds.group(2))
        if m == 0:
            raise InputError("paytable.zero_stake", code="bad_paytable", path=path, value=shown)
        return Odds(n, m)
    percent = _PERCENT.fullmatch(value)
    if percent:
        if kind is not TableKind.PROGRESSIVE:
            raise InputError(
                "paytable.percent_not_progressive", code="bad_paytable", path=path, value=shown
            )
        ppm = int(percent.group(1)) * 10_000 + int((percent.group(2) or "").ljust(4, "0"))
        if not 0 < ppm <= PPM:
            raise InputError("paytable.percent_range", code="bad_paytable", path=path, value=shown)
        return Percent(ppm)
    if value.strip().startswith("-"):
        raise InputError("paytable.negative_odds", code="bad_paytable", path=path, value=shown)
    raise InputError(_NOT_ALLOWED[kind], code="bad_paytable", path=path, value=shown)


def paytable_errors(kind: TableKind, table: object, path: str) -> tuple[InputError, ...]:
    """Every fault of an explicit paytable object, one per line at fault, in the object's
    order (`parse_paytable` raises the first): a manager fixes them all in one go."""
    errors: list[InputError] = []
    collect_paytable(kind, table, path, errors)
    return tuple(errors)


def parse_paytable(kind: TableKind, table: object, path: str) -> Paytable:
    """An explicit paytable object `{category: value}`; lines come out in category order.
    Raises the first of `paytable_errors`."""
    errors: list[InputError] = []
    parsed = collect_paytable(kind, table, path, errors)
    if parsed is None:
        raise errors[0]
    return parsed


def collect_paytable(
    kind: TableKind, table: object, path: str, errors: list[InputError]
) -> Paytable | None:
    """The paytable `table` describes, or None with each of its faults appended to `errors`."""
    if not isinstance(table, Mapping):
        errors.append(
            InputError("paytable.not_object", code="bad_paytable", path=path, value=_shown(table))
        )
        return None
    parsed: dict[str, PayValue] = {}
    faults = len(errors)
    for category, value in table.items():
        where = f"{path}.{category}"
        if category not in _CATEGORY_SET:
            errors.append(
                InputError(
                    "paytable.not_category", code="bad_paytable", path=where, categories=CATEGORIES
                )
            )
            continue
        try:
            parsed[category] = parse_value(kind, value, where)
        except InputError as exc:
            errors.append(exc)
    if len(errors) > faults:
        return None
    return Paytable(kind, tuple((c, parsed[c]) for c in CATEGORIES if c in parsed))


def _preset(kind: TableKind, table: Mapping[str, str | int]) -> Paytable:
    return parse_paytable(kind, table, f"preset {kind}")


def _trips(rf: int, sf: int, quads: int, fh: int, fl: int, st: int, trips: int) -> dict[str, str]:
    return {
        "royal_flush": f"{rf}:1",
        "straight_flush": f"{sf}:1",
        "four_of_a_kind": f"{quads}:1",
        "full_house": f"{fh}:1",
        "flush": f"{fl}:1",
        "straight": f"{st}:1",
        "three_of_a_kind": f"{trips}:1",
    }


_BLIND_A = {
    "royal_flush": "500:1",
    "straight_flush": "50:1",
    "four_of_a_kind": "10:1",
    "full_house": "3:1",
    "flush": "3:2",
    "straight": "1:1",
}
_BLIND_B = {k: v for k, v in _BLIND_A.items() if k != "straight"}  # a straight pushes

#: Blind paytables by name (58 Pa. Code § 653a.12 tables A and B).
BLIND_PRESETS: Mapping[str, Paytable] = {
    "A": _preset(TableKind.BLIND, _BLIND_A),
    "B": _preset(TableKind.BLIND, _BLIND_B),
}

#: Trips paytables by name (58 Pa. Code § 653a.12(c) tables A to D), RF-SF-quads-FH-flush-straight-trips.
TRIPS_PRESETS: Mapping[str, Paytable] = {
    "A": _preset(TableKind.TRIPS, _trips(50, 40, 30, 9, 7, 4, 3)),
    "B": _preset(TableKind.TRIPS, _trips(50, 40, 30, 8, 6, 5, 3)),
    "C": _preset(TableKind.TRIPS, _trips(50, 40, 30, 8, 7, 4, 3)),
    "D": _preset(TableKind.TRIPS, _trips(50, 40, 20, 7, 6, 5, 3)),
}

#: The spec's example house progressive table; operators configure their approved one.
DEFAULT_PROGRESSIVE: Paytable = _preset(
    TableKind.PROGRESSIVE,
    {
        "royal_flush": "100%",
        "straight_flush": "10%",
        "four_of_a_kind": "300:1",
        "full_house": "50:1",
        "flush": "40:1",
        "straight": "30:1",
        "three_of_a_kind": "9:1",
    },
)

#: The spec's default Envy amounts, in cents.
DEFAULT_ENVY: Paytable = _preset(TableKind.ENVY, {"royal_flush": 100000, "straight_flush": 10000})


def preset_name(table: Paytable) -> str | None:
    """The preset name of a Blind or Trips table equal to one, so `to_json` stays canonical."""
    presets = BLIND_PRESETS if table.kind is TableKind.BLIND else TRIPS_PRESETS
    if table.kind not in (TableKind.BLIND, TableKind.TRIPS):
        return None
    for name, preset in presets.items():
        if preset == table:
            return name
    return None
