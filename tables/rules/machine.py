"""The round as a state machine: which event is legal at which stage, for which seat.

A round is an append-only list of events; its state is `replay(rules, events)`. `apply(state,
event)` is pure: it returns a new `RoundState` or raises `IllegalAction` (with a stable `code`
and a message a dealer can act on), so the database layer can store an event only once the
engine accepts it, and rebuild the state after a crash by replaying what was committed.

Stages: betting -> preflop -> flop -> river -> showdown -> settled, or -> void from any stage
once a supervisor approves a voiding irregularity.

- **betting**: `wagers_placed` (again to change them), `wagers_withdrawn`, then `bets_locked`.
- **preflop**: each seat `check`s or `bet`s one of `rules.preflop_multiples`; once every seat
  has decided, the dealer enters the flop on the `board` (3 cards) and the stage is **flop**.
- **flop**: `check` or `bet` 2x for seats that have not bet; then turn and river (2 cards).
- **river**: `bet` 1x or `fold` for seats that have not bet; once no seat has to act the
  stage is **showdown** (directly so when every seat bet earlier).
- **showdown**: the dealer's 2 cards and each seat's 2 hole cards, in any order (the hole cards
  of a folded seat too: Trips and the progressive are still judged on them); then
  `settlement_confirmed` -> **settled**.

Card entry refuses what cannot be on the felt: an unknown card, a card already entered
(naming it and where it is), more cards than a place receives at this stage. What the dealer
sees on the felt is declared with `irregularity_declared`: `preflop_card_exposed` (pre-flop),
`community_card_exposed` (pre-flop or flop), `wrong_card_count` and `duplicate_card` (from the
deal on) stop the round until a supervisor sends `void_approved` (stage **void**, every bet
returned) or `void_refused`; `card_drawn_in_error_unexposed` is recorded and has no effect
(the card is used). `card_removed` undoes a card entry while no decision was taken on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import MISSING, dataclass, fields, replace
from enum import StrEnum
from typing import Any, ClassVar, TypeAlias

from .cards import Card, format_card, parse_card
from .errors import CardError, IllegalAction
from .messages import Param
from .ruleset import RuleSet
from .settle import (
    FIXED_MULTIPLES,
    SEAT_NUMBERS,
    VOIDING,
    Irregularity,
    Meter,
    Play,
    RoundInput,
    SeatInput,
    Street,
    VoidReason,
)


class Stage(StrEnum):
    BETTING = "betting"
    PREFLOP = "preflop"
    FLOP = "flop"
    RIVER = "river"
    SHOWDOWN = "showdown"
    SETTLED = "settled"
    VOID = "void"


DECISION_STAGES = (Stage.PREFLOP, Stage.FLOP, Stage.RIVER)
_STREET = {Stage.PREFLOP: Street.PREFLOP, Stage.FLOP: Street.FLOP, Stage.RIVER: Street.RIVER}
#: How many board cards are on the felt once each dealing step is complete.
BOARD_AFTER = {Stage.PREFLOP: 3, Stage.FLOP: 5}
_HOLE, _DEALER = 2, 2

#: Where each irregularity may be declared.
DECLARABLE: Mapping[Irregularity, frozenset[Stage]] = {
    Irregularity.PREFLOP_CARD_EXPOSED: frozenset({Stage.PREFLOP}),
    Irregularity.COMMUNITY_CARD_EXPOSED: frozenset({Stage.PREFLOP, Stage.FLOP}),
    Irregularity.WRONG_CARD_COUNT: frozenset(
        {Stage.PREFLOP, Stage.FLOP, Stage.RIVER, Stage.SHOWDOWN}
    ),
    Irregularity.DUPLICATE_CARD: frozenset(
        {Stage.PREFLOP, Stage.FLOP, Stage.RIVER, Stage.SHOWDOWN}
    ),
    Irregularity.CARD_DRAWN_IN_ERROR_UNEXPOSED: frozenset(
        {Stage.PREFLOP, Stage.FLOP, Stage.RIVER, Stage.SHOWDOWN}
    ),
}


class Action(StrEnum):
    CHECK = "check"
    BET = "bet"
    FOLD = "fold"


# --- events ------------------------------------------------------------------------------

Place: TypeAlias = str | int  # "board", "dealer" or a seat number


@dataclass(frozen=True, slots=True)
class WagersPlaced:
    kind: ClassVar[str] = "wagers_placed"
    seat: int
    ante: int
    blind: int
    trips: int = 0
    progressive: int = 0


@dataclass(frozen=True, slots=True)
class WagersWithdrawn:
    kind: ClassVar[str] = "wagers_withdrawn"
    seat: int


@dataclass(frozen=True, slots=True)
class BetsLocked:
    kind: ClassVar[str] = "bets_locked"


@dataclass(frozen=True, slots=True)
class Decision:
    """`check`, `bet` (with `multiple`; after the flop it may be omitted) or `fold`."""

    kind: ClassVar[str] = "decision"
    seat: int
    action: str
    multiple: int | None = None


@dataclass(frozen=True, slots=True)
class CardsEntered:
    kind: ClassVar[str] = "cards_entered"
    place: Place
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardRemoved:
    kind: ClassVar[str] = "card_removed"
    place: Place
    card: str


@dataclass(frozen=True, slots=True)
class IrregularityDeclared:
    kind: ClassVar[str] = "irregularity_declared"
    irregularity: str


@dataclass(frozen=True, slots=True)
class VoidApproved:
    kind: ClassVar[str] = "void_approved"


@dataclass(frozen=True, slots=True)
class VoidRefused:
    kind: ClassVar[str] = "void_refused"


@dataclass(frozen=True, slots=True)
class SettlementConfirmed:
    kind: ClassVar[str] = "settlement_confirmed"


Event: TypeAlias = (
    WagersPlaced
    | WagersWithdrawn
    | BetsLocked
    | Decision
    | CardsEntered
    | CardRemoved
    | IrregularityDeclared
    | VoidApproved
    | VoidRefused
    | SettlementConfirmed
)
EVENT_TYPES: Mapping[str, type[Any]] = {
    cls.kind: cls
    for cls in (
        WagersPlaced,
        WagersWithdrawn,
        BetsLocked,
        Decision,
        CardsEntered,
        CardRemoved,
        IrregularityDeclared,
        VoidApproved,
        VoidRefused,
        SettlementConfirmed,
    )
}


def event_to_json(event: Event) -> dict[str, Any]:
    """`{"kind": ..., field: value...}`, the form the database layer stores."""
    data: dict[str, Any] = {"kind": event.kind}
    for name in event.__slots__:
        value = getattr(event, name)
        data[name] = list(value) if isinstance(value, tuple) else value
    return data


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_FIELD_TYPES: Mapping[str, Any] = {
    "seat": _int,
    "ante": _int,
    "blind": _int,
    "trips": _int,
    "progressive": _int,
    "action": lambda v: isinstance(v, str),
    "multiple": lambda v: v is None or _int(v),
    "place": lambda v: isinstance(v, str) or _int(v),
    "cards": lambda v: isinstance(v, list | tuple) and all(isinstance(c, str) for c in v),
    "card": lambda v: isinstance(v, str),
    "irregularity": lambda v: isinstance(v, str),
}


def event_from_json(obj: Mapping[str, Any]) -> Event:
    """The event a `{"kind": ...}` dict describes; refuses unknown kinds and fields."""
    kind = obj.get("kind")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise IllegalAction(
            "event.unknown",
            code="bad_event",
            path="kind",
            value=repr(kind),
            kinds=tuple(EVENT_TYPES),
        )
    given = {k: v for k, v in obj.items() if k != "kind"}
    unknown = sorted(set(given) - set(cls.__slots__))
    if unknown:
        raise IllegalAction(
            "event.unknown_fields",
            code="bad_event",
            path=unknown[0],
            event=cls.kind,
            fields=tuple(unknown),
        )
    for name, value in given.items():
        if not _FIELD_TYPES[name](value):
            raise IllegalAction(
                "event.wrong_type",
                code="bad_event",
                path=name,
                event=cls.kind,
                field=name,
                value=repr(value),
            )
    missing = tuple(
        f.name
        for f in fields(cls)
        if f.name not in given and f.default is MISSING and f.default_factory is MISSING
    )
    if missing:
        raise IllegalAction(
            "event.missing_fields",
            code="bad_event",
            path=missing[0],
            event=cls.kind,
            fields=missing,
        )
    if "cards" in given:
        given["cards"] = tuple(given["cards"])
    event: Event = cls(**given)
    return event


# --- state -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatState:
    seat: int
    ante: int
    blind: int
    trips: int = 0
    progressive: int = 0
    play: Play | None = None
    folded: bool = False
    acted_at: Stage | None = None  # the last stage at which this seat took a decision
    hole: tuple[Card, ...] = ()

    def must_act(self, stage: Stage) -> bool:
        return (
            stage in DECISION_STAGES
            and self.play is None
            and not self.folded
            and self.acted_at is not stage
        )


@dataclass(frozen=True, slots=True)
class RoundState:
    rules: RuleSet
    stage: Stage = Stage.BETTING
    open_seats: frozenset[int] = frozenset(SEAT_NUMBERS)
    seats: tuple[SeatState, ...] = ()  # ascending seat order
    board: tuple[Card, ...] = ()
    dealer: tuple[Card, ...] = ()
    declared: tuple[Irregularity, ...] = ()  # every declaration, for the record
    pending_void: VoidReason | None = None
    void_reason: VoidReason | None = None

    def seat(self, number: int) -> SeatState | None:
        for seat in self.seats:
            if seat.seat == number:
                return seat
        return None

    def to_act(self) -> tuple[int, ...]:
        """The seats that must still decide at this stage."""
        return tuple(s.seat for s in self.seats if s.must_act(self.stage))

    def to_json(self) -> dict[str, Any]:
        """A snapshot for the tablet and the round row's cache (the events stay the truth)."""
        return {
            "stage": self.stage.value,
            "seats": [
                {
                    "seat": s.seat,
                    "ante": s.ante,
                    "blind": s.blind,
                    "trips": s.trips,
                    "progressive": s.progressive,
                    "play": None
                    if s.play is None
                    else {"street": s.play.street.value, "multiple": s.play.multiple},
                    "fold": s.folded,
                    "hole": [format_card(c) for c in s.hole],
                    "to_act": s.must_act(self.stage),
                    "actions": legal_actions(self, s.seat),
                }
                for s in self.seats
            ],
            "board": [format_card(c) for c in self.board],
            "dealer": [format_card(c) for c in self.dealer],
            "cards_expected": {str(k): v for k, v in cards_expected(self).items()},
            "irregularities": [i.value for i in self.declared],
            "pending_void": None if self.pending_void is None else self.pending_void.value,
            "void": None if self.void_reason is None else {"reason": self.void_reason.value},
        }


def new_round(rules: RuleSet, *, seats: Iterable[int] = SEAT_NUMBERS) -> RoundState:
    """A round in the betting stage; `seats` are the seat numbers open at this table."""
    open_seats = frozenset(seats)
    bad = sorted(s for s in open_seats if s not in SEAT_NUMBERS)
    if bad:
        raise IllegalAction("machine.no_such_seat", code="bad_seat", path="seats", seat=bad[0])
    return RoundState(rules=rules, open_seats=open_seats)


def replay(
    rules: RuleSet,
    events: Iterable[Event | Mapping[str, Any]],
    *,
    seats: Iterable[int] = SEAT_NUMBERS,
) -> RoundState:
    """The state after a list of events, from a new round."""
    state = new_round(rules, seats=seats)
    for event in events:
        state = apply(state, event)
    return state


# --- what is legal now ---------------------------------------------------------------------


def legal_actions(state: RoundState, seat: int) -> list[str]:
    """The decisions a seat may take now, as `check`, `fold`, `bet:4`..."""
    found = state.seat(seat)
    if found is None or state.pending_void is not None or not found.must_act(state.stage):
        return []
    if len(state.board) != _board_before(state.stage):
        return []  # cards of the next street are being entered
    if state.stage is Stage.PREFLOP:
        return ["check", *(f"bet:{m}" for m in state.rules.preflop_multiples)]
    if state.stage is Stage.FLOP:
        return ["check", f"bet:{FIXED_MULTIPLES[Street.FLOP]}"]
    return [f"bet:{FIXED_MULTIPLES[Street.RIVER]}", "fold"]


def cards_expected(state: RoundState) -> dict[Place, int]:
    """How many more cards each place receives at this stage (empty while seats must act)."""
    if state.pending_void is not None:
        return {}
    if state.stage in BOARD_AFTER and not state.to_act():
        return {"board": BOARD_AFTER[state.stage] - len(state.board)}
    if state.stage is Stage.SHOWDOWN:
        expected: dict[Place, int] = {}
        if len(state.dealer) < _DEALER:
            expected["dealer"] = _DEALER - len(state.dealer)
        for seat in state.seats:
            if len(seat.hole) < _HOLE:
                expected[seat.seat] = _HOLE - len(seat.hole)
        return expected
    return {}


def _board_before(stage: Stage) -> int:
    return {Stage.PREFLOP: 0, Stage.FLOP: 3, Stage.RIVER: 5}.get(stage, 0)


# --- apply -------------------------------------------------------------------------------


def apply(state: RoundState, event: Event | Mapping[str, Any]) -> RoundState:
    """The state after one event, or `IllegalAction` saying why the event is refused."""
    if isinstance(event, Mapping):
        event = event_from_json(event)
    if state.stage in (Stage.SETTLED, Stage.VOID):
        raise IllegalAction("machine.round_closed", code="round_closed", stage=state.stage.value)
    if isinstance(event, VoidApproved | VoidRefused):
        return _void_decision(state, approved=isinstance(event, VoidApproved))
    if state.pending_void is not None:
        raise IllegalAction(
            "machine.void_pending", code="void_pending", reason=state.pending_void.value
        )
    if isinstance(event, WagersPlaced):
        return _wagers_placed(state, event)
    if isinstance(event, WagersWithdrawn):
        return _wagers_withdrawn(state, event)
    if isinstance(event, BetsLocked):
        return _bets_locked(state)
    if isinstance(event, Decision):
        return _decision(state, event)
    if isinstance(event, CardsEntered):
        return _cards_entered(state, event)
    if isinstance(event, CardRemoved):
        return _card_removed(state, event)
    if isinstance(event, IrregularityDeclared):
        return _irregularity(state, event)
    if isinstance(event, SettlementConfirmed):
        return _settlement_confirmed(state)
    raise IllegalAction(  # pragma: no cover
        "event.unknown", code="bad_event", value=repr(event), kinds=tuple(EVENT_TYPES)
    )


def _require_stage(state: RoundState, *stages: Stage, step: str) -> None:
    """Refuse `step` (a code of `messages.TERMS`) outside `stages`."""
    if state.stage not in stages:
        raise IllegalAction(
            "machine.wrong_stage",
            code="wrong_stage",
            step=step,
            stage=state.stage.value,
            stages=tuple(s.value for s in stages),
        )


def _is_cents(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _wagers_placed(state: RoundState, event: WagersPlaced) -> RoundState:
    _require_stage(state, Stage.BETTING, step="place_wagers")
    if event.seat not in state.open_seats:
        raise IllegalAction("machine.seat_not_open", code="bad_seat", path="seat", seat=event.seat)
    for name in ("ante", "blind", "trips", "progressive"):
        value = getattr(event, name)
        if not _is_cents(value) or value < 0:
            raise IllegalAction(
                "machine.negative", code="negative_amount", path=name, seat=event.seat, bet=name
            )
    if event.ante == 0:
        raise IllegalAction(
            "machine.ante_required", code="bad_amount", path="ante", seat=event.seat
        )
    if event.blind != event.ante:
        raise IllegalAction(
            "machine.blind_not_ante",
            code="ante_blind_mismatch",
            path="blind",
            seat=event.seat,
            blind=event.blind,
            ante=event.ante,
        )
    wager = state.rules.progressive_wager_cents
    if event.progressive not in (0, wager):
        raise IllegalAction(
            "machine.progressive_wager",
            code="bad_progressive_wager",
            path="progressive",
            seat=event.seat,
            wager=wager,
            amount=event.progressive,
        )
    placed = SeatState(event.seat, event.ante, event.blind, event.trips, event.progressive)
    others = tuple(s for s in state.seats if s.seat != event.seat)
    return replace(state, seats=tuple(sorted((*others, placed), key=lambda s: s.seat)))


def _wagers_withdrawn(state: RoundState, event: WagersWithdrawn) -> RoundState:
    _require_stage(state, Stage.BETTING, step="withdraw_wagers")
    if state.seat(event.seat) is None:
        raise IllegalAction("machine.no_wagers", code="no_wagers", path="seat", seat=event.seat)
    return replace(state, seats=tuple(s for s in state.seats if s.seat != event.seat))


def _bets_locked(state: RoundState) -> RoundState:
    _require_stage(state, Stage.BETTING, step="lock_bets")
    if not state.seats:
        raise IllegalAction("machine.no_seats", code="no_seats")
    return replace(state, stage=Stage.PREFLOP)


def _decision(state: RoundState, event: Decision) -> RoundState:
    _require_stage(state, *DECISION_STAGES, step="decide")
    seat = state.seat(event.seat)
    if seat is None:
        raise IllegalAction(
            "machine.not_in_round", code="not_in_round", path="seat", seat=event.seat
        )
    if not seat.must_act(state.stage):
        key = (
            "machine.folded"
            if seat.folded
            else "machine.already_bet"
            if seat.play
            else "machine.already_decided"
        )
        raise IllegalAction(
            key,
            code="not_to_act",
            path="seat",
            seat=event.seat,
            stage=state.stage.value,
        )
    if len(state.board) != _board_before(state.stage):
        raise IllegalAction("machine.cards_being_entered", code="wrong_stage")
    street = _STREET[state.stage]
    legal = legal_actions(state, event.seat)
    if event.action == Action.BET:
        multiple = event.multiple
        if multiple is None and street is not Street.PREFLOP:
            multiple = FIXED_MULTIPLES[street]
        if f"bet:{multiple}" not in legal:
            raise IllegalAction(
                "machine.illegal_play",
                code="illegal_play",
                path="multiple",
                seat=event.seat,
                multiple=str(multiple),
                street=street.value,
                multiples=tuple(int(a[4:]) for a in legal if a.startswith("bet:")),
            )
        assert multiple is not None
        changed = replace(seat, play=Play(street, multiple), acted_at=state.stage)
    elif event.action in legal:
        changed = replace(seat, folded=event.action == Action.FOLD, acted_at=state.stage)
    else:
        raise IllegalAction(
            "machine.illegal_action",
            code="illegal_action",
            path="action",
            seat=event.seat,
            action=event.action,
            street=street.value,
            actions=tuple(legal),
        )
    return _advance(_with_seat(state, changed))


def _with_seat(state: RoundState, changed: SeatState) -> RoundState:
    return replace(
        state, seats=tuple(changed if s.seat == changed.seat else s for s in state.seats)
    )


def _advance(state: RoundState) -> RoundState:
    """The river needs no dealing: once nobody has to act there, it is showdown."""
    if state.stage is Stage.RIVER and not state.to_act():
        return replace(state, stage=Stage.SHOWDOWN)
    return state


def _already_dealt(state: RoundState, card: Card, entry: list[Card]) -> IllegalAction | None:
    """The refusal of a card already on the felt or in this entry, saying where; or None."""

    def refused(key: str, **place: Param) -> IllegalAction:
        return IllegalAction(key, code="duplicate_card", path="cards", card=str(card), **place)

    if card in state.board:
        return refused("machine.on_board", place="board")
    if card in state.dealer:
        return refused("machine.in_dealer_hand", place="dealer")
    for seat in state.seats:
        if card in seat.hole:
            return refused("machine.in_seat_hand", place=seat.seat, seat=seat.seat)
    if card in entry:
        return refused("machine.in_this_entry")
    return None


def _cards_entered(state: RoundState, event: CardsEntered) -> RoundState:
    place = event.place
    if isinstance(place, bool):
        raise _not_a_place(place)
    if not event.cards:
        raise IllegalAction("machine.no_card", code="wrong_card_count", path="cards")
    expected = cards_expected(state)
    if place not in expected:
        if place == "board" or place == "dealer" or isinstance(place, int):
            if isinstance(place, int) and not isinstance(place, bool) and state.seat(place) is None:
                raise IllegalAction(
                    "machine.not_in_round", code="not_in_round", path="place", seat=place
                )
            if state.stage in DECISION_STAGES and state.to_act():
                raise IllegalAction(
                    "machine.decisions_pending", code="decisions_pending", seats=state.to_act()
                )
            raise IllegalAction(
                "machine.no_card_now",
                code="wrong_stage",
                path="place",
                place=place,
                stage=state.stage.value,
            )
        raise _not_a_place(place)
    if len(event.cards) > expected[place]:
        raise IllegalAction(
            "machine.too_many_cards",
            code="wrong_card_count",
            path="cards",
            place=place,
            expected=expected[place],
            count=len(event.cards),
        )
    cards: list[Card] = []
    for text in event.cards:
        try:
            card = parse_card(text)
        except CardError as error:
            raise IllegalAction(error.key, code="bad_card", path="cards", **error.params) from None
        refusal = _already_dealt(state, card, cards)
        if refusal is not None:
            raise refusal
        cards.append(card)
    new = tuple(cards)
    if place == "board":
        board = state.board + new
        state = replace(state, board=board)
        if len(board) == BOARD_AFTER.get(state.stage):
            state = _advance(replace(state, stage=_next_street(state.stage)))
        return state
    if place == "dealer":
        return replace(state, dealer=state.dealer + new)
    assert isinstance(place, int)
    seat = state.seat(place)
    assert seat is not None
    return _with_seat(state, replace(seat, hole=seat.hole + new))


def _not_a_place(place: object) -> IllegalAction:
    return IllegalAction("event.not_place", code="bad_event", path="place", value=repr(place))


def _next_street(stage: Stage) -> Stage:
    return Stage.FLOP if stage is Stage.PREFLOP else Stage.RIVER


def _card_removed(state: RoundState, event: CardRemoved) -> RoundState:
    try:
        card = parse_card(event.card)
    except CardError as error:
        raise IllegalAction(error.key, code="bad_card", path="card", **error.params) from None
    place = event.place
    if place == "board":
        return _board_card_removed(state, card)
    if place == "dealer":
        _require_stage(state, Stage.SHOWDOWN, step="remove_dealer_card")
        if card not in state.dealer:
            raise IllegalAction(
                "machine.not_in_dealer_hand", code="no_such_card", path="card", card=str(card)
            )
        return replace(state, dealer=tuple(c for c in state.dealer if c != card))
    if isinstance(place, int) and not isinstance(place, bool):
        _require_stage(state, Stage.SHOWDOWN, step="remove_hole_card")
        seat = state.seat(place)
        if seat is None or card not in seat.hole:
            raise IllegalAction(
                "machine.not_in_seat_hand",
                code="no_such_card",
                path="card",
                card=str(card),
                seat=place,
            )
        return _with_seat(state, replace(seat, hole=tuple(c for c in seat.hole if c != card)))
    raise _not_a_place(place)


def _board_card_removed(state: RoundState, card: Card) -> RoundState:
    """Undo a board card while no decision was taken on its street; only the latest street's
    cards, so a turn card can never slide into the flop (the flop judges the progressive)."""
    if card not in state.board:
        raise IllegalAction(
            "machine.not_on_board", code="no_such_card", path="card", card=str(card)
        )
    index, count, stage = state.board.index(card), len(state.board), state.stage

    def decided_at(at: Stage) -> bool:
        return any(s.acted_at is at for s in state.seats)

    showdown_started = bool(state.dealer) or any(s.hole for s in state.seats)
    if stage is Stage.PREFLOP:
        back = Stage.PREFLOP
    elif stage is Stage.FLOP and count == 3 and not decided_at(Stage.FLOP):
        back = Stage.PREFLOP
    elif stage is Stage.FLOP and count == 4 and index == 3:
        back = Stage.FLOP
    elif (
        stage in (Stage.RIVER, Stage.SHOWDOWN)
        and index >= 3
        and not decided_at(Stage.RIVER)
        and not showdown_started
    ):
        back = Stage.FLOP
    else:
        raise IllegalAction(
            "machine.card_in_play", code="card_in_play", path="card", card=str(card)
        )
    return replace(state, stage=back, board=tuple(c for c in state.board if c != card))


def _irregularity(state: RoundState, event: IrregularityDeclared) -> RoundState:
    try:
        kind = Irregularity(event.irregularity)
    except ValueError:
        raise IllegalAction(
            "input.not_irregularity",
            code="bad_irregularity",
            path="irregularity",
            value=repr(event.irregularity),
            irregularities=tuple(i.value for i in Irregularity),
        ) from None
    if state.stage not in DECLARABLE[kind]:
        raise IllegalAction(
            "machine.declare_wrong_stage",
            code="wrong_stage",
            irregularity=kind.value,
            stage=state.stage.value,
            stages=tuple(s.value for s in Stage if s in DECLARABLE[kind]),
        )
    declared = (*state.declared, kind)
    if kind in VOIDING:
        return replace(state, declared=declared, pending_void=VoidReason(kind.value))
    return replace(state, declared=declared)


def _void_decision(state: RoundState, *, approved: bool) -> RoundState:
    if state.pending_void is None:
        raise IllegalAction("machine.no_pending_void", code="no_pending_void")
    if approved:
        return replace(state, stage=Stage.VOID, void_reason=state.pending_void, pending_void=None)
    return replace(state, pending_void=None)


def _settlement_confirmed(state: RoundState) -> RoundState:
    _require_stage(state, Stage.SHOWDOWN, step="confirm_settlement")
    missing = cards_expected(state)
    if missing:
        raise IllegalAction("machine.cards_missing", code="cards_missing", places=tuple(missing))
    return replace(state, stage=Stage.SETTLED)


# --- to settlement -------------------------------------------------------------------------


def settlement_input(state: RoundState, *, meter: Meter | None = None) -> RoundInput:
    """The settlement input of a round at showdown (every card in), settled, or void.

    `meter` is the progressive meter as the jackpot app reads it when the round is settled.
    """
    if state.stage is Stage.VOID:
        assert state.void_reason is not None
        irregularities: tuple[Irregularity, ...] = (Irregularity(state.void_reason.value),)
    else:
        if state.stage not in (Stage.SHOWDOWN, Stage.SETTLED) or cards_expected(state):
            raise IllegalAction("machine.not_ready", code="not_ready")
        # Only declarations that do not void reach settlement (refused voids are ignored).
        irregularities = tuple(i for i in state.declared if i not in VOIDING)
    return RoundInput(
        board=state.board,
        dealer=state.dealer,
        seats=tuple(
            SeatInput(
                seat=s.seat,
                ante=s.ante,
                blind=s.blind,
                hole=s.hole,
                play=s.play,
                trips=s.trips,
                progressive=s.progressive,
            )
            for s in state.seats
        ),
        progressive=meter,
        irregularities=irregularities,
    )
