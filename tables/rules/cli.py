"""`python -m tables.rules`: settle a round from JSON (`settle FILE|-`), the exact math of a
paytable (`math --trips C`, `math --progressive FILE --meter CENTS`, `math --envy FILE`,
`math --counts`; `--json` for JSON), or run the benchmark.

Exit codes: 0 when a round is settled (a void round included) or the math is printed (even
for a table it refuses: the findings say why), 2 when the input is wrong (the
error is one JSON object `{"error": {"code", "message"}}` on standard output, so scripts read
one stream), 1 when the engine itself fails.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .errors import InputError, RulesError

EXIT_OK, EXIT_BUG, EXIT_INPUT = 0, 1, 2


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            # JSON would keep the last one silently: a disputed hand must not hide a second Ante.
            raise InputError("input.key_twice", code="duplicate_key", key=json.dumps(key))
        obj[key] = value
    return obj


def _refuse_constant(name: str) -> Any:
    raise InputError("input.not_a_number", code="malformed_json", value=name)


#: Far more than any round or paytable needs (they are 4 levels deep), far less than Python's
#: recursion limit, which every reader of the parsed value (json.dumps included) would reach.
MAX_DEPTH = 32


def _too_deep() -> InputError:
    return InputError("input.too_deep", code="malformed_json", depth=MAX_DEPTH)


def _check_depth(value: Any) -> None:
    # Iterative, so that measuring the depth cannot itself overflow the stack.
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise _too_deep()
        if isinstance(item, dict):
            pending.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            pending.extend((child, depth + 1) for child in item)


def load_json(text: str) -> Any:
    """Parse the input text; malformed JSON, NaN/Infinity, repeated keys and nesting deeper
    than MAX_DEPTH are input errors."""
    try:
        value = json.loads(
            text, object_pairs_hook=_refuse_duplicate_keys, parse_constant=_refuse_constant
        )
    except InputError:
        raise
    except RecursionError:  # "[" * 50000: the decoder recurses once per level
        raise _too_deep() from None
    except ValueError as error:  # JSONDecodeError, or an integer too long to convert
        raise InputError("input.not_json", code="malformed_json", error=str(error)) from None
    _check_depth(value)
    return value


def _read(source: str, stdin: TextIO) -> str:
    if source == "-":
        try:
            return stdin.read()
        except UnicodeDecodeError as error:
            raise InputError(
                "input.unreadable", code="unreadable_input", source=source, error=str(error)
            ) from None
    try:
        with open(source, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(
            "input.unreadable", code="unreadable_input", source=source, error=str(error)
        ) from None


def _settle(source: str, stdout: TextIO, stdin: TextIO) -> int:
    from .settle import settle_json

    try:
        result = settle_json(load_json(_read(source, stdin)))
    except RulesError as error:
        json.dump({"error": {"code": error.code, "message": error.message}}, stdout)
        stdout.write("\n")
        return EXIT_INPUT
    json.dump(result, stdout)
    stdout.write("\n")
    return EXIT_OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tables.rules",
        description="The Ultimate Texas Hold'em rules engine (standard library only).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    settle = commands.add_parser(
        "settle",
        help="settle one finished round described in JSON (see spec/settle.md)",
        description=(
            "Settle one finished round. Prints one JSON object and exits 0 (void rounds"
            ' included); on wrong input prints {"error": {"code", "message"}} and exits 2.'
        ),
    )
    settle.add_argument("file", metavar="FILE", help="the round as JSON, or - for standard input")
    commands.add_parser("bench", help="measure the evaluator and settlement speed", add_help=False)
    math = commands.add_parser(
        "math",
        help="the exact math of a paytable (house edge, return, break-even meter, Envy cost)",
        description=(
            "The exact math of a paytable from the exact 5- and 7-card hand counts. A paytable"
            " is a JSON file {category: value} (- for standard input); --trips also takes a"
            ' preset letter (A-D), --progressive and --envy the word "default" (the spec\'s).'
        ),
    )
    which = math.add_mutually_exclusive_group(required=True)
    which.add_argument("--trips", metavar="PRESET|FILE", help="a Trips paytable")
    which.add_argument("--progressive", metavar="FILE", help="a progressive paytable")
    which.add_argument("--envy", metavar="FILE", help="an Envy paytable (amounts in cents)")
    which.add_argument("--counts", action="store_true", help="the 5- and 7-card hand counts")
    math.add_argument("--meter", type=int, metavar="CENTS", help="the meter (progressive)")
    math.add_argument("--reset", type=int, metavar="CENTS", help="the bank's reset amount")
    math.add_argument(
        "--wager", type=int, default=100, metavar="CENTS", help="the progressive wager (100)"
    )
    math.add_argument(
        "--min-wager", type=int, default=0, metavar="CENTS", help="the Envy minimum wager (0)"
    )
    math.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser


def main(
    argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stdin: TextIO | None = None
) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout if stdout is None else stdout
    if args and args[0] == "bench":
        from .bench import main as bench_main

        return bench_main(args[1:])
    parsed = _parser().parse_args(args)
    if parsed.command == "math":
        from .mathcli import run_math

        return run_math(parsed, out, sys.stdin if stdin is None else stdin)
    return _settle(parsed.file, out, sys.stdin if stdin is None else stdin)
