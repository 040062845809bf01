"""Tablets bound to a table: who may bind and revoke, what is kept, what is audited, and which
table a tablet then opens for whoever signs in on it."""

import datetime as dt
import hashlib

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from django.utils import timezone, translation

from casino.audit import seal_pending
from casino.models import AuditEntry
from tables import services
from tables.devices.cookie import BINDING_COOKIE
from tables.devices.selectors import tablet_table
from tables.errors import ConfigurationRefused, IllegalTransition, NotFound, RoleRequired
from tables.models import DeviceBinding
from tables.services.devices import device_bind, device_binding_for, device_revoke


@pytest.fixture
def bound(closed_table, supervisor):
    """The tablet of table UTH 1: its binding and the credential its browser keeps."""
    return device_bind(table_id=closed_table.pk, supervisor=supervisor, name="Tablette UTH 1")


def _deals(table, dealer, supervisor):
    services.assignment_create(table_id=table.pk, dealer_id=dealer.pk, supervisor=supervisor)


def _request_from(staff, raw_token=None):
    request = RequestFactory().get("/tablet/")
    request.user = staff if staff is not None else AnonymousUser()
    if raw_token:
        request.COOKIES[BINDING_COOKIE] = raw_token
    return request


# Binding and revoking ------------------------------------------------------------------------


def test_it_binds_a_tablet_and_keeps_only_the_hash_of_its_credential(bound, closed_table):
    binding, raw = bound
    binding.refresh_from_db()
    assert binding.table == closed_table and binding.name == "Tablette UTH 1"
    assert binding.is_active and binding.bound_at is not None
    assert len(raw) >= 40
    assert binding.token_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert not DeviceBinding.objects.filter(token_hash=raw).exists()


def test_every_credential_is_new(closed_table, supervisor):
    _, first = device_bind(table_id=closed_table.pk, supervisor=supervisor, name="A")
    _, second = device_bind(table_id=closed_table.pk, supervisor=supervisor, name="B")
    assert first != second


def test_a_manager_may_bind_and_revoke_too(closed_table, manager):
    binding, _ = device_bind(table_id=closed_table.pk, supervisor=manager, name="Tablette")
    assert device_revoke(binding_id=binding.pk, supervisor=manager).revoked_by == manager


@pytest.mark.parametrize("persona", ["dealer", "auditor"])
def test_a_dealer_or_an_auditor_cannot_bind_a_tablet(request, persona, closed_table):
    staff = request.getfixturevalue(persona)
    with pytest.raises(RoleRequired):
        device_bind(table_id=closed_table.pk, supervisor=staff, name="Tablette")
    assert not DeviceBinding.objects.exists()
    assert not AuditEntry.objects.filter(code__startswith="tables.device.").exists()


@pytest.mark.parametrize("persona", ["dealer", "auditor"])
def test_a_dealer_or_an_auditor_cannot_revoke_a_binding(request, persona, bound):
    binding, _ = bound
    with pytest.raises(RoleRequired):
        device_revoke(binding_id=binding.pk, supervisor=request.getfixturevalue(persona))
    binding.refresh_from_db()
    assert binding.is_active


def test_binding_is_audited_without_the_credential(bound, supervisor, closed_table):
    binding, raw = bound
    entry = AuditEntry.objects.get(code="tables.device.bound")
    assert entry.actor == supervisor
    assert (entry.subject_type, entry.subject_id) == ("tables.devicebinding", str(binding.pk))
    assert entry.data == {"table": closed_table.pk, "name": "Tablette UTH 1", "replaces": None}
    assert raw not in str(entry.data) and binding.token_hash not in str(entry.data)


def test_revoking_is_audited_and_says_who_and_when(bound, other_supervisor):
    binding, _ = bound
    revoked = device_revoke(binding_id=binding.pk, supervisor=other_supervisor)
    revoked.refresh_from_db()
    assert revoked.revoked_by == other_supervisor and revoked.revoked_at is not None
    entry = AuditEntry.objects.get(code="tables.device.revoked")
    assert entry.actor == other_supervisor
    assert entry.subject_id == str(binding.pk)
    assert entry.data["reason"] == "revoked"


def test_a_revoked_credential_no_longer_binds(bound, supervisor):
    binding, raw = bound
    assert device_binding_for(raw) == binding
    device_revoke(binding_id=binding.pk, supervisor=supervisor)
    assert device_binding_for(raw) is None


def test_an_unknown_or_missing_credential_binds_nothing(bound):
    assert device_binding_for("not-a-credential") is None
    assert device_binding_for("") is None
    assert device_binding_for(None) is None


def test_a_binding_is_revoked_once(bound, supervisor):
    binding, _ = bound
    device_revoke(binding_id=binding.pk, supervisor=supervisor)
    with pytest.raises(IllegalTransition) as refused:
        device_revoke(binding_id=binding.pk, supervisor=supervisor)
    assert "Tablette UTH 1" in refused.value.message
    assert AuditEntry.objects.filter(code="tables.device.revoked").count() == 1


def test_an_unknown_table_or_binding_is_not_found(supervisor, db):
    with pytest.raises(NotFound):
        device_bind(table_id=999_999, supervisor=supervisor, name="Tablette")
    with pytest.raises(NotFound):
        device_bind(table_id="UTH 1", supervisor=supervisor, name="Tablette")
    with pytest.raises(NotFound):
        device_revoke(binding_id=999_999, supervisor=supervisor)


@pytest.mark.parametrize("name", ["", "   ", "x" * 81])
def test_a_tablet_needs_a_name_of_at_most_80_characters(name, closed_table, supervisor):
    with pytest.raises(ConfigurationRefused) as refused:
        device_bind(table_id=closed_table.pk, supervisor=supervisor, name=name)
    assert "name" in refused.value.errors
    assert not DeviceBinding.objects.exists()


def test_two_tablets_in_use_cannot_share_a_name(bound, other_table, supervisor):
    binding, _ = bound
    with pytest.raises(ConfigurationRefused) as refused:
        device_bind(table_id=other_table.pk, supervisor=supervisor, name="Tablette UTH 1")
    assert "Tablette UTH 1" in refused.value.message
    device_revoke(binding_id=binding.pk, supervisor=supervisor)
    device_bind(table_id=other_table.pk, supervisor=supervisor, name="Tablette UTH 1")


def test_binding_a_bound_tablet_again_replaces_its_binding(bound, other_table, supervisor):
    old, old_raw = bound
    new, new_raw = device_bind(
        table_id=other_table.pk, supervisor=supervisor, name="Tablette UTH 1", replaces=old_raw
    )
    old.refresh_from_db()
    assert not old.is_active and old.revoked_by == supervisor
    assert device_binding_for(old_raw) is None
    assert device_binding_for(new_raw).table == other_table
    seal_pending()  # as after the commit
    revoked = AuditEntry.objects.get(code="tables.device.revoked")
    assert revoked.data["reason"] == "rebound"
    assert AuditEntry.objects.filter(code="tables.device.bound").last().data["replaces"] == old.pk
    assert revoked.position < AuditEntry.objects.filter(code="tables.device.bound").last().position
    assert new.is_active


def test_a_refusal_speaks_the_readers_language(closed_table, supervisor):
    with translation.override("fr"), pytest.raises(ConfigurationRefused) as refused:
        device_bind(table_id=closed_table.pk, supervisor=supervisor, name="")
    assert "Donnez un nom" in refused.value.message


def test_last_seen_is_written_at_most_once_a_minute(bound, django_assert_num_queries):
    binding, raw = bound
    with django_assert_num_queries(2):  # the look-up, then last seen
        seen = device_binding_for(raw).last_seen_at
    with django_assert_num_queries(1):
        assert device_binding_for(raw).last_seen_at == seen
    earlier = timezone.now() - dt.timedelta(seconds=61)
    DeviceBinding.objects.filter(pk=binding.pk).update(last_seen_at=earlier)
    with django_assert_num_queries(2):
        assert device_binding_for(raw).last_seen_at > earlier
    binding.refresh_from_db()
    assert binding.last_seen_at > earlier


# The table a tablet opens --------------------------------------------------------------------


def test_a_bound_tablet_opens_its_table_for_the_dealer_assigned_to_it(
    bound, closed_table, dealer, supervisor
):
    binding, raw = bound
    _deals(closed_table, dealer, supervisor)
    shown = tablet_table(_request_from(dealer, raw))
    assert shown.table == closed_table and shown.binding == binding
    assert (shown.reason, shown.message) == ("", "")


def test_a_bound_tablet_tells_a_dealer_dealing_elsewhere_they_are_not_assigned_to_it(
    bound, closed_table, other_table, dealer, other_dealer, supervisor
):
    _, raw = bound
    _deals(closed_table, other_dealer, supervisor)
    _deals(other_table, dealer, supervisor)
    with translation.override("en"):
        shown = tablet_table(_request_from(dealer, raw))
    assert shown.table == closed_table  # the bound table only, never the dealer's own
    assert shown.reason == "not_assigned"
    assert "not assigned to this table" in shown.message
    assert "UTH 1" in shown.message and "UTH 2" in shown.message
    assert shown.opens(closed_table) and not shown.opens(other_table)


def test_a_bound_tablet_tells_a_dealer_without_a_table_they_are_not_assigned_to_it(
    bound, closed_table, dealer
):
    _, raw = bound
    with translation.override("fr"):
        shown = tablet_table(_request_from(dealer, raw))
    assert (shown.table, shown.reason) == (closed_table, "not_assigned")
    assert "UTH 1" in shown.message and "pas affecté" in shown.message


def test_an_unbound_tablet_opens_the_dealers_own_table(
    closed_table, other_table, dealer, supervisor
):
    _deals(other_table, dealer, supervisor)
    shown = tablet_table(_request_from(dealer))
    assert (shown.table, shown.binding, shown.reason) == (other_table, None, "")
    assert shown.opens(closed_table) and shown.opens(other_table)


def test_an_unbound_tablet_says_when_the_dealer_deals_no_table(dealer):
    shown = tablet_table(_request_from(dealer))
    assert (shown.table, shown.reason) == (None, "no_table")
    assert shown.message


def test_a_revoked_binding_leaves_the_tablet_unbound(
    bound, closed_table, other_table, dealer, supervisor
):
    binding, raw = bound
    _deals(other_table, dealer, supervisor)
    device_revoke(binding_id=binding.pk, supervisor=supervisor)
    shown = tablet_table(_request_from(dealer, raw))
    assert (shown.table, shown.binding, shown.reason) == (other_table, None, "")
