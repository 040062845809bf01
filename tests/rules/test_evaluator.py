"""Hand evaluation, case by case as the rule book puts it, and its invariances."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules import (
    DECK,
    CardError,
    Category,
    HandValue,
    InputError,
    category_of,
    evaluate,
    parse_cards,
    strength,
    strength7,
)
from tables.rules.cards import Card


def hand(text: str) -> HandValue:
    return evaluate(text.split())


def best5(text: str) -> list[str]:
    return hand(text).best5_text


@pytest.mark.parametrize(
    "cards, category, five",
    [
        ("As Ks Qs Js Ts", "royal_flush", "As Ks Qs Js Ts"),
        ("9h Kh Qh Jh Th", "straight_flush", "Kh Qh Jh Th 9h"),
        ("Ad 2d 3d 4d 5d", "straight_flush", "5d 4d 3d 2d Ad"),
        ("7c 7d 7h 7s 2c", "four_of_a_kind", "7c 7d 7h 7s 2c"),
        ("3c 3d 3h 9s 9c", "full_house", "3c 3d 3h 9s 9c"),
        ("2h 9h Kh 4h 6h", "flush", "Kh 9h 6h 4h 2h"),
        ("Ts 9h 8d 7c 6s", "straight", "Ts 9h 8d 7c 6s"),
        ("5c 4d 3h 2s Ad", "straight", "5c 4d 3h 2s Ad"),
        ("Ah Kd Qc Js Tc", "straight", "Ah Kd Qc Js Tc"),
        ("Qc Qd Qh 8s 3c", "three_of_a_kind", "Qc Qd Qh 8s 3c"),
        ("Jc Jd 4h 4s Ac", "two_pair", "Jc Jd 4h 4s Ac"),
        ("8c 8d Ah 5s 3c", "pair", "8c 8d Ah 5s 3c"),
        ("Kc 9d 7h 5s 3c", "high_card", "Kc 9d 7h 5s 3c"),
    ],
)
def test_every_category_is_recognised_with_its_five_cards_in_order(cards, category, five):
    value = hand(cards)
    assert value.category == Category(category)
    assert value.category.value == category
    assert value.best5_text == five.split()


def test_the_spec_examples_give_the_spec_best_five():
    board = "Qs Js Ts 3h 4h"
    assert best5(f"As Ks {board}") == ["As", "Ks", "Qs", "Js", "Ts"]
    assert hand(f"As Ks {board}").category == "royal_flush"
    assert best5(f"2c 2d {board}") == ["2c", "2d", "Qs", "Js", "Ts"]
    assert hand(f"2c 2d {board}").category == "pair"
    assert best5(f"7c 2d {board}") == ["Qs", "Js", "Ts", "7c", "4h"]
    assert hand(f"7c 2d {board}").category == "high_card"


def test_categories_are_ordered_weakest_first():
    names = [
        "high_card",
        "pair",
        "two_pair",
        "three_of_a_kind",
        "straight",
        "flush",
        "full_house",
        "four_of_a_kind",
        "straight_flush",
        "royal_flush",
    ]
    assert [c.value for c in Category] == names
    assert sorted(Category, reverse=True) == list(reversed(Category))
    assert Category.PAIR < Category.TWO_PAIR <= Category.TWO_PAIR < Category.ROYAL_FLUSH
    assert Category.FLUSH > Category.STRAIGHT >= Category.STRAIGHT
    assert [c.order for c in Category] == list(range(10))
    assert Category("full_house") is Category.FULL_HOUSE


@pytest.mark.parametrize(
    "lower, higher",
    [
        # The wheel is the lowest straight; the six-high straight beats it.
        ("Ah 2d 3c 4s 5h", "2d 3c 4s 5h 6d"),
        # Broadway is the highest straight.
        ("9h Td Jc Qs Kh", "Th Jd Qc Ks Ah"),
        # Steel wheel is the lowest straight flush.
        ("Ah 2h 3h 4h 5h", "2s 3s 4s 5s 6s"),
        # Straight flush below royal.
        ("9d Td Jd Qd Kd", "Tc Jc Qc Kc Ac"),
        # Any straight flush beats quads.
        ("Ah Ad As Ac Kd", "Ac 2c 3c 4c 5c"),
        # Quads: the rank first, then the kicker.
        ("Kh Kd Ks Kc Ad", "Ah Ad As Ac 2d"),
        ("9h 9d 9s 9c 2d", "9h 9d 9s 9c 3d"),
        # Full house: the trips first, then the pair.
        ("Kh Kd Ks Ac Ad", "Ah Ad As 2c 2d"),
        ("8h 8d 8s 2c 2d", "8h 8d 8s 3c 3d"),
        # Flush beats straight, full house beats flush.
        ("Th Jd Qc Ks Ah", "2h 4h 6h 8h Th"),
        ("Ah Kh Qh Jh 9h", "2c 2d 2h 3s 3c"),
        # Flush against flush: by all five cards, the fifth included.
        ("Ah Kh Qh Jh 8h", "As Ks Qs Js 9s"),
        ("Ah Kh Qh Jh 2h", "As Ks Qs Js 3s"),
        ("Ah Kh Qh 3h 2h", "As Ks Qs 4s 2s"),
        # Trips: the rank, then the two kickers.
        ("7h 7d 7s Ac 2d", "7h 7d 7s Ac 3d"),
        ("7h 7d 7s Kc Qd", "8h 8d 8s 2c 3d"),
        # Two pair: the high pair, then the low pair, then the kicker.
        ("Kh Kd Qs Qc Ad", "Ah Ad 2s 2c 3d"),
        ("Kh Kd 2s 2c Ad", "Kh Kd 3s 3c 4d"),
        ("Kh Kd Qs Qc 2d", "Kh Kd Qs Qc 3d"),
        # Pair: the pair, then three kickers.
        ("Ah Ad Ks Qc 2d", "Ah Ad Ks Qc 3d"),
        ("Kh Kd As Qc Jd", "Ah Ad 4s 3c 2d"),
        # High card: all five cards count.
        ("Ah Kd Qs Jc 8d", "Ah Kd Qs Jc 9d"),
        ("Ah Kd Qs 3c 2d", "Ah Kd Qs 4c 2d"),
        # The best high card still loses to the smallest pair.
        ("Ah Kd Qs Jc 9d", "2h 2d 3s 4c 6d"),
    ],
)
def test_the_higher_hand_wins(lower, higher):
    assert hand(lower) < hand(higher)
    assert hand(higher) > hand(lower)
    assert hand(lower) != hand(higher)


def test_there_is_no_wrap_around_straight():
    assert hand("Qh Kd As 2c 3d").category == "high_card"
    assert hand("Kh As 2c 3d 4d").category == "high_card"
    assert hand("Qh Kh Ah 2h 3h").category == "flush"


def test_suits_never_rank():
    assert hand("As Ks Qs Js Ts") == hand("Ah Kh Qh Jh Th")
    assert hand("Ah Kd Qs Jc 9d") == hand("As Kh Qd Jd 9c")
    assert hash(hand("Ah Ad 7s 5c 2d")) == hash(hand("As Ac 7d 5h 2c"))


def test_the_board_plays_when_neither_hole_card_improves_it():
    board = "As Kd Qh Jc Ts"
    player = hand(f"2c 3d {board}")
    dealer = hand(f"4h 5s {board}")
    assert player == dealer
    assert not player < dealer and not dealer < player
    assert player.category == "straight"
    assert player.best5_text == ["As", "Kd", "Qh", "Jc", "Ts"]


def test_a_kicker_outside_the_best_five_does_not_count():
    # Both play A A K Q J: the player's 9 and the dealer's 8 are the sixth and seventh cards.
    board = "Ah Ad Kc Qs Jh"
    assert hand(f"9c 2d {board}") == hand(f"8c 3d {board}")


def test_two_pair_kicker_decides_and_a_third_pair_can_be_the_kicker():
    # Board K K 8 8 4: a player with Q plays K K 8 8 Q, the dealer with 6 6 plays K K 8 8 6.
    board = "Kh Kd 8s 8c 4d"
    player, dealer = hand(f"Qc 2h {board}"), hand(f"6c 6h {board}")
    assert player.category == dealer.category == "two_pair"
    assert player > dealer
    # Three pairs: the lowest pair is dropped; its rank can no longer be the kicker over an ace.
    three_pairs = hand("Kh Kd 8s 8c 6d 6h Ac")
    assert three_pairs.best5_text == ["Kh", "Kd", "8s", "8c", "Ac"]
    assert hand("Kh Kd 8s 8c 7d 7h 2c").best5_text == ["Kh", "Kd", "8s", "8c", "7d"]


def test_two_trips_make_a_full_house_with_the_higher_trips():
    value = hand("9c 9d 9h 5s 5c 5d Ac")
    assert value.category == "full_house"
    assert value.best5_text == ["9c", "9d", "9h", "5s", "5c"]
    assert value > hand("9c 9d 9h 4s 4c Ad Kc")


def test_quads_take_the_best_kicker_even_from_a_pair():
    value = hand("7c 7d 7h 7s Kc Kd 2c")
    assert value.category == "four_of_a_kind"
    assert value.best5_text == ["7c", "7d", "7h", "7s", "Kc"]


def test_a_flush_of_six_or_seven_cards_plays_its_five_highest():
    value = hand("2h 9h Kh 4h 6h Jh 3h")
    assert value.category == "flush"
    assert value.best5_text == ["Kh", "Jh", "9h", "6h", "4h"]


def test_a_straight_flush_beats_the_higher_plain_straight_in_the_same_seven():
    value = hand("5h 6h 7h 8h 9h Td Jc")
    assert value.category == "straight_flush"
    assert value.best5_text == ["9h", "8h", "7h", "6h", "5h"]


def test_the_higher_straight_is_taken_from_six_connected_ranks():
    value = hand("Ah 2d 3c 4s 5h 6d")
    assert value.category == "straight"
    assert value.best5_text == ["6d", "5h", "4s", "3c", "2d"]


def test_a_seven_card_flush_beats_the_straight_it_also_holds():
    value = hand("Th Jh Qh 2h 5h Kd Ac")
    assert value.category == "flush"
    assert value.best5_text == ["Qh", "Jh", "Th", "5h", "2h"]


def test_full_house_beats_the_flush_it_also_holds():
    value = hand("Kh Kd Ks 2h 2c 7h 9h")
    assert value.category == "full_house"


def test_six_and_seven_cards_are_the_best_five_of_them():
    assert hand("Ah Ad Ks Qc 2d 3h").best5_text == ["Ah", "Ad", "Ks", "Qc", "3h"]
    assert hand("Ah Ad Ks Qc 2d 3h Jc") == hand("Ah Ad Ks Qc Jc")


def test_among_cards_of_one_rank_the_first_given_are_shown():
    assert hand("8s 8h 8d Ac Kd 2c 3c").best5_text == ["8s", "8h", "8d", "Ac", "Kd"]
    assert hand("Ts Th 9d 8c 7d 6c 6h").best5_text == ["Ts", "9d", "8c", "7d", "6c"]


def test_best_five_are_cards_of_the_hand_and_evaluate_to_the_same_value():
    cards = "Qs Js Ts 3h 4h 2c 2d".split()
    value = evaluate(cards)
    assert set(value.best5_text) <= set(cards)
    assert evaluate(value.best5) == value


def test_evaluate_takes_parsed_cards_and_mixed_case_text():
    assert evaluate(parse_cards(["AS", "KS", "QS", "JS", "10S"])).category == "royal_flush"


@pytest.mark.parametrize("count", [0, 1, 4, 8, 52])
def test_a_hand_of_the_wrong_size_is_refused(count):
    with pytest.raises(InputError) as refused:
        evaluate(DECK[:count])
    assert str(refused.value) == f"a hand is 5, 6 or 7 cards, not {count}"
    assert refused.value.code == "wrong_card_count"


def test_a_hand_with_a_card_twice_is_refused_naming_it():
    with pytest.raises(CardError, match='"Kd" is given twice'):
        evaluate(["As", "Kd", "Qs", "Kd", "Ts"])


def test_a_bad_card_in_a_hand_is_refused_naming_it():
    with pytest.raises(CardError, match='"1x" is not a card'):
        evaluate(["As", "Kd", "Qs", "1x", "Ts"])


def test_hand_values_are_a_total_order_that_sorts():
    hands = [
        hand(h) for h in ["Ah Kd Qs Jc 9d", "2h 2d 3s 4c 6d", "Ac 2c 3c 4c 5c", "Ah 2d 3c 4s 5h"]
    ]
    assert [v.category.value for v in sorted(hands)] == [
        "high_card",
        "pair",
        "straight",
        "straight_flush",
    ]
    assert max(hands).category == "straight_flush"
    assert len({hand("As Ks Qs Js Ts"), hand("Ad Kd Qd Jd Td")}) == 1


def test_the_fast_core_agrees_with_evaluate():
    cards = parse_cards("Qs Js Ts 3h 4h 2c 2d".split())
    value = evaluate(cards)
    assert strength(cards) == strength7(cards) == value.strength
    assert strength7([int(c) for c in cards]) == value.strength
    assert category_of(value.strength) is Category.PAIR


seven_cards = st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True)
suit_renamings = st.permutations(range(4))


def rename_suits(cards: list[Card], renaming: list[int]) -> list[Card]:
    return [Card(c - c % 4 + renaming[c % 4]) for c in cards]


@settings(max_examples=500, deadline=None)
@given(cards=seven_cards, renaming=suit_renamings, data=st.data())
def test_card_order_and_suit_names_never_change_a_hand(cards, renaming, data):
    value = evaluate(cards)
    shuffled = data.draw(st.permutations(cards))
    renamed = rename_suits(shuffled, renaming)
    assert strength7(shuffled) == value.strength
    assert strength7(renamed) == value.strength
    assert evaluate(renamed) == value
    assert evaluate(renamed).category is value.category


@settings(max_examples=300, deadline=None)
@given(cards=seven_cards, size=st.sampled_from([5, 6, 7]))
def test_the_best_five_are_held_and_worth_the_whole_hand(cards, size):
    value = evaluate(cards[:size])
    assert len(value.best5) == 5
    assert set(value.best5) <= set(cards[:size])
    assert strength(value.best5) == value.strength
    # Adding a card never makes a hand worse.
    if size < 7:
        assert evaluate(cards[: size + 1]) >= value
