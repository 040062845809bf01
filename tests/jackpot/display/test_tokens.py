"""Display tokens: issued and revoked by a manager (or the console), audited, hash only."""

import io

import pytest
from django.core.management import CommandError, call_command

from casino.errors import RoleRequired
from casino.models import AuditEntry
from jackpot.display_tokens import (
    DisplayTokenInvalid,
    display_authorize,
    display_token_issue,
    display_token_revoke,
    token_hash,
)
from jackpot.models import DisplayToken

pytestmark = pytest.mark.django_db


def test_only_the_hash_of_an_issued_token_is_stored(bank, manager):
    token, raw = display_token_issue(bank_slug="grand", name="Hall", issued_by=manager)
    assert token.token_hash == token_hash(raw) and raw not in token.token_hash
    assert display_authorize(bank_slug="grand", raw_token=raw) == token
    entry = AuditEntry.objects.get(code="jackpot.display_token.issued")
    assert (entry.actor, entry.subject_id, entry.data["name"]) == (manager, str(token.pk), "Hall")
    assert raw not in str(entry.data)


def test_two_tokens_are_never_the_same(bank):
    _, first = display_token_issue(bank_slug="grand", name="A")
    _, second = display_token_issue(bank_slug="grand", name="B")
    assert first != second and len(first) >= 40


@pytest.mark.parametrize("role_fixture", ["dealer", "supervisor", "auditor"])
def test_only_a_manager_issues_tokens(bank, role_fixture, request):
    with pytest.raises(RoleRequired):
        display_token_issue(
            bank_slug="grand", name="Hall", issued_by=request.getfixturevalue(role_fixture)
        )
    assert not DisplayToken.objects.exists()
    assert not AuditEntry.objects.filter(code__startswith="jackpot.display_token").exists()


def test_revoking_is_audited_and_refuses_the_token(bank, manager, other_manager):
    token, raw = display_token_issue(bank_slug="grand", name="Hall", issued_by=manager)
    display_token_revoke(token_id=token.pk, revoked_by=other_manager)
    entry = AuditEntry.objects.get(code="jackpot.display_token.revoked")
    assert entry.actor == other_manager
    with pytest.raises(Exception) as refused:
        display_authorize(bank_slug="grand", raw_token=raw)
    assert refused.value.code == "display_token_refused"


def test_revoking_twice_is_a_clear_error(bank):
    token, _ = display_token_issue(bank_slug="grand", name="Hall")
    display_token_revoke(token_id=token.pk)
    with pytest.raises(DisplayTokenInvalid):
        display_token_revoke(token_id=token.pk)
    assert AuditEntry.objects.filter(code="jackpot.display_token.revoked").count() == 1


def test_supervisor_cannot_revoke(bank, supervisor):
    token, _ = display_token_issue(bank_slug="grand", name="Hall")
    with pytest.raises(RoleRequired):
        display_token_revoke(token_id=token.pk, revoked_by=supervisor)
    assert DisplayToken.objects.get(pk=token.pk).revoked_at is None


def test_display_token_command_prints_a_working_token_and_revokes_it(bank):
    out = io.StringIO()
    call_command(
        "display_token",
        "grand",
        "--name",
        "Bar",
        "--language",
        "en",
        stdout=out,
        stderr=io.StringIO(),
    )
    raw = out.getvalue().strip()
    token = display_authorize(bank_slug="grand", raw_token=raw)
    assert (token.name, token.language, token.issued_by) == ("Bar", "en", None)
    assert AuditEntry.objects.get(code="jackpot.display_token.issued").data["via"] == "console"

    call_command("display_token", "grand", "--name", "Bar", "--revoke", stdout=io.StringIO())
    assert DisplayToken.objects.get(pk=token.pk).revoked_at is not None


def test_display_token_command_for_an_unknown_bank_fails_cleanly(db):
    with pytest.raises(CommandError, match="Aucun jackpot progressif"):
        call_command("display_token", "nowhere", "--name", "Bar", stdout=io.StringIO())
    assert not DisplayToken.objects.exists()
