"""`python -m tables.rules bench`: how fast the engine evaluates hands and settles a round.

It prints its figures beside the project's targets and asserts nothing: speed depends on the
machine. treys (a pure-Python evaluator, a test dependency) is the yardstick when installed;
each engine gets the same random hands in its own card representation, prepared beforehand.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from .cards import DECK, format_card
from .evaluator import evaluate, strength7, warm_up

TARGET = "target: >= 4x treys; 7-seat settlement < 1 ms"


def _per_second(run: Callable[[], None], count: int, repeat: int) -> float:
    """The best of `repeat` timed runs: the least disturbed by the rest of the machine."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def _ours(hands: list[list[int]]) -> Callable[[], None]:
    def run() -> None:
        for hand in hands:
            strength7(hand)

    return run


def _checked(hands: list[list[int]]) -> Callable[[], None]:
    cards = [[DECK[c] for c in hand] for hand in hands]

    def run() -> None:
        for hand in cards:
            evaluate(hand)

    return run


def _treys(hands: list[list[int]]) -> tuple[str, Callable[[], None]] | None:
    try:
        from importlib.metadata import version

        # The yardstick, not a dependency: without it the bench prints our figure alone.
        from treys import Card, Evaluator  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return None
    evaluate = Evaluator().evaluate
    as_treys = [Card.new(format_card(c)) for c in DECK]
    prepared = [([as_treys[c] for c in h[:2]], [as_treys[c] for c in h[2:]]) for h in hands]

    def run() -> None:
        for hole, board in prepared:
            evaluate(hole, board)

    return f"treys {version('treys')}", run


def seven_seat_round(rng: random.Random) -> dict[str, Any]:
    """A full table: seven seats with Ante, Blind, Trips and progressive, every kind of
    decision, dealt from a shuffled deck."""
    deck = [format_card(c) for c in DECK]
    rng.shuffle(deck)
    decisions: list[dict[str, Any]] = [
        {"play": {"street": "preflop", "multiple": 4}},
        {"play": {"street": "preflop", "multiple": 3}},
        {"play": {"street": "flop", "multiple": 2}},
        {"play": {"street": "river", "multiple": 1}},
        {"fold": True},
        {"play": {"street": "preflop", "multiple": 4}},
        {"play": {"street": "river", "multiple": 1}},
    ]
    seats = []
    for seat, decision in enumerate(decisions, start=1):
        ante = 500 * seat
        seats.append(
            {
                "seat": seat,
                "ante": ante,
                "blind": ante,
                "trips": 500,
                "progressive": 100,
                "hole": [deck.pop(), deck.pop()],
                **decision,
            }
        )
    return {
        "version": 1,
        "rules": {},
        "board": [deck.pop() for _ in range(5)],
        "dealer": [deck.pop(), deck.pop()],
        "progressive": {"meter_cents": 2_500_000, "reset_cents": 1_000_000},
        "irregularities": [],
        "seats": seats,
    }


def _settle_median_ms(rounds: int, rng: random.Random) -> str:
    try:
        from .settle import settle_json
    except ImportError as error:
        return f"not measured: tables.rules.settle.settle_json is not available ({error})"
    inputs = [seven_seat_round(rng) for _ in range(rounds)]
    try:
        settle_json(seven_seat_round(rng))  # first call: the evaluator builds its tables
    except Exception as error:  # report, don't crash: the other figures still stand
        return f"not measured: settle_json failed ({type(error).__name__}: {error})"
    times = []
    for round_ in inputs:
        start = time.perf_counter()
        settle_json(round_)
        times.append(time.perf_counter() - start)
    return f"{statistics.median(times) * 1000:.3f} ms (median of {rounds:,})"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tables.rules bench",
        description="Measure 7-card evaluations per second (against treys when installed) "
        "and the time to settle a 7-seat round. Prints figures; asserts nothing.",
    )
    parser.add_argument("--hands", type=int, default=100_000, help="random 7-card hands")
    parser.add_argument("--rounds", type=int, default=1_000, help="7-seat rounds to settle")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best counts")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the random deals")
    return parser


def main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    rng = random.Random(args.seed)
    hands = [rng.sample(range(52), 7) for _ in range(args.hands)]

    start = time.perf_counter()
    warm_up()
    build = time.perf_counter() - start
    ours = _per_second(_ours(hands), len(hands), args.repeat)
    yardstick = _treys(hands)

    print(
        f"tables.rules bench: Python {sys.version.split()[0]}, {len(hands):,} random 7-card "
        f"hands (seed {args.seed}), best of {args.repeat}"
    )
    print(f"  {TARGET}")
    print(f"  lookup tables built in {build:.2f} s (once, on the first evaluation)")
    print(f"  {'tables.rules strength7':<28} {ours:>12,.0f} evaluations/s")
    checked = _per_second(_checked(hands), len(hands), 1)
    print(f"  {'tables.rules evaluate':<28} {checked:>12,.0f} evaluations/s (checked, with best5)")
    if yardstick is None:
        print("  treys is not installed: no comparison (pip install treys)")
    else:
        name, run = yardstick
        theirs = _per_second(run, len(hands), args.repeat)
        print(f"  {name + ' Evaluator.evaluate':<28} {theirs:>12,.0f} evaluations/s")
        print(f"  {'ratio':<28} {ours / theirs:>12.1f}x treys")
    print(f"  {'7-seat settlement':<28} {_settle_median_ms(args.rounds, rng)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
