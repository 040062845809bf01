"""Meter readings and reconciliation, as Celery beat runs them."""

import datetime as dt
import logging

import pytest
from django.conf import settings
from django.db.models import F

from casino.models import AuditEntry
from jackpot import services, tasks
from jackpot.models import AppendOnly, Bank, MeterReading, ReconciliationAlert
from tests.jackpot.factories import contribute, make_bank

UTC = dt.UTC


@pytest.fixture
def clock(monkeypatch):
    """Set the server's clock: `clock(2026, 11, 29, 12, 0)` (UTC)."""

    def set_to(*parts):
        at = dt.datetime(*parts, tzinfo=UTC)
        monkeypatch.setattr("django.utils.timezone.now", lambda: at)
        return at

    return set_to


def test_a_periodic_reading_writes_down_every_banks_meters(
    casino_property, bank, closed_bank, dealer
):
    contribute(bank, dealer, ref="a", wagers=3)
    tasks.meter_readings_periodic.delay()
    reading = MeterReading.objects.get(bank=bank)
    assert reading.reason == MeterReading.Reason.PERIODIC
    assert (reading.meter_cents, reading.reserve_cents, reading.contributions_count) == (
        10_060,
        15,
        3,
    )
    assert reading.ledger_seq == 2  # the seed, then the contribution
    assert MeterReading.objects.filter(bank=closed_bank).count() == 1


def test_a_reading_is_taken_once_per_shift_when_the_shift_changes(casino_property, bank, clock):
    clock(2026, 11, 29, 12, 0)  # 13:00 in Paris: the day shift
    tasks.meter_readings_shift_change.delay()
    clock(2026, 11, 29, 12, 30)
    tasks.meter_readings_shift_change.delay()
    readings = MeterReading.objects.filter(bank=bank, reason=MeterReading.Reason.SHIFT_CHANGE)
    assert [r.shift for r in readings] == ["day"]
    clock(2026, 11, 29, 13, 1)  # 14:01 in Paris: swing has started
    tasks.meter_readings_periodic.delay()  # a periodic reading in between changes nothing
    tasks.meter_readings_shift_change.delay()
    assert [r.shift for r in readings.order_by("taken_at")] == ["day", "swing"]


def test_a_reading_can_never_be_edited(casino_property, bank):
    reading = services.meter_reading_take(bank_id=bank.pk, reason=MeterReading.Reason.MANUAL)
    reading.meter_cents = 0
    with pytest.raises(AppendOnly):
        reading.save()


def test_reconciliation_of_a_sound_bank_raises_nothing(bank, dealer):
    for i in range(5):
        contribute(bank, dealer, ref=f"r{i}", wagers=i + 1)
    tasks.reconcile_banks.delay()
    assert not ReconciliationAlert.objects.exists()


def test_reconciliation_raises_an_alert_when_the_meter_differs_from_the_ledger(
    bank, dealer, caplog
):
    contribute(bank, dealer, ref="a")
    Bank.objects.filter(pk=bank.pk).update(meter_cents=F("meter_cents") + 500)  # a defect
    with caplog.at_level(logging.ERROR, logger="jackpot.reconciliation"):
        tasks.reconcile_banks.delay()
    alert = ReconciliationAlert.objects.get()
    assert (alert.field, alert.ledger_value, alert.cached_value) == ("meter_cents", 10_020, 10_520)
    assert "meter_cents" in caplog.text
    assert AuditEntry.objects.filter(code="jackpot.reconciliation.alert").count() == 1
    tasks.reconcile_banks.delay()  # the same difference is not raised twice
    assert ReconciliationAlert.objects.count() == 1


def test_every_run_reports_a_difference_still_open_and_raises_it_once(bank, dealer):
    contribute(bank, dealer, ref="a")
    Bank.objects.filter(pk=bank.pk).update(meter_cents=F("meter_cents") + 500)  # a defect
    (first,) = services.bank_reconcile(bank_id=bank.pk)
    (again,) = services.bank_reconcile(bank_id=bank.pk)  # still wrong: still reported
    assert again == first and ReconciliationAlert.objects.count() == 1
    assert AuditEntry.objects.filter(code="jackpot.reconciliation.alert").count() == 1
    assert tasks.reconcile_banks.apply().get() == 1


def test_a_manager_resolves_an_alert_with_a_note(bank, manager):
    Bank.objects.filter(pk=bank.pk).update(reserve_cents=7)
    (alert,) = services.bank_reconcile(bank_id=bank.pk)
    services.alert_resolve(alert_id=alert.pk, manager=manager, note="restored from backup")
    alert.refresh_from_db()
    assert alert.resolved_by == manager and alert.resolved_at is not None


def test_the_beat_schedule_runs_readings_and_reconciliation():
    from casino.celery import app

    schedule = settings.CELERY_BEAT_SCHEDULE
    by_task = {entry["task"]: entry["schedule"] for entry in schedule.values()}
    assert set(by_task) >= {  # the jackpot's own (other apps schedule theirs beside them)
        "jackpot.tasks.meter_readings_periodic",
        "jackpot.tasks.meter_readings_shift_change",
        "jackpot.tasks.reconcile_banks",
        "jackpot.tasks.display_connections_prune",
    }
    assert by_task["jackpot.tasks.meter_readings_periodic"].minute == {0, 15, 30, 45}
    assert len(by_task["jackpot.tasks.meter_readings_shift_change"].minute) == 60
    # A row stale after 45 s and a sweep every 15 s: rows match live sockets within a minute.
    assert by_task["jackpot.tasks.display_connections_prune"] == 15.0
    app.loader.import_default_modules()  # every app's tasks, as a worker loads them
    for name in by_task:
        assert name in app.tasks
    assert "jackpot.feed.publish_meter" in app.tasks


def test_readings_need_no_lock_and_record_the_shift(casino_property, db, manager, clock):
    clock(2026, 11, 29, 22, 30)  # 23:30 in Paris: grave shift of the 29th's gaming day
    bank = make_bank(manager=manager)
    reading = services.meter_reading_take(
        bank_id=bank.pk, reason=MeterReading.Reason.MANUAL, actor=manager
    )
    assert (reading.gaming_date, reading.shift) == (dt.date(2026, 11, 29), "grave")
    assert reading.taken_by == manager
