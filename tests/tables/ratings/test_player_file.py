"""The player file's services: each action, each refusal, each audited with the player's id
and never a name, an alias or a card."""

import datetime as dt
import json

import pytest

from casino.errors import CasinoError, IllegalTransition, NotFound, RoleRequired
from casino.models import AuditEntry
from casino.roles import Role
from tables.ratings.identity import identity_record, identity_view, player_status_set
from tables.ratings.models import Player, PlayerIdentity
from tables.ratings.players import CardTaken, player_create, player_link
from tests.factories import make_staff

pytestmark = pytest.mark.django_db


def entries(player, code):
    return list(
        AuditEntry.objects.filter(
            subject_type="ratings.player", subject_id=str(player.pk), code=code
        )
    )


def record(officer, player, **extra):
    return identity_record(
        officer=officer,
        player_id=player.pk,
        family_name="Dupont",
        given_names="Marie",
        birth_date=dt.date(1980, 5, 17),
        document_kind="identity_card",
        **extra,
    )


def test_a_supervisor_adds_a_carded_player_audited(carded, supervisor):
    assert (carded.card, carded.alias, carded.status) == ("400123", "Marie D.", Player.ACTIVE)
    assert carded.created_by == supervisor and carded.last_visit_at is not None
    (entry,) = entries(carded, "player.created")
    assert entry.actor_id == supervisor.pk and entry.data == {"carded": True}


@pytest.mark.parametrize(
    "role", [Role.DEALER, Role.MANAGER, Role.HOST, Role.COMPLIANCE, Role.AUDITOR]
)
def test_only_a_supervisor_adds_a_player(casino_property, role):
    with pytest.raises(RoleRequired):
        player_create(supervisor=make_staff(role), alias="X", card="1")
    assert not Player.objects.exists()


def test_a_card_belongs_to_one_player(carded, supervisor):
    with pytest.raises(CardTaken) as refused:
        player_create(supervisor=supervisor, alias="Other", card="400123")
    assert refused.value.code == "card_taken"


def test_an_alias_is_required_and_bounded(casino_property, supervisor):
    with pytest.raises(CasinoError) as empty:
        player_create(supervisor=supervisor, alias="  ", card="1")
    assert empty.value.code == "alias_required"
    with pytest.raises(CasinoError) as long:
        player_create(supervisor=supervisor, alias="x" * 61)
    assert long.value.code == "too_long"


def test_an_anonymous_player_is_linked_to_a_card_audited(anonymous, supervisor):
    assert anonymous.card is None
    linked = player_link(supervisor=supervisor, player_id=anonymous.pk, card="400999")
    assert Player.objects.get(pk=anonymous.pk).card == "400999" == linked.card
    (entry,) = entries(anonymous, "player.linked")
    assert entry.actor_id == supervisor.pk and "400999" not in json.dumps(entry.data)


def test_linking_refuses_a_carded_player_a_taken_card_and_other_roles(
    carded, anonymous, supervisor
):
    with pytest.raises(IllegalTransition) as carded_already:
        player_link(supervisor=supervisor, player_id=carded.pk, card="5")
    assert carded_already.value.code == "player_carded"
    with pytest.raises(CardTaken):
        player_link(supervisor=supervisor, player_id=anonymous.pk, card="400123")
    with pytest.raises(RoleRequired):
        player_link(supervisor=make_staff(Role.HOST), player_id=anonymous.pk, card="6")
    with pytest.raises(NotFound):
        player_link(supervisor=supervisor, player_id=10**9, card="6")
    assert not entries(anonymous, "player.linked")


def test_compliance_records_the_fact_of_a_document_checked(carded, officer):
    identity = record(officer, carded)
    assert (identity.family_name, identity.document_kind) == ("Dupont", "identity_card")
    assert identity.checked_by == officer and identity.checked_at is not None
    (entry,) = entries(carded, "player.identity.recorded")
    assert entry.data == {"document_kind": "identity_card", "first": True}
    # A second check corrects the same identity.
    record(officer, carded)
    assert PlayerIdentity.objects.filter(player=carded).count() == 1


def test_identity_refusals(carded, officer, supervisor):
    for role in (Role.SUPERVISOR, Role.HOST, Role.AUDITOR, Role.MANAGER):
        with pytest.raises(RoleRequired):
            record(make_staff(role), carded)
    with pytest.raises(CasinoError) as kind:
        identity_record(officer=officer, player_id=carded.pk, family_name="D", document_kind="copy")
    assert kind.value.code == "document_required"
    with pytest.raises(CasinoError) as name:
        identity_record(
            officer=officer, player_id=carded.pk, family_name=" ", document_kind="passport"
        )
    assert name.value.code == "family_name_required"
    with pytest.raises(CasinoError) as future:
        identity_record(
            officer=officer,
            player_id=carded.pk,
            family_name="D",
            document_kind="passport",
            birth_date=dt.date.today() + dt.timedelta(days=2),
        )
    assert future.value.code == "birth_date_future"
    assert not PlayerIdentity.objects.exists()


@pytest.mark.parametrize("role", [Role.COMPLIANCE, Role.AUDITOR])
def test_every_view_of_an_identity_is_audited(carded, officer, role):
    record(officer, carded)
    reader = make_staff(role)
    assert identity_view(reader=reader, player_id=carded.pk).family_name == "Dupont"
    identity_view(reader=reader, player_id=carded.pk)
    viewed = entries(carded, "player.identity.viewed")
    assert [(e.actor_id, e.data) for e in viewed] == [(reader.pk, {"found": True})] * 2


@pytest.mark.parametrize("role", [Role.DEALER, Role.SUPERVISOR, Role.MANAGER, Role.HOST])
def test_nobody_else_views_an_identity(carded, officer, role):
    record(officer, carded)
    with pytest.raises(RoleRequired):
        identity_view(reader=make_staff(role), player_id=carded.pk)
    assert not entries(carded, "player.identity.viewed")


def test_compliance_bars_and_lifts_with_a_reason_audited(carded, officer):
    barred = player_status_set(
        officer=officer, player_id=carded.pk, status="barred", reason="cheating"
    )
    assert barred.status == Player.BARRED
    player_status_set(officer=officer, player_id=carded.pk, status="active", reason="lifted")
    player_status_set(
        officer=officer, player_id=carded.pk, status="self_excluded", reason="asked at the door"
    )
    changes = [e.data for e in entries(carded, "player.status.changed")]
    assert changes == [
        {"from": "active", "to": "barred", "reason": "cheating"},
        {"from": "barred", "to": "active", "reason": "lifted"},
        {"from": "active", "to": "self_excluded", "reason": "asked at the door"},
    ]


def test_status_refusals(carded, officer, supervisor):
    with pytest.raises(RoleRequired):
        player_status_set(officer=supervisor, player_id=carded.pk, status="barred", reason="x")
    with pytest.raises(CasinoError) as no_reason:
        player_status_set(officer=officer, player_id=carded.pk, status="barred", reason=" ")
    assert no_reason.value.code == "reason_required"
    with pytest.raises(CasinoError) as unknown:
        player_status_set(officer=officer, player_id=carded.pk, status="vip", reason="x")
    assert unknown.value.code == "status_unknown"
    with pytest.raises(IllegalTransition) as same:
        player_status_set(officer=officer, player_id=carded.pk, status="active", reason="x")
    assert same.value.code == "status_unchanged"
    assert Player.objects.get(pk=carded.pk).status == Player.ACTIVE


def test_the_audit_log_never_holds_the_identity(carded, officer):
    record(officer, carded)
    identity_view(reader=officer, player_id=carded.pk)
    text = json.dumps([e.data for e in AuditEntry.objects.all()])
    for personal in ("Dupont", "Marie", "1980", "400123"):
        assert personal not in text
