"""`python -m tables.parsheet bench-decisions`: how long pricing a round's decisions takes.

The standard game's sheet is analysed (about a minute and a half; `--keep DIR` keeps it, as
the product stores it: the JSON and the flop values' bytes, so a second run loads it), loaded
as a worker loads it, then rounds of seven seats dealt at random with random decisions are
priced one by one. Printed beside the target; nothing asserted (the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from tables.rules.cards import DECK, format_card
from tables.rules.ruleset import parse_rules

from .analysis import analyse
from .decisions import StoredValues, river_ranks, round_costs

TARGET_MS = 20.0


def _round(rng: random.Random, seats: int) -> dict:
    cards = [format_card(c) for c in rng.sample(DECK, 5 + 2 * seats)]
    board, holes = cards[:5], cards[5:]
    entries = []
    for i in range(seats):
        seat = {"seat": i + 1, "ante": 1000, "hole": holes[2 * i : 2 * i + 2]}
        street = rng.choice(["preflop", "flop", "river", None])
        multiple = {"preflop": rng.choice([3, 4]), "flop": 2, "river": 1}.get(street or "", 0)
        seat.update(
            {"play": {"street": street, "multiple": multiple}} if street else {"fold": True}
        )
        entries.append(seat)
    return {"board": board, "seats": entries}


def _stored(keep: Path | None, out: TextIO) -> tuple[dict, bytes]:
    if keep and (keep / "sheet.json").exists():
        return json.loads((keep / "sheet.json").read_text()), (keep / "flop.bin").read_bytes()
    out.write("Analysing the standard game (52 cards)...\n")
    out.flush()
    sheet = analyse(parse_rules({}))
    found = sheet.to_json(), sheet.flop_values.to_bytes()
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / "sheet.json").write_text(json.dumps(found[0]))
        (keep / "flop.bin").write_bytes(found[1])
    return found


def main(argv: Sequence[str] = (), *, stdout: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    parser = argparse.ArgumentParser(
        prog="python -m tables.parsheet bench-decisions",
        description="Time to price the decisions of one round (seven seats), per round.",
    )
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=7, choices=range(1, 8))
    parser.add_argument("--keep", type=Path, help="a directory to keep the analysed sheet in")
    args = parser.parse_args(list(argv))
    sheet_json, flop = _stored(args.keep, out)
    started = time.perf_counter()
    values = StoredValues.load(sheet_json, flop)
    loaded = time.perf_counter() - started
    started = time.perf_counter()
    river_ranks(values.deck)
    rng = random.Random(27)
    round_costs(values, _round(rng, args.seats))  # the deck's index tables, once per worker
    tables = time.perf_counter() - started
    rounds = [_round(rng, args.seats) for _ in range(args.rounds)]
    times = []
    for r in rounds:
        started = time.perf_counter()
        round_costs(values, r)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    out.write(
        f"flop values stored: {len(flop):,} bytes compressed"
        f" ({values.flop_values.sums.nbytes:,} in memory)\n"
        f"once per worker: loading {loaded:.2f} s, rank tables {tables:.2f} s\n"
        f"{args.rounds} rounds of {args.seats} seats, per round:"
        f" median {statistics.median(times):.2f} ms, 99th percentile"
        f" {times[int(0.99 * (len(times) - 1))]:.2f} ms, max {times[-1]:.2f} ms"
        f" (target {TARGET_MS:.0f} ms)\n"
    )
    return 0
