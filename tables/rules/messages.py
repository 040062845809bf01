"""Every sentence the engine can say, once, in English, and how its parameters are written.

An error carries a message `key`, the `path` of the input it names and its `params`
(`errors.RulesError`); its English `message` is `MESSAGES[key] % params`, prefixed by the path
where the error class shows it (`seats[1].hole[1]: "1x" is not a card: ...`). Parameters that
are codes (a stage, a place, a bet, an irregularity...) are written with `TERMS`, so that
`render(..., translate=...)` in the Django layer can say the same sentence in French from its
catalogue (terms under the context TERM_CONTEXT): `gettext_noop` and `pgettext` below only mark
the strings for `makemessages`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeAlias

#: A parameter: a plain value, or a list of them.
Param: TypeAlias = str | int | tuple[str | int, ...]
#: A translation: (context or None, English text) -> the text in the reader's language.
Translate: TypeAlias = Callable[[str | None, str], str]
#: The gettext context of TERMS: short words such as "void" or "progressive" mean something
#: else in other parts of the project's catalogue.
TERM_CONTEXT = "rules engine"


def gettext_noop(message: str) -> str:
    """Marks an English template for extraction into the Django catalogue; returns it as is."""
    return message


def pgettext(context: str, message: str) -> str:
    """Marks an English term for extraction with its context (Django's `pgettext` keyword);
    returns it as is: the engine itself speaks English."""
    return message


def _english(context: str | None, message: str) -> str:
    return message


MESSAGES: Mapping[str, str] = {
    # cards
    "card.index": gettext_noop("%(value)s is not a card: a card index is an integer from 0 to 51"),
    "card.shape": gettext_noop(
        '"%(text)s" is not a card: a card is a rank then a suit, like "As" or "10h"'
    ),
    "card.rank": gettext_noop('"%(text)s" is not a card: rank must be one of 2-9 T J Q K A'),
    "card.suit": gettext_noop('"%(text)s" is not a card: suit must be one of s h d c'),
    "card.typed": gettext_noop('"%(text)s" is not one card'),
    "card.not_text": gettext_noop('%(value)s is not a card: a card is text like "As"'),
    "card.one_text": gettext_noop('"%(text)s" is not a list of cards: give each card separately'),
    "card.twice": gettext_noop('"%(card)s" is given twice (cards %(first)s and %(second)s)'),
    "hand.card_count": gettext_noop("a hand is 5, 6 or 7 cards, not %(count)s"),
    # the shape of an input document (settle.md, a rules object)
    "input.not_json": gettext_noop("the input is not valid JSON: %(error)s"),
    "input.too_deep": gettext_noop(
        "the input is nested more than %(depth)s levels deep: a round is a few levels at most"
    ),
    "input.not_a_number": gettext_noop("%(value)s is not a number: amounts are integer cents"),
    "input.key_twice": gettext_noop("%(key)s is given twice in one object"),
    "input.unreadable": gettext_noop("%(source)s: cannot read the file (%(error)s)"),
    "input.version": gettext_noop(
        "%(value)s is not supported (this engine speaks version %(version)s)"
    ),
    "input.not_object": gettext_noop("%(value)s is not an object"),
    "input.not_list": gettext_noop("%(value)s is not a list"),
    "input.unknown_field": gettext_noop("unknown field (expected %(fields)s)"),
    "input.missing": gettext_noop("missing"),
    "input.not_cents": gettext_noop("%(value)s is not an integer number of cents"),
    "input.not_cards": gettext_noop("%(value)s is not a list of cards"),
    "input.not_seat_number": gettext_noop("%(value)s is not a seat number"),
    "input.not_bool": gettext_noop("%(value)s is not true or false"),
    "input.play_and_fold": gettext_noop(
        "both play and fold are given; a seat either plays or folds"
    ),
    "input.neither_play_nor_fold": gettext_noop(
        'neither play nor "fold": true is given; a seat either plays or folds'
    ),
    "input.not_street": gettext_noop("%(value)s is not preflop, flop or river"),
    "input.not_multiple": gettext_noop("%(value)s is not an integer multiple"),
    "input.not_irregularity_object": gettext_noop('%(value)s is not an object {"kind": ...}'),
    "input.not_irregularity": gettext_noop("%(value)s is not an irregularity (%(irregularities)s)"),
    # a round to settle
    "round.no_seats": gettext_noop("a round has at least one seat"),
    "round.not_seat": gettext_noop("%(seat)s is not a seat: seats are numbered 1 to 7"),
    "round.seat_twice": gettext_noop("seat %(seat)s is listed twice (also at %(other)s)"),
    "round.negative": gettext_noop("%(amount)s is negative: amounts are cents, 0 or more"),
    "round.ante_required": gettext_noop("the Ante is required (more than 0)"),
    "round.blind_not_ante": gettext_noop("the Blind (%(blind)s) must equal the Ante (%(ante)s)"),
    "round.progressive_wager": gettext_noop(
        "%(amount)s is not the table's progressive wager (%(wager)s cents)"
    ),
    "round.meter_required": gettext_noop(
        "the meter (meter_cents, reset_cents) is required when a seat has a progressive wager"
    ),
    "round.negative_meter": gettext_noop("%(amount)s is negative"),
    "round.illegal_play": gettext_noop(
        "%(multiple)sx is not a legal %(street)s Play (this table allows %(multiples)s)"
    ),
    # a rules object
    "rules.not_object": gettext_noop("%(value)s is not an object of rules"),
    "rules.unknown": gettext_noop("unknown rule (the rules are %(rules)s)"),
    "rules.not_multiples": gettext_noop(
        "%(value)s is not a list of pre-flop multiples like [3, 4]"
    ),
    "rules.not_multiple": gettext_noop("%(value)s is not a Play multiple (an integer, 1 or more)"),
    "rules.multiple_twice": gettext_noop("%(value)s lists a multiple twice"),
    "rules.not_preset": gettext_noop(
        "%(value)s is not a known %(table)s paytable (presets: %(presets)s;"
        " or give an explicit object)"
    ),
    "rules.no_preset": gettext_noop(
        "%(value)s is not a known %(table)s paytable (presets: none; or give an explicit object)"
    ),
    "rules.not_choice": gettext_noop("%(value)s is not %(choices)s"),
    "rules.envy_min_too_small": gettext_noop(
        "%(value)s is too small: the Envy minimum wager is 0 or more cents"
    ),
    "rules.wager_too_small": gettext_noop(
        "%(value)s is too small: the progressive wager is 1 cent or more"
    ),
    "rules.unit_too_small": gettext_noop(
        "%(value)s is too small: the payout unit is 1 cent or more"
    ),
    "rules.cap_too_small": gettext_noop(
        "%(value)s is too small: a payout cap is 1 cent or more, or null for none"
    ),
    # paytables
    "paytable.not_object": gettext_noop(
        "%(value)s is not a paytable: give an object from category to value"
    ),
    "paytable.not_category": gettext_noop("not a hand category (one of %(categories)s)"),
    "paytable.not_envy_amount": gettext_noop(
        "%(value)s is not an amount: Envy pays an integer number of cents"
    ),
    "paytable.negative_envy": gettext_noop(
        "%(value)s is negative: an Envy amount is 0 or more cents"
    ),
    "paytable.not_odds": gettext_noop("%(value)s is not odds N:M"),
    "paytable.not_odds_or_percent": gettext_noop(
        "%(value)s is not odds N:M or a percentage of the meter P%%"
    ),
    "paytable.zero_stake": gettext_noop(
        "%(value)s is not odds N:M: M (the stake it pays for) must be 1 or more"
    ),
    "paytable.percent_not_progressive": gettext_noop(
        "%(value)s is a percentage of the meter, which only a progressive paytable may pay;"
        " use odds N:M"
    ),
    "paytable.percent_range": gettext_noop("%(value)s is outside 0%% to 100%% of the meter"),
    "paytable.negative_odds": gettext_noop("%(value)s is negative: odds are N:M with N, M >= 0"),
    # the math of a paytable (paymath.check_paytable): refused, then warned
    "paytable.pays_nothing": gettext_noop(
        "%(category)s: %(value)s pays nothing; leave the line out"
    ),
    "paytable.odds_too_low": gettext_noop(
        "%(category)s: %(value)s pays less than %(bound)s, too little for a winning line"
    ),
    "paytable.odds_too_high": gettext_noop(
        "%(category)s: %(value)s pays more than %(bound)s; that line alone would give back"
        " more than everything staked on the bet"
    ),
    "paytable.envy_too_high": gettext_noop(
        "%(category)s: %(value)s is more than %(bound)s; that line alone would cost more per"
        " other seat than the progressive wager"
    ),
    "paytable.no_winning_line": gettext_noop("the %(table)s paytable has no winning line"),
    "paytable.player_edge": gettext_noop(
        "the player has the edge: this table pays back %(edge)s%% more than is staked"
    ),
    "paytable.far_from_presets": gettext_noop(
        "%(category)s: %(value)s is far from the presets (more than twice or less than half"
        " of what they pay)"
    ),
    "paytable.not_in_presets": gettext_noop("%(category)s: no preset pays this hand"),
    "paytable.out_of_order": gettext_noop("%(category)s pays more than %(better)s, a better hand"),
    # the round's state machine
    "event.unknown": gettext_noop("%(value)s is not an event (one of %(kinds)s)"),
    "event.unknown_fields": gettext_noop("%(event)s: unknown field %(fields)s"),
    "event.missing_fields": gettext_noop("%(event)s: missing field %(fields)s"),
    "event.wrong_type": gettext_noop("%(event)s.%(field)s: %(value)s has the wrong type"),
    "event.not_place": gettext_noop("%(value)s is not a place: board, dealer or a seat number"),
    "machine.no_such_seat": gettext_noop("seat %(seat)s does not exist: seats are 1 to 7"),
    "machine.round_closed": gettext_noop("the round is %(stage)s: nothing more can happen in it"),
    "machine.void_pending": gettext_noop(
        "a void (%(reason)s) is waiting for a supervisor: approve or refuse it first"
    ),
    "machine.wrong_stage": gettext_noop(
        "%(step)s is not possible at the %(stage)s stage (only at: %(stages)s)"
    ),
    "machine.declare_wrong_stage": gettext_noop(
        "declaring %(irregularity)s is not possible at the %(stage)s stage (only at: %(stages)s)"
    ),
    "machine.seat_not_open": gettext_noop("seat %(seat)s is not open at this table"),
    "machine.negative": gettext_noop(
        "seat %(seat)s: the %(bet)s must be a whole number of cents, 0 or more"
    ),
    "machine.ante_required": gettext_noop("seat %(seat)s: the Ante is required"),
    "machine.blind_not_ante": gettext_noop(
        "seat %(seat)s: the Blind (%(blind)s) must equal the Ante (%(ante)s)"
    ),
    "machine.progressive_wager": gettext_noop(
        "seat %(seat)s: the progressive wager is %(wager)s cents at this table, not %(amount)s"
    ),
    "machine.no_wagers": gettext_noop("seat %(seat)s has no wagers to withdraw"),
    "machine.no_seats": gettext_noop("no seat has placed wagers: there is no round to deal"),
    "machine.not_in_round": gettext_noop("seat %(seat)s is not in this round"),
    "machine.folded": gettext_noop("seat %(seat)s has folded: no decision is due at the %(stage)s"),
    "machine.already_bet": gettext_noop(
        "seat %(seat)s has already bet: no decision is due at the %(stage)s"
    ),
    "machine.already_decided": gettext_noop(
        "seat %(seat)s has already decided: no decision is due at the %(stage)s"
    ),
    "machine.cards_being_entered": gettext_noop(
        "the next cards are being entered: finish or remove them first"
    ),
    "machine.illegal_play": gettext_noop(
        "seat %(seat)s: %(multiple)sx is not a legal Play at the %(street)s"
        " (allowed: %(multiples)s)"
    ),
    "machine.illegal_action": gettext_noop(
        "seat %(seat)s: '%(action)s' is not possible at the %(street)s (allowed: %(actions)s)"
    ),
    "machine.no_card": gettext_noop("no card given"),
    "machine.decisions_pending": gettext_noop(
        "seats %(seats)s must decide before more cards are dealt"
    ),
    "machine.no_card_now": gettext_noop("%(place)s receives no card at the %(stage)s stage"),
    "machine.too_many_cards": gettext_noop(
        "%(place)s takes %(expected)s more card(s) now, not %(count)s"
    ),
    "machine.on_board": gettext_noop("%(card)s is already on the board"),
    "machine.in_dealer_hand": gettext_noop("%(card)s is already in the dealer's hand"),
    "machine.in_seat_hand": gettext_noop("%(card)s is already in seat %(seat)s's hand"),
    "machine.in_this_entry": gettext_noop("%(card)s is already in this entry"),
    "machine.not_on_board": gettext_noop("%(card)s is not on the board"),
    "machine.not_in_dealer_hand": gettext_noop("%(card)s is not in the dealer's hand"),
    "machine.not_in_seat_hand": gettext_noop("%(card)s is not in seat %(seat)s's hand"),
    "machine.card_in_play": gettext_noop(
        "%(card)s cannot be removed: decisions or later cards rest on it"
    ),
    "machine.no_pending_void": gettext_noop("no void is waiting for approval"),
    "machine.cards_missing": gettext_noop("cards are still to be entered for %(places)s"),
    "machine.not_ready": gettext_noop(
        "the round is not ready to settle: every card must be entered at showdown"
    ),
}

#: The words for the codes a message's parameters hold (a stage, a place, a bet...). A code
#: means one thing everywhere: the Blind bet and the Blind paytable are both "blind".
TERMS: Mapping[str, str] = {
    # stages and streets
    "betting": pgettext("rules engine", "betting"),
    "preflop": pgettext("rules engine", "preflop"),
    "flop": pgettext("rules engine", "flop"),
    "river": pgettext("rules engine", "river"),
    "showdown": pgettext("rules engine", "showdown"),
    "settled": pgettext("rules engine", "settled"),
    "void": pgettext("rules engine", "void"),
    # places
    "board": pgettext("rules engine", "the board"),
    "dealer": pgettext("rules engine", "the dealer"),
    "seat:": pgettext("rules engine", "seat %(seat)s"),
    # irregularities (and the void reasons they give)
    "preflop_card_exposed": pgettext("rules engine", "preflop_card_exposed"),
    "community_card_exposed": pgettext("rules engine", "community_card_exposed"),
    "card_drawn_in_error_unexposed": pgettext("rules engine", "card_drawn_in_error_unexposed"),
    "wrong_card_count": pgettext("rules engine", "wrong_card_count"),
    "duplicate_card": pgettext("rules engine", "duplicate_card"),
    # bets and the paytables that settle them
    "ante": pgettext("rules engine", "ante"),
    "blind": pgettext("rules engine", "blind"),
    "trips": pgettext("rules engine", "trips"),
    "progressive": pgettext("rules engine", "progressive"),
    "envy": pgettext("rules engine", "envy"),
    # hand categories
    "royal_flush": pgettext("rules engine", "royal flush"),
    "straight_flush": pgettext("rules engine", "straight flush"),
    "four_of_a_kind": pgettext("rules engine", "four of a kind"),
    "full_house": pgettext("rules engine", "full house"),
    "flush": pgettext("rules engine", "flush"),
    "straight": pgettext("rules engine", "straight"),
    "three_of_a_kind": pgettext("rules engine", "three of a kind"),
    "two_pair": pgettext("rules engine", "two pair"),
    "pair": pgettext("rules engine", "pair"),
    "high_card": pgettext("rules engine", "high card"),
    # decisions
    "check": pgettext("rules engine", "check"),
    "fold": pgettext("rules engine", "fold"),
    "bet:": pgettext("rules engine", "bet:%(multiple)s"),
    # steps of a round, for "... is not possible at this stage"
    "place_wagers": pgettext("rules engine", "placing wagers"),
    "withdraw_wagers": pgettext("rules engine", "withdrawing wagers"),
    "lock_bets": pgettext("rules engine", "locking the bets"),
    "decide": pgettext("rules engine", "a decision"),
    "remove_dealer_card": pgettext("rules engine", "removing a dealer card"),
    "remove_hole_card": pgettext("rules engine", "removing a hole card"),
    "confirm_settlement": pgettext("rules engine", "confirming the settlement"),
}

#: The parameters whose values are codes of TERMS, alone or in a list. A value that is no
#: code (text a client sent) is shown as it is. A seat number is a place (`seat:`), `bet:3` a
#: decision (`bet:`).
TERM_PARAMS = frozenset(
    {"stage", "stages", "street", "place", "places", "reason", "irregularity", "bet", "table"}
    | {"step", "action", "actions", "category", "better"}
)
#: List parameters read as alternatives ("3x or 4x"), with how each item is written; the
#: other lists are joined with commas.
OR_LISTS: Mapping[str, str] = {"multiples": "%sx", "presets": '"%s"', "choices": '"%s"'}
OR = gettext_noop(" or ")
WITH_PATH = gettext_noop("%(path)s: %(message)s")


def _term(value: str | int, translate: Translate) -> str:
    if isinstance(value, int):
        return translate(TERM_CONTEXT, TERMS["seat:"]) % {"seat": value}
    head, colon, multiple = value.partition(":")
    if colon and head + colon in TERMS:
        return translate(TERM_CONTEXT, TERMS[head + colon]) % {"multiple": multiple}
    return translate(TERM_CONTEXT, TERMS[value]) if value in TERMS else value


def _written(name: str, value: Param, translate: Translate) -> str:
    def item(one: str | int) -> str:
        if name in TERM_PARAMS:
            return _term(one, translate)
        return OR_LISTS.get(name, "%s") % (one,)

    if not isinstance(value, tuple):
        return item(value)
    return (translate(None, OR) if name in OR_LISTS else ", ").join(item(one) for one in value)


def render(
    key: str,
    params: Mapping[str, Param],
    path: str | None = None,
    *,
    translate: Translate | None = None,
) -> str:
    """The sentence `key` says with `params`, after `path` when one is given, in the language
    of `translate` (English without one)."""
    if translate is None:
        translate = _english
    text = translate(None, MESSAGES[key]) % {
        name: _written(name, value, translate) for name, value in params.items()
    }
    if path is None:
        return text
    return translate(None, WITH_PATH) % {"path": path, "message": text}
