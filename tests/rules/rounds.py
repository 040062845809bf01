"""Builders for settlement inputs, so each test states only the cards and bets it is about."""

from __future__ import annotations

import copy
from typing import Any

from tables.rules.settle import settle_json

#: The spec's example input (spec/settle.md), with one correction: the spec gives seat 2 the
#: hole card "2d", which the dealer also holds, so taken literally the round is void
#: (duplicate_card). "2h" changes nothing else: seat 2 still has Q-J-T-7-4 high.
SPEC_INPUT: dict[str, Any] = {
    "rules": {},
    "board": ["Qs", "Js", "Ts", "3h", "4h"],
    "dealer": ["2c", "2d"],
    "progressive": {"meter_cents": 2500000, "reset_cents": 1000000},
    "irregularities": [],
    "seats": [
        {
            "seat": 1,
            "ante": 1000,
            "blind": 1000,
            "trips": 500,
            "progressive": 100,
            "hole": ["As", "Ks"],
            "play": {"street": "preflop", "multiple": 4},
        },
        {"seat": 2, "ante": 500, "blind": 500, "hole": ["7c", "2h"], "fold": True},
    ],
}

#: The spec's example output, verbatim.
SPEC_OUTPUT: dict[str, Any] = {
    "version": 1,
    "void": None,
    "dealer": {"category": "pair", "best5": ["2c", "2d", "Qs", "Js", "Ts"], "qualifies": True},
    "seats": [
        {
            "seat": 1,
            "category": "royal_flush",
            "best5": ["As", "Ks", "Qs", "Js", "Ts"],
            "outcome": "win",
            "bets": {
                "ante": {"stake": 1000, "net": 1000},
                "blind": {"stake": 1000, "net": 500000},
                "play": {"stake": 4000, "net": 4000},
                "trips": {"stake": 500, "net": 25000},
                "progressive": {"stake": 100, "net": 2500000, "category": "royal_flush"},
                "envy": {"net": 0},
            },
            "net": 3030000,
            "capped_cents": 0,
        },
        {
            "seat": 2,
            "category": "high_card",
            "best5": ["Qs", "Js", "Ts", "7c", "4h"],
            "outcome": "fold",
            "bets": {
                "ante": {"stake": 500, "net": -500},
                "blind": {"stake": 500, "net": -500},
                "play": {"stake": 0, "net": 0},
                "trips": {"stake": 0, "net": 0},
                "progressive": {"stake": 0, "net": 0, "category": None},
                "envy": {"net": 0},
            },
            "net": -1000,
            "capped_cents": 0,
        },
    ],
    "progressive": {
        "meter_before_cents": 2500000,
        "meter_after_cents": 1000000,
        "hits": [{"seat": 1, "category": "royal_flush", "amount_cents": 2500000}],
    },
}


def spec_input() -> dict[str, Any]:
    return copy.deepcopy(SPEC_INPUT)


def seat(
    number: int,
    hole: str,
    *,
    ante: int = 1000,
    play: tuple[str, int] | None = ("preflop", 4),
    trips: int = 0,
    progressive: int = 0,
) -> dict[str, Any]:
    """A seat that plays `play` (street, multiple), or folds when `play` is None."""
    data: dict[str, Any] = {"seat": number, "ante": ante, "blind": ante, "hole": hole.split()}
    if trips:
        data["trips"] = trips
    if progressive:
        data["progressive"] = progressive
    if play is None:
        data["fold"] = True
    else:
        data["play"] = {"street": play[0], "multiple": play[1]}
    return data


def round_input(
    board: str,
    dealer: str,
    *seats: dict[str, Any],
    rules: dict[str, Any] | None = None,
    meter: tuple[int, int] | None = None,
    irregularities: tuple[str, ...] = (),
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "board": board.split(),
        "dealer": dealer.split(),
        "seats": list(seats),
    }
    if rules is not None:
        data["rules"] = rules
    if meter is not None:
        data["progressive"] = {"meter_cents": meter[0], "reset_cents": meter[1]}
    if irregularities:
        data["irregularities"] = [{"kind": kind} for kind in irregularities]
    return data


def settled(*args: Any, **kwargs: Any) -> dict[str, Any]:
    return settle_json(round_input(*args, **kwargs))


def only_seat(result: dict[str, Any]) -> dict[str, Any]:
    (found,) = result["seats"]
    return found


def nets(result_seat: dict[str, Any]) -> dict[str, int]:
    """The net of each bet of a seat, by name."""
    return {name: bet["net"] for name, bet in result_seat["bets"].items()}
