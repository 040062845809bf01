"""`python -m tables.parsheet`: the par sheet as text or JSON, wrong rules refused, the bar."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from fractions import Fraction

import pytest

from tables.parsheet import Deck, analyse
from tables.parsheet.cli import main
from tables.rules import parse_rules

SMALL = ["--ranks", "6789TJQKA", "--suits", "2"]
DECK = Deck((4, 5, 6, 7, 8, 9, 10, 11, 12), 2)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def run(argv, stdin_text=""):
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, stdin=io.StringIO(stdin_text))
    return code, out.getvalue(), err.getvalue()


def test_the_text_sheet_gives_the_exact_edge_and_the_strategy():
    code, out, err = run(SMALL)
    sheet = analyse(parse_rules({}), DECK)
    assert code == 0
    assert f"exactly {sheet.house_edge}" in out
    assert "Element of risk" in out and "Standard deviation" in out
    assert "fold on the river" in out
    assert "Pre-flop 4x" in out and "Pre-flop chart" in out
    assert "Computed in" in out
    assert err == ""  # not a terminal: no progress bar


def test_json_gives_exact_fractions_of_the_rules_read_from_standard_input():
    rules = {"blind_paytable": "B", "preflop_multiples": [3]}
    code, out, _ = run([*SMALL, "--json", "-"], json.dumps(rules))
    assert code == 0
    data = json.loads(out)
    sheet = analyse(parse_rules(rules), DECK)
    assert Fraction(data["house_edge"]["exact"]) == sheet.house_edge
    assert Fraction(data["element_of_risk"]["exact"]) == sheet.element_of_risk
    assert data["rules"]["blind_paytable"] == "B"
    assert sum(o["count"] for o in data["outcomes"]) == sheet.ordered_deals
    assert sum(Fraction(o["probability"]["exact"]) for o in data["outcomes"]) == 1
    assert {h["play"] for h in data["strategy"]["preflop"]} <= {0, 3}


def test_wrong_rules_are_refused_with_exit_2_and_one_json_error():
    code, out, _ = run(["-"], '{"preflop_multiples": [0]}')
    assert code == 2
    assert json.loads(out)["error"]["code"] == "bad_rule"
    code, out, _ = run(["-"], "{not json")
    assert code == 2
    assert json.loads(out)["error"]["code"] == "malformed_json"


def test_odds_too_large_for_exact_integers_are_refused():
    rules = {"blind_paytable": {"royal_flush": "900000000:1"}}
    code, out, _ = run(["-"], json.dumps(rules))
    assert code == 2
    assert json.loads(out)["error"]["code"] == "too_large"


def test_a_deck_too_small_is_refused():
    code, out, _ = run(["--ranks", "AK", "--suits", "2"])
    assert code == 2
    assert json.loads(out)["error"]["code"] == "bad_deck"


def test_the_progress_bar_goes_to_a_terminal_and_is_wiped():
    out, err = io.StringIO(), Terminal()
    assert main(SMALL, stdout=out, stderr=err) == 0
    shown = err.getvalue()
    assert "pass 1 of 2" in shown and "pass 2 of 2" in shown and "100%" in shown
    assert shown.endswith("\r")  # the last thing written clears the line


def test_the_bench_refuses_an_unknown_rule_set():
    done = subprocess.run(
        [sys.executable, "-m", "tables.parsheet", "bench", "nonsense"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "unknown rule set" in done.stderr


@pytest.mark.parametrize("argv", [["--help"], ["bench", "--help"]])
def test_help(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 0
    assert "python -m tables.parsheet" in capsys.readouterr().out
