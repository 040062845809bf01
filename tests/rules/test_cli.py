"""`python -m tables.rules settle`, run as a regulator would: a subprocess, JSON in and out."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import tables.rules

from .rounds import SPEC_OUTPUT, spec_input

REPO = Path(tables.rules.__file__).parent.parent.parent


def run(*args, stdin=None):
    done = subprocess.run(
        [sys.executable, "-m", "tables.rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    return done.returncode, done.stdout, done.stderr


def test_settle_a_file_prints_the_specs_output_and_exits_0(tmp_path):
    round_file = tmp_path / "round.json"
    round_file.write_text(json.dumps(spec_input()))
    code, out, err = run("settle", str(round_file))
    assert (code, err) == (0, "")
    assert json.loads(out) == SPEC_OUTPUT
    assert out.count("\n") == 1  # one JSON object, one line


def test_settle_reads_standard_input_with_a_dash():
    code, out, _ = run("settle", "-", stdin=json.dumps(spec_input()))
    assert code == 0
    assert json.loads(out) == SPEC_OUTPUT


def test_a_void_round_exits_0():
    data = spec_input()
    data["irregularities"] = [{"kind": "preflop_card_exposed"}]
    code, out, _ = run("settle", "-", stdin=json.dumps(data))
    assert code == 0
    assert json.loads(out)["void"] == {"reason": "preflop_card_exposed"}


def bad(change):
    data = spec_input()
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    "text, code, message",
    [
        ('{"board": [', "malformed_json", "the input is not valid JSON"),
        ('{"seats": [], "seats": []}', "duplicate_key", '"seats" is given twice'),
        ('{"board": NaN}', "malformed_json", "NaN is not a number"),
        (
            bad(lambda d: d["seats"][1]["hole"].__setitem__(1, "1x")),
            "bad_card",
            'seats[1].hole[1]: "1x" is not a card',
        ),
        (
            bad(lambda d: d["seats"][0].update(blind=500)),
            "ante_blind_mismatch",
            "seats[0].blind: the Blind (500) must equal the Ante (1000)",
        ),
        (
            bad(lambda d: d["seats"][0]["play"].update(multiple=5)),
            "illegal_play",
            "seats[0].play.multiple: 5x is not a legal preflop Play",
        ),
        (bad(lambda d: d["seats"][1].update(seat=1)), "duplicate_seat", "seats[1].seat: seat 1"),
        (bad(lambda d: d["seats"][0].update(trips=-1)), "negative_amount", "seats[0].trips: -1"),
        (
            bad(lambda d: d["seats"][1].update(play={"street": "river", "multiple": 1})),
            "play_or_fold",
            "seats[1]: both play and fold are given",
        ),
        (bad(lambda d: d["seats"][1].update(seat=9)), "bad_seat", "seats[1].seat: 9 is not a seat"),
        (bad(lambda d: d.pop("progressive")), "missing_meter", "progressive: the meter"),
        (
            bad(lambda d: d["seats"][0].update(progressive=200)),
            "bad_progressive_wager",
            "seats[0].progressive: 200",
        ),
    ],
)
def test_wrong_input_exits_2_with_a_json_error_on_stdout(text, code, message):
    exit_code, out, _ = run("settle", "-", stdin=text)
    assert exit_code == 2
    error = json.loads(out)["error"]
    assert error["code"] == code
    assert error["message"].startswith(message), error["message"]
    assert set(json.loads(out)) == {"error"}


def test_an_unreadable_file_exits_2(tmp_path):
    code, out, _ = run("settle", str(tmp_path / "missing.json"))
    assert code == 2
    assert json.loads(out)["error"]["code"] == "unreadable_input"


def test_help_describes_the_commands():
    code, out, _ = run("--help")
    assert code == 0
    assert "settle" in out and "bench" in out
    code, out, _ = run("settle", "--help")
    assert code == 0
    assert "FILE" in out


def test_a_missing_command_is_a_usage_error():
    code, _, err = run()
    assert code == 2
    assert "COMMAND" in err


def test_main_can_be_called_in_process(capsys, tmp_path):
    from tables.rules.cli import main

    round_file = tmp_path / "round.json"
    round_file.write_text(json.dumps(spec_input()))
    assert main(["settle", str(round_file)]) == 0
    assert json.loads(capsys.readouterr().out) == SPEC_OUTPUT
