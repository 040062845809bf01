"""`python -m tables.parsheet bench`: how long the full analysis takes, and its peak memory.

Each rule set is analysed in a process of its own (its peak memory is then its own), one
after the other, and the figures are printed beside the targets; nothing is asserted: the
time depends on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import TextIO

TARGET_SECONDS = 300
TARGET_MB = 2048

#: The rule sets measured: the standard game and each base-game rule changed alone.
RULE_SETS: dict[str, dict[str, object]] = {
    "standard": {},
    "4x_only": {"preflop_multiples": [4]},
    "3x_only": {"preflop_multiples": [3]},
    "blind_b": {"blind_paytable": "B"},
    "push_unless_dealer_wins": {"ante_when_dealer_not_qualified": "push_unless_dealer_wins"},
}


def _one(name: str, stdout: TextIO) -> int:
    """In the child: analyse one rule set and print what it took as JSON."""
    from tables.rules.ruleset import parse_rules

    from .analysis import analyse

    started = time.perf_counter()
    sheet = analyse(parse_rules(RULE_SETS[name]))
    seconds = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    json.dump(
        {
            "name": name,
            "seconds": seconds,
            "peak_mb": peak_kb / 1024,
            "house_edge": float(sheet.house_edge),
            "element_of_risk": float(sheet.element_of_risk),
        },
        stdout,
    )
    stdout.write("\n")
    return 0


def main(argv: Sequence[str] = (), *, stdout: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    parser = argparse.ArgumentParser(
        prog="python -m tables.parsheet bench",
        description="Time and peak memory of the full analysis of several rule sets.",
    )
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help=f"rule sets to measure: {', '.join(RULE_SETS)}"
    )
    parser.add_argument("--one", choices=list(RULE_SETS), help=argparse.SUPPRESS)
    args = parser.parse_args(list(argv))
    if args.one:
        return _one(args.one, out)
    unknown = [n for n in args.names if n not in RULE_SETS]
    if unknown:
        parser.error(f"unknown rule set {unknown[0]!r}; choose from {', '.join(RULE_SETS)}")
    names = args.names or list(RULE_SETS)
    out.write(
        "The full analysis (52 cards) per rule set, each in its own process."
        " The machine may be shared: times include waiting for the CPU.\n"
    )
    out.write(
        f"{'rule set':<26}{'time':>9}{'target':>9}{'peak memory':>14}{'target':>10}"
        f"{'house edge':>13}{'element of risk':>18}\n"
    )
    for name in names:
        done = subprocess.run(
            [sys.executable, "-m", "tables.parsheet", "bench", "--one", name],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            out.write(f"{name:<26} failed:\n{done.stderr}\n")
            return 1
        r = json.loads(done.stdout)
        out.write(
            f"{name:<26}{r['seconds']:>8.0f}s{TARGET_SECONDS:>8}s{r['peak_mb']:>11.0f} MB"
            f"{TARGET_MB:>7} MB{r['house_edge'] * 100:>12.4f}%{r['element_of_risk'] * 100:>17.4f}%\n"
        )
        out.flush()
    return 0
