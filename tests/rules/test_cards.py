"""Cards: what the dealer may type, what the engine writes back, and what it refuses."""

import pytest

from tables.rules import DECK, Card, CardError, format_card, parse_card, parse_cards, read_card


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("As", "As"),
        ("Td", "Td"),
        ("7c", "7c"),
        ("2h", "2h"),
        ("10h", "Th"),  # a ten may be written 10
        ("10S", "Ts"),
        ("AS", "As"),  # upper-case suits are accepted
        ("KH", "Kh"),
        ("QD", "Qd"),
        ("JC", "Jc"),
        ("as", "As"),  # spec/settle.md: either letter case for ranks too
        ("td", "Td"),
        ("tD", "Td"),
        ("kH", "Kh"),
    ],
)
def test_card_text_is_read_and_written_back_canonical(text, canonical):
    assert format_card(parse_card(text)) == canonical
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize(
    "text, why",
    [
        ("1x", "rank must be one of 2-9 T J Q K A"),
        ("1s", "rank must be one of 2-9 T J Q K A"),
        ("Xs", "rank must be one of 2-9 T J Q K A"),
        ("Ax", "suit must be one of s h d c"),
        ("A♠", "suit must be one of s h d c"),
        ("10x", "suit must be one of s h d c"),
        ("A", 'a card is a rank then a suit, like "As" or "10h"'),
        ("10", 'a card is a rank then a suit, like "As" or "10h"'),
        ("", 'a card is a rank then a suit, like "As" or "10h"'),
        ("As ", 'a card is a rank then a suit, like "As" or "10h"'),
        ("Ace of spades", 'a card is a rank then a suit, like "As" or "10h"'),
    ],
)
def test_a_wrong_card_is_refused_naming_the_card_and_why(text, why):
    with pytest.raises(CardError) as refused:
        parse_card(text)
    assert str(refused.value) == f'"{text}" is not a card: {why}'
    assert refused.value.message == str(refused.value)
    assert refused.value.code == "bad_card"


@pytest.mark.parametrize("not_text", [42, None, 1.5, b"As", True])
def test_something_other_than_text_is_not_a_card(not_text):
    with pytest.raises(CardError, match=r"is not a card: a card is text like \"As\""):
        parse_card(not_text)


def test_a_card_given_twice_is_refused_naming_it_and_where():
    with pytest.raises(CardError) as refused:
        parse_cards(["As", "Kd", "AS"])
    assert str(refused.value) == '"As" is given twice (cards 1 and 3)'
    assert refused.value.code == "duplicate_card"


def test_a_string_is_not_a_list_of_cards():
    with pytest.raises(CardError, match="give each card separately"):
        parse_cards("AsKd")


def test_parse_cards_keeps_the_order_given_and_accepts_parsed_cards():
    ace = parse_card("As")
    assert parse_cards(["Kd", ace, "10c"]) == (parse_card("Kd"), ace, parse_card("Tc"))


def test_the_deck_is_52_distinct_cards_in_rank_then_suit_order():
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert [format_card(c) for c in DECK[:5]] == ["2s", "2h", "2d", "2c", "3s"]
    assert format_card(DECK[-1]) == "Ac"
    assert {c.rank for c in DECK} == set(range(2, 15))
    assert {c.suit for c in DECK} == {"s", "h", "d", "c"}
    assert all(sum(1 for c in DECK if c.rank == r) == 4 for r in range(2, 15))


def test_every_card_round_trips_through_its_text():
    for card in DECK:
        assert parse_card(str(card)) is card
        assert parse_card(card.rank_char + card.suit.upper()) is card
        if card.rank == 10:
            assert parse_card("10" + card.suit) is card


def test_a_card_is_a_small_int_usable_as_a_dict_key():
    ace = parse_card("As")
    assert isinstance(ace, int) and 0 <= ace < 52
    assert {ace: "seat 1"}[parse_card("AS")] == "seat 1"
    assert Card(int(ace)) is ace
    assert repr(ace) == "Card('As')"
    assert f"{ace:>4}" == "  As"
    assert (ace.rank, ace.rank_char, ace.suit) == (14, "A", "s")


@pytest.mark.parametrize("index", [-1, 52, True])
def test_an_index_outside_the_deck_is_not_a_card(index):
    with pytest.raises(CardError, match="is not a card: a card index is an integer from 0 to 51"):
        Card(index)


@pytest.mark.parametrize(
    "text, notation, canonical",
    [
        ("Kh", "en", "Kh"),
        ("10 of hearts", "en", "Th"),
        ("Ace of Spades", "en", "As"),
        ("Ac", "en", "Ac"),  # English: the ace of clubs...
        ("Ac", "fr", "Ah"),  # ...French: l'as de cœur
        ("Rc", "fr", "Kh"),
        ("RC", "fr", "Kh"),
        ("roi de cœur", "fr", "Kh"),
        ("Roi de coeur", "fr", "Kh"),
        ("Dp", "fr", "Qs"),
        ("D pique", "fr", "Qs"),
        ("Dame de pique", "fr", "Qs"),
        ("Vk", "fr", "Jd"),
        ("valet de carreau", "fr", "Jd"),
        ("10t", "fr", "Tc"),
        ("dix de trèfle", "fr", "Tc"),
        ("As de trefle", "fr", "Ac"),
        ("7♦", "fr", "7d"),
        ("7♦", "en", "7d"),
    ],
)
def test_a_typed_card_is_read_in_the_fields_notation(text, notation, canonical):
    assert str(read_card(text, notation)) == canonical


@pytest.mark.parametrize(
    "text, notation",
    [
        ("Rc", "en"),  # a French card on an English field
        ("Ks", "fr"),  # an English card on a French field
        ("as", "fr"),  # a rank without its suit
        ("RcD", "fr"),  # one card only
        ("", "fr"),
        ("1", "en"),
        ("Rcc", "fr"),
    ],
)
def test_a_typed_text_that_is_not_one_card_is_refused(text, notation):
    with pytest.raises(CardError, match="is not one card"):
        read_card(text, notation)


def test_each_notation_prints_its_own_indices():
    from tables.rules.cards import rank_faces

    assert [rank_faces("fr")[r] for r in "AKQJT92"] == ["A", "R", "D", "V", "10", "9", "2"]
    assert [rank_faces("en")[r] for r in "AKQJT92"] == ["A", "K", "Q", "J", "10", "9", "2"]
