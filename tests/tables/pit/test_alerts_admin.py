"""The alert thresholds in the admin: a manager edits them in the property's currency, every
change is audited, an auditor only reads them, and the alerts themselves are read-only."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from casino.forms import parse_amount
from casino.models import AuditEntry
from casino.permissions import role_permissions, sync_role_permissions
from casino.roles import Role
from tables.pit.alerts import alert_raise
from tables.pit.models import Alert, AlertSettings, TableAlertThreshold


@pytest.fixture
def signed_in(client):
    def sign_in(staff):
        sync_role_permissions()  # the test database's post_migrate ran before our admin loaded
        staff.refresh_from_db()
        client.force_login(staff)
        return client

    return sign_in


def settings_form(casino_property, **overrides):
    data = {
        "property": casino_property.pk,
        "idle_minutes": "20",
        "rotation_minutes": "45",
        "minutes_past_rotation": "5",
        "voids_per_dealer_shift": "4",
        "big_win_cents": "7 500,00",
    }
    return {**data, **overrides}


def test_a_manager_sets_the_propertys_thresholds_in_euros_and_it_is_audited(
    signed_in, manager, casino_property
):
    client = signed_in(manager)
    response = client.post(reverse("admin:pit_alertsettings_add"), settings_form(casino_property))
    assert response.status_code == 302, response.content.decode()[:3000]
    saved = AlertSettings.objects.get()
    assert (saved.idle_minutes, saved.rotation_minutes, saved.big_win_cents) == (20, 45, 750_000)
    entry = AuditEntry.objects.get(code="admin.pit.alertsettings.add")
    assert entry.actor == manager and entry.data["values"]["big_win_cents"] == 750_000


def test_the_change_form_shows_the_amount_in_the_currency_and_a_change_is_audited(
    signed_in, manager, casino_property
):
    saved = AlertSettings.objects.create(property=casino_property, big_win_cents=500_000)
    client = signed_in(manager)
    url = reverse("admin:pit_alertsettings_change", args=[saved.pk])
    page = client.get(url).content.decode()
    assert 'value="5000,00"' in page and "(EUR)" in page  # the manager reads French
    response = client.post(url, settings_form(casino_property, big_win_cents="10000"))
    assert response.status_code == 302
    saved.refresh_from_db()
    assert saved.big_win_cents == 1_000_000
    entry = AuditEntry.objects.get(code="admin.pit.alertsettings.change")
    assert entry.data["before"]["big_win_cents"] == 500_000
    assert entry.data["after"]["big_win_cents"] == 1_000_000


def test_an_amount_that_is_not_one_is_refused_on_its_field(signed_in, manager, casino_property):
    client = signed_in(manager)
    for typed in ("beaucoup", "0", "12,345"):
        response = client.post(
            reverse("admin:pit_alertsettings_add"),
            settings_form(casino_property, big_win_cents=typed),
        )
        assert response.status_code == 200, typed
    assert not AlertSettings.objects.exists()


def test_a_manager_sets_a_tables_own_threshold(signed_in, manager, table):
    client = signed_in(manager)
    response = client.post(
        reverse("admin:pit_tablealertthreshold_add"),
        {"table": table.pk, "big_win_cents": "25 000"},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert TableAlertThreshold.objects.get().big_win_cents == 2_500_000
    assert AuditEntry.objects.filter(code="admin.pit.tablealertthreshold.add").exists()
    listing = client.get(reverse("admin:pit_tablealertthreshold_changelist")).content.decode()
    assert "25\u202f000,00\u00a0€" in listing


def test_an_auditor_reads_the_thresholds_and_changes_nothing(signed_in, auditor, casino_property):
    saved = AlertSettings.objects.create(property=casino_property)
    client = signed_in(auditor)
    url = reverse("admin:pit_alertsettings_change", args=[saved.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, settings_form(casino_property, idle_minutes="1"))
    assert response.status_code == 403
    saved.refresh_from_db()
    assert saved.idle_minutes == 15


def test_the_roles_permissions_follow_the_admins():
    wanted = role_permissions()
    for model in ("alertsettings", "tablealertthreshold"):
        assert ("pit", f"change_{model}") in wanted[Role.MANAGER.value]
        assert ("pit", f"view_{model}") in wanted[Role.AUDITOR.value]
        assert ("pit", f"change_{model}") not in wanted[Role.AUDITOR.value]
    # Alerts are raised by the services and acknowledged on the pit's screen only.
    assert ("pit", "change_alert") not in wanted[Role.MANAGER.value]
    assert ("pit", "view_alert") in wanted[Role.MANAGER.value]


def test_alerts_are_listed_read_only_in_the_admin(signed_in, manager):
    alert = alert_raise(kind=Alert.Kind.SIGNIN_THROTTLED, key="k", params={"source": "x"})
    client = signed_in(manager)
    assert client.get(reverse("admin:pit_alert_changelist")).status_code == 200
    url = reverse("admin:pit_alert_change", args=[alert.pk])
    assert client.post(url, {"note": "edited"}).status_code == 403


@pytest.mark.parametrize(
    "language, typed, cents",
    [
        ("fr", "5000", 500_000),
        ("fr", "5 000,00", 500_000),
        ("fr", "5\u202f000,50\u00a0€", 500_050),
        ("fr", "1.234,56", 123_456),
        ("fr", "0,05", 5),
        ("fr", "EUR 12,5", 1_250),
        ("en", "€5,000.5", 500_050),
        ("en", "12,345", 1_234_500),
        ("en", "5000.05", 500_005),
    ],
)
def test_amounts_are_read_as_the_readers_language_writes_them(language, typed, cents):
    assert parse_amount(typed, "EUR", language) == cents


@pytest.mark.parametrize(
    "language, typed",
    [
        ("fr", ""),
        ("fr", "abc"),
        ("fr", "12,345"),  # three decimals
        ("fr", ","),
        ("fr", "-50"),
        ("fr", "5.00.000"),
        ("en", "5000,50"),
        ("en", "1,23,456"),
    ],
)
def test_what_is_not_an_amount_is_refused(language, typed):
    with pytest.raises(ValidationError):
        parse_amount(typed, "EUR", language)
