"""The supervisor's tablet pages: the list, "Bind this tablet" on the tablet itself (the
response gives that browser its credential), and revoking."""

import hashlib

import pytest
from django.test import Client
from django.urls import reverse

from casino.models import AuditEntry
from tables.devices.cookie import BINDING_COOKIE, BINDING_COOKIE_AGE
from tables.models import DeviceBinding
from tables.services.devices import device_bind

LIST = reverse("tables:devices:list")
BIND = reverse("tables:devices:bind")


def _client(staff, language="en") -> Client:
    client = Client()
    client.force_login(staff)
    client.cookies["tapis_device_language"] = language
    return client


def _bind(client, table, *, pin="1234", name="Tablette UTH 1", **extra):
    return client.post(BIND, {"table": table.pk, "name": name, "pin": pin}, **extra)


def test_it_binds_the_tablet_it_runs_on(closed_table, supervisor):
    client = _client(supervisor)
    response = _bind(client, closed_table)
    assert response.status_code == 302 and response["Location"] == LIST
    binding = DeviceBinding.objects.get()
    raw = response.cookies[BINDING_COOKIE].value
    assert binding.token_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert (binding.table, binding.bound_by, binding.name) == (
        closed_table,
        supervisor,
        "Tablette UTH 1",
    )
    page = client.get(LIST)
    assert f'data-this-tablet="{binding.pk}"' in page.text
    assert "This tablet is now bound to UTH 1" in page.text


def test_the_credential_is_a_long_lived_http_only_lax_cookie(closed_table, supervisor):
    cookie = _bind(_client(supervisor), closed_table).cookies[BINDING_COOKIE]
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert cookie["max-age"] == BINDING_COOKIE_AGE
    assert cookie["path"] == "/"
    assert not cookie["secure"]  # plain HTTP in development


def test_the_cookie_is_secure_over_https_and_in_production(closed_table, supervisor, settings):
    assert _bind(_client(supervisor), closed_table, secure=True).cookies[BINDING_COOKIE]["secure"]
    settings.SESSION_COOKIE_SECURE = True  # the production profile (DJANGO_DEBUG=False)
    cookie = _bind(_client(supervisor), closed_table, name="Tablette 2").cookies[BINDING_COOKIE]
    assert cookie["secure"] is True


def test_a_wrong_pin_binds_nothing_and_counts_against_the_pin(closed_table, supervisor):
    response = _bind(_client(supervisor), closed_table, pin="9999")
    assert response.status_code == 403
    assert BINDING_COOKIE not in response.cookies
    assert "Wrong employee number or PIN." in response.text
    assert not DeviceBinding.objects.exists()
    supervisor.refresh_from_db()
    assert supervisor.failed_pin_attempts == 1
    assert AuditEntry.objects.filter(code="casino.pin.rejected", actor=supervisor).exists()


def test_a_refused_binding_shows_why_and_keeps_the_form(closed_table, supervisor):
    response = _bind(_client(supervisor), closed_table, name="  ")
    assert response.status_code == 400
    assert BINDING_COOKIE not in response.cookies
    assert "Give the tablet a name" in response.text
    assert f'<option value="{closed_table.pk}" selected>' in response.text


@pytest.mark.parametrize("persona", ["dealer", "auditor"])
def test_a_dealer_or_an_auditor_cannot_bind_a_tablet(request, persona, closed_table):
    client = _client(request.getfixturevalue(persona))
    assert client.get(BIND).status_code == 403
    response = _bind(client, closed_table)
    assert response.status_code == 403 and BINDING_COOKIE not in response.cookies
    assert not DeviceBinding.objects.exists()


def test_the_bind_page_names_the_table_it_came_from(closed_table, other_table, supervisor):
    page = _client(supervisor).get(BIND, {"table": other_table.pk})
    assert f'<option value="{other_table.pk}" selected>' in page.text
    assert f'<option value="{closed_table.pk}">' in page.text


def test_binding_a_bound_tablet_again_replaces_its_binding(closed_table, other_table, supervisor):
    client = _client(supervisor)
    _bind(client, closed_table)
    page = client.get(BIND)
    assert "binding it again replaces that binding" in page.text
    assert 'value="Tablette UTH 1"' in page.text
    response = _bind(client, other_table)
    assert response.status_code == 302
    old, new = DeviceBinding.objects.order_by("pk")
    assert not old.is_active and new.is_active and new.table == other_table
    assert (
        new.token_hash
        == hashlib.sha256(response.cookies[BINDING_COOKIE].value.encode()).hexdigest()
    )


def test_the_list_shows_who_bound_and_revoked_each_tablet(closed_table, supervisor, auditor):
    active, _ = device_bind(table_id=closed_table.pk, supervisor=supervisor, name="Tablette A")
    gone, _ = device_bind(table_id=closed_table.pk, supervisor=supervisor, name="Tablette B")
    _client(supervisor).post(reverse("tables:devices:revoke", args=[gone.pk]))
    page = _client(auditor).get(LIST)
    assert page.status_code == 200
    assert "Tablette A" in page.text and "Tablette B" in page.text
    assert "Revoked tablets" in page.text
    assert page.text.count(str(supervisor)) >= 3  # bound A, bound B, revoked B
    # Auditors read; they are offered neither a revoke button nor the bind page.
    assert reverse("tables:devices:revoke", args=[active.pk]) not in page.text
    assert BIND not in page.text


def test_a_dealer_cannot_see_the_list(dealer, db):
    assert _client(dealer).get(LIST).status_code == 403


def test_revoking_from_the_list_makes_the_credential_worthless(closed_table, supervisor):
    binding, raw = device_bind(table_id=closed_table.pk, supervisor=supervisor, name="Tablette")
    client = _client(supervisor)
    page = client.get(LIST)
    revoke = reverse("tables:devices:revoke", args=[binding.pk])
    assert revoke in page.text
    response = client.post(revoke)
    assert response.status_code == 302
    assert BINDING_COOKIE not in response.cookies  # another browser: this one keeps nothing
    binding.refresh_from_db()
    assert binding.revoked_by == supervisor
    tablet = _client(supervisor)
    tablet.cookies[BINDING_COOKIE] = raw
    assert "This tablet is not bound to a table" in tablet.get(LIST).text
    assert "no longer opens UTH 1" in client.get(LIST).text


def test_revoking_this_tablets_binding_clears_its_cookie(closed_table, supervisor):
    client = _client(supervisor)
    _bind(client, closed_table)
    binding = DeviceBinding.objects.get()
    response = client.post(reverse("tables:devices:revoke", args=[binding.pk]))
    assert response.cookies[BINDING_COOKIE].value == ""
    assert response.cookies[BINDING_COOKIE]["max-age"] == 0


def test_revoking_twice_says_so(closed_table, supervisor):
    binding, _ = device_bind(table_id=closed_table.pk, supervisor=supervisor, name="Tablette")
    client = _client(supervisor)
    revoke = reverse("tables:devices:revoke", args=[binding.pk])
    client.post(revoke)
    page = client.get(client.post(revoke)["Location"])
    assert "was already revoked" in page.text


@pytest.mark.parametrize("persona", ["dealer", "auditor"])
def test_a_dealer_or_an_auditor_cannot_revoke(request, persona, closed_table, supervisor):
    binding, _ = device_bind(table_id=closed_table.pk, supervisor=supervisor, name="Tablette")
    response = _client(request.getfixturevalue(persona)).post(
        reverse("tables:devices:revoke", args=[binding.pk])
    )
    assert response.status_code == 403
    binding.refresh_from_db()
    assert binding.is_active


def test_the_pages_speak_french(closed_table, supervisor):
    client = _client(supervisor, language="fr")
    page = client.get(BIND)
    assert "Lier cette tablette" in page.text and "Bind this tablet" not in page.text
    _bind(client, closed_table)
    page = client.get(LIST)
    assert "Tablettes liées aux tables" in page.text
    assert "est maintenant liée à UTH 1" in page.text
