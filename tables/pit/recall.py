"""The game recall in words: each round event as a surveillance analyst reads it, in the
reader's language (who, the seat, the cards drawn as cards, the amounts in the property's
currency), never as the event's code."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from casino.money import money
from tables.tablet.words import WORDS

RANKS = {
    "A": pgettext_lazy("card rank", "ace"),
    "K": pgettext_lazy("card rank", "king"),
    "Q": pgettext_lazy("card rank", "queen"),
    "J": pgettext_lazy("card rank", "jack"),
    "T": "10",
}
# What the card shows for its rank: the French deck reads R, D, V for king, queen, jack.
FACES = {
    "A": pgettext_lazy("card face", "A"),
    "K": pgettext_lazy("card face", "K"),
    "Q": pgettext_lazy("card face", "Q"),
    "J": pgettext_lazy("card face", "J"),
    "T": "10",
}
SUITS = {
    "s": ("♠", pgettext_lazy("card suit", "spades")),
    "h": ("♥", pgettext_lazy("card suit", "hearts")),
    "d": ("♦", pgettext_lazy("card suit", "diamonds")),
    "c": ("♣", pgettext_lazy("card suit", "clubs")),
}
CARD_NAME = gettext_lazy("%(rank)s of %(suit)s")
WAGERS = ("ante", "blind", "trips", "progressive")


def card(code: str) -> dict:
    """A card as the page draws it: its face, its suit's symbol, red or black, its name."""
    rank, suit = (code[:-1], code[-1:]) if len(code) >= 2 else (code, "")
    symbol, suit_name = SUITS.get(suit, ("", suit))
    return {
        "code": code,
        "face": str(FACES.get(rank, rank)),
        "symbol": symbol,
        "red": suit in ("h", "d"),
        "name": str(CARD_NAME) % {"rank": RANKS.get(rank, rank), "suit": suit_name},
    }


def _place(place) -> str:
    if place == "board":
        return str(WORDS["board"])
    if place == "dealer":
        return str(WORDS["dealer"])
    return _("Seat %(seat)s") % {"seat": place}


def event_words(events: list[dict]) -> list[dict]:
    """Each event of one round, in order, as {"what", "seat", "cards", "amount"} beside the
    event's own fields (`by`, `supervisor`, `at_dt`...). A decision to bet names its amount
    from the seat's Ante, read from the round's own wagers events."""
    antes: dict = {}
    worded = []
    for event in events:
        data = event["event"]
        kind = data.get("kind")
        seat = data.get("seat")
        cards: list[dict] = []
        amount = None
        if kind == "wagers_placed":
            antes[seat] = data.get("ante", 0)
            amount = sum(data.get(bet, 0) or 0 for bet in WAGERS)
            parts = [f"{WORDS[bet]} {money(data[bet])}" for bet in WAGERS if data.get(bet)]
            what = _("Wagers: %(wagers)s") % {"wagers": ", ".join(parts)}
        elif kind == "wagers_withdrawn":
            what = _("Wagers withdrawn")
        elif kind == "bets_locked":
            what = str(WORDS["no_more_bets"])
        elif kind == "decision":
            action = data.get("action")
            if action == "bet":
                multiple = data.get("multiple") or 0
                amount = multiple * antes.get(seat, 0) or None
                what = _("Bets %(multiple)sx (Play)") % {"multiple": multiple}
            elif action == "fold":
                what = _("Folds")
            else:
                what = _("Checks")
        elif kind == "cards_entered":
            cards = [card(c) for c in data.get("cards", [])]
            place = data.get("place")
            seat = place if place not in ("board", "dealer") else None
            what = _place(place) if seat is None else _("Hole cards")
        elif kind == "card_removed":
            cards = [card(data.get("card", ""))]
            place = data.get("place")
            seat = place if place not in ("board", "dealer") else None
            what = _("Card taken back: %(place)s") % {"place": _place(place)}
        elif kind == "irregularity_declared":
            code = data.get("irregularity", "")
            reason = WORDS.get(f"irr.{code}", code)
            what = _("Irregularity declared: %(reason)s") % {"reason": reason}
        elif kind == "void_approved":
            what = _("Void approved: every wager returned")
        elif kind == "void_refused":
            what = _("Void refused: the round goes on")
        elif kind == "settlement_confirmed":
            what = _("Settlement confirmed")
        else:
            what = str(kind)
        worded.append(
            {
                **event,
                "what": what,
                "seat": seat if isinstance(seat, int) or str(seat).isdigit() else None,
                "cards": cards,
                "amount": amount,
            }
        )
    return worded
