"""The engine's refusals in the reader's language: every template and term has its French,
and a French sentence never carries English."""

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.utils import translation

import tables
from tables.engine_text import engine_field, engine_message
from tables.rules import machine
from tables.rules.errors import RulesError
from tables.rules.machine import CardsEntered, apply, settlement_input
from tables.rules.messages import MESSAGES, OR, TERM_CONTEXT, TERMS, WITH_PATH
from tests.rules.test_machine import SPEC_ROUND, at

CATALOGUE = Path(tables.__file__).parent / "locale/fr/LC_MESSAGES/django.mo"
PLACEHOLDER = re.compile(r"%\(\w+\)s|%%")


def _french() -> dict[str, str]:
    with CATALOGUE.open("rb") as mo:
        return gettext.GNUTranslations(mo)._catalog


ENGLISH = [(None, t) for t in (*MESSAGES.values(), OR, WITH_PATH)] + [
    (TERM_CONTEXT, t) for t in TERMS.values()
]


@pytest.mark.parametrize("context, english", ENGLISH, ids=[e for _, e in ENGLISH])
def test_every_template_and_term_of_the_engine_has_its_french_with_the_same_placeholders(
    context, english
):
    key = english if context is None else f"{context}\x04{english}"
    french = _french().get(key)
    assert french, f"no French for {english!r}"
    assert sorted(PLACEHOLDER.findall(french)) == sorted(PLACEHOLDER.findall(english))


def _machine_codes() -> set[str]:
    tree = ast.parse(Path(machine.__file__).read_text())
    return {
        node.value.value
        for node in ast.walk(tree)
        if isinstance(node, ast.keyword)
        and node.arg == "code"
        and isinstance(node.value, ast.Constant)
    }


def _after(*events):
    def state():
        result = at(0)
        for event in events:
            result = apply(result, event)
        return result

    return state


SETTLED = [*SPEC_ROUND, {"kind": "settlement_confirmed"}]
VOID_DECLARED = [
    *SPEC_ROUND[:3],
    {"kind": "irregularity_declared", "irregularity": "duplicate_card"},
]
RIVER_CARD = [*SPEC_ROUND[:7], {"kind": "cards_entered", "place": "board", "cards": ["3h"]}]


def _wagers(**amounts):
    return {"kind": "wagers_placed", "seat": 3, "ante": 100, "blind": 100, **amounts}


# One refusal of each code the state machine gives: (events before, the refused event).
CASES = {
    "bad_event": ([], CardsEntered(place=True, cards=("Qs",))),
    "round_closed": (SETTLED, {"kind": "bets_locked"}),
    "void_pending": (VOID_DECLARED, {"kind": "decision", "seat": 2, "action": "check"}),
    "wrong_stage": ([], {"kind": "decision", "seat": 1, "action": "check"}),
    "bad_seat": ([], {**_wagers(), "seat": 9}),
    "negative_amount": ([], _wagers(trips=-5)),
    "bad_amount": ([], _wagers(ante=0, blind=0)),
    "ante_blind_mismatch": ([], _wagers(blind=90)),
    "bad_progressive_wager": ([], _wagers(progressive=7)),
    "no_wagers": ([], {"kind": "wagers_withdrawn", "seat": 5}),
    "no_seats": ([], {"kind": "bets_locked"}),
    "not_in_round": (SPEC_ROUND[:3], {"kind": "decision", "seat": 5, "action": "check"}),
    "not_to_act": (SPEC_ROUND[:4], {"kind": "decision", "seat": 1, "action": "check"}),
    "illegal_play": (
        SPEC_ROUND[:3],
        {"kind": "decision", "seat": 1, "action": "bet", "multiple": 2},
    ),
    "illegal_action": (SPEC_ROUND[:3], {"kind": "decision", "seat": 2, "action": "fold"}),
    "decisions_pending": (SPEC_ROUND[:4], CardsEntered("board", ("Qs", "Js", "Ts"))),
    "wrong_card_count": (SPEC_ROUND[:5], CardsEntered("board", ("Qs", "Js", "Ts", "9d"))),
    "duplicate_card": (SPEC_ROUND[:9], CardsEntered("dealer", ("Qs", "9d"))),
    "bad_card": (SPEC_ROUND[:5], CardsEntered("board", ("1x", "Js", "Ts"))),
    "no_such_card": (SPEC_ROUND[:10], {"kind": "card_removed", "place": "dealer", "card": "9c"}),
    "card_in_play": (RIVER_CARD, {"kind": "card_removed", "place": "board", "card": "Qs"}),
    "bad_irregularity": ([], {"kind": "irregularity_declared", "irregularity": "oops"}),
    "no_pending_void": ([], {"kind": "void_approved"}),
    "cards_missing": (SPEC_ROUND[:11], {"kind": "settlement_confirmed"}),
}


def _refusal(code: str) -> RulesError:
    if code == "not_ready":
        with pytest.raises(RulesError) as refused:
            settlement_input(at(3))
        return refused.value
    before, event = CASES[code]
    with pytest.raises(RulesError) as refused:
        apply(_after(*before)(), event)
    return refused.value


ENGLISH_WORDS = set(
    "the is not seat seats already board dealer hand stage must only allowed waiting before"
    " card cards no has check fold bet round more this with entry wagers decide there nothing"
    " can happen void approve refuse first legal at of to and in for be are being entered given"
    " placed supervisor open takes receives decision folded settle ready every showdown"
    " betting settled removed rest it wager wrong type exist".split()
)
QUOTED = re.compile(r"«[^»]*»|'[^']*'|\"[^\"]*\"")


def test_the_cases_cover_every_code_of_the_state_machine():
    assert _machine_codes() == {*CASES, "not_ready"}


@pytest.mark.parametrize("code", sorted({*CASES, "not_ready"}))
def test_a_refusal_reads_in_french_without_english_and_in_english_as_the_engine_says(code):
    refusal = _refusal(code)
    assert refusal.code == code
    with translation.override("fr"):
        french = engine_message(refusal)
    with translation.override("en"):
        english = engine_message(refusal)
    assert english == refusal.message
    assert french != english
    # Quoted text is the client's input or an API code, as are snake_case codes.
    words = {w for w in re.findall(r"[A-Za-z_]+", QUOTED.sub("", french)) if "_" not in w}
    assert words & ENGLISH_WORDS == set(), french


@pytest.mark.parametrize(
    "code, french, field",
    [
        ("duplicate_card", "Qs est déjà dans les cartes communes", "cards"),
        (
            "decisions_pending",
            "les places 2 doivent décider avant que d’autres cartes soient données",
            None,
        ),
        (
            "illegal_play",
            "place 1\u00a0: 2x n’est pas une mise Play autorisée au pré-flop (possible\u00a0: 3x ou 4x)",
            "multiple",
        ),
        (
            "illegal_action",
            "place 2\u00a0: « se coucher » n’est pas possible au pré-flop (possible\u00a0: checker, miser 3x, miser 4x)",
            "action",
        ),
        (
            "wrong_stage",
            "une décision n’est pas possible à l’étape prise des mises (seulement\u00a0: pré-flop, flop, river)",
            None,
        ),
        (
            "void_pending",
            "une annulation (carte en double) attend un superviseur\u00a0: approuvez-la ou refusez-la d’abord",
            None,
        ),
        ("cards_missing", "il reste des cartes à saisir pour la place 2", None),
        (
            "ante_blind_mismatch",
            "place 3\u00a0: la Blind (90) doit être égale à l’Ante (100)",
            "blind",
        ),
    ],
)
def test_the_french_sentence_and_the_field_it_names(code, french, field):
    refusal = _refusal(code)
    with translation.override("fr"):
        assert engine_message(refusal) == french
    assert engine_field(refusal) == field


def test_an_input_error_names_its_input_in_words_in_front_of_the_french():
    from tables.rules.errors import InputError
    from tables.rules.ruleset import parse_rules

    with pytest.raises(InputError) as refused:
        parse_rules({"trips_paytable": {"flush": "7x1"}})
    with translation.override("fr"):
        assert engine_message(refused.value) == (
            'Table de paiement Trips, couleur\u00a0: "7x1" n’est pas une cote N:M'
        )
    assert engine_field(refused.value) == "rules.trips_paytable.flush"
