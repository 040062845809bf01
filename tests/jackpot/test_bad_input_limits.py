"""The jackpot's own bounds stay the engine's: it may not import the game (tables -> jackpot,
never back), so its copy of the seat count is held equal here."""

import ast
from pathlib import Path

from jackpot.services._checks import MAX_SEATS, MAX_WAGERS_PER_ROUND
from tables.rules.settle import SEAT_NUMBERS

JACKPOT = Path(__file__).parents[2] / "jackpot"


def test_the_jackpots_seat_bound_is_the_engines_seat_count():
    assert MAX_SEATS == MAX_WAGERS_PER_ROUND == len(SEAT_NUMBERS) == max(SEAT_NUMBERS)


def test_the_jackpot_imports_nothing_from_the_tables():
    found = []
    for path in JACKPOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            found += [
                f"{path.relative_to(JACKPOT)}: {n}" for n in names if n.split(".")[0] == "tables"
            ]
    assert found == []
