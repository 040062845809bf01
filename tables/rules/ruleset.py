"""A table's rule set: every rule option of the spec, with its default, as one frozen value.

`parse_rules(obj)` checks an operator's rules object (the `rules` of a settlement input, or a
rule set stored by the Django layer) and raises `InputError` naming the key at fault;
`rules_errors(obj)` gives every fault at once instead (the first is the one `parse_rules`
raises), so that a manager's form can show them all; `RuleSet.to_json()` gives its canonical form, which parses back to an equal rule set.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .errors import InputError
from .paytables import (
    BLIND_PRESETS,
    DEFAULT_ENVY,
    DEFAULT_PROGRESSIVE,
    TRIPS_PRESETS,
    Paytable,
    TableKind,
    collect_paytable,
    parse_paytable,
    preset_name,
)


class TripsOnFold(StrEnum):
    STAYS = "stays"  # Trips is settled on the final hand even after a fold (standard US rule)
    LOST = "lost"  # a fold loses Trips too (California player-banked, some foreign houses)


class AnteWhenNotQualified(StrEnum):
    PUSH = "push"  # the Ante comes back whenever the dealer lacks a pair, even if the dealer wins
    PUSH_UNLESS_DEALER_WINS = "push_unless_dealer_wins"


@dataclass(frozen=True)
class RuleSet:
    """The rules one table plays by. Immutable; build it with `parse_rules` or directly."""

    preflop_multiples: tuple[int, ...] = (3, 4)
    blind_paytable: Paytable = field(default_factory=lambda: BLIND_PRESETS["A"])
    trips_paytable: Paytable = field(default_factory=lambda: TRIPS_PRESETS["C"])
    trips_on_fold: TripsOnFold = TripsOnFold.STAYS
    ante_when_dealer_not_qualified: AnteWhenNotQualified = AnteWhenNotQualified.PUSH
    progressive_paytable: Paytable = field(default_factory=lambda: DEFAULT_PROGRESSIVE)
    envy: Paytable = field(default_factory=lambda: DEFAULT_ENVY)
    envy_min_wager_cents: int = 0
    progressive_wager_cents: int = 100
    payout_unit_cents: int = 1
    max_payout_cents: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The canonical JSON form: every key, preset names where a table is a preset."""
        return {
            "preflop_multiples": list(self.preflop_multiples),
            "blind_paytable": preset_name(self.blind_paytable) or self.blind_paytable.to_json(),
            "trips_paytable": preset_name(self.trips_paytable) or self.trips_paytable.to_json(),
            "trips_on_fold": self.trips_on_fold.value,
            "ante_when_dealer_not_qualified": self.ante_when_dealer_not_qualified.value,
            "progressive_paytable": self.progressive_paytable.to_json(),
            "envy": self.envy.to_json(),
            "envy_min_wager_cents": self.envy_min_wager_cents,
            "progressive_wager_cents": self.progressive_wager_cents,
            "payout_unit_cents": self.payout_unit_cents,
            "max_payout_cents": self.max_payout_cents,
        }

    def round_down(self, winnings: int) -> int:
        """Winnings rounded down to the table's payout unit (losses are never rounded)."""
        unit = self.payout_unit_cents
        return winnings if unit == 1 else winnings - winnings % unit


DEFAULT_RULES = RuleSet()


def _shown(value: object) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _multiples(value: object, path: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not value:
        raise InputError("rules.not_multiples", code="bad_rule", path=path, value=_shown(value))
    for i, multiple in enumerate(value):
        if not _is_int(multiple) or multiple < 1:
            raise InputError(
                "rules.not_multiple", code="bad_rule", path=f"{path}[{i}]", value=_shown(multiple)
            )
    if len(set(value)) != len(value):
        raise InputError("rules.multiple_twice", code="bad_rule", path=path, value=_shown(value))
    return tuple(sorted(value))


def _table(
    kind: TableKind, presets: Mapping[str, Paytable] | None
) -> Callable[[object, str], Paytable]:
    def parse(value: object, path: str) -> Paytable:
        if isinstance(value, str):
            if presets is not None and value in presets:
                return presets[value]
            if not presets:
                raise InputError(
                    "rules.no_preset",
                    code="bad_paytable",
                    path=path,
                    value=_shown(value),
                    table=kind.value,
                )
            raise InputError(
                "rules.not_preset",
                code="bad_paytable",
                path=path,
                value=_shown(value),
                table=kind.value,
                presets=tuple(presets),
            )
        return parse_paytable(kind, value, path)

    return parse


def _choice(enum: type[StrEnum]) -> Callable[[object, str], Any]:
    def parse(value: object, path: str) -> Any:
        try:
            return enum(value if isinstance(value, str) else "")
        except ValueError:
            raise InputError(
                "rules.not_choice",
                code="bad_rule",
                path=path,
                value=_shown(value),
                choices=tuple(m.value for m in enum),
            ) from None

    return parse


def _cents(minimum: int, too_small: str) -> Callable[[object, str], int]:
    """A parser of an amount of at least `minimum` cents; `too_small` is the message key."""

    def parse(value: object, path: str) -> int:
        if not _is_int(value):
            raise InputError("input.not_cents", code="bad_rule", path=path, value=_shown(value))
        assert isinstance(value, int)
        if value < minimum:
            raise InputError(too_small, code="bad_rule", path=path, value=value)
        return value

    return parse


def _optional_cap(value: object, path: str) -> int | None:
    if value is None:
        return None
    return _cents(1, "rules.cap_too_small")(value, path)


_PARSERS: dict[str, Callable[[object, str], Any]] = {
    "preflop_multiples": _multiples,
    "blind_paytable": _table(TableKind.BLIND, BLIND_PRESETS),
    "trips_paytable": _table(TableKind.TRIPS, TRIPS_PRESETS),
    "trips_on_fold": _choice(TripsOnFold),
    "ante_when_dealer_not_qualified": _choice(AnteWhenNotQualified),
    "progressive_paytable": _table(TableKind.PROGRESSIVE, None),
    "envy": _table(TableKind.ENVY, None),
    "envy_min_wager_cents": _cents(0, "rules.envy_min_too_small"),
    "progressive_wager_cents": _cents(1, "rules.wager_too_small"),
    "payout_unit_cents": _cents(1, "rules.unit_too_small"),
    "max_payout_cents": _optional_cap,
}

#: Every rule key, in the spec's order.
RULE_KEYS: tuple[str, ...] = tuple(_PARSERS)


#: The rules whose value may be an explicit paytable, and its kind: such a table is checked
#: line by line, so that every faulty line is named, not only the first.
_TABLE_KINDS: dict[str, TableKind] = {
    "blind_paytable": TableKind.BLIND,
    "trips_paytable": TableKind.TRIPS,
    "progressive_paytable": TableKind.PROGRESSIVE,
    "envy": TableKind.ENVY,
}


def parse_rules(obj: Mapping[str, object] | None, *, path: str = "rules") -> RuleSet:
    """A rule set from its JSON form; missing keys take their defaults, unknown keys are refused
    (a misspelt rule silently ignored would settle a table on the wrong rules). Raises the
    first of `rules_errors`."""
    if obj is None:
        return DEFAULT_RULES
    errors: list[InputError] = []
    values = _collect(obj, path, errors)
    if errors:
        raise errors[0]
    if not values:
        return DEFAULT_RULES
    return RuleSet(**values)


def rules_errors(
    obj: Mapping[str, object] | None, *, path: str = "rules"
) -> tuple[InputError, ...]:
    """Every fault of a rules object, in the order of its keys (an explicit paytable's in the
    order of its lines); empty when `parse_rules` accepts it."""
    if obj is None:
        return ()
    errors: list[InputError] = []
    _collect(obj, path, errors)
    return tuple(errors)


def _collect(obj: object, path: str, errors: list[InputError]) -> dict[str, Any]:
    """The rules `obj` gives that are accepted; each fault appended to `errors`."""
    if not isinstance(obj, Mapping):
        errors.append(InputError("rules.not_object", code="bad_rule", path=path, value=_shown(obj)))
        return {}
    values: dict[str, Any] = {}
    for key, value in obj.items():
        where = f"{path}.{key}"
        parser = _PARSERS.get(key)
        if parser is None:
            errors.append(
                InputError("rules.unknown", code="unknown_rule", path=where, rules=RULE_KEYS)
            )
            continue
        kind = _TABLE_KINDS.get(key)
        if kind is not None and isinstance(value, Mapping):
            table = collect_paytable(kind, value, where, errors)
            if table is not None:
                values[key] = table
            continue
        try:
            values[key] = parser(value, where)
        except InputError as exc:
            errors.append(exc)
    return values
