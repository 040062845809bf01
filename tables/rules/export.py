"""A round of the state machine written as `spec/settle.md` input, so that the `settle` CLI
settles it again, offline and years later, to the same output."""

from __future__ import annotations

from typing import Any

from .cards import format_card
from .machine import RoundState, settlement_input
from .settle import VERSION, Meter


def settlement_input_json(state: RoundState, *, meter: Meter | None = None) -> dict[str, Any]:
    """The settle.md input of a round at showdown (every card in), settled, or void.

    A seat that took no Play is written `"fold": true`: that is how the settlement treats it
    (only a void round can leave a seat undecided, and a void returns every bet anyway)."""
    round_ = settlement_input(state, meter=meter)
    seats = []
    for seat in round_.seats:
        entry: dict[str, Any] = {
            "seat": seat.seat,
            "ante": seat.ante,
            "blind": seat.blind,
            "trips": seat.trips,
            "progressive": seat.progressive,
            "hole": [format_card(c) for c in seat.hole],
        }
        if seat.play is None:
            entry["fold"] = True
        else:
            entry["play"] = {"street": seat.play.street.value, "multiple": seat.play.multiple}
        seats.append(entry)
    result: dict[str, Any] = {
        "version": VERSION,
        "rules": state.rules.to_json(),
        "board": [format_card(c) for c in round_.board],
        "dealer": [format_card(c) for c in round_.dealer],
        "irregularities": [{"kind": i.value} for i in round_.irregularities],
        "seats": seats,
    }
    if round_.progressive is not None:
        result["progressive"] = {
            "meter_cents": round_.progressive.meter_cents,
            "reset_cents": round_.progressive.reset_cents,
        }
    return result
