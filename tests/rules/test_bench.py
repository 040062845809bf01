"""`python -m tables.rules bench` prints its figures beside the targets (and asserts no speed)."""

import re

from tables.rules.bench import main


def test_the_bench_prints_both_engines_their_ratio_settlement_and_the_targets(capsys):
    assert main(["--hands", "3000", "--rounds", "30", "--repeat", "1", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "target: >= 4x treys; 7-seat settlement < 1 ms" in out
    assert re.search(r"tables\.rules strength7 +[\d,]+ evaluations/s", out)
    assert re.search(r"treys [\d.]+ Evaluator\.evaluate +[\d,]+ evaluations/s", out)
    assert re.search(r"ratio +\d+\.\dx treys", out)
    assert re.search(r"7-seat settlement +\d+\.\d{3} ms \(median of 30\)", out)


def test_the_bench_runs_through_the_cli(capsys):
    from tables.rules.cli import main as cli_main

    assert cli_main(["bench", "--hands", "500", "--rounds", "5", "--repeat", "1"]) == 0
    assert "evaluations/s" in capsys.readouterr().out
