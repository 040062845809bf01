"""Wrong input is refused with a stable code and a message that says what and where."""

import pytest

from tables.rules.errors import InputError
from tables.rules.settle import settle_json

from .rounds import spec_input


def refused(data):
    with pytest.raises(InputError) as error:
        settle_json(data)
    return error.value.code, error.value.message


def with_change(change):
    data = spec_input()
    change(data)
    return data


def set_in(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def delete(path):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


@pytest.mark.parametrize(
    "change, code, message",
    [
        (
            set_in(("seats", 1, "hole", 1), "1x"),
            "bad_card",
            'seats[1].hole[1]: "1x" is not a card',
        ),
        (set_in(("board", 0), "Zs"), "bad_card", 'board[0]: "Zs" is not a card'),
        (set_in(("dealer", 1), 5), "bad_card", "dealer[1]: 5 is not a card"),
        (
            set_in(("seats", 0, "blind"), 900),
            "ante_blind_mismatch",
            "seats[0].blind: the Blind (900) must equal the Ante (1000)",
        ),
        (
            set_in(("seats", 0, "play"), {"street": "preflop", "multiple": 2}),
            "illegal_play",
            "seats[0].play.multiple: 2x is not a legal preflop Play (this table allows 3x or 4x)",
        ),
        (
            set_in(("seats", 0, "play"), {"street": "flop", "multiple": 3}),
            "illegal_play",
            "seats[0].play.multiple: 3x is not a legal flop Play (this table allows 2x)",
        ),
        (
            set_in(("seats", 0, "play"), {"street": "river", "multiple": 2}),
            "illegal_play",
            "seats[0].play.multiple: 2x is not a legal river Play (this table allows 1x)",
        ),
        (
            set_in(("seats", 0, "play"), {"street": "turn", "multiple": 1}),
            "illegal_play",
            'seats[0].play.street: "turn" is not preflop, flop or river',
        ),
        (
            set_in(("seats", 1, "seat"), 1),
            "duplicate_seat",
            "seats[1].seat: seat 1 is listed twice (also at seats[0])",
        ),
        (
            set_in(("seats", 0, "trips"), -500),
            "negative_amount",
            "seats[0].trips: -500 is negative",
        ),
        (
            set_in(("progressive", "meter_cents"), -1),
            "negative_amount",
            "progressive.meter_cents: -1 is negative",
        ),
        (
            lambda d: d["seats"][0].update(ante=0, blind=0),
            "bad_amount",
            "seats[0].ante: the Ante is required",
        ),
        (
            set_in(("seats", 1, "play"), {"street": "river", "multiple": 1}),
            "play_or_fold",
            "seats[1]: both play and fold are given",
        ),
        (
            delete(("seats", 0, "play")),
            "play_or_fold",
            'seats[0]: neither play nor "fold": true is given',
        ),
        (set_in(("seats", 0, "seat"), 8), "bad_seat", "seats[0].seat: 8 is not a seat"),
        (set_in(("seats", 0, "seat"), 0), "bad_seat", "seats[0].seat: 0 is not a seat"),
        (
            delete(("progressive",)),
            "missing_meter",
            "progressive: the meter (meter_cents, reset_cents) is required",
        ),
        (
            set_in(("seats", 0, "progressive"), 500),
            "bad_progressive_wager",
            "seats[0].progressive: 500 is not the table's progressive wager (100 cents)",
        ),
        (
            set_in(("irregularities",), [{"kind": "dealer_sneezed"}]),
            "bad_irregularity",
            'irregularities[0].kind: "dealer_sneezed" is not an irregularity',
        ),
        (set_in(("version",), 2), "unsupported_version", "version: 2 is not supported"),
        (set_in(("seats",), []), "no_seats", "seats: a round has at least one seat"),
        (
            set_in(("seats", 0, "ante"), 10.5),
            "wrong_type",
            "seats[0].ante: 10.5 is not an integer number of cents",
        ),
        (
            set_in(("seats", 0, "ante"), True),
            "wrong_type",
            "seats[0].ante: true is not an integer number of cents",
        ),
        (set_in(("board",), "Qs Js Ts 3h 4h"), "wrong_type", "board: "),
        (
            set_in(("seats", 1, "fold"), "yes"),
            "wrong_type",
            'seats[1].fold: "yes" is not true or false',
        ),
        (delete(("seats", 0, "hole")), "missing_field", "seats[0].hole: missing"),
        (delete(("board",)), "missing_field", "board: missing"),
        (set_in(("seats", 0, "tips"), 5), "unknown_field", "seats[0].tips: unknown field"),
        (set_in(("table",), "T1"), "unknown_field", "table: unknown field"),
        (
            set_in(("rules",), {"trips_paytable": {"flush": "7x1"}}),
            "bad_paytable",
            'rules.trips_paytable.flush: "7x1" is not odds N:M',
        ),
        (
            set_in(("rules",), {"payout_unit_cents": 0}),
            "bad_rule",
            "rules.payout_unit_cents: 0 is too small",
        ),
        (
            set_in(("rules",), {"trip_paytable": "A"}),
            "unknown_rule",
            "rules.trip_paytable: unknown rule",
        ),
    ],
)
def test_wrong_input_is_refused_naming_the_place(change, code, message):
    got_code, got_message = refused(with_change(change))
    assert got_code == code
    assert got_message.startswith(message), got_message


def test_the_input_must_be_an_object():
    assert refused([1, 2]) == ("wrong_type", "input: [1, 2] is not an object")


def test_version_1_is_accepted_and_echoed():
    data = spec_input()
    data["version"] = 1
    assert settle_json(data)["version"] == 1


def test_ten_and_upper_case_suits_are_accepted_and_output_is_canonical():
    data = spec_input()
    data["board"] = ["QS", "Js", "10s", "3H", "4h"]
    result = settle_json(data)
    assert result["seats"][0]["best5"] == ["As", "Ks", "Qs", "Js", "Ts"]


def test_an_irregularity_with_an_unknown_key_is_refused_like_every_other_object():
    data = spec_input()
    data["irregularities"] = [{"kind": "card_drawn_in_error_unexposed", "card": "8d"}]
    with pytest.raises(InputError) as caught:
        settle_json(data)
    assert caught.value.code == "unknown_field"
    assert caught.value.path == "irregularities[0].card"
