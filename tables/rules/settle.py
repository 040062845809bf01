"""Settlement of one finished round: every bet of every seat, the progressive meter, voids.

`settle(round_, rules)` works on typed values; `settle_json(obj)` is the public JSON contract of
`spec/settle.md` (the CLI's `settle` command) and parses its input with error paths such as
`seats[2].hole[1]`. Both are pure: the same input always gives the same output.

Decisions where the spec leaves room (also in docs/architecture/decisions.md, "The engine"):

- **Void reason.** When several causes hold, the reason is the first *declared* voiding
  irregularity (in the order declared), else `wrong_card_count`, else `duplicate_card`: what
  the dealer declared is the cause the floor acted on, and a round voided before the flop
  has no cards at all.
- **Which bets round to the payout unit.** Each house-paid bet's winnings (Ante, Blind, Play,
  Trips, a progressive odds tier) are rounded down to `payout_unit_cents`. A percentage tier is
  paid from the meter to the cent, as the spec says, so the meter's ledger stays exact; Envy
  amounts are the approved fixed amounts and are paid as they are.
- **Envy counts** another seat's progressive hand only when that seat placed the progressive
  wager (a seat without it has no progressive hand: its `category` is null).
- **Progressive payment order.** Seats are paid in ascending seat order. A percentage tier below
  100% is paid from the meter as it then stands, which it reduces. The first 100% hand fixes
  the share: the meter as it then stands divided equally between every seat holding a 100%
  hand (rounded down to the cent); the meter is then reset at once to `reset_cents` plus the
  cents left undivided. So a lower percentage tier paid *after* the first 100% seat, whether it
  sits between two sharing seats or after them, is paid from the reset meter.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import Card, format_card, parse_card
from .errors import CardError, InputError
from .evaluator import Category, HandValue, evaluate
from .paytables import Cents, Odds, Percent
from .ruleset import AnteWhenNotQualified, RuleSet, TripsOnFold, parse_rules

VERSION = 1
SEAT_NUMBERS = range(1, 8)
BOARD_CARDS, DEALER_CARDS, HOLE_CARDS = 5, 2, 2


class Street(StrEnum):
    PREFLOP = "preflop"
    FLOP = "flop"
    RIVER = "river"


#: The Play multiples after the flop; pre-flop ones come from the rule set.
FIXED_MULTIPLES: Mapping[Street, int] = {Street.FLOP: 2, Street.RIVER: 1}


class Irregularity(StrEnum):
    PREFLOP_CARD_EXPOSED = "preflop_card_exposed"
    COMMUNITY_CARD_EXPOSED = "community_card_exposed"
    CARD_DRAWN_IN_ERROR_UNEXPOSED = "card_drawn_in_error_unexposed"
    # Also accepted as declarations (the tablet records cards, the dealer sees the felt).
    WRONG_CARD_COUNT = "wrong_card_count"
    DUPLICATE_CARD = "duplicate_card"


class VoidReason(StrEnum):
    WRONG_CARD_COUNT = "wrong_card_count"
    DUPLICATE_CARD = "duplicate_card"
    PREFLOP_CARD_EXPOSED = "preflop_card_exposed"
    COMMUNITY_CARD_EXPOSED = "community_card_exposed"


#: Irregularities that void the round; a card drawn in error unexposed is simply used.
VOIDING: frozenset[Irregularity] = frozenset(
    i for i in Irregularity if i is not Irregularity.CARD_DRAWN_IN_ERROR_UNEXPOSED
)


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    TIE = "tie"
    FOLD = "fold"


# --- input -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    street: Street
    multiple: int


@dataclass(frozen=True, slots=True)
class SeatInput:
    """One seat's wagers, hole cards and decision; `play` None means the seat folded."""

    seat: int
    ante: int
    blind: int
    hole: tuple[Card, ...]
    play: Play | None
    trips: int = 0
    progressive: int = 0

    @property
    def play_stake(self) -> int:
        return 0 if self.play is None else self.play.multiple * self.ante


@dataclass(frozen=True, slots=True)
class Meter:
    meter_cents: int
    reset_cents: int


@dataclass(frozen=True, slots=True)
class RoundInput:
    board: tuple[Card, ...]
    dealer: tuple[Card, ...]
    seats: tuple[SeatInput, ...]
    progressive: Meter | None = None
    irregularities: tuple[Irregularity, ...] = ()


# --- output ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BetResult:
    stake: int
    net: int


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    category: Category | None
    best5: tuple[Card, ...] | None
    outcome: Outcome | None
    ante: BetResult
    blind: BetResult
    play: BetResult
    trips: BetResult
    progressive: BetResult
    progressive_category: Category | None
    envy: int
    net: int
    capped_cents: int

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "category": None if self.category is None else self.category.value,
            "best5": None if self.best5 is None else [format_card(c) for c in self.best5],
            "outcome": None if self.outcome is None else self.outcome.value,
            "bets": {
                "ante": _bet_json(self.ante),
                "blind": _bet_json(self.blind),
                "play": _bet_json(self.play),
                "trips": _bet_json(self.trips),
                "progressive": {
                    "stake": self.progressive.stake,
                    "net": self.progressive.net,
                    "category": None
                    if self.progressive_category is None
                    else self.progressive_category.value,
                },
                "envy": {"net": self.envy},
            },
            "net": self.net,
            "capped_cents": self.capped_cents,
        }


def _bet_json(bet: BetResult) -> dict[str, int]:
    return {"stake": bet.stake, "net": bet.net}


@dataclass(frozen=True, slots=True)
class DealerResult:
    category: Category | None
    best5: tuple[Card, ...] | None
    qualifies: bool | None


@dataclass(frozen=True, slots=True)
class Hit:
    """A percentage-tier progressive payout, paid from the meter."""

    seat: int
    category: Category
    amount_cents: int


@dataclass(frozen=True, slots=True)
class ProgressiveResult:
    meter_before_cents: int | None
    meter_after_cents: int | None
    hits: tuple[Hit, ...]


@dataclass(frozen=True, slots=True)
class Settlement:
    void: VoidReason | None
    dealer: DealerResult
    seats: tuple[SeatResult, ...]  # ascending seat order
    progressive: ProgressiveResult

    def to_json(self) -> dict[str, Any]:
        dealer = self.dealer
        return {
            "version": VERSION,
            "void": None if self.void is None else {"reason": self.void.value},
            "dealer": {
                "category": None if dealer.category is None else dealer.category.value,
                "best5": None if dealer.best5 is None else [format_card(c) for c in dealer.best5],
                "qualifies": dealer.qualifies,
            },
            "seats": [seat.to_json() for seat in self.seats],
            "progressive": {
                "meter_before_cents": self.progressive.meter_before_cents,
                "meter_after_cents": self.progressive.meter_after_cents,
                "hits": [
                    {"seat": h.seat, "category": h.category.value, "amount_cents": h.amount_cents}
                    for h in self.progressive.hits
                ],
            },
        }


# --- checks ------------------------------------------------------------------------------


def check_round(round_: RoundInput, rules: RuleSet) -> None:
    """Refuse a round the rules cannot settle (as opposed to one they make void).

    Errors name the seat by its position in `round_.seats` (`seats[2].blind`), which is the
    position in the JSON input.
    """
    if not round_.seats:
        raise InputError("round.no_seats", code="no_seats", path="seats")
    seen: dict[int, int] = {}
    needs_meter = False
    for i, seat in enumerate(round_.seats):
        where = f"seats[{i}]"
        if seat.seat not in SEAT_NUMBERS:
            raise InputError(
                "round.not_seat", code="bad_seat", path=f"{where}.seat", seat=seat.seat
            )
        if seat.seat in seen:
            raise InputError(
                "round.seat_twice",
                code="duplicate_seat",
                path=f"{where}.seat",
                seat=seat.seat,
                other=f"seats[{seen[seat.seat]}]",
            )
        seen[seat.seat] = i
        for name in ("ante", "blind", "trips", "progressive"):
            amount = getattr(seat, name)
            if amount < 0:
                raise InputError(
                    "round.negative", code="negative_amount", path=f"{where}.{name}", amount=amount
                )
        if seat.ante == 0:
            raise InputError("round.ante_required", code="bad_amount", path=f"{where}.ante")
        if seat.blind != seat.ante:
            raise InputError(
                "round.blind_not_ante",
                code="ante_blind_mismatch",
                path=f"{where}.blind",
                blind=seat.blind,
                ante=seat.ante,
            )
        if seat.progressive and seat.progressive != rules.progressive_wager_cents:
            raise InputError(
                "round.progressive_wager",
                code="bad_progressive_wager",
                path=f"{where}.progressive",
                amount=seat.progressive,
                wager=rules.progressive_wager_cents,
            )
        needs_meter = needs_meter or seat.progressive > 0
        if seat.play is not None:
            _check_play(seat.play, rules, f"{where}.play")
    meter = round_.progressive
    if meter is None:
        if needs_meter:
            raise InputError("round.meter_required", code="missing_meter", path="progressive")
    else:
        for name in ("meter_cents", "reset_cents"):
            if getattr(meter, name) < 0:
                raise InputError(
                    "round.negative_meter",
                    code="negative_amount",
                    path=f"progressive.{name}",
                    amount=getattr(meter, name),
                )


def legal_multiples(street: Street, rules: RuleSet) -> tuple[int, ...]:
    if street is Street.PREFLOP:
        return rules.preflop_multiples
    return (FIXED_MULTIPLES[street],)


def _check_play(play: Play, rules: RuleSet, where: str) -> None:
    allowed = legal_multiples(play.street, rules)
    if play.multiple not in allowed:
        raise InputError(
            "round.illegal_play",
            code="illegal_play",
            path=f"{where}.multiple",
            multiple=play.multiple,
            street=play.street.value,
            multiples=allowed,
        )


def void_reason(round_: RoundInput) -> VoidReason | None:
    """Why the rules void this round, or None (see the module's note on precedence)."""
    for irregularity in round_.irregularities:
        if irregularity in VOIDING:
            return VoidReason(irregularity.value)
    if (
        len(round_.board) != BOARD_CARDS
        or len(round_.dealer) != DEALER_CARDS
        or any(len(seat.hole) != HOLE_CARDS for seat in round_.seats)
    ):
        return VoidReason.WRONG_CARD_COUNT
    dealt = [*round_.board, *round_.dealer]
    for seat in round_.seats:
        dealt.extend(seat.hole)
    if len(set(dealt)) != len(dealt):
        return VoidReason.DUPLICATE_CARD
    return None


# --- settlement --------------------------------------------------------------------------


def settle(round_: RoundInput, rules: RuleSet) -> Settlement:
    """Settle a finished round: checks it (`InputError`), then voids it or pays every bet."""
    check_round(round_, rules)
    seats = sorted(round_.seats, key=lambda s: s.seat)
    reason = void_reason(round_)
    if reason is not None:
        return _void(reason, seats, round_.progressive)

    board = round_.board
    dealer = evaluate(round_.dealer + board)
    qualifies = dealer.category is not Category.HIGH_CARD
    hands = [evaluate(seat.hole + board) for seat in seats]
    flop = board[:3]
    progressive_hands = [
        evaluate(seat.hole + flop).category if seat.progressive else None for seat in seats
    ]
    progressive_nets, meter_after, hits = _progressive(seats, progressive_hands, round_, rules)
    envy = _envy(seats, progressive_hands, rules)

    results = []
    for seat, hand, prog_category, prog_net, envy_net in zip(
        seats, hands, progressive_hands, progressive_nets, envy, strict=True
    ):
        results.append(
            _seat_result(seat, hand, dealer, qualifies, rules, prog_category, prog_net, envy_net)
        )
    meter = round_.progressive
    return Settlement(
        void=None,
        dealer=DealerResult(dealer.category, dealer.best5, qualifies),
        seats=tuple(results),
        progressive=ProgressiveResult(
            None if meter is None else meter.meter_cents, meter_after, tuple(hits)
        ),
    )


def _void(reason: VoidReason, seats: Sequence[SeatInput], meter: Meter | None) -> Settlement:
    results = tuple(
        SeatResult(
            seat=seat.seat,
            category=None,
            best5=None,
            outcome=None,
            ante=BetResult(seat.ante, 0),
            blind=BetResult(seat.blind, 0),
            play=BetResult(seat.play_stake, 0),
            trips=BetResult(seat.trips, 0),
            progressive=BetResult(seat.progressive, 0),
            progressive_category=None,
            envy=0,
            net=0,
            capped_cents=0,
        )
        for seat in seats
    )
    cents = None if meter is None else meter.meter_cents
    return Settlement(
        void=reason,
        dealer=DealerResult(None, None, None),
        seats=results,
        progressive=ProgressiveResult(cents, cents, ()),
    )


def _seat_result(
    seat: SeatInput,
    hand: HandValue,
    dealer: HandValue,
    qualifies: bool,
    rules: RuleSet,
    progressive_category: Category | None,
    progressive_net: int,
    envy: int,
) -> SeatResult:
    ante, blind, play = seat.ante, seat.blind, seat.play_stake
    if seat.play is None:
        outcome = Outcome.FOLD
    elif hand > dealer:
        outcome = Outcome.WIN
    elif hand == dealer:
        outcome = Outcome.TIE
    else:
        outcome = Outcome.LOSE
    nets = seat_nets(
        rules,
        outcome=outcome,
        qualifies=qualifies,
        category=hand.category,
        ante=ante,
        blind=blind,
        play=play,
        trips=seat.trips,
    )
    net = nets.net + progressive_net + envy
    return SeatResult(
        seat=seat.seat,
        category=hand.category,
        best5=hand.best5,
        outcome=outcome,
        ante=BetResult(ante, nets.ante),
        blind=BetResult(blind, nets.blind),
        play=BetResult(play, nets.play),
        trips=BetResult(seat.trips, nets.trips),
        progressive=BetResult(seat.progressive, progressive_net),
        progressive_category=progressive_category,
        envy=envy,
        net=net,
        capped_cents=nets.capped,
    )


@dataclass(frozen=True, slots=True)
class SeatNets:
    """A seat's nets on the house-paid bets (Ante, Blind, Play, Trips), each win rounded down
    to the payout unit, and what the maximum payout withholds from their sum (`capped`)."""

    ante: int
    blind: int
    play: int
    trips: int
    capped: int

    @property
    def net(self) -> int:
        return self.ante + self.blind + self.play + self.trips - self.capped


def seat_nets(
    rules: RuleSet,
    *,
    outcome: Outcome,
    qualifies: bool,
    category: str,
    ante: int,
    blind: int,
    play: int,
    trips: int,
) -> SeatNets:
    """The house-paid bets' nets of one seat whose base game ends in `outcome` (`play`: the
    Play staked, 0 on a fold) against a dealer who `qualifies` or not, its final hand of
    `category` (what the Blind and Trips pay on). `settle` pays every seat with it; the
    accounting's theoretical asks it what each final outcome pays a given wager."""
    win = rules.round_down
    if outcome is Outcome.FOLD:
        ante_net, blind_net, play_net = -ante, -blind, 0
    elif outcome is Outcome.WIN:
        ante_net = win(ante) if qualifies else 0
        blind_pay = rules.blind_paytable.get(category)
        blind_net = win(blind_pay.winnings(blind)) if isinstance(blind_pay, Odds) else 0
        play_net = win(play)
    elif outcome is Outcome.TIE:
        ante_net = blind_net = play_net = 0
    else:
        ante_returned = (
            not qualifies and rules.ante_when_dealer_not_qualified is AnteWhenNotQualified.PUSH
        )
        ante_net = 0 if ante_returned else -ante
        blind_net, play_net = -blind, -play

    trips_net = 0
    if trips:
        trips_pay = rules.trips_paytable.get(category)
        if outcome is Outcome.FOLD and rules.trips_on_fold is TripsOnFold.LOST:
            trips_net = -trips
        elif isinstance(trips_pay, Odds):
            trips_net = win(trips_pay.winnings(trips))
        else:
            trips_net = -trips

    winnings = max(ante_net, 0) + max(blind_net, 0) + max(play_net, 0) + max(trips_net, 0)
    cap = rules.max_payout_cents
    capped = winnings - cap if cap is not None and winnings > cap else 0
    return SeatNets(ante_net, blind_net, play_net, trips_net, capped)


def _progressive(
    seats: Sequence[SeatInput],
    categories: Sequence[Category | None],
    round_: RoundInput,
    rules: RuleSet,
) -> tuple[list[int], int | None, list[Hit]]:
    """Nets of the progressive wagers in seat order, the meter after, the percentage hits."""
    meter = round_.progressive
    nets = [0] * len(seats)
    hits: list[Hit] = []
    if meter is None:
        return nets, None, hits
    table = rules.progressive_paytable
    cents = meter.meter_cents
    sharers = sum(
        1
        for c in categories
        if c is not None and isinstance(tier := table.get(c), Percent) and tier.is_whole_meter
    )
    share: int | None = None
    for i, (seat, category) in enumerate(zip(seats, categories, strict=True)):
        if category is None:
            continue
        tier = table.get(category)
        if isinstance(tier, Odds):
            nets[i] = rules.round_down(tier.winnings(seat.progressive))
        elif isinstance(tier, Percent):
            if tier.is_whole_meter:
                if share is None:
                    share = cents // sharers
                    # The sharers took the whole meter; it restarts from the reset amount plus
                    # the cents the equal share could not divide.
                    cents = meter.reset_cents + (cents - share * sharers)
                amount = share
            else:
                amount = tier.of(cents)
                cents -= amount
            nets[i] = amount
            hits.append(Hit(seat.seat, category, amount))
        else:  # not in the table (a Cents value cannot be here: parse_rules refuses it)
            nets[i] = -seat.progressive
    return nets, cents, hits


def _envy(
    seats: Sequence[SeatInput], categories: Sequence[Category | None], rules: RuleSet
) -> list[int]:
    amounts = []
    for category in categories:
        pay = None if category is None else rules.envy.get(category)
        amounts.append(pay.amount if isinstance(pay, Cents) else 0)
    total = sum(amounts)
    if total == 0:
        return [0] * len(seats)
    minimum = max(rules.envy_min_wager_cents, 1)
    # Each seat collects the Envy of every qualifying hand but its own.
    return [
        total - own if seat.progressive >= minimum else 0
        for seat, own in zip(seats, amounts, strict=True)
    ]


# --- the JSON contract ---------------------------------------------------------------------


def settle_json(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The `settle` command of `spec/settle.md`: a parsed JSON object in, the output object out.

    Raises `InputError` (with `.code` and `.message`) when the input itself is wrong.
    """
    rules, round_ = parse_round(obj)
    return settle(round_, rules).to_json()


_TOP_KEYS = frozenset(
    {"version", "rules", "board", "dealer", "progressive", "irregularities", "seats"}
)
_IRREGULARITY_KEYS = frozenset({"kind"})
_SEAT_KEYS = frozenset({"seat", "ante", "blind", "trips", "progressive", "hole", "play", "fold"})


def _shown(value: object) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _object(value: object, path: str, keys: frozenset[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(
            "input.not_object", code="wrong_type", path=path or "input", value=_shown(value)
        )
    for key in value:
        if key not in keys:
            raise InputError(
                "input.unknown_field",
                code="unknown_field",
                path=_join(path, key),
                fields=tuple(sorted(keys)),
            )
    return value


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _required(obj: Mapping[str, Any], key: str, path: str) -> Any:
    if key not in obj:
        raise InputError("input.missing", code="missing_field", path=_join(path, key))
    return obj[key]


def _cents(value: object, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError("input.not_cents", code="wrong_type", path=path, value=_shown(value))
    return value


def _cards(value: object, path: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise InputError("input.not_cards", code="wrong_type", path=path, value=_shown(value))
    cards = []
    for i, text in enumerate(value):
        try:
            cards.append(parse_card(text))
        except CardError as error:
            raise InputError(
                error.key, code="bad_card", path=f"{path}[{i}]", **error.params
            ) from None
    return tuple(cards)


def _seat(value: object, path: str) -> SeatInput:
    obj = _object(value, path, _SEAT_KEYS)
    number = _required(obj, "seat", path)
    if isinstance(number, bool) or not isinstance(number, int):
        raise InputError(
            "input.not_seat_number", code="wrong_type", path=f"{path}.seat", value=_shown(number)
        )
    fold = obj.get("fold", False)
    if not isinstance(fold, bool):
        raise InputError(
            "input.not_bool", code="wrong_type", path=f"{path}.fold", value=_shown(fold)
        )
    play_obj = obj.get("play")
    if fold and play_obj is not None:
        raise InputError("input.play_and_fold", code="play_or_fold", path=path)
    if not fold and play_obj is None:
        raise InputError("input.neither_play_nor_fold", code="play_or_fold", path=path)
    play = None
    if play_obj is not None:
        where = f"{path}.play"
        play_map = _object(play_obj, where, frozenset({"street", "multiple"}))
        street_text = _required(play_map, "street", where)
        try:
            street = Street(street_text if isinstance(street_text, str) else "")
        except ValueError:
            raise InputError(
                "input.not_street",
                code="illegal_play",
                path=f"{where}.street",
                value=_shown(street_text),
            ) from None
        multiple = _required(play_map, "multiple", where)
        if isinstance(multiple, bool) or not isinstance(multiple, int):
            raise InputError(
                "input.not_multiple",
                code="wrong_type",
                path=f"{where}.multiple",
                value=_shown(multiple),
            )
        play = Play(street, multiple)
    return SeatInput(
        seat=number,
        ante=_cents(_required(obj, "ante", path), f"{path}.ante"),
        blind=_cents(_required(obj, "blind", path), f"{path}.blind"),
        trips=_cents(obj.get("trips", 0), f"{path}.trips"),
        progressive=_cents(obj.get("progressive", 0), f"{path}.progressive"),
        hole=_cards(_required(obj, "hole", path), f"{path}.hole"),
        play=play,
    )


def _irregularities(value: object) -> tuple[Irregularity, ...]:
    if not isinstance(value, list):
        raise InputError(
            "input.not_list", code="wrong_type", path="irregularities", value=_shown(value)
        )
    found = []
    for i, item in enumerate(value):
        path = f"irregularities[{i}]"
        if not isinstance(item, Mapping):
            raise InputError(
                "input.not_irregularity_object", code="wrong_type", path=path, value=_shown(item)
            )
        # Like every other object of the input: a misspelt key must not pass for a note.
        kind = _required(_object(item, path, _IRREGULARITY_KEYS), "kind", path)
        try:
            found.append(Irregularity(kind if isinstance(kind, str) else ""))
        except ValueError:
            raise InputError(
                "input.not_irregularity",
                code="bad_irregularity",
                path=f"{path}.kind",
                value=_shown(kind),
                irregularities=tuple(i.value for i in Irregularity),
            ) from None
    return tuple(found)


def parse_round(obj: object) -> tuple[RuleSet, RoundInput]:
    """The rule set and the round of a settlement input, checked for shape (not yet for rules)."""
    top = _object(obj, "", _TOP_KEYS)
    if "version" in top and not (type(top["version"]) is int and top["version"] == VERSION):
        raise InputError(
            "input.version",
            code="unsupported_version",
            path="version",
            value=_shown(top["version"]),
            version=VERSION,
        )
    rules_obj = top.get("rules")
    rules = parse_rules(rules_obj)
    seats_value = _required(top, "seats", "")
    if not isinstance(seats_value, list):
        raise InputError(
            "input.not_list", code="wrong_type", path="seats", value=_shown(seats_value)
        )
    meter = None
    if top.get("progressive") is not None:
        meter_obj = _object(
            top["progressive"], "progressive", frozenset({"meter_cents", "reset_cents"})
        )
        meter = Meter(
            _cents(_required(meter_obj, "meter_cents", "progressive"), "progressive.meter_cents"),
            _cents(_required(meter_obj, "reset_cents", "progressive"), "progressive.reset_cents"),
        )
    round_ = RoundInput(
        board=_cards(_required(top, "board", ""), "board"),
        dealer=_cards(_required(top, "dealer", ""), "dealer"),
        seats=tuple(_seat(seat, f"seats[{i}]") for i, seat in enumerate(seats_value)),
        progressive=meter,
        irregularities=_irregularities(top.get("irregularities", [])),
    )
    return rules, round_
