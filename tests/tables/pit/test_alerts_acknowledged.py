"""The pit keeps the alerts acknowledged lately in sight, with who, when and the note: a
supervisor sees what another did about an alert that left the open list."""

import datetime as dt

from django.test import Client
from django.utils import timezone

from tables.pit.alerts import alert_acknowledge, alert_raise
from tables.pit.models import Alert


def _reader(staff, language: str = "en") -> Client:
    staff.language = language
    staff.save(update_fields=["language"])
    client = Client()
    client.force_login(staff)
    return client


def _raised(table, key: str) -> Alert:
    return alert_raise(kind="table_idle", key=key, table=table, params={"minutes": 20})


def test_an_acknowledged_alert_leaves_the_open_list_and_shows_with_its_note(
    table, supervisor, manager
):
    seen = _raised(table, "idle-seen")
    waiting = _raised(table, "idle-waiting")
    alert_acknowledge(alert_id=seen.pk, staff=supervisor, note="Dealer on break, table watched")
    client = _reader(manager)
    for path in ("/pit/", "/pit/fragments/alerts/"):
        html = client.get(path).content.decode()
        assert f'data-alert="{waiting.pk}"' in html
        assert f'data-alert="{seen.pk}"' not in html  # no longer waiting
        assert f'data-acknowledged-alert="{seen.pk}"' in html
        assert "Dealer on break, table watched" in html
        assert f"Acknowledged by {supervisor}" in html


def test_only_the_alerts_of_about_a_shift_stay_in_sight(table, supervisor):
    old = _raised(table, "idle-old")
    alert_acknowledge(alert_id=old.pk, staff=supervisor, note="Seen")
    Alert.objects.filter(pk=old.pk).update(acknowledged_at=timezone.now() - dt.timedelta(hours=13))
    client = _reader(supervisor)
    html = client.get("/pit/fragments/alerts/").content.decode()
    assert f'data-acknowledged-alert="{old.pk}"' not in html
    assert "Acknowledged lately" not in html


def test_the_french_pit_words_who_took_note(table, supervisor, manager):
    seen = _raised(table, "idle-fr")
    alert_acknowledge(alert_id=seen.pk, staff=supervisor, note="Vu")
    client = _reader(manager, "fr")
    html = client.get("/pit/fragments/alerts/").content.decode()
    assert "Prises d’acte récentes" in html
    assert f"Prise d’acte par {supervisor} à" in html
