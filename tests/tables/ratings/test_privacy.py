"""A player's access request, erasure and the retention rule (GDPR art. 15, 17, 5(1)(e))."""

import datetime as dt
import io
import json

import pytest
from django.core.management import call_command
from django.utils import timezone

from casino.errors import CasinoError, IllegalTransition, RoleRequired
from casino.models import AuditEntry
from casino.roles import Role
from tables.ratings.compliance import settings_for
from tables.ratings.identity import identity_record
from tables.ratings.models import ComplianceSettings, Player, PlayerIdentity
from tables.ratings.privacy import player_data_export, player_erase, retention_apply
from tests.factories import make_staff

pytestmark = pytest.mark.django_db


def record(officer, player):
    return identity_record(
        officer=officer,
        player_id=player.pk,
        family_name="Dupont",
        given_names="Marie",
        birth_date=dt.date(1980, 5, 17),
        document_kind="passport",
    )


def codes(player):
    return list(
        AuditEntry.objects.filter(subject_type="ratings.player", subject_id=str(player.pk))
        .order_by("pk")
        .values_list("code", flat=True)
    )


def test_the_settings_start_from_the_propertys_country(casino_property):
    found = settings_for(casino_property)
    assert (found.country, found.identity_threshold_cents) == ("FR", 200_000)
    assert found.transaction_report_threshold_cents is None
    assert (found.marketing_retention_years, found.aml_retention_years) == (3, 5)
    assert settings_for(casino_property) == found and ComplianceSettings.objects.count() == 1


def test_a_dollar_property_starts_from_the_us_thresholds(casino_property):
    casino_property.currency = "USD"
    found = settings_for(casino_property)
    assert (found.country, found.transaction_log_threshold_cents) == ("US", 300_000)
    assert found.transaction_report_threshold_cents == 1_000_000
    assert found.identity_threshold_cents is None


def test_an_access_request_gives_every_item_as_one_json_document(carded, officer):
    record(officer, carded)
    document = player_data_export(officer=officer, player_id=carded.pk)
    text = json.dumps(document, default=str)
    items = document["items"]
    assert items["player"][0]["card"] == "400123" and items["player"][0]["alias"] == "Marie D."
    assert items["ratings.playeridentity"][0]["family_name"] == "Dupont"
    assert items["ratings.playeridentity"][0]["document_kind"] == "passport"
    assert [e["code"] for e in items["audit_log"]] == [
        "player.created",
        "player.identity.recorded",
    ]
    assert "Dupont" in text and document["player_id"] == carded.pk
    assert codes(carded)[-1] == "player.data.exported"


@pytest.mark.parametrize("role", [Role.SUPERVISOR, Role.HOST, Role.AUDITOR, Role.MANAGER])
def test_only_compliance_answers_an_access_request(carded, role):
    with pytest.raises(RoleRequired):
        player_data_export(officer=make_staff(role), player_id=carded.pk)
    assert "player.data.exported" not in codes(carded)


def test_the_access_request_command_writes_the_file(carded, officer, tmp_path):
    out = tmp_path / "player.json"
    call_command(
        "player_data_export", str(carded.pk), "--officer", officer.username, "--output", str(out)
    )
    assert json.loads(out.read_text())["items"]["player"][0]["card"] == "400123"
    assert codes(carded)[-1] == "player.data.exported"


def test_erasure_pseudonymises_and_keeps_an_identity_the_aml_period_still_holds(carded, officer):
    record(officer, carded)
    outcome = player_erase(officer=officer, player_id=carded.pk, reason="asked by letter")
    erased = Player.objects.get(pk=carded.pk)
    assert erased.card is None and erased.alias.startswith("erased-") and erased.erased_at
    assert outcome["identity"] == "kept" and outcome["identity_kept_until"] > timezone.now()
    assert PlayerIdentity.objects.filter(player=carded).exists()
    assert codes(carded)[-1] == "player.erased"
    with pytest.raises(IllegalTransition):
        player_erase(officer=officer, player_id=carded.pk, reason="again")


def test_erasure_removes_an_identity_past_the_aml_period(carded, officer):
    record(officer, carded)
    PlayerIdentity.objects.filter(player=carded).update(
        checked_at=timezone.now() - dt.timedelta(days=6 * 366)
    )
    outcome = player_erase(officer=officer, player_id=carded.pk, reason="asked")
    assert outcome["identity"] == "erased"
    assert not PlayerIdentity.objects.filter(player=carded).exists()


def test_erasure_refusals(carded, officer, supervisor):
    with pytest.raises(RoleRequired):
        player_erase(officer=supervisor, player_id=carded.pk, reason="x")
    with pytest.raises(CasinoError) as no_reason:
        player_erase(officer=officer, player_id=carded.pk, reason=" ")
    assert no_reason.value.code == "reason_required"
    assert Player.objects.get(pk=carded.pk).erased_at is None


def test_an_erased_file_takes_no_more_changes(carded, anonymous, officer, supervisor):
    from tables.ratings.identity import player_status_set
    from tables.ratings.players import player_link

    player_erase(officer=officer, player_id=anonymous.pk, reason="asked")
    with pytest.raises(IllegalTransition):
        player_link(supervisor=supervisor, player_id=anonymous.pk, card="7")
    with pytest.raises(IllegalTransition):
        record(officer, anonymous)
    with pytest.raises(IllegalTransition):
        player_status_set(officer=officer, player_id=anonymous.pk, status="barred", reason="x")


def test_the_retention_rule_erases_players_not_seen_for_the_set_years(carded, anonymous, officer):
    now = timezone.now()
    record(officer, carded)
    Player.objects.filter(pk=carded.pk).update(last_visit_at=now - dt.timedelta(days=3 * 366))
    done = retention_apply(now=now)
    assert done == {"erased": 1, "identities_removed": 0}
    assert Player.objects.get(pk=carded.pk).erased_at is not None
    assert Player.objects.get(pk=anonymous.pk).erased_at is None  # seen today
    entry = AuditEntry.objects.filter(code="player.erased", subject_id=str(carded.pk)).get()
    assert entry.actor_id is None and entry.data["by"] == "retention"
    # The identity stays until the AML period ends, then the rule removes it.
    assert PlayerIdentity.objects.filter(player=carded).exists()
    later = now + dt.timedelta(days=5 * 366)
    assert retention_apply(now=later)["identities_removed"] == 1
    assert not PlayerIdentity.objects.filter(player=carded).exists()
    assert codes(carded)[-1] == "player.identity.removed"


def test_the_retention_period_is_the_propertys_setting(carded, casino_property):
    rules = settings_for(casino_property)
    rules.marketing_retention_years = 1
    rules.save()
    Player.objects.filter(pk=carded.pk).update(
        last_visit_at=timezone.now() - dt.timedelta(days=400)
    )
    out = io.StringIO()
    call_command("players_retention", stdout=out)
    assert "1 player(s) erased" in out.getvalue()


def test_a_players_checks_use_the_propertys_settings_and_identity(carded, officer):
    from tables.ratings.compliance import player_aml_checks

    at = timezone.now()
    (day,) = player_aml_checks(carded, [(200_001, at)])
    assert day.crossed == ("identity",) and day.identity_missing
    record(officer, carded)
    (day,) = player_aml_checks(Player.objects.get(pk=carded.pk), [(200_001, at)])
    assert day.identity_required and not day.identity_missing
