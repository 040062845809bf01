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


# --- math --------------------------------------------------------------------------------------


def test_math_trips_prints_the_house_edge_of_a_preset():
    code, out, err = run("math", "--trips", "C")
    assert (code, err) == (0, "")
    assert "house edge:    3.4979 % of the Trips bet" in out
    assert "hit frequency: 15.2700 %" in out
    assert "royal flush" in out and "4,324" in out


def test_math_trips_json_gives_exact_fractions_and_percentages():
    code, out, _ = run("math", "--trips", "A", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["house_edge"]["percent"] == "0.9018"
    numerator, denominator = map(int, data["house_edge"]["exact"].split("/"))
    assert 0.009017 < numerator / denominator < 0.009019
    assert [line["category"] for line in data["lines"]][:2] == ["royal_flush", "straight_flush"]
    assert data["lines"][0] | {"probability": None, "contribution": None} == {
        "category": "royal_flush",
        "pays": "50:1",
        "hands": 4324,
        "probability": None,
        "contribution": None,
    }
    assert data["findings"] == []


def test_math_trips_reads_a_paytable_file_and_reports_its_refusals(tmp_path):
    table = tmp_path / "trips.json"
    table.write_text(json.dumps({"royal_flush": "1000000000:1", "flush": "0:1"}))
    code, out, _ = run("math", "--trips", str(table), "--json")
    assert code == 0
    findings = {f["code"]: f for f in json.loads(out)["findings"]}
    assert set(findings) == {"odds_too_high", "pays_nothing"}
    assert findings["pays_nothing"]["severity"] == "refuse"
    assert findings["pays_nothing"]["message"] == "flush: 0:1 pays nothing; leave the line out"


def test_math_progressive_gives_the_return_at_the_meter_and_reset_and_the_break_even(tmp_path):
    table = tmp_path / "progressive.json"
    table.write_text(json.dumps({"royal_flush": "100%", "straight_flush": "10%", "flush": "40:1"}))
    code, out, _ = run(
        "math", "--progressive", str(table), "--meter", "2500000", "--reset", "1000000", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert (data["meter_cents"], data["reset_cents"], data["wager_cents"]) == (
        2500000,
        1000000,
        100,
    )
    assert data["lines"][0]["amount_cents"] == 2500000
    assert data["lines"][1]["amount_cents"] == 250000
    assert isinstance(data["break_even_meter_cents"], int)
    assert float(data["expected_return"]["percent"]) > float(
        data["expected_return_at_reset"]["percent"]
    )
    code, text, _ = run("math", "--progressive", "default", "--meter", "2500000")
    assert code == 0
    assert "return at the meter: 63.2390 %" in text
    assert "break-even meter: 15,071,110 cents" in text


def test_math_envy_gives_the_cost_per_other_seat():
    code, out, _ = run("math", "--envy", "default", "--json")
    assert code == 0
    data = json.loads(out)
    # (4 x 100,000 + 36 x 10,000) / 2,598,960 cents
    assert data["cost_per_other_seat_cents"] == "9500/32487"
    assert data["cost_per_wager"]["percent"] == "0.2924"
    code, text, _ = run("math", "--envy", "default")
    assert "cost per other seat: 0.2924 cents" in text


def test_math_counts_lists_both_hand_counts():
    code, out, _ = run("math", "--counts", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["seven_card"]["royal_flush"] == 4324
    assert sum(data["five_card"].values()) == 2_598_960


@pytest.mark.parametrize(
    "args, code",
    [
        (["--progressive", "default"], "missing_meter"),
        (["--progressive", "default", "--meter", "-5"], "negative_amount"),
        (["--envy", "default", "--wager", "0"], "bad_rule"),
        (["--trips", "Z"], "unreadable_input"),
    ],
)
def test_math_with_wrong_input_exits_2_with_a_json_error(args, code):
    exit_code, out, _ = run("math", *args)
    assert exit_code == 2
    assert json.loads(out)["error"]["code"] == code


def test_math_with_a_wrong_paytable_exits_2(tmp_path):
    code, out, _ = run("math", "--trips", "-", stdin=json.dumps({"flush": "10%"}))
    assert code == 2
    assert json.loads(out)["error"]["code"] == "bad_paytable"


def test_math_needs_one_table():
    code, _, err = run("math")
    assert code == 2
    assert "--trips" in err
