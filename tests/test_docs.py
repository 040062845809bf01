"""The documentation points at nothing that is not there.

- Every relative link and image of README.md and docs/ names a file of the repository, and
  every anchor (`page.md#heading`, `#heading`) a heading of that page, by GitHub's rules.
- docs/operations/settings.md and casino/settings.py agree: every environment variable the
  settings module reads is documented there, and every name documented there is read by the
  code (from the environment, or as a Django setting).
- Every setting-like name a page gives (`SOME_NAME` in code) exists: a Django setting, a
  documented variable, or a name in the project's code.
- Every `make` target and `manage.py` command a page names exists.
- The code refers to the documentation by page and heading (`docs/x.md, "Heading"`), never by
  line: every such page and heading exists.
"""

import ast
import re
import unicodedata
from functools import cache
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SETTINGS_PAGE = ROOT / "docs" / "operations" / "settings.md"

FENCE = re.compile(r"^(```|~~~)")
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
SETTING_LIKE = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")


def _page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


def _prose_and_code(text: str) -> tuple[list[str], list[str]]:
    """The page's lines outside code fences, and the lines inside them."""
    prose, code, fenced = [], [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        (code if fenced else prose).append(line)
    return prose, code


def github_slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text without Markdown, lower case, every character
    that is not a letter, a digit, a space, a hyphen or an underscore dropped, spaces as
    hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links and images: their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"(?<!\w)_+|_+(?!\w)", "", text)  # _emphasis_, not snake_case
    text = text.strip().lower()
    kept = "".join(
        c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN" or c.isdigit()
    )
    return kept.replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    prose, _ = _prose_and_code(page.read_text())
    seen: dict[str, int] = {}
    found = set()
    for line in prose:
        match = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        slug = github_slug(match.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    for name in re.findall(r'<a\s+(?:name|id)="([^"]+)"', "\n".join(prose)):
        found.add(name)
    return frozenset(found)


def _links() -> list[tuple[Path, str]]:
    links = []
    for page in PAGES:
        prose, _ = _prose_and_code(page.read_text())
        # Links inside inline code are text, not links; a link's text may run over lines.
        for target in LINK.findall(CODE_SPAN.sub("", "\n".join(prose))):
            links.append((page, target))
    return links


def _is_external(target: str) -> bool:
    return bool(re.match(r"^[a-z][a-z0-9+.-]*:", target))


def test_the_documentation_has_its_pages():
    names = {_page_id(p) for p in PAGES}
    for required in (
        "docs/README.md",
        "docs/operations/installing.md",
        "docs/operations/settings.md",
        "docs/operations/production.md",
        "docs/operations/monitoring.md",
        "docs/operations/backup-restore.md",
        "docs/reference/round-api.md",
        "docs/reference/signage-feed.md",
        "docs/reference/engine.md",
        "docs/reference/data-model.md",
        "docs/architecture/overview.md",
        "docs/architecture/progressive.md",
        "docs/architecture/decisions.md",
        "docs/benchmarks.md",
    ):
        assert required in names, required
    assert len((ROOT / "README.md").read_text().splitlines()) < 250


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_every_relative_link_and_anchor_resolves(page):
    broken = []
    for source, target in _links():
        if source != page or _is_external(target):
            continue
        path, _, anchor = target.partition("#")
        destination = (page.parent / path).resolve() if path else page
        if not destination.exists():
            broken.append(f"{target}: no such file")
            continue
        if destination.is_relative_to(ROOT) is False:
            broken.append(f"{target}: outside the repository")
            continue
        if anchor:
            if destination.suffix != ".md":
                broken.append(f"{target}: an anchor into a file that is not Markdown")
            elif anchor not in anchors(destination):
                broken.append(f"{target}: no heading #{anchor} in {_page_id(destination)}")
    assert not broken, f"{_page_id(page)}:\n  " + "\n  ".join(broken)


def test_github_slugs_are_the_ones_github_gives():
    assert github_slug("What `make run` gives") == "what-make-run-gives"
    assert github_slug("The pit boss's screen (`/pit/`)") == "the-pit-bosss-screen-pit"
    assert github_slug("The floor simulator (`simulate_floor`)") == (
        "the-floor-simulator-simulate_floor"
    )
    assert github_slug("Round API: 8 tables against `make serve`") == (
        "round-api-8-tables-against-make-serve"
    )
    assert github_slug("Les approbations : « En attente d'approbation »") == (
        "les-approbations---en-attente-dapprobation-"
    )
    assert github_slug("Win, hold, variance, theoretical") == "win-hold-variance-theoretical"


PROJECT_PATH = re.compile(
    r"(?<![\w/.])((?:casino|tables|jackpot|tests|static|templates|docs|\.ci)/[\w/.-]*\w)"
    r"(?![\w/{*-])"  # not a pattern such as test_tablet_*.py
)


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_every_project_file_a_page_names_exists(page):
    """`tests/x/test_y.py`, `casino/audit.py`, `tables/services/_base.get_locked` (a module and
    a name in it): each names a file of the repository."""
    missing = []
    for path in set(PROJECT_PATH.findall(page.read_text())):
        module, _, _name = path.rpartition(".")
        if not (ROOT / path).exists() and not (ROOT / f"{module}.py").exists():
            missing.append(path)
    assert not missing, f"{_page_id(page)} names files that are not there: {sorted(missing)}"


# --- the code's references to the docs ------------------------------------------------------

DOC_REFERENCE = re.compile(r'(docs/[\w/.-]+\.md)(?:[,:]?\s*\(?\s*"([^"]+)")?')


def _code_files() -> list[Path]:
    files = [ROOT / "Makefile", ROOT / ".ci" / "run"]
    for top in ("casino", "tables", "jackpot", "tests"):
        files += [p for p in (ROOT / top).rglob("*.py") if "migrations" not in p.parts]
    return [p for p in files if p != Path(__file__).resolve()]


def test_every_reference_from_the_code_names_a_page_and_heading_that_exist():
    broken, seen = [], 0
    for path in _code_files():
        # A reference may run over a comment's or a docstring's lines: read them as one.
        text = re.sub(r"\s*\n\s*(?:#\s*)?", " ", path.read_text())
        for page, heading in DOC_REFERENCE.findall(text):
            seen += 1
            where = f"{path.relative_to(ROOT)}: {page}"
            if not (ROOT / page).exists():
                broken.append(f"{where}: no such page")
            elif heading and github_slug(heading) not in anchors(ROOT / page):
                broken.append(f'{where}: no heading "{heading}"')
    assert seen > 10 and not broken, "\n".join(broken)


# --- settings --------------------------------------------------------------------------------


def _documented_settings() -> dict[str, str]:
    """{name: section} of every name in the first column of settings.md's tables."""
    documented, section = {}, ""
    prose, _ = _prose_and_code(SETTINGS_PAGE.read_text())
    for line in prose:
        if line.startswith("## "):
            section = line[3:].strip()
        match = re.match(r"^\|\s*`([A-Z][A-Z0-9_]+)`\s*\|", line)
        if match:
            documented[match.group(1)] = section
    return documented


def _environment_read_by_settings() -> set[str]:
    """Every environment variable casino/settings.py reads: `os.environ.get("X")`,
    `os.environ["X"]`, `os.getenv("X")`, or a helper of its own named `env...("X")`."""
    tree = ast.parse((ROOT / "casino" / "settings.py").read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute):
            key = node.slice
            if node.value.attr == "environ" and isinstance(key, ast.Constant):
                names.add(key.value)
        if not isinstance(node, ast.Call) or not node.args:
            continue
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue
        func = node.func
        if isinstance(func, ast.Attribute):
            environ = isinstance(func.value, ast.Attribute) and func.value.attr == "environ"
            if (environ and func.attr == "get") or func.attr == "getenv":
                names.add(first.value)
        elif isinstance(func, ast.Name) and func.id.startswith("env"):
            names.add(first.value)
    return names


@cache
def _project_source(with_tests: bool = False) -> str:
    files = [
        *ROOT.glob("casino/**/*.py"),
        *ROOT.glob("tables/**/*.py"),
        *ROOT.glob("jackpot/**/*.py"),
        *ROOT.glob("static/**/*.js"),
        *ROOT.glob("*/static/**/*.js"),
        ROOT / "Makefile",
        ROOT / "tests" / "conftest.py",
        *(ROOT.glob("tests/**/*.py") if with_tests else ()),
    ]
    return "\n".join(p.read_text() for p in files if "migrations" not in p.parts)


# Outside casino/settings.py, variables read from a Django setting of that name or else from
# the environment: (the module naming them, how it names them, the reader that falls back on
# the environment).
ENVIRONMENT_READERS = [
    ("casino/audit_keys.py", r'name="([A-Z0-9_]+)"', "casino/secret_keys.py"),
    ("casino/pin_hashing.py", r'name="([A-Z0-9_]+)"', "casino/secret_keys.py"),
    ("casino/signin.py", r'_setting\("([A-Z0-9_]+)"', "casino/signin.py"),
    ("casino/checkpoints.py", r'os\.environ\.get\(\s*"([A-Z0-9_]+)"', "casino/checkpoints.py"),
]


@cache
def _environment_read() -> frozenset[str]:
    names = set(_environment_read_by_settings())
    for module, naming, reader in ENVIRONMENT_READERS:
        if "os.environ" in (ROOT / reader).read_text():  # else it reads settings alone now
            names |= set(re.findall(naming, (ROOT / module).read_text()))
    return frozenset(names)


def _read_from_the_environment(name: str) -> bool:
    return name in _environment_read()


def test_every_variable_the_settings_read_is_documented():
    missing = _environment_read_by_settings() - set(_documented_settings())
    assert not missing, f"read by casino/settings.py, not in settings.md: {sorted(missing)}"


def test_every_documented_setting_is_read_by_the_code():
    makefile = (ROOT / "Makefile").read_text()
    conftest = (ROOT / "tests" / "conftest.py").read_text()
    wrong = []
    for name, section in _documented_settings().items():
        if section == "Environment variables":
            ok = _read_from_the_environment(name)
        elif section == "Settings without an environment variable":
            ok = f'getattr(settings, "{name}"' in _project_source() and not (
                _read_from_the_environment(name)
            )
        elif section == "Variables of the Makefile and the tests":
            ok = re.search(rf"^{name} \?=", makefile, re.M) is not None or (
                name in makefile or f'"{name}"' in conftest
            )
        else:
            ok = False
        if not ok:
            wrong.append(f"{name} ({section or 'no section'})")
    assert not wrong, f"documented in settings.md but not read as it says: {wrong}"


def test_every_setting_like_name_in_the_docs_exists():
    documented = set(_documented_settings())
    unknown = []
    for page in PAGES:
        prose, code = _prose_and_code(page.read_text())
        spans = [s for line in prose for s in CODE_SPAN.findall(line)]
        names = {
            word
            for text in spans + code
            for word in re.findall(r"(?<![\w/.])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w/])", text)
        }
        for name in sorted(names):
            if name in documented or hasattr(settings, name):
                continue
            if re.search(rf"\b{name}\b", _project_source(with_tests=True)):
                continue
            unknown.append(f"{_page_id(page)}: {name}")
    assert not unknown, "names no setting, variable or code defines:\n  " + "\n  ".join(unknown)


# --- commands --------------------------------------------------------------------------------


def _code_text(page: Path) -> str:
    prose, code = _prose_and_code(page.read_text())
    return "\n".join(code + [s for line in prose for s in CODE_SPAN.findall(line)])


def _make_targets() -> set[str]:
    makefile = (ROOT / "Makefile").read_text()
    return set(re.findall(r"^([a-z][a-z0-9_-]*):", makefile, re.M))


def _named_make_targets(page: Path) -> set[str]:
    """`make X` as a command: a code span that starts with it, or a command line of a code
    block (after a prompt, `&&`, `;`, or variables set before it)."""
    prose, code = _prose_and_code(page.read_text())
    named = set()
    for line in prose:
        for span in CODE_SPAN.findall(line):
            named |= set(re.findall(r"^(?:[A-Z_]+=\S+\s+)*make ([a-z][a-z0-9_-]*)", span))
    for line in code:
        named |= set(
            re.findall(r"(?:^|&&|;|\$)\s*(?:[A-Z_]+=\S+\s+)*make ([a-z][a-z0-9_-]*)", line)
        )
    return named


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_every_make_target_and_manage_command_named_exists(page):
    targets, commands = _make_targets(), set(get_commands())
    named_targets = _named_make_targets(page)
    named_commands = set(re.findall(r"manage\.py ([a-z][a-z0-9_]*)", _code_text(page)))
    assert named_targets - targets == set(), f"no such make target: {named_targets - targets}"
    assert named_commands - commands == set(), f"no such command: {named_commands - commands}"


def test_every_rules_engine_command_named_exists():
    cli = (ROOT / "tables" / "rules" / "cli.py").read_text()
    named = set()
    for page in PAGES:
        named |= set(re.findall(r"python -m tables\.rules ([a-z]+)", _code_text(page)))
    missing = {
        n
        for n in named
        if f'add_parser(\n        "{n}"' not in cli and f'add_parser("{n}"' not in cli
    }
    assert named >= {"settle", "math", "bench"} and not missing, f"no such subcommand: {missing}"


def test_the_checks_catch_what_they_are_for(tmp_path):
    """The link check finds a missing anchor and a missing file; the make check a target."""
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n## A `code` heading\n\nSee [x](#a-code-heading).\n")
    assert "a-code-heading" in anchors(page) and "missing" not in anchors(page)
    assert "nope" not in _make_targets() and "run" in _make_targets()
    assert "audit_verify" in get_commands() and "audit_verified" not in get_commands()
