"""The commands under random arguments and input: `display_token` ends in its output or a
CommandError (never another exception), `python -m tables.rules settle -` exits 0 or 2 with
one JSON object (never 1, never a traceback)."""

import io
import json
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.strategies import FEW, FUZZ, hostile_texts, json_values, raw_bodies
from tests.jackpot.display.support import make_bank
from tests.rules.rounds import spec_input
from tests.rules.test_cli import REPO


@pytest.fixture
def grand(casino_property):
    return make_bank()


@FUZZ
@given(
    bank=hostile_texts | st.just("grand"),
    name=hostile_texts,
    language=st.sampled_from(["fr", "en"]),
    revoke=st.booleans(),
)
def test_display_token_ends_in_a_token_or_a_command_error(grand, bank, name, language, revoke):
    args = [bank, "--name", name, "--language", language, *(["--revoke"] if revoke else [])]
    try:
        call_command("display_token", *args, stdout=io.StringIO(), stderr=io.StringIO())
    except CommandError as exc:
        assert str(exc)


def settle(stdin: bytes) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "tables.rules", "settle", "-"],
        input=stdin,
        capture_output=True,
        cwd=REPO,
        timeout=60,
    )
    return done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode()


def _with_changes(changes: dict) -> str:
    return json.dumps({**spec_input(), **changes})


settle_inputs = st.one_of(
    raw_bodies,
    st.dictionaries(
        st.sampled_from(
            ["rules", "board", "dealer", "progressive", "irregularities", "seats", "version"]
        ),
        json_values,
        max_size=3,
    ).map(_with_changes),
)


@FEW
@given(text=settle_inputs)
def test_the_settle_cli_exits_0_or_2_and_never_shows_a_traceback(text):
    code, out, err = settle(text.encode("utf-8", errors="surrogatepass"))
    assert code in (0, 2), err
    assert "Traceback" not in err
    answer = json.loads(out)
    assert ("error" in answer) == (code == 2)


@FEW
@given(data=st.binary(max_size=64))
def test_the_settle_cli_reads_any_bytes_without_a_traceback(data):
    code, _, err = settle(data)
    assert code in (0, 2) and "Traceback" not in err
