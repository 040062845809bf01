"""Dependencies point one way (ARCHITECTURE.md): tables -> jackpot -> casino, and the pit and
the accounting at the top, read by nothing below them. Checked on the imports themselves."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]

# Where an app below may not reach, and the one place each rule knowingly gives way.
RULES = [
    ("jackpot", {"tables"}, set()),
    # The project's routing gathers every app's sockets, and its server entry point warms the
    # rules engine; the demo loads (and prints) every app's floor.
    (
        "casino",
        {"tables", "jackpot"},
        {
            "routing.py",
            "asgi.py",
            "management/commands/load_demo.py",
            "management/commands/print_urls.py",
        },
    ),
    ("tables", {"tables.pit", "tables.accounting", "tables.ratings"}, {"pit", "accounting", "ratings"}),
    ("tables/accounting", {"tables.pit", "tables.ratings"}, set()),
    # Ratings read the rounds and the accounting's edges; the pit shows them.
    ("tables/ratings", {"tables.pit"}, set()),
]


def imports_of(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    return names


@pytest.mark.parametrize(("app", "forbidden", "allowed"), RULES, ids=[r[0] for r in RULES])
def test_no_app_imports_what_sits_above_it(app, forbidden, allowed):
    base = ROOT / app
    found = []
    for path in base.rglob("*.py"):
        inside = path.relative_to(base).as_posix()
        if "migrations/" in inside or any(
            inside == a or inside.startswith(f"{a}/") for a in allowed
        ):
            continue
        for name in imports_of(path):
            if any(name == f or name.startswith(f"{f}.") for f in forbidden):
                found.append(f"{app}/{inside}: {name}")
    assert found == []


def test_the_par_sheet_sits_beside_the_engine():
    """tables/parsheet: the standard library, numpy and the rules engine, nothing of Django or
    the rest of the project (tables/rules itself stays standard-library only:
    tests/rules/test_purity.py). Anything else it imports is named here."""
    import sys

    base = ROOT / "tables" / "parsheet"
    assert (base / "analysis.py").exists()
    found = []
    for path in base.rglob("*.py"):
        for name in imports_of(path):
            top = name.split(".")[0]
            if top in sys.stdlib_module_names or top == "numpy":
                continue
            if name == "tables.rules" or name.startswith(("tables.rules.", "tables.parsheet")):
                continue
            found.append(f"{path.relative_to(ROOT)}: {name}")
    assert found == []
