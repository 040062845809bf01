"""What the pit says to the person reading it (issue 25, items 4 and 7): a round named by its
table and number, a last activity on another day with its date, opening and closing asked
once more, and a wrong PIN in the approvals queue worded for a form that asks for a PIN."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from casino.clock import current_property
from tables.models import Round, Table
from tables.pit import selectors
from tests.tables.pit.test_pit_floor import client_of, declare_void
from tests.tables.rounds.conftest import SUPERVISOR_PIN, deal_to

pytestmark = pytest.mark.django_db


def test_a_void_decided_from_the_pit_names_the_round_by_its_table_and_number(felt, supervisor):
    deal_to(felt, "settled")
    deal_to(felt, "settled")
    declared = declare_void(felt)
    round_ = Round.objects.get(pk=declared["id"])
    answer = client_of(supervisor).post(
        f"/pit/rounds/{round_.pk}/void/",
        {"decision": "approve", "pin": SUPERVISOR_PIN, "seq": declared["seq"], "key": "v-1"},
        follow=True,
    )
    html = answer.content.decode()
    assert f"The void of {felt.table.name}, round #{round_.number}, is approved" in html
    french = client_of(supervisor, "fr").get("/pit/").content.decode()
    assert "coup n°" not in french or f"#{round_.pk} " not in french


def test_a_wrong_pin_in_the_queue_speaks_of_the_pin_alone(felt, supervisor):
    declared = declare_void(felt)
    for language, wrong, said in (
        ("en", "employee number", "Wrong PIN"),
        ("fr", "Matricule", "Code PIN erroné"),
    ):
        answer = client_of(supervisor, language).post(
            f"/pit/rounds/{declared['id']}/void/",
            {"decision": "approve", "pin": "0000", "seq": declared["seq"], "key": f"w-{language}"},
            follow=True,
        )
        messages = re.search(r'<ul class="messages".*?</ul>', answer.content.decode(), re.S)[0]
        assert said in messages and wrong not in messages


def test_a_last_activity_on_another_day_shows_its_date(felt, supervisor, monkeypatch):
    deal_to(felt, "settled")
    client = client_of(supervisor)
    today = client.get("/pit/").content.decode()
    cell = re.search(r"<dd data-last-activity>(.*?)</dd>", today)[1]
    assert re.fullmatch(r"\d\d:\d\d:\d\d", cell)
    last = selectors.table_cards()[0]["last_activity"]
    later = timezone.now() + dt.timedelta(days=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    tomorrow = client.get("/pit/").content.decode()
    cell = re.search(r"<dd data-last-activity>(.*?)</dd>", tomorrow)[1]
    assert re.fullmatch(r"\d\d/\d\d/\d{4} \d\d:\d\d:\d\d", cell)
    assert last.astimezone(current_property().zone).strftime("%m/%d/%Y") in cell


@pytest.mark.parametrize("action,status", [("close", "open"), ("open", "closed")])
def test_opening_or_closing_a_table_is_asked_once_more(felt, supervisor, action, status):
    from tables import services

    if status == "closed":
        services.table_close(table_id=felt.table.pk, supervisor=supervisor)
    client = client_of(supervisor)
    asked = client.post(
        f"/pit/tables/{felt.table.pk}/{action}/", {"next": f"/pit/tables/{felt.table.pk}/"}
    )
    assert asked.status_code == 200
    html = asked.content.decode()
    assert f"{action.capitalize()} {felt.table.name}?" in html
    assert 'name="confirm" value="yes"' in html
    assert Table.objects.get(pk=felt.table.pk).status == status
    client.post(f"/pit/tables/{felt.table.pk}/{action}/", {"confirm": "yes"})
    assert Table.objects.get(pk=felt.table.pk).status != status


def test_an_alert_names_the_bank_in_the_reader_s_language(db, casino_property):
    from django.db import transaction
    from django.utils import translation

    from tables.pit import alerts

    with transaction.atomic():
        alert = alerts.alert_raise(
            kind="display_link_lost",
            key="display_link_lost:test",
            params={
                "display": "Bar",
                "bank": "Jackpot progressif UTH",
                "bank_en": "UTH progressive jackpot",
                "since": None,
            },
        )
    with translation.override("en"):
        assert "UTH progressive jackpot" in alerts.alert_json(alert)["title"] + str(
            alerts.alert_json(alert)["detail"]
        )
    with translation.override("fr"):
        worded = alerts.alert_json(alert)
        assert "Jackpot progressif UTH" in worded["title"] + str(worded["detail"])
