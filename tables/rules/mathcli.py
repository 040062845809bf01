"""`python -m tables.rules math ...`: the exact math of a paytable, as a table or as JSON.

Exact figures are written both as a reduced fraction (`"1169925/33446140"`) and as a
percentage rounded to `paymath.PERCENT_DECIMALS` decimals, so a regulator can check either.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, TextIO

from . import paymath
from .cli import EXIT_INPUT, EXIT_OK, _read, load_json
from .errors import InputError, RulesError
from .messages import TERMS
from .paytables import (
    DEFAULT_ENVY,
    DEFAULT_PROGRESSIVE,
    TRIPS_PRESETS,
    Paytable,
    PayValue,
    TableKind,
    parse_paytable,
)


def _paytable(kind: TableKind, source: str, stdin: TextIO) -> tuple[str, Paytable]:
    """A table by preset name (Trips), `default` (progressive, Envy) or from a JSON file."""
    if kind is TableKind.TRIPS and source in TRIPS_PRESETS:
        return f"preset {source}", TRIPS_PRESETS[source]
    defaults = {TableKind.PROGRESSIVE: DEFAULT_PROGRESSIVE, TableKind.ENVY: DEFAULT_ENVY}
    if source == "default" and kind in defaults:
        return "the spec's default", defaults[kind]
    return source, parse_paytable(kind, load_json(_read(source, stdin)), kind.value)


def _exact(value: Fraction) -> dict[str, str]:
    return {
        "exact": f"{value.numerator}/{value.denominator}",
        "percent": paymath.percent_text(value),
    }


def _pays(value: PayValue | None) -> str | int | None:
    return None if value is None else value.to_json()


def _findings(findings: tuple[paymath.Finding, ...]) -> list[dict[str, Any]]:
    return [
        {
            "severity": f.severity.value,
            "code": f.code,
            "key": f.key,
            "path": f.path,
            "message": f.render(),
        }
        for f in findings
    ]


def _trips(name: str, table: Paytable) -> tuple[dict[str, Any], list[str]]:
    math = paymath.trips_math(table)
    findings = paymath.check_paytable(table)
    data = {
        "kind": "trips",
        "paytable": name,
        "hands": sum(line.hands for line in math.lines),
        "lines": [
            {
                "category": line.category,
                "pays": _pays(line.pays),
                "hands": line.hands,
                "probability": _exact(line.probability),
                "contribution": _exact(line.contribution),
            }
            for line in math.lines
        ],
        "house_edge": _exact(math.house_edge),
        "hit_frequency": _exact(math.hit_frequency),
        "findings": _findings(findings),
    }
    text = [f"Trips paytable ({name}), on the player's best 5 of 7 cards"]
    text += _rows(
        ("hand", "pays", "hands", "probability %", "contribution %"),
        [
            (
                TERMS[line.category],
                _shown_pays(line.pays, "loses"),
                f"{line.hands:,}",
                paymath.percent_text(line.probability),
                paymath.percent_text(line.contribution),
            )
            for line in math.lines
        ],
    )
    text += [
        f"house edge:    {paymath.percent_text(math.house_edge)} % of the Trips bet"
        f" (exactly {_exact(math.house_edge)['exact']})",
        f"hit frequency: {paymath.percent_text(math.hit_frequency)} %",
    ]
    return data, text + _finding_lines(findings)


def _progressive(
    name: str, table: Paytable, *, meter: int | None, reset: int | None, wager: int
) -> tuple[dict[str, Any], list[str]]:
    if meter is None:
        raise InputError("round.meter_required", code="missing_meter", path="--meter")
    for flag, cents in (("--meter", meter), ("--reset", reset)):
        if cents is not None and cents < 0:
            raise InputError(
                "round.negative_meter", code="negative_amount", path=flag, amount=cents
            )
    math = paymath.progressive_math(table, meter_cents=meter, reset_cents=reset, wager_cents=wager)
    findings = paymath.check_paytable(table, wager_cents=wager, reset_cents=reset)
    at_reset = math.expected_return_at_reset
    data = {
        "kind": "progressive",
        "paytable": name,
        "meter_cents": meter,
        "reset_cents": reset,
        "wager_cents": wager,
        "lines": [
            {
                "category": line.category,
                "pays": _pays(line.pays),
                "hands": line.hands,
                "probability": _exact(line.probability),
                "amount_cents": line.amount_cents,
                "contribution": _exact(line.contribution),
            }
            for line in math.lines
        ],
        "expected_return": _exact(math.expected_return),
        "expected_return_at_reset": None if at_reset is None else _exact(at_reset),
        "break_even_meter_cents": math.break_even_meter_cents,
        "hit_frequency": _exact(math.hit_frequency),
        "findings": _findings(findings),
    }
    text = [
        f"Progressive paytable ({name}), on the 2 hole cards and the flop;"
        f" wager {wager} cents, meter {meter:,} cents"
    ]
    text += _rows(
        ("hand", "pays", "hands", "probability %", "wins (cents)", "contribution %"),
        [
            (
                TERMS[line.category],
                _shown_pays(line.pays, "loses"),
                f"{line.hands:,}",
                paymath.percent_text(line.probability),
                f"{line.amount_cents:,}",
                paymath.percent_text(line.contribution),
            )
            for line in math.lines
        ],
    )
    text.append(f"return at the meter: {paymath.percent_text(math.expected_return)} %")
    if at_reset is not None:
        text.append(f"return at the reset ({reset:,} cents): {paymath.percent_text(at_reset)} %")
    text.append(
        "break-even meter: "
        + (
            "none (no tier is a share of the meter)"
            if math.break_even_meter_cents is None
            else f"{math.break_even_meter_cents:,} cents"
        )
    )
    text.append(f"hit frequency: {paymath.percent_text(math.hit_frequency)} %")
    return data, text + _finding_lines(findings)


def _envy(
    name: str, table: Paytable, *, wager: int, min_wager: int
) -> tuple[dict[str, Any], list[str]]:
    math = paymath.envy_cost(table, wager_cents=wager, min_wager_cents=min_wager)
    findings = paymath.check_paytable(table, wager_cents=wager)
    data = {
        "kind": "envy",
        "paytable": name,
        "wager_cents": wager,
        "min_wager_cents": min_wager,
        "lines": [
            {
                "category": line.category,
                "amount_cents": line.amount_cents,
                "hands": line.hands,
                "probability": _exact(line.probability),
                "cost_cents": f"{line.cost_cents.numerator}/{line.cost_cents.denominator}",
            }
            for line in math.lines
        ],
        "cost_per_other_seat_cents": (
            f"{math.cost_per_other_seat_cents.numerator}/{math.cost_per_other_seat_cents.denominator}"
        ),
        "cost_per_wager": _exact(math.cost_per_wager),
        "findings": _findings(findings),
    }
    text = [f"Envy paytable ({name}), on another seat's progressive hand; wager {wager} cents"]
    text += _rows(
        ("other seat's hand", "pays (cents)", "hands", "probability %", "cost (cents)"),
        [
            (
                TERMS[line.category],
                f"{line.amount_cents:,}",
                f"{line.hands:,}",
                paymath.percent_text(line.probability),
                f"{float(line.cost_cents):.4f}",
            )
            for line in math.lines
        ],
    )
    text += [
        f"cost per other seat: {float(math.cost_per_other_seat_cents):.4f} cents"
        f" = {paymath.percent_text(math.cost_per_wager)} % of the wager",
    ]
    return data, text + _finding_lines(findings)


def _counts() -> tuple[dict[str, Any], list[str]]:
    paymath.category_counts.cache_clear()  # time the counting itself, not the cache
    started = time.perf_counter()
    five, seven = paymath.five_card_counts(), paymath.seven_card_counts()
    seconds = time.perf_counter() - started
    data = {"five_card": dict(five), "seven_card": dict(seven), "seconds": round(seconds, 4)}
    text = _rows(
        ("hand", "5 cards", "7 cards (best 5)"),
        [(TERMS[c], f"{five[c]:,}", f"{seven[c]:,}") for c in reversed(list(five))]
        + [("all", f"{sum(five.values()):,}", f"{sum(seven.values()):,}")],
    )
    text.append(f"counted combinatorially in {seconds * 1000:.0f} ms (target: under 1 s)")
    return data, text


def _shown_pays(value: PayValue | None, missing: str) -> str:
    return missing if value is None else str(value.to_json())


def _rows(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]

    def line(cells: tuple[str, ...]) -> str:
        first, *rest = cells
        return "  ".join(
            [first.ljust(widths[0])] + [c.rjust(w) for c, w in zip(rest, widths[1:], strict=True)]
        )

    return [line(header)] + [line(r) for r in rows]


def _finding_lines(findings: tuple[paymath.Finding, ...]) -> list[str]:
    return [f"{f.severity.value}: {f.render()}" for f in findings]


def run_math(parsed: argparse.Namespace, stdout: TextIO, stdin: TextIO) -> int:
    try:
        if parsed.wager < 1:
            raise InputError(
                "rules.wager_too_small", code="bad_rule", path="--wager", value=parsed.wager
            )
        if parsed.trips is not None:
            name, table = _paytable(TableKind.TRIPS, parsed.trips, stdin)
            data, text = _trips(name, table)
        elif parsed.progressive is not None:
            name, table = _paytable(TableKind.PROGRESSIVE, parsed.progressive, stdin)
            data, text = _progressive(
                name, table, meter=parsed.meter, reset=parsed.reset, wager=parsed.wager
            )
        elif parsed.envy is not None:
            name, table = _paytable(TableKind.ENVY, parsed.envy, stdin)
            data, text = _envy(name, table, wager=parsed.wager, min_wager=parsed.min_wager)
        else:
            data, text = _counts()
    except RulesError as error:
        json.dump({"error": {"code": error.code, "message": error.message}}, stdout)
        stdout.write("\n")
        return EXIT_INPUT
    if parsed.json:
        json.dump(data, stdout)
        stdout.write("\n")
    else:
        stdout.write("\n".join(text) + "\n")
    return EXIT_OK
