"""`python -m tables.parsheet [FILE|-]`: the par sheet of a rule set; `... bench`: its speed;
`... bench-decisions`: the speed of pricing a round's decisions.

The rules are a JSON object as in `python -m tables.rules settle` (its `rules`; omitted keys
take their defaults, no FILE means the default rules). `--json` prints the exact figures as
fractions. A progress bar goes to standard error when that is a terminal.

Exit codes: 0 with the sheet printed, 2 when the rules are wrong (one JSON object
`{"error": {"code", "message"}}` on standard output, as `settle` does).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import TextIO

from tables.rules.cards import RANKS
from tables.rules.cli import EXIT_INPUT, EXIT_OK, _read, load_json
from tables.rules.errors import RulesError
from tables.rules.paytables import CATEGORIES
from tables.rules.ruleset import RuleSet, parse_rules

from .analysis import analyse
from .deck import Deck
from .sheet import ParSheet

PHASES = {"tables": "tables", "values": "pass 1 of 2", "outcomes": "pass 2 of 2"}


class ProgressBar:
    """A one-line bar on a terminal: the phase, a bar, the share done and the time so far."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.started = time.perf_counter()
        self.shown = ""

    def __call__(self, phase: str, done: int, total: int) -> None:
        share = done / total if total else 1.0
        filled = int(share * self.width)
        elapsed = time.perf_counter() - self.started
        line = (
            f"\r{PHASES.get(phase, phase):<12} [{'#' * filled}{'.' * (self.width - filled)}]"
            f" {share:4.0%}  {_duration(elapsed)}"
        )
        if line != self.shown:
            self.stream.write(line)
            self.stream.flush()
            self.shown = line

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * len(self.shown) + "\r")
            self.stream.flush()


def _duration(seconds: float) -> str:
    minutes, rest = divmod(int(round(seconds)), 60)
    return f"{minutes}m{rest:02d}s" if minutes else f"{seconds:.1f}s"


def _percent(value: Fraction, places: int = 4) -> str:
    return f"{float(value) * 100:.{places}f} %"


def describe_rules(rules: RuleSet) -> list[str]:
    """The rules that change the base game, in words."""
    multiples = " or ".join(f"{m}x" for m in rules.preflop_multiples)
    blind = rules.to_json()["blind_paytable"]
    ante = {
        "push": "the Ante pushes when the dealer does not qualify",
        "push_unless_dealer_wins": (
            "the Ante pushes when the dealer does not qualify unless the dealer wins"
        ),
    }[rules.ante_when_dealer_not_qualified.value]
    lines = [
        f"Pre-flop Play {multiples}; flop 2x; river 1x or fold.",
        f"Blind paytable {blind if isinstance(blind, str) else json.dumps(blind)}; {ante}.",
    ]
    if rules.payout_unit_cents != 1 or rules.max_payout_cents is not None:
        lines.append(
            "Payout unit and cap: not in these figures (they depend on the stake; see"
            " docs/reference/parsheet.md)."
        )
    return lines


def _street(street: str) -> str:
    if street.startswith("preflop_"):
        return f"pre-flop {street.removeprefix('preflop_')}"
    return {"flop": "flop 2x", "river": "river 1x"}.get(street, street)


def render(sheet: ParSheet) -> str:
    """The par sheet as text."""
    total = sheet.ordered_deals
    out = [
        f"Ultimate Texas Hold'em: the base game under optimal strategy ({sheet.deck.describe()})",
        *describe_rules(sheet.rules),
        "",
        f"House edge per Ante     {_percent(sheet.house_edge):>12}   exactly {sheet.house_edge}",
        f"Element of risk         {_percent(sheet.element_of_risk):>12}",
        f"Average total stake     {float(sheet.average_stake):>10.4f} Antes",
        f"Standard deviation      {sheet.standard_deviation:>10.4f} Antes",
        f"Deals                   {sheet.deals:>,}  (ties, strategy-free: {sheet.ties:,})",
        "",
        "Outcomes (net in Antes: Ante, Blind and Play)     probability        return",
    ]
    paying = {c for c in CATEGORIES if sheet.rules.blind_paytable.get(c) is not None}
    rows: dict[tuple[str, str], list[int | Fraction]] = {}
    for o in sheet.outcomes:
        if o.result == "fold":
            label = "fold on the river"
        elif o.result == "tie":
            label = f"{_street(o.street)}  tie"
        else:
            dealer = "dealer qualifies" if o.dealer == "qualifies" else "dealer does not qualify"
            blind = ""
            if o.result == "win":
                blind = (
                    f", Blind pays {o.category.replace('_', ' ')}"
                    if o.category in paying
                    else ", Blind pushes"
                )
            label = f"{_street(o.street)}  {o.result}, {dealer}{blind}"
        row = rows.setdefault((o.street, label), [0, Fraction(0)])
        row[0] += o.count
        row[1] += o.count * o.net
    for (_, label), (count, amount) in rows.items():
        out.append(
            f"  {label:<58} {float(Fraction(count, total)):>12.8f}  {float(amount / total):>+12.8f}"
        )
    out.append(f"  {'total':<58} {1:>12.8f}  {float(sheet.expected_return):>+12.8f}")
    out += ["", "Strategy"]
    bets = sheet.preflop_bets()
    for m in sorted(bets, reverse=True):
        hands = bets[m]
        out.append(f"  Pre-flop {m}x ({len(hands)} hands): {' '.join(hands) or '-'}")
    checks = [h.name for h in sheet.preflop if not h.play]
    out.append(f"  Pre-flop check ({len(checks)} hands): {' '.join(checks) or '-'}")
    out.append(
        f"  Flop: Play 2x in {sheet.flop_bets:,} of {sheet.flop_situations:,} situations"
        " (holding and flop, after a pre-flop check)"
    )
    out.append(
        f"  River: Play 1x in {sheet.river_bets:,} of {sheet.river_situations:,} situations"
        " (holding, flop, turn and river, after two checks); the others fold"
    )
    out += ["", "Pre-flop chart (suited above the diagonal, offsuit below; . = check)"]
    out += ["  " + line for line in chart(sheet)]
    out += ["", f"Computed in {_duration(sheet.seconds)}."]
    return "\n".join(out)


def chart(sheet: ParSheet) -> list[str]:
    """The 13 x 13 grid of pre-flop choices (ranks of the deck, high first)."""
    plays = {h.name: h.play for h in sheet.preflop}
    ranks = [RANKS[r] for r in reversed(sheet.deck.ranks)]
    lines = ["   " + "  ".join(ranks)]
    for i, row in enumerate(ranks):
        cells = []
        for j, col in enumerate(ranks):
            if i == j:
                name = row + col
            elif j > i:
                name = row + col + "s"
            else:
                name = col + row + "o"
            play = plays.get(name, 0)
            cells.append(str(play) if play else ".")
        lines.append(f"{row}  " + "  ".join(cells))
    return lines


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tables.parsheet",
        description=(
            "The exact par sheet of the Ultimate Texas Hold'em base game (Ante, Blind, Play)"
            " under optimal strategy. `python -m tables.parsheet bench` measures its speed, `bench-decisions` that of"
            " pricing a round's decisions."
        ),
    )
    parser.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="the rules as a JSON object (- for standard input); the default rules if omitted",
    )
    parser.add_argument("--json", action="store_true", help="print JSON with exact fractions")
    parser.add_argument(
        "--ranks",
        default="23456789TJQKA",
        help="a reduced deck's ranks, e.g. TJQKA (a quick look; the figures are the deck's)",
    )
    parser.add_argument("--suits", type=int, default=4, help="a reduced deck's suits (2-4)")
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    stdin: TextIO | None = None,
) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    if args and args[0] == "bench":
        from .bench import main as bench_main

        return bench_main(args[1:], stdout=out)
    if args and args[0] == "bench-decisions":
        from .decisions_bench import main as decisions_bench_main

        return decisions_bench_main(args[1:], stdout=out)
    parsed = _parser().parse_args(args)
    try:
        obj = load_json(_read(parsed.file, stdin or sys.stdin)) if parsed.file else None
        rules = parse_rules(obj)
    except RulesError as error:
        json.dump({"error": {"code": error.code, "message": error.message}}, out)
        out.write("\n")
        return EXIT_INPUT
    try:
        deck = Deck(
            tuple(RANKS.index(r) for r in sorted(set(parsed.ranks), key=RANKS.index)), parsed.suits
        )
    except ValueError as error:
        json.dump({"error": {"code": "bad_deck", "message": str(error)}}, out)
        out.write("\n")
        return EXIT_INPUT
    bar = ProgressBar(err) if err.isatty() else None
    try:
        sheet = analyse(rules, deck, progress=bar)
    except ValueError as error:  # odds beyond what the exact integers hold
        json.dump({"error": {"code": "too_large", "message": str(error)}}, out)
        out.write("\n")
        return EXIT_INPUT
    finally:
        if bar is not None:
            bar.close()
    if parsed.json:
        json.dump(sheet.to_json(), out)
        out.write("\n")
    else:
        out.write(render(sheet) + "\n")
    return EXIT_OK
