"""Playing cards: parsing, canonical text, the 52-card deck.

A `Card` is an `int` from 0 to 51 (`rank_index * 4 + suit_index`), so it is as cheap as an int
to store, hash and compare, and the evaluator can index its tables with it directly. Its text
is always canonical: rank `2-9 T J Q K A` then suit `s h d c` (`As`, `Td`, `7c`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping

from .errors import CardError

RANKS = "23456789TJQKA"
SUITS = "shdc"


class Card(int):
    """One card of the 52. Equal to (and hashed as) its index, so it works as a dict key."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if isinstance(index, Card):
            return index
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 52:
            raise CardError("card.index", value=repr(index))
        return _BY_INDEX[index]

    @property
    def rank(self) -> int:
        """2 to 14 (the ace is 14; it plays low only in the wheel A-2-3-4-5)."""
        return int(self) // 4 + 2

    @property
    def rank_char(self) -> str:
        return RANKS[int(self) // 4]

    @property
    def suit(self) -> str:
        return SUITS[int(self) % 4]

    def __str__(self) -> str:
        return _TEXT[int(self)]

    def __repr__(self) -> str:
        return f"Card('{_TEXT[int(self)]}')"

    def __format__(self, spec: str) -> str:
        return format(_TEXT[int(self)], spec)


_TEXT: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
_BY_INDEX: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
_BY_TEXT: dict[str, Card] = {}
for _card in _BY_INDEX:
    _rank, _suit = _TEXT[_card][0], _TEXT[_card][1]
    # spec/settle.md: either letter case for ranks and suits (no rank letter is also a suit
    # letter, so "as", "AS" and "tD" are never ambiguous), and "10" for a ten.
    for _rank_text in (_rank, _rank.lower(), "10") if _rank == "T" else {_rank, _rank.lower()}:
        _BY_TEXT[_rank_text + _suit] = _card
        _BY_TEXT[_rank_text + _suit.upper()] = _card
del _card, _rank, _suit, _rank_text

#: The 52 cards, deuces first, each rank in suit order s h d c.
DECK: tuple[Card, ...] = _BY_INDEX


def _why_not(text: str) -> str:
    """The message key saying what is wrong with a text that is not a card."""
    if len(text) == 3 and text[:2] == "10":
        return "card.suit"
    if len(text) != 2 or text == "10":
        return "card.shape"
    if text[0].upper() not in RANKS:
        return "card.rank"
    return "card.suit"


def parse_card(card: str | Card) -> Card:
    """`"As"`, `"AS"`, `"as"`, `"10h"`, `"tD"` -> Card: ranks and suits in either case."""
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        found = _BY_TEXT.get(card)
        if found is not None:
            return found
        raise CardError(_why_not(card), text=card)
    raise CardError("card.not_text", value=repr(card))


def parse_cards(cards: Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse several cards; a card given twice is refused, naming it."""
    if isinstance(cards, str):
        raise CardError("card.one_text", text=cards)
    parsed = tuple(parse_card(c) for c in cards)
    if len(set(parsed)) != len(parsed):
        seen: dict[Card, int] = {}
        for position, card in enumerate(parsed):
            if card in seen:
                raise CardError(
                    "card.twice",
                    code="duplicate_card",
                    card=str(card),
                    first=seen[card] + 1,
                    second=position + 1,
                )
            seen[card] = position
    return parsed


def format_card(card: Card | int) -> str:
    """The canonical two-character text of a card."""
    return _TEXT[Card(card)]


def format_cards(cards: Iterable[Card | int]) -> list[str]:
    return [format_card(c) for c in cards]


# --- a card as a dealer types it ---------------------------------------------------------

_DIGITS = {str(n): str(n) for n in range(2, 10)}

#: How a dealer types a card in each language of the tablet: the rank's words, then the
#: suit's words (an optional "de"/"of" between), in lower case without accents: `read_card`
#: folds the typed text the same way. The tablet's script reads these tables from the page
#: and applies the same fold (tables/static/tables/tablet/format.js), so they live here once.
#: French is a French dealer's: As, Roi, Dame, Valet, 10 to 2, then pique, cœur, carreau,
#: trèfle or their initials; carreau's initial is k (French bridge notation), since c is cœur.
#: The two notations disagree on "Ac" (ace of clubs; as de cœur): a field takes one of them,
#: and says which.
NOTATIONS: Mapping[str, Mapping[str, Mapping[str, str]]] = {  # "joins": words between the two
    "en": {
        "ranks": {
            **_DIGITS,
            "10": "T",
            "t": "T",
            "ten": "T",
            "j": "J",
            "jack": "J",
            "q": "Q",
            "queen": "Q",
            "k": "K",
            "king": "K",
            "a": "A",
            "ace": "A",
        },
        "suits": {
            "s": "s",
            "spades": "s",
            "h": "h",
            "hearts": "h",
            "d": "d",
            "diamonds": "d",
            "c": "c",
            "clubs": "c",
            "\u2660": "s",
            "\u2665": "h",
            "\u2666": "d",
            "\u2663": "c",
        },
        "joins": {"of": ""},
    },
    "fr": {
        "ranks": {
            **_DIGITS,
            "10": "T",
            "dix": "T",
            "v": "J",
            "valet": "J",
            "d": "Q",
            "dame": "Q",
            "r": "K",
            "roi": "K",
            "a": "A",
            "as": "A",
        },
        "suits": {
            "p": "s",
            "pique": "s",
            "c": "h",
            "coeur": "h",
            "k": "d",
            "carreau": "d",
            "t": "c",
            "trefle": "c",
            "\u2660": "s",
            "\u2665": "h",
            "\u2666": "d",
            "\u2663": "c",
        },
        "joins": {"de": ""},
    },
}


def rank_faces(notation: str) -> dict[str, str]:
    """The index printed on each rank in `notation`, canonical rank -> face ("K" -> "R" in
    French): its one-letter word, 10 for the ten. The tablet draws its cards with these."""
    faces = {rank: rank for rank in RANKS}
    for word, rank in NOTATIONS[notation]["ranks"].items():
        if len(word) == 1 and word.isalpha():
            faces[rank] = word.upper()
    faces["T"] = "10"
    return faces


def fold_typed(text: str) -> str:
    """Lower case, no accents, no spaces: "Roi de Cœur" -> "roidecoeur"."""
    text = text.lower().replace("\u0153", "oe")
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return "".join(text.split())


def read_card(text: str, notation: str = "en") -> Card:
    """A card as a dealer types it in `notation` ("en" or "fr"): a rank word then a suit
    word from NOTATIONS, any case, accents and spaces optional ("Kh", "10 of hearts"; "Rc",
    "roi de cœur", "10t", "D pique"). Raises CardError when it is not one card."""
    table = NOTATIONS[notation]
    folded = fold_typed(text)
    # The longest rank word first: "10" before "1", "as" before "a", "dame" before "d".
    for rank_word in sorted(table["ranks"], key=len, reverse=True):
        if not folded.startswith(rank_word):
            continue
        rest = folded[len(rank_word) :]
        for join in table["joins"]:
            if rest.startswith(join) and rest[len(join) :] in table["suits"]:
                rest = rest[len(join) :]
                break
        suit = table["suits"].get(rest)
        if suit is not None:
            return _BY_TEXT[table["ranks"][rank_word] + suit]
    raise CardError("card.typed", text=text)
