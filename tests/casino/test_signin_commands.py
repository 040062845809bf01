"""The measuring commands of the sign-in run end to end and leave nothing behind."""

import io
import re

import pytest
from django.core.management import call_command

from casino.models import AuditEntry, Staff

pytestmark = pytest.mark.django_db


def test_signin_probe_reports_each_probe_and_the_ratio():
    out = io.StringIO()
    call_command("signin_probe", seconds=0.5, tries=2, floor=0, stdout=out)
    text = out.getvalue()
    for label in (
        "api: one address, one PIN over many numbers",
        "api: one account, a new address each try",
        "page: one address, one PIN over many numbers",
        "page: one account, a new address each try",
    ):
        assert re.search(re.escape(label) + r"\s+\d+ checked = \s*[\d.]+/min", text), label
    assert re.search(r"ratio right/wrong \d+\.\d{3}", text)
    assert not Staff.objects.exists() and not AuditEntry.objects.exists()  # rolled back


def test_signin_timing_reports_the_locked_accounts_ratio():
    out = io.StringIO()
    call_command("signin_timing", tries=1, floor=0, stdout=out)
    assert re.search(r"locked account, right PIN / wrong PIN median: \d+\.\d{3}", out.getvalue())
    assert not Staff.objects.exists()
