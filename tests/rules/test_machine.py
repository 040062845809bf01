"""The round's state machine: legal and illegal events per stage, card counts, voids, replay."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.cards import format_card
from tables.rules.errors import IllegalAction
from tables.rules.machine import (
    BetsLocked,
    CardsEntered,
    Decision,
    Stage,
    WagersPlaced,
    apply,
    cards_expected,
    event_from_json,
    event_to_json,
    legal_actions,
    new_round,
    replay,
    settlement_input,
)
from tables.rules.ruleset import DEFAULT_RULES, parse_rules
from tables.rules.settle import Meter, settle, settle_json

from .rounds import SPEC_OUTPUT

# The spec's example round, as the dealer's tablet records it.
SPEC_ROUND = [
    {
        "kind": "wagers_placed",
        "seat": 1,
        "ante": 1000,
        "blind": 1000,
        "trips": 500,
        "progressive": 100,
    },
    {"kind": "wagers_placed", "seat": 2, "ante": 500, "blind": 500},
    {"kind": "bets_locked"},
    {"kind": "decision", "seat": 1, "action": "bet", "multiple": 4},
    {"kind": "decision", "seat": 2, "action": "check"},
    {"kind": "cards_entered", "place": "board", "cards": ["Qs", "Js", "Ts"]},
    {"kind": "decision", "seat": 2, "action": "check"},
    {"kind": "cards_entered", "place": "board", "cards": ["3h", "4h"]},
    {"kind": "decision", "seat": 2, "action": "fold"},
    {"kind": "cards_entered", "place": "dealer", "cards": ["2c", "2d"]},
    {"kind": "cards_entered", "place": 1, "cards": ["As", "Ks"]},
    {"kind": "cards_entered", "place": 2, "cards": ["7c", "2h"]},
]


def after(events, rules=DEFAULT_RULES):
    return replay(rules, events)


def refused(state, event):
    with pytest.raises(IllegalAction) as error:
        apply(state, event)
    return error.value.code, error.value.message


def at(step):
    """The spec round's state after its first `step` events."""
    return after(SPEC_ROUND[:step])


def test_the_spec_round_replayed_settles_as_the_spec_shows():
    state = after(SPEC_ROUND)
    assert state.stage is Stage.SHOWDOWN
    result = settle(settlement_input(state, meter=Meter(2500000, 1000000)), DEFAULT_RULES)
    assert result.to_json() == SPEC_OUTPUT
    confirmed = apply(state, {"kind": "settlement_confirmed"})
    assert confirmed.stage is Stage.SETTLED


def test_replaying_the_same_events_gives_the_same_state():
    assert after(SPEC_ROUND) == after([dict(e) for e in SPEC_ROUND])
    assert after(SPEC_ROUND).to_json() == after(SPEC_ROUND).to_json()


def test_events_round_trip_through_json():
    for obj in SPEC_ROUND:
        event = event_from_json(obj)
        assert event_from_json(event_to_json(event)) == event
        assert event_to_json(event).items() >= obj.items()


def test_apply_is_pure():
    before = at(3)
    snapshot = before.to_json()
    apply(before, {"kind": "decision", "seat": 1, "action": "bet", "multiple": 3})
    assert before.to_json() == snapshot


def test_the_stages_follow_the_deal():
    stages = [after(SPEC_ROUND[:n]).stage for n in (0, 2, 3, 5, 6, 8, 9, 12)]
    assert stages == [
        Stage.BETTING,
        Stage.BETTING,
        Stage.PREFLOP,
        Stage.PREFLOP,  # everyone decided; the flop is not on the felt yet
        Stage.FLOP,
        Stage.RIVER,
        Stage.SHOWDOWN,  # the last river decision: nobody else has to act
        Stage.SHOWDOWN,
    ]


# --- wagers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "event, code",
    [
        (WagersPlaced(seat=1, ante=1000, blind=900), "ante_blind_mismatch"),
        (WagersPlaced(seat=1, ante=0, blind=0), "bad_amount"),
        (WagersPlaced(seat=1, ante=1000, blind=1000, trips=-5), "negative_amount"),
        (WagersPlaced(seat=1, ante=1000, blind=1000, progressive=500), "bad_progressive_wager"),
        (WagersPlaced(seat=8, ante=1000, blind=1000), "bad_seat"),
    ],
)
def test_wrong_wagers_are_refused(event, code):
    assert refused(new_round(DEFAULT_RULES), event)[0] == code


def test_a_seat_not_open_at_this_table_cannot_bet():
    state = new_round(DEFAULT_RULES, seats=[1, 2, 3, 4, 5, 6])
    assert refused(state, WagersPlaced(seat=7, ante=1000, blind=1000))[0] == "bad_seat"


def test_wagers_may_be_changed_or_withdrawn_until_the_bets_are_locked():
    state = after(
        SPEC_ROUND[:2] + [{"kind": "wagers_placed", "seat": 2, "ante": 700, "blind": 700}]
    )
    assert state.seat(2).ante == 700
    state = apply(state, {"kind": "wagers_withdrawn", "seat": 2})
    assert [s.seat for s in state.seats] == [1]
    locked = apply(state, BetsLocked())
    assert refused(locked, WagersPlaced(seat=3, ante=1000, blind=1000))[0] == "wrong_stage"


def test_bets_cannot_be_locked_without_a_seat():
    assert refused(new_round(DEFAULT_RULES), BetsLocked())[0] == "no_seats"


# --- decisions -----------------------------------------------------------------------------


def test_preflop_allows_check_or_the_tables_multiples():
    assert legal_actions(at(3), 1) == ["check", "bet:3", "bet:4"]
    four_only = after(SPEC_ROUND[:3], rules=parse_rules({"preflop_multiples": [4]}))
    assert legal_actions(four_only, 1) == ["check", "bet:4"]
    code, message = refused(four_only, Decision(seat=1, action="bet", multiple=3))
    assert code == "illegal_play"
    assert message == "seat 1: 3x is not a legal Play at the preflop (allowed: 4x)"


def test_preflop_refuses_a_fold_and_a_bet_without_multiple():
    assert refused(at(3), Decision(seat=2, action="fold"))[0] == "illegal_action"
    assert refused(at(3), Decision(seat=2, action="bet"))[0] == "illegal_play"


def test_the_flop_allows_check_or_2x():
    state = at(6)
    assert legal_actions(state, 2) == ["check", "bet:2"]
    assert refused(state, Decision(seat=2, action="bet", multiple=4))[0] == "illegal_play"
    bet = apply(state, Decision(seat=2, action="bet"))  # the multiple is implied
    assert bet.seat(2).play.multiple == 2


def test_the_river_allows_1x_or_fold_but_not_check():
    state = at(8)
    assert legal_actions(state, 2) == ["bet:1", "fold"]
    assert refused(state, Decision(seat=2, action="check"))[0] == "illegal_action"
    assert apply(state, Decision(seat=2, action="bet", multiple=1)).stage is Stage.SHOWDOWN


def test_one_play_bet_per_seat():
    state = at(6)  # seat 1 bet 4x pre-flop
    assert legal_actions(state, 1) == []
    code, message = refused(state, Decision(seat=1, action="check"))
    assert code == "not_to_act"
    assert "already bet" in message


def test_a_seat_decides_once_per_street():
    state = at(4)  # seat 1 bet; seat 2 has yet to act
    checked = apply(state, Decision(seat=2, action="check"))
    assert refused(checked, Decision(seat=2, action="check"))[0] == "not_to_act"


def test_a_seat_not_in_the_round_cannot_decide():
    assert refused(at(3), Decision(seat=5, action="check"))[0] == "not_in_round"


def test_decisions_are_refused_before_the_bets_are_locked():
    assert refused(at(2), Decision(seat=1, action="check"))[0] == "wrong_stage"


def test_when_every_seat_bet_early_the_river_goes_straight_to_showdown():
    state = after(
        [
            {"kind": "wagers_placed", "seat": 3, "ante": 1000, "blind": 1000},
            {"kind": "bets_locked"},
            {"kind": "decision", "seat": 3, "action": "bet", "multiple": 3},
            {"kind": "cards_entered", "place": "board", "cards": ["Qs", "Js", "Ts"]},
            {"kind": "cards_entered", "place": "board", "cards": ["3h", "4h"]},
        ]
    )
    assert state.stage is Stage.SHOWDOWN
    assert cards_expected(state) == {"dealer": 2, 3: 2}


# --- cards -------------------------------------------------------------------------------


def test_cards_wait_for_every_decision():
    code, message = refused(at(4), CardsEntered(place="board", cards=("Qs", "Js", "Ts")))
    assert code == "decisions_pending"
    assert message == "seats 2 must decide before more cards are dealt"


def test_each_place_gets_its_count_at_each_stage():
    assert cards_expected(at(5)) == {"board": 3}
    assert cards_expected(at(7)) == {"board": 2}
    assert cards_expected(at(9)) == {"dealer": 2, 1: 2, 2: 2}
    assert cards_expected(at(12)) == {}


def test_the_flop_is_three_cards_and_the_turn_and_river_two():
    assert refused(at(5), CardsEntered("board", ("Qs", "Js", "Ts", "3h")))[0] == "wrong_card_count"
    assert refused(at(7), CardsEntered("board", ("3h", "4h", "5h")))[0] == "wrong_card_count"
    assert refused(at(9), CardsEntered("dealer", ("2c", "2d", "5d")))[0] == "wrong_card_count"
    assert refused(at(9), CardsEntered(1, ("As", "Ks", "5d")))[0] == "wrong_card_count"


def test_cards_may_be_entered_one_at_a_time():
    state = apply(at(5), CardsEntered("board", ("Qs",)))
    state = apply(state, CardsEntered("board", ("Js",)))
    assert state.stage is Stage.PREFLOP
    assert legal_actions(state, 2) == []  # the flop is being dealt
    state = apply(state, CardsEntered("board", ("Ts",)))
    assert state.stage is Stage.FLOP


def test_hole_and_dealer_cards_are_entered_only_at_showdown():
    assert refused(at(5), CardsEntered("dealer", ("2c", "2d")))[0] == "wrong_stage"
    assert refused(at(6), CardsEntered(1, ("As", "Ks")))[0] == "decisions_pending"


def test_a_duplicate_card_is_refused_naming_the_card_and_where_it_is():
    assert refused(at(9), CardsEntered("dealer", ("Qs", "2d"))) == (
        "duplicate_card",
        "Qs is already on the board",
    )
    assert refused(at(10), CardsEntered(2, ("2d", "7c"))) == (
        "duplicate_card",
        "2d is already in the dealer's hand",
    )
    assert refused(at(11), CardsEntered(2, ("Ks", "7c"))) == (
        "duplicate_card",
        "Ks is already in seat 1's hand",
    )
    assert refused(at(9), CardsEntered("dealer", ("5d", "5d"))) == (
        "duplicate_card",
        "5d is already in this entry",
    )


def test_an_unknown_card_is_refused():
    code, message = refused(at(5), CardsEntered("board", ("1x", "Js", "Ts")))
    assert code == "bad_card"
    assert message.startswith('"1x" is not a card')


def test_a_card_of_the_street_being_dealt_can_be_removed():
    state = apply(at(5), CardsEntered("board", ("Qs", "Jd")))
    state = apply(state, {"kind": "card_removed", "place": "board", "card": "Jd"})
    assert state.board == at(5).board + (state.board[0],)
    assert len(state.board) == 1


def test_a_complete_flop_can_be_removed_until_someone_decides_on_it():
    state = apply(at(6), {"kind": "card_removed", "place": "board", "card": "Js"})
    assert state.stage is Stage.PREFLOP
    assert [str(c) for c in state.board] == ["Qs", "Ts"]
    decided = at(7)
    assert refused(decided, {"kind": "card_removed", "place": "board", "card": "Js"})[0] == (
        "card_in_play"
    )


def test_a_flop_card_cannot_be_removed_once_the_turn_is_being_dealt():
    state = apply(at(7), CardsEntered("board", ("3h",)))
    assert refused(state, {"kind": "card_removed", "place": "board", "card": "Qs"})[0] == (
        "card_in_play"
    )
    state = apply(state, {"kind": "card_removed", "place": "board", "card": "3h"})
    assert len(state.board) == 3


def test_showdown_cards_can_be_removed_and_entered_again():
    state = apply(at(10), {"kind": "card_removed", "place": "dealer", "card": "2d"})
    assert cards_expected(state)["dealer"] == 1
    state = apply(state, CardsEntered("dealer", ("2d",)))
    assert state.dealer == at(10).dealer


def test_settlement_needs_every_card():
    code, message = refused(at(11), {"kind": "settlement_confirmed"})
    assert code == "cards_missing"
    assert message == "cards are still to be entered for seat 2"
    with pytest.raises(IllegalAction):
        settlement_input(at(11))


# --- irregularities and voids ----------------------------------------------------------------


@pytest.mark.parametrize(
    "step, kind",
    [
        (3, "preflop_card_exposed"),
        (5, "community_card_exposed"),
        (6, "community_card_exposed"),
        (8, "wrong_card_count"),
        (10, "duplicate_card"),
    ],
)
def test_a_voiding_irregularity_waits_for_a_supervisor_then_voids(step, kind):
    state = apply(at(step), {"kind": "irregularity_declared", "irregularity": kind})
    assert state.pending_void.value == kind
    assert refused(state, Decision(seat=2, action="check"))[0] == "void_pending"
    assert refused(state, CardsEntered("board", ("9c",)))[0] == "void_pending"
    void = apply(state, {"kind": "void_approved"})
    assert void.stage is Stage.VOID
    assert refused(void, Decision(seat=2, action="check"))[0] == "round_closed"
    result = settle(settlement_input(void, meter=Meter(2500000, 1000000)), DEFAULT_RULES)
    assert result.void.value == kind
    assert all(s.net == 0 for s in result.seats)
    assert result.progressive.meter_after_cents == 2500000


def test_a_refused_void_lets_the_round_go_on():
    state = apply(at(4), {"kind": "irregularity_declared", "irregularity": "preflop_card_exposed"})
    state = apply(state, {"kind": "void_refused"})
    assert state.pending_void is None
    state = apply(state, Decision(seat=2, action="check"))
    assert state.to_act() == ()
    for event in SPEC_ROUND[5:]:
        state = apply(state, event)
    # the refused declaration does not void the settlement
    result = settle(settlement_input(state, meter=Meter(2500000, 1000000)), DEFAULT_RULES)
    assert result.void is None


@pytest.mark.parametrize(
    "step, kind",
    [
        (2, "preflop_card_exposed"),  # nothing is dealt while betting
        (6, "preflop_card_exposed"),  # the flop is out: too late
        (8, "community_card_exposed"),  # every community card is face up at the river
        (2, "wrong_card_count"),
    ],
)
def test_an_irregularity_is_declared_only_where_it_can_happen(step, kind):
    assert refused(at(step), {"kind": "irregularity_declared", "irregularity": kind})[0] == (
        "wrong_stage"
    )


def test_a_card_drawn_in_error_unexposed_has_no_effect():
    state = apply(
        at(5), {"kind": "irregularity_declared", "irregularity": "card_drawn_in_error_unexposed"}
    )
    assert state.pending_void is None
    assert state.stage is Stage.PREFLOP
    for event in SPEC_ROUND[5:]:
        state = apply(state, event)
    result = settle(settlement_input(state, meter=Meter(2500000, 1000000)), DEFAULT_RULES)
    assert result.to_json() == SPEC_OUTPUT


def test_void_approval_needs_a_pending_void():
    assert refused(at(5), {"kind": "void_approved"})[0] == "no_pending_void"


def test_unknown_events_and_fields_are_refused():
    assert refused(at(0), {"kind": "shuffle"})[0] == "bad_event"
    assert refused(at(0), {"kind": "bets_locked", "seat": 1})[0] == "bad_event"
    assert refused(at(0), {"kind": "wagers_placed", "seat": "1", "ante": 5, "blind": 5})[0] == (
        "bad_event"
    )
    assert refused(at(5), {"kind": "cards_entered", "place": "muck", "cards": ["2c"]})[0] == (
        "bad_event"
    )


def test_the_snapshot_shows_who_acts_and_what_cards_are_due():
    snapshot = at(4).to_json()
    assert snapshot["stage"] == "preflop"
    assert [s["to_act"] for s in snapshot["seats"]] == [False, True]
    assert snapshot["seats"][1]["actions"] == ["check", "bet:3", "bet:4"]
    assert at(5).to_json()["cards_expected"] == {"board": 3}


# --- any legal round, played through the machine, settles as its JSON description ------------


STREETS = ["preflop", "flop", "river"]


@st.composite
def played_rounds(draw):
    """A legal event list for a random table, and the settlement input it amounts to."""
    deck = [format_card(c) for c in draw(st.permutations(range(52)))]
    numbers = sorted(draw(st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True)))
    plans = {
        n: draw(st.sampled_from([("preflop", 3), ("preflop", 4), ("flop", 2), ("river", 1), None]))
        for n in numbers
    }
    events = []
    seats = []
    for i, n in enumerate(numbers):
        ante = draw(st.integers(1, 5000))
        trips = draw(st.integers(0, 2000))
        events.append(
            {
                "kind": "wagers_placed",
                "seat": n,
                "ante": ante,
                "blind": ante,
                "trips": trips,
                "progressive": 100,
            }
        )
        seat = {
            "seat": n,
            "ante": ante,
            "blind": ante,
            "trips": trips,
            "progressive": 100,
            "hole": deck[7 + 2 * i : 9 + 2 * i],
        }
        if plans[n] is None:
            seat["fold"] = True
        else:
            seat["play"] = {"street": plans[n][0], "multiple": plans[n][1]}
        seats.append(seat)
    events.append({"kind": "bets_locked"})
    for street, board in (("preflop", deck[:3]), ("flop", deck[3:5]), ("river", None)):
        for n in numbers:
            plan = plans[n]
            if plan is not None and STREETS.index(plan[0]) < STREETS.index(street):
                continue  # this seat bet on an earlier street: nothing more to decide
            if plan is not None and plan[0] == street:
                events.append({"kind": "decision", "seat": n, "action": "bet", "multiple": plan[1]})
            elif street == "river":
                events.append({"kind": "decision", "seat": n, "action": "fold"})
            else:
                events.append({"kind": "decision", "seat": n, "action": "check"})
        if board is not None:
            events.append({"kind": "cards_entered", "place": "board", "cards": board})
    events.append({"kind": "cards_entered", "place": "dealer", "cards": deck[5:7]})
    for seat in seats:
        events.append({"kind": "cards_entered", "place": seat["seat"], "cards": seat["hole"]})
    meter = (draw(st.integers(0, 10**7)), draw(st.integers(0, 10**6)))
    data = {
        "board": deck[:5],
        "dealer": deck[5:7],
        "progressive": {"meter_cents": meter[0], "reset_cents": meter[1]},
        "seats": seats,
    }
    return events, data, Meter(*meter)


@settings(max_examples=150, deadline=None)
@given(played_rounds())
def test_a_round_played_through_the_machine_settles_as_its_json(played):
    events, data, meter = played
    state = replay(DEFAULT_RULES, events)
    assert state.stage is Stage.SHOWDOWN
    assert replay(DEFAULT_RULES, events) == state
    result = settle(settlement_input(state, meter=meter), DEFAULT_RULES)
    assert result.to_json() == settle_json(data)
    assert apply(state, {"kind": "settlement_confirmed"}).stage is Stage.SETTLED


def test_the_remaining_refusals_have_their_codes():
    assert refused(at(0), {"kind": "wagers_withdrawn", "seat": 3})[0] == "no_wagers"
    assert refused(at(5), {"kind": "irregularity_declared", "irregularity": "spilt_drink"})[0] == (
        "bad_irregularity"
    )
    assert refused(at(6), {"kind": "card_removed", "place": "board", "card": "2c"})[0] == (
        "no_such_card"
    )
    assert refused(at(10), {"kind": "card_removed", "place": 1, "card": "As"})[0] == (
        "no_such_card"
    )
    with pytest.raises(IllegalAction) as not_ready:
        settlement_input(at(8))
    assert not_ready.value.code == "not_ready"
