"""The engine's paytable math, in the reader's language, for the paytable editor and the
services that save paytables.

The figures are the engine's (`tables.rules.paymath`); this module only picks the inputs the
database holds (a paytable's lines, the banks' meters, resets and wagers) and writes the
results as people read them: percentages in the active locale, amounts in the property's
currency.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.utils.formats import number_format
from django.utils.translation import gettext, pgettext

from casino.money import money
from tables.rules import paymath
from tables.rules.errors import RulesError
from tables.rules.messages import TERM_CONTEXT, TERMS, render
from tables.rules.paytables import (
    BLIND_PRESETS,
    CATEGORIES,
    TRIPS_PRESETS,
    TableKind,
    parse_paytable,
)
from tables.rules.paytables import (
    Paytable as EnginePaytable,
)

#: The wager Envy and the progressive are judged at when no bank gives one (the spec's).
DEFAULT_WAGER_CENTS = 100


def _translate(context: str | None, message: str) -> str:
    return gettext(message) if context is None else pgettext(context, message)


def percent(value: Fraction, decimals: int = paymath.PERCENT_DECIMALS) -> str:
    """A fraction as a percentage in the active locale, without the sign: `3,4979`."""
    return number_format(Decimal(paymath.percent_text(value, decimals)), decimals)


def category_name(category: str) -> str:
    return pgettext(TERM_CONTEXT, TERMS[category])


def presets_of(kind: str) -> dict[str, EnginePaytable]:
    return {"blind": BLIND_PRESETS, "trips": TRIPS_PRESETS}.get(kind, {})


def engine_table(kind: str, preset: str, lines: dict) -> EnginePaytable | None:
    """The engine's paytable for these values, or None when the engine refuses them (the
    form or the model says why)."""
    if preset:
        return presets_of(kind).get(preset)
    try:
        return parse_paytable(TableKind(kind), lines or {}, kind)
    except (RulesError, ValueError):
        return None


def banks():
    """The progressive banks the math is shown for, with their meter, reset and wager."""
    from jackpot.models import Bank

    return list(Bank.objects.order_by("name", "pk"))


@dataclass(frozen=True)
class PaytableFinding:
    """A finding of the engine (`paymath.Finding`) said in the active language."""

    code: str
    category: str | None
    refused: bool
    message: str  # in the active language
    english: str  # for the audit log, which keeps one language

    @property
    def field(self) -> str:
        return "lines"


def _said(finding: paymath.Finding) -> PaytableFinding:
    params = dict(finding.params)
    for name, figure in finding.figures.items():
        params[name] = percent(figure)
    for name, cents in finding.amounts.items():
        params[name] = money(cents)
    return PaytableFinding(
        code=finding.code,
        category=finding.path,
        refused=finding.severity is paymath.Severity.REFUSE,
        message=render(finding.key, params, translate=_translate),
        english=finding.render(),
    )


def findings_for(kind: str, table: EnginePaytable, bank_list=None) -> list[PaytableFinding]:
    """What the engine refuses or warns of in this table; a progressive or Envy table is
    judged against each bank's wager (and reset), the same finding said once."""
    bank_list = banks() if bank_list is None else bank_list
    if kind in ("progressive", "envy") and bank_list:
        found: dict[tuple[str, str | None], paymath.Finding] = {}
        for bank in bank_list:
            for finding in paymath.check_paytable(
                table, wager_cents=bank.wager_cents, reset_cents=bank.reset_cents
            ):
                found.setdefault((finding.code, finding.path), finding)
        raw = tuple(found.values())
    else:
        raw = paymath.check_paytable(table, wager_cents=DEFAULT_WAGER_CENTS)
    return [_said(f) for f in raw]


def paytable_findings(paytable) -> list[PaytableFinding]:
    """The findings of a paytable record (none when the engine refuses to read it: the
    model's validation says why)."""
    table = engine_table(paytable.kind, paytable.preset, paytable.lines)
    if table is None:
        return []
    return findings_for(paytable.kind, table)


# --- the math panel ----------------------------------------------------------------------------


def _pays(value) -> str:
    return "" if value is None else str(value.to_json())


def trips_panel(table: EnginePaytable) -> dict:
    math = paymath.trips_math(table)
    return {
        "kind": "trips",
        "house_edge": percent(math.house_edge),
        "house_edge_negative": math.house_edge < 0,
        "hit_frequency": percent(math.hit_frequency),
        "lines": [
            {
                "category": line.category,
                "name": category_name(line.category),
                "pays": _pays(line.pays),
                "hands": line.hands,
                "probability": percent(line.probability),
                "contribution": percent(line.contribution),
                "wins": line.wins,
            }
            for line in math.lines
            if line.pays is not None
        ],
    }


def progressive_panel(table: EnginePaytable, bank_list=None) -> dict:
    bank_list = banks() if bank_list is None else bank_list
    rows = []
    for bank in bank_list:
        math = paymath.progressive_math(
            table,
            meter_cents=bank.meter_cents,
            reset_cents=bank.reset_cents,
            wager_cents=bank.wager_cents,
        )
        at_reset = math.expected_return_at_reset
        rows.append(
            {
                "bank": str(bank),
                "wager": money(bank.wager_cents),
                "meter": money(bank.meter_cents),
                "reset": money(bank.reset_cents),
                "return_at_meter": percent(math.expected_return),
                "return_at_reset": None if at_reset is None else percent(at_reset),
                "break_even": (
                    None
                    if math.break_even_meter_cents is None
                    else money(math.break_even_meter_cents)
                ),
                "hit_frequency": percent(math.hit_frequency),
            }
        )
    return {"kind": "progressive", "banks": rows}


def envy_panel(table: EnginePaytable, bank_list=None) -> dict:
    bank_list = banks() if bank_list is None else bank_list
    wagers = sorted({b.wager_cents for b in bank_list}) or [DEFAULT_WAGER_CENTS]
    rows = []
    for wager in wagers:
        math = paymath.envy_cost(table, wager_cents=wager)
        rows.append(
            {
                "wager": money(wager),
                "cost_per_wager": percent(math.cost_per_wager),
                # a fraction of a cent per seat: shown for a thousand other seats
                "cost_per_thousand": money(round(math.cost_per_other_seat_cents * 1000)),
            }
        )
    return {"kind": "envy", "wagers": rows}


def math_panel(kind: str, table: EnginePaytable | None, bank_list=None) -> dict | None:
    """The figures shown beside the editor, or None when there is no table to compute."""
    if table is None:
        return None
    if kind == "trips":
        return trips_panel(table)
    if kind == "progressive":
        return progressive_panel(table, bank_list)
    if kind == "envy":
        return envy_panel(table, bank_list)
    return None


def preset_rows(kind: str) -> list[dict]:
    """The presets of a kind of table, with their lines and (Trips) house edge."""
    rows = []
    for name, table in presets_of(kind).items():
        row = {
            "name": name,
            "lines": [
                {"category": c, "name": category_name(c), "pays": _pays(table.get(c))}
                for c in reversed(CATEGORIES)
                if table.get(c) is not None
            ],
            "json": json.dumps(table.to_json()),
        }
        if kind == "trips":
            row["house_edge"] = percent(paymath.trips_math(table).house_edge)
        rows.append(row)
    return rows


def ruleset_panel(ruleset) -> dict | None:
    """The house edges of a rule set version: the base game's published figure (or none),
    its Trips table's exact edge, its progressive's return at each bank taking its wager, its
    Envy's cost per other seat."""
    from tables.rules.ruleset import parse_rules

    try:
        rules = parse_rules(ruleset.engine_rules())
    except (RulesError, ValueError):
        return None
    published = paymath.base_game_edge(rules)
    trips = paymath.trips_math(rules.trips_paytable)
    wager = rules.progressive_wager_cents
    panel: dict = {
        "base_game": None
        if published is None
        else {
            "house_edge": percent(published.house_edge, 3),
            "element_of_risk": None
            if published.element_of_risk is None
            else percent(published.element_of_risk, 3),
            "sources": published.sources,
            "note": published.note,
        },
        "trips_edge": percent(trips.house_edge),
        "trips_hit_frequency": percent(trips.hit_frequency),
        "wager": money(wager),
        "progressive": None,
        "envy": None,
    }
    if ruleset.progressive_paytable_id is not None:
        panel["progressive"] = progressive_panel(
            rules.progressive_paytable, [b for b in banks() if b.wager_cents == wager]
        )["banks"]
    if ruleset.envy_paytable_id is not None:
        envy = paymath.envy_cost(
            rules.envy, wager_cents=wager, min_wager_cents=rules.envy_min_wager_cents
        )
        panel["envy"] = {
            "cost_per_wager": percent(envy.cost_per_wager),
            "cost_per_thousand": money(round(envy.cost_per_other_seat_cents * 1000)),
        }
    return panel
