"""Every sentence the engine says is a template of `messages`, with a path and parameters."""

import ast
import re
from pathlib import Path

import pytest

import tables.rules
from tables.rules.errors import IllegalAction, InputError
from tables.rules.machine import Action, CardsEntered, Stage, apply
from tables.rules.messages import MESSAGES, TERMS
from tables.rules.paytables import TableKind
from tables.rules.settle import Irregularity, Street, settle_json

from .rounds import spec_input
from .test_machine import at

RULES = Path(tables.rules.__file__).parent
ERRORS = {"RulesError", "CardError", "InputError", "IllegalAction"}


def _string_constants() -> set[str]:
    found = set()
    for source in RULES.glob("*.py"):
        if source.name == "messages.py":
            continue
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return found


def _keys_raised() -> list[str]:
    """The string given as the message key wherever the engine builds an error."""
    keys = []
    for source in RULES.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ERRORS
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                keys.append(node.args[0].value)
    return keys


def test_every_key_the_engine_raises_has_a_template():
    raised = _keys_raised()
    assert len(raised) > 60
    assert [k for k in raised if k not in MESSAGES] == []


def test_every_template_is_said_somewhere():
    assert sorted(set(MESSAGES) - _string_constants()) == []


def test_every_code_a_parameter_holds_has_its_words():
    codes = {
        *(s.value for s in Stage),
        *(s.value for s in Street),
        *(i.value for i in Irregularity),
        *(k.value for k in TableKind),
        "board",
        "dealer",
        "seat:",
        "bet:",
        "ante",
        Action.CHECK.value,
        Action.FOLD.value,
    }
    assert sorted(codes - set(TERMS)) == []


def test_a_template_s_percent_signs_are_escaped():
    for key, template in MESSAGES.items():
        bare = re.sub(r"%\(\w+\)s|%%", "", template)
        assert "%" not in bare, key


def test_an_input_error_names_its_path_and_parameters():
    data = spec_input()
    data["seats"][1]["hole"][1] = "1x"
    with pytest.raises(InputError) as refused:
        settle_json(data)
    error = refused.value
    assert (error.code, error.key, error.path) == ("bad_card", "card.rank", "seats[1].hole[1]")
    assert dict(error.params) == {"text": "1x"}
    assert (
        error.message == 'seats[1].hole[1]: "1x" is not a card: rank must be one of 2-9 T J Q K A'
    )


def test_a_refused_event_names_its_field_and_says_where_the_card_is_in_parameters():
    with pytest.raises(IllegalAction) as refused:
        apply(at(9), CardsEntered(place="dealer", cards=("Qs", "9d")))
    error = refused.value
    assert (error.code, error.key, error.path) == ("duplicate_card", "machine.on_board", "cards")
    assert dict(error.params) == {"card": "Qs", "place": "board"}
    assert error.message == "Qs is already on the board"  # the field is not in the sentence


def test_a_parameter_list_of_codes_is_written_in_words():
    with pytest.raises(IllegalAction) as refused:
        apply(at(11), {"kind": "settlement_confirmed"})
    assert refused.value.params["places"] == (2,)
    assert refused.value.message == "cards are still to be entered for seat 2"
    french = {
        MESSAGES["machine.cards_missing"]: "il manque des cartes pour %(places)s",
        TERMS["seat:"]: "la place %(seat)s",
    }
    assert refused.value.render(lambda context, text: french.get(text, text)) == (
        "il manque des cartes pour la place 2"
    )
