"""The production profile: refuses to start without a secret key, passes check --deploy."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SECRET = "x" * 20 + "-tapis-test-only-production-secret-key-0123456789-abcdefghij"
AUDIT_KEY = "tapis-test-only-audit-hmac-key-0123456789-abcdefghij"
PIN_KEY = "tapis-test-only-pin-hmac-key-0123456789-abcdefghij"


def manage(*args, **env) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "AUDIT_HMAC_", "PIN_HMAC_"))
    }
    env.setdefault("AUDIT_HMAC_KEY", AUDIT_KEY)
    env.setdefault("PIN_HMAC_KEY", PIN_KEY)
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_production_settings_pass_the_deployment_checklist():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_DEBUG="False",
        DJANGO_SECRET_KEY=SECRET,
        DJANGO_ALLOWED_HOSTS="tapis.example",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.slow
def test_production_refuses_to_start_without_a_secret_key():
    result = manage("check", DJANGO_DEBUG="False", DJANGO_ALLOWED_HOSTS="tapis.example")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is required" in result.stderr


@pytest.mark.slow
def test_production_refuses_to_start_without_allowed_hosts():
    result = manage("check", DJANGO_DEBUG="False", DJANGO_SECRET_KEY=SECRET)
    assert result.returncode != 0
    assert "DJANGO_ALLOWED_HOSTS is required" in result.stderr


@pytest.mark.slow
def test_behind_a_redirecting_proxy_the_checklist_still_passes():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_DEBUG="False",
        DJANGO_SECRET_KEY=SECRET,
        DJANGO_ALLOWED_HOSTS="tapis.example",
        DJANGO_SECURE_SSL_REDIRECT="False",
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("missing", "warning", "not_warned"),
    [
        # the audit chain could be rewritten unseen under the embedded key
        ("AUDIT_HMAC_KEY", "casino.W001", "casino.W003"),
        # a copy of the database would give up every PIN under the embedded key
        ("PIN_HMAC_KEY", "casino.W003", "casino.W001"),
    ],
)
def test_the_checklist_fails_without_each_key(missing, warning, not_warned):
    # make serve runs this check: production does not start on an embedded key.
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_DEBUG="False",
        DJANGO_SECRET_KEY=SECRET,
        DJANGO_ALLOWED_HOSTS="tapis.example",
        **{missing: ""},
    )
    assert result.returncode != 0
    assert warning in result.stderr + result.stdout
    assert not_warned not in result.stderr + result.stdout
