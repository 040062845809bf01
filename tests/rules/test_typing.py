"""The engine is typed strictly: `mypy --strict tables/rules` reports nothing."""

import subprocess
import sys
from pathlib import Path

import pytest

import tables.rules

REPO = Path(tables.rules.__file__).parent.parent.parent
MYPY = Path(sys.executable).parent / "mypy"


@pytest.mark.slow
@pytest.mark.skipif(not MYPY.exists(), reason=f"mypy is not installed beside {sys.executable}")
def test_the_rules_engine_is_clean_under_mypy_strict():
    done = subprocess.run(
        [str(MYPY), "--strict", "--no-incremental", "tables/rules"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout
