"""Hostile settlement input (issue 11, item 6): each is refused with the JSON error and exit 2,
never accepted by accident, never a traceback and exit 1."""

import json
import subprocess
import sys

import pytest

from tables.rules.cli import MAX_DEPTH, load_json
from tables.rules.errors import InputError
from tables.rules.settle import settle_json

from .rounds import spec_input
from .test_cli import REPO


def settle_cli(stdin: bytes):
    done = subprocess.run(
        [sys.executable, "-m", "tables.rules", "settle", "-"],
        input=stdin,
        capture_output=True,
        cwd=REPO,
        timeout=60,
    )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def refusal(data) -> InputError:
    with pytest.raises(InputError) as caught:
        settle_json(data)
    return caught.value


def test_an_irregularity_with_a_misspelt_key_is_refused_as_unknown_field():
    data = spec_input()
    data["irregularities"] = [{"kind": "preflop_card_exposed", "knid": "x"}]
    error = refusal(data)
    assert (error.code, error.path) == ("unknown_field", "irregularities[0].knid")


@pytest.mark.parametrize("hole", [["as", "ks"], ["AS", "KS"], ["aS", "kS"]])
def test_hole_cards_in_either_letter_case_settle_as_the_canonical_cards(hole):
    data = spec_input()
    data["seats"][0]["hole"] = hole
    data["board"] = ["qs", "JS", "tS", "3h", "4H"]
    assert settle_json(data)["seats"][0]["best5"] == ["As", "Ks", "Qs", "Js", "Ts"]


@pytest.mark.parametrize("odds", ["٣:٢", "3:٢", "۳:۲", "３:２", "३:२"])
def test_non_ascii_digits_are_not_odds(odds):
    data = spec_input()
    data["rules"] = {"trips_paytable": {"flush": odds}}
    assert refusal(data).code == "bad_paytable"


def test_non_ascii_digits_are_not_a_percentage():
    data = spec_input()
    data["rules"] = {"progressive_paytable": {"royal_flush": "١٠٠%"}}
    assert refusal(data).code == "bad_paytable"


def test_odds_with_thousands_of_digits_are_refused_not_crashed_on():
    data = spec_input()
    data["rules"] = {"trips_paytable": {"flush": "9" * 5000 + ":1"}}
    assert refusal(data).code == "bad_paytable"


@pytest.mark.parametrize(
    "text",
    ["[" * 50000 + "]" * 50000, '{"a":' * 50000 + "1" + "}" * 50000, "[" * (MAX_DEPTH + 1)],
)
def test_deeply_nested_json_is_an_input_error(text):
    if not text.endswith("]"):
        text += "]" * (MAX_DEPTH + 1)
    with pytest.raises(InputError) as caught:
        load_json(text)
    assert caught.value.code == "malformed_json"


def test_nesting_as_deep_as_the_limit_is_still_read():
    assert load_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None


@pytest.mark.parametrize(
    "stdin",
    [
        ("[" * 50000 + "]" * 50000).encode(),
        b'{"board": "\xff\xfe"}',
        b'{"seats": [{"seat": 1, "ante": 1' + b"0" * 5000 + b"}]}",
    ],
    ids=["deep", "not-utf8", "huge-int"],
)
def test_the_cli_answers_hostile_input_with_the_json_error_and_exit_2(stdin):
    code, out, err = settle_cli(stdin)
    assert (code, err) == (2, "")
    assert set(json.loads(out)["error"]) == {"code", "message"}
