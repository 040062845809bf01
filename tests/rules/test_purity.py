"""The rules engine runs on a bare Python: standard library only, nothing from the project."""

import ast
import subprocess
import sys
from pathlib import Path

import tables.rules

RULES = Path(tables.rules.__file__).parent
REPO = RULES.parent.parent


def _catches_import_error(node: ast.Try) -> bool:
    names = {"ImportError", "ModuleNotFoundError"}
    for handler in node.handlers:
        caught = handler.type
        kinds = caught.elts if isinstance(caught, ast.Tuple) else [caught]
        if any(isinstance(k, ast.Name) and k.id in names for k in kinds):
            return True
    return False


def imported_modules(source: Path) -> list[tuple[int, str]]:
    """(line, top-level module) of every absolute import a file needs. Relative imports stay
    inside the package; an import inside `try: ... except ImportError:` is optional (the
    benchmark's treys yardstick) and the bare-Python test below proves the engine runs without
    it."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Try) and _catches_import_error(node):
            for child in node.handlers + node.orelse + node.finalbody:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source.read_text(), filename=str(source)))
    return found


def test_the_engine_imports_only_the_standard_library():
    sources = sorted(RULES.rglob("*.py"))
    assert RULES / "evaluator.py" in sources
    outside = [
        f"{source.relative_to(REPO)}:{line}: imports {module}"
        for source in sources
        for line, module in imported_modules(source)
        if module.split(".")[0] not in sys.stdlib_module_names
        and not (module == "tables.rules" or module.startswith("tables.rules."))
    ]
    assert outside == []


def test_the_purity_check_would_catch_a_django_import(tmp_path):
    offender = tmp_path / "offender.py"
    offender.write_text(
        "import os\n"
        "from django.db import models\n"
        "from . import cards\n"
        "def f():\n"
        "    import celery\n"
        "try:\n"
        "    import treys\n"
        "except ImportError:\n"
        "    import redis\n"
    )
    assert imported_modules(offender) == [(1, "os"), (2, "django.db"), (5, "celery"), (9, "redis")]


def test_the_engine_imports_on_a_bare_python_without_site_packages():
    # -I ignores the environment and the user site, -S skips site-packages: only the
    # standard library and the repository are importable.
    program = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "import tables.rules, tables.rules.evaluator, tables.rules.cards;"
        "import importlib, pkgutil;"
        "[importlib.import_module('tables.rules.' + m.name)"
        " for m in pkgutil.iter_modules(tables.rules.__path__)"
        " if m.name not in ('__main__',)];"
        "from tables.rules import evaluate;"
        "print(evaluate(['As', 'Ks', 'Qs', 'Js', 'Ts']).category.value);"
        "from tables.rules.bench import main;"
        "main(['--hands', '2000', '--rounds', '20', '--repeat', '1'])"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", program, str(REPO)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    first, *bench = done.stdout.splitlines()
    assert first == "royal_flush"
    assert "treys is not installed: no comparison" in done.stdout
    assert any(line.split()[:2] == ["tables.rules", "strength7"] for line in bench)
