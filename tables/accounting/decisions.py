"""The cost of each decision played: every seat of a settled round priced against optimal
play from its rule set's computed par sheet (`tables.parsheet.decisions`), stored as a
SeatDecisionCost per seat.

`decisions_price` runs in a worker after the round settles (`tables.accounting.receivers`),
again after a correction (the corrected facts: other cards, another Play), and removes the
round's costs once it is voided. A round whose par sheet is not computed yet (or was computed
before the flop values were kept) gets none: `seat_decision_cost` then says None.

A worker keeps the last sheets' values in memory (about 40 MB each for the 52 cards, loaded
once, a second or two): a round is then priced in about a millisecond
(`manage.py decision_cost_bench`).
"""

from __future__ import annotations

from django.db import transaction

from tables.accounting.models import SeatDecisionCost
from tables.models import BaseGameSheet, BaseGameValues, Correction, Round
from tables.parsheet import base_game_key
from tables.parsheet.decisions import StoredValues, round_costs
from tables.rules.ruleset import parse_rules

#: The sheets' values a process keeps (most recent last): a floor plays a few base games.
_KEPT = 4
_loaded: dict[int, StoredValues] = {}


def sheet_values(rules_json: dict) -> StoredValues | None:
    """The stored values of the computed par sheet of these rules' base game, or None."""
    key = base_game_key(parse_rules(rules_json))
    sheet_id = (
        BaseGameSheet.objects.filter(rules_key=key, status=BaseGameSheet.Status.DONE)
        .values_list("pk", flat=True)
        .first()
    )
    if sheet_id is None:
        return None
    if sheet_id in _loaded:
        return _loaded[sheet_id]
    flop = BaseGameValues.objects.filter(sheet_id=sheet_id).values_list("flop", flat=True).first()
    if flop is None:
        return None
    sheet_json = BaseGameSheet.objects.values_list("sheet", flat=True).get(pk=sheet_id)
    values = StoredValues.load(sheet_json, bytes(flop))
    while len(_loaded) >= _KEPT:
        _loaded.pop(next(iter(_loaded)))
    _loaded[sheet_id] = values
    return values


def decisions_price(round_id: int) -> list[SeatDecisionCost] | None:
    """Price (or price again) every seat of a settled round; a void round's costs removed.
    None when nothing can be priced (not settled, no computed par sheet)."""
    round_ = Round.objects.only("pk", "stage", "rules").get(pk=round_id)
    # Loaded before the lock: the first load in a process takes a second or two.
    values = sheet_values(round_.rules) if round_.stage == Round.Stage.SETTLED else None
    with transaction.atomic():
        # The round's row serialises the pricings of one round (a settlement's and a
        # correction's may run at once in two workers): the last one reads the last facts.
        round_ = (
            Round.objects.select_for_update()
            .only("pk", "stage", "rules", "settlement_input")
            .get(pk=round_id)
        )
        if round_.stage == Round.Stage.VOID:
            SeatDecisionCost.objects.filter(round_id=round_id).delete()
            return []
        if round_.stage != Round.Stage.SETTLED or not round_.settlement_input or values is None:
            return None
        correction = (
            Correction.objects.filter(round_id=round_id)
            .order_by("-number")
            .only("number", "input")
            .first()
        )
        facts = correction.input if correction else round_.settlement_input
        rows = [
            SeatDecisionCost(
                round_id=round_id,
                seat=seat,
                ante_cents=ante,
                cost_cents=cost,
                decisions=decisions,
                correction=correction.number if correction else 0,
            )
            for seat, (ante, cost, decisions) in sorted(round_costs(values, facts).items())
        ]
        # A correction may change who sat: the round's costs are replaced whole.
        SeatDecisionCost.objects.filter(round_id=round_id).delete()
        SeatDecisionCost.objects.bulk_create(rows)
    return rows


def seat_decision_cost(round_id: int, seat: int) -> int | None:
    """What the seat's decisions in that round cost it in expectation, in cents (0: optimal
    play); None when not priced (yet): the round not settled or voided, or its par sheet not
    computed."""
    return (
        SeatDecisionCost.objects.filter(round_id=round_id, seat=seat)
        .values_list("cost_cents", flat=True)
        .first()
    )
