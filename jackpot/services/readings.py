"""Meter readings (every 15 minutes and at each shift change) and the reconciliation that
proves the cached totals equal the ledger (NJ 1.39A(b) meters; NZ 1.28.5 "meters not
reconciling" is a fault to raise)."""

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.audit import audit
from casino.live import after_commit
from casino.roles import Role
from jackpot import events
from jackpot.errors import JackpotError
from jackpot.models import Bank, MeterReading, ReconciliationAlert
from jackpot.selectors import bank_get, bank_ids, latest_reading, ledger_totals
from jackpot.services._base import TOTAL_FIELDS, When, require_role
from jackpot.services.posting import bank_post_pending

log = logging.getLogger("jackpot.reconciliation")

# Cached on the bank, recomputed from the ledger by the reconciliation (hit numbering is
# not an amount the ledger sums).
RECONCILED_FIELDS = tuple(field for field in TOTAL_FIELDS if field != "hit_seq")


def meter_reading_take(*, bank_id: int, reason: str, actor=None, when: When | None = None):
    """Write down the bank's meters as committed now. A single row read is consistent, so
    no lock is taken: readings never slow the tables down. Waiting contributions are posted
    first (a quick no-op when none wait or when posting is already running)."""
    if actor is not None:
        require_role(actor, Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR)
    bank_post_pending(bank_id=bank_id)  # what the tables have committed is on the meter first
    bank = bank_get(bank_id)
    when = when or When.now()
    return MeterReading.objects.create(
        bank=bank,
        taken_at=when.at,
        reason=reason,
        gaming_date=when.gaming_date,
        shift=when.shift,
        taken_by=actor,
        ledger_seq=bank.ledger_seq,
        meter_cents=bank.meter_cents,
        reserve_cents=bank.reserve_cents,
        overflow_cents=bank.overflow_cents,
        contributions_count=bank.contributions_count,
        hits_count=bank.hits_count,
        paid_total_cents=bank.paid_total_cents,
    )


def readings_take_periodic() -> list[MeterReading]:
    """One reading of every bank (beat: every 15 minutes)."""
    when = When.now()
    return [
        meter_reading_take(bank_id=pk, reason=MeterReading.Reason.PERIODIC, when=when)
        for pk in bank_ids()
    ]


def readings_take_at_shift_change() -> list[MeterReading]:
    """A shift-change reading of every bank that has none for the shift now running (beat:
    every minute, so the reading follows the change within a minute)."""
    when = When.now()
    if not when.shift:
        for pk in bank_ids():
            bank_post_pending(bank_id=pk)  # the minute's safety net runs all the same
        return []  # no property or no shifts configured: nothing to key the reading on
    taken = []
    for pk in bank_ids():
        # Every minute: the safety net that posts rows a failed posting left waiting.
        bank_post_pending(bank_id=pk)
        bank = Bank(pk=pk)
        last = latest_reading(bank, reason=MeterReading.Reason.SHIFT_CHANGE)
        if last is None or (last.gaming_date, last.shift) != (when.gaming_date, when.shift):
            taken.append(
                meter_reading_take(bank_id=pk, reason=MeterReading.Reason.SHIFT_CHANGE, when=when)
            )
    return taken


def bank_reconcile(*, bank_id: int) -> list[ReconciliationAlert]:
    """Recompute the bank's totals from its ledger: every difference found now, each as its
    open alert (raised, logged and audited the first time it is seen; a run that finds it
    again reports the same alert, so a second run never says the bank agrees while it
    does not).

    Lock-free: the bank row is read first, then the ledger up to the row's ledger_seq. Every
    entry up to that number was committed with (or before) the row we read. Waiting
    contributions (PendingContribution) are posted first; one still waiting is not money on
    the meter yet and is not part of either side.
    """
    bank_post_pending(bank_id=bank_id)
    bank = bank_get(bank_id)
    recomputed = ledger_totals(bank, upto_seq=bank.ledger_seq)
    differences = {
        name: (recomputed[name], getattr(bank, name))
        for name in RECONCILED_FIELDS
        if recomputed[name] != getattr(bank, name)
    }
    if recomputed["entries"] != bank.ledger_seq and "ledger_seq" not in differences:
        differences["ledger_entries"] = (recomputed["entries"], bank.ledger_seq)
    alerts = []
    if not differences:
        return alerts
    with transaction.atomic():
        for name, (ledger_value, cached_value) in differences.items():
            already = ReconciliationAlert.objects.filter(
                bank=bank,
                field=name,
                ledger_value=ledger_value,
                cached_value=cached_value,
                resolved_at__isnull=True,
            ).first()
            if already is not None:
                alerts.append(already)
                continue
            alert = ReconciliationAlert.objects.create(
                bank=bank,
                detected_at=timezone.now(),
                field=name,
                ledger_value=ledger_value,
                cached_value=cached_value,
            )
            log.error(
                "jackpot %s: %s is %s by the ledger but %s on the bank",
                bank.slug,
                name,
                ledger_value,
                cached_value,
            )
            audit(
                actor=None,
                code="jackpot.reconciliation.alert",
                subject=alert,
                data={
                    "bank": bank.slug,
                    "field": name,
                    "ledger": ledger_value,
                    "cached": cached_value,
                },
            )
            after_commit(
                lambda pk=alert.pk: events.reconciliation_alert_raised.send(
                    sender=ReconciliationAlert, alert_id=pk
                )
            )
            alerts.append(alert)
    return alerts


def banks_reconcile() -> list[ReconciliationAlert]:
    alerts = []
    for pk in bank_ids():
        alerts.extend(bank_reconcile(bank_id=pk))
    return alerts


def alert_resolve(*, alert_id: int, manager, note: str) -> ReconciliationAlert:
    """A manager explains the difference (an adjustment, a fixed defect) and closes it."""
    require_role(manager, Role.MANAGER)
    if not note or not note.strip():
        raise JackpotError(_("Say how the difference was resolved."), code="invalid_resolution")
    with transaction.atomic():
        alert = (
            ReconciliationAlert.objects.select_for_update(no_key=True).filter(pk=alert_id).first()
        )
        if alert is None or alert.resolved_at is not None:
            raise JackpotError(
                _("Alert #%(id)s does not exist or is already resolved.") % {"id": alert_id},
                code="alert_not_open",
            )
        alert.resolved_at, alert.resolved_by = timezone.now(), manager
        alert.note = note.strip()[:200]
        alert.save(update_fields=["resolved_at", "resolved_by", "note"])
        audit(
            actor=manager,
            code="jackpot.reconciliation.resolved",
            subject=alert,
            data={"field": alert.field, "note": alert.note},
        )
    return alert
