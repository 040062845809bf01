"""A table's counted win against the win the engine settled: beyond the threshold, the pit
gets an alert (a mispay, a missing slip, chips walking away), once per table and day."""

import datetime as dt

import pytest
from django.utils import translation

from tables.accounting.services import drop_record
from tables.models import Round, SettlementLine
from tables.pit.alerts import alert_json
from tables.pit.models import Alert
from tests.tables.rounds.conftest import deal_to

pytestmark = pytest.mark.django_db


def computed_win(round_id) -> int:
    lines = SettlementLine.objects.filter(round_id=round_id)
    return -sum(line.net_cents for line in lines if line.bet != "cap")


def settled_day(felt) -> tuple[dt.date, int]:
    settled = deal_to(felt, "settled")
    round_ = Round.objects.get(pk=settled["id"])
    return round_.gaming_date, computed_win(round_.pk)


def test_a_drop_far_from_the_settled_win_raises_a_variance_alert(
    felt, manager, django_capture_on_commit_callbacks, settings
):
    settings.ACCOUNTING_VARIANCE_ALERT_CENTS = 10_000
    day, won = settled_day(felt)
    with django_capture_on_commit_callbacks(execute=True):
        drop_record(
            manager=manager,
            table_id=felt.table.pk,
            gaming_date=day,
            cash_cents=max(won, 0) + 25_000,
        )
    alert = Alert.objects.get(kind="variance")
    assert alert.table_id == felt.table.pk and alert.key == f"variance:{felt.table.pk}:{day}"
    assert alert.params["variance_cents"] == alert.params["counted_cents"] - won
    with translation.override("fr"):
        worded = alert_json(alert)
    assert "écart" in worded["detail"] and "Counted" not in worded["title"]


def test_a_drop_within_the_threshold_raises_nothing_and_a_second_entry_no_second_alert(
    felt, manager, django_capture_on_commit_callbacks, settings
):
    settings.ACCOUNTING_VARIANCE_ALERT_CENTS = 10_000
    day, won = settled_day(felt)
    with django_capture_on_commit_callbacks(execute=True):
        drop_record(
            manager=manager, table_id=felt.table.pk, gaming_date=day, cash_cents=max(won, 0)
        )
    assert not Alert.objects.filter(kind="variance").exists()
    for extra in (30_000, 40_000):
        with django_capture_on_commit_callbacks(execute=True):
            drop_record(
                manager=manager,
                table_id=felt.table.pk,
                gaming_date=day,
                cash_cents=max(won, 0) + extra,
            )
    assert Alert.objects.filter(kind="variance").count() == 1
