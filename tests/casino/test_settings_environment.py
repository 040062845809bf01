"""Every environment variable is read in casino/settings.py through strict helpers: a value
they cannot read stops the start with a message naming it (`ture` never quietly means False)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from casino.settings import env_bool, env_float, env_int, env_list

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "spelled, meant",
    [
        ("1", True),
        (" TRUE ", True),
        ("on", True),
        ("yes", True),
        ("0", False),
        ("False", False),
        ("off", False),
        ("no", False),
    ],
)
def test_a_boolean_takes_its_accepted_spellings(monkeypatch, spelled, meant):
    monkeypatch.setenv("TAPIS_TEST_FLAG", spelled)
    assert env_bool("TAPIS_TEST_FLAG", not meant) is meant


@pytest.mark.parametrize("spelled", ["ture", "", "2", "oui"])
def test_a_boolean_in_no_accepted_spelling_is_refused_by_name(monkeypatch, spelled):
    monkeypatch.setenv("TAPIS_TEST_FLAG", spelled)
    with pytest.raises(ImproperlyConfigured, match="TAPIS_TEST_FLAG"):
        env_bool("TAPIS_TEST_FLAG", False)


def test_numbers_and_lists_are_read_strictly(monkeypatch):
    monkeypatch.setenv("TAPIS_TEST_N", "12")
    assert env_int("TAPIS_TEST_N", 1) == 12 and env_float("TAPIS_TEST_N", 1.0) == 12.0
    monkeypatch.setenv("TAPIS_TEST_N", "1.5")
    with pytest.raises(ImproperlyConfigured, match="TAPIS_TEST_N='1.5'.*whole number"):
        env_int("TAPIS_TEST_N", 1)
    monkeypatch.setenv("TAPIS_TEST_LIST", "10, 20,,30")
    assert env_list("TAPIS_TEST_LIST", int) == [10, 20, 30]
    monkeypatch.setenv("TAPIS_TEST_LIST", "10,x")
    with pytest.raises(ImproperlyConfigured, match="TAPIS_TEST_LIST"):
        env_list("TAPIS_TEST_LIST", int)
    monkeypatch.delenv("TAPIS_TEST_N")
    assert env_int("TAPIS_TEST_N", 7) == 7


def test_a_misspelled_boolean_stops_the_start():
    env = {**os.environ, "DJANGO_DEBUG": "ture"}
    started = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert started.returncode != 0
    assert "ImproperlyConfigured" in started.stderr
    assert "DJANGO_DEBUG='ture' is not a boolean" in started.stderr
