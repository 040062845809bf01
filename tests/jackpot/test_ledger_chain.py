"""The meter ledger checked line by line and against the audit entries of its contributions
(issue 11, item 3: the ledger was protected by sums only). Each tampering of the issue is
caught and named by `manage.py audit_verify`."""

import pytest
from django.db import connection

from jackpot import services
from jackpot.chains import ledger_find_break
from jackpot.models import MeterEntry
from tests.jackpot.factories import adjust, contribute, hit
from tests.tamper import audit_verify as verify
from tests.tamper import write_unguarded


def sql(statement: str, params: list | None = None) -> None:
    write_unguarded("jackpot_meterentry", statement, params)


def delete_line(pk: int) -> None:
    # The accepted contribution's link to its line goes first (a foreign key).
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE jackpot_pendingcontribution SET entry_id = NULL WHERE entry_id = %s", [pk]
        )
    sql("DELETE FROM jackpot_meterentry WHERE id = %s", [pk])


@pytest.fixture
def ledger(bank, dealer, supervisor, manager, other_manager):
    """Every kind of line: contributions, a reversal, a hit with its reset, an adjustment."""
    lines = [contribute(bank, dealer, ref=f"r{n}", wagers=n) for n in range(1, 6)]
    services.bank_reverse(bank_id=bank.pk, reference="r5", actor=supervisor, reason="void")
    hit(bank, dealer, level="straight_flush")
    adjust(
        bank_id=bank.pk,
        reason="meter display fault",
        requested_by=manager,
        approved_by=other_manager,
        reserve_after_cents=777,
    )
    contribute(bank, dealer, ref="r6", wagers=3)
    assert set(MeterEntry.objects.filter(bank=bank).values_list("kind", flat=True)) == set(
        MeterEntry.Kind.values
    )
    bank.refresh_from_db()
    return bank, lines


def test_an_untouched_ledger_holds(ledger):
    assert ledger_find_break() is None
    code, message = verify()
    assert code == 0 and "Meter ledger verified: no break." in message


def test_500_cents_moved_between_two_lines_is_named_at_the_first(ledger):
    bank, lines = ledger
    sql(
        "UPDATE jackpot_meterentry SET meter_delta_cents = meter_delta_cents - 500,"
        " meter_after_cents = meter_after_cents - 500 WHERE id = %s",
        [lines[1].pk],
    )
    sql(
        "UPDATE jackpot_meterentry SET meter_delta_cents = meter_delta_cents + 500 WHERE id = %s",
        [lines[2].pk],
    )
    code, message = verify()
    assert code == 1
    assert (
        f"Meter ledger BROKEN at #{lines[1].pk} (bank {bank.slug}, line {lines[1].seq}" in message
    )
    assert "recorded" in message  # the contribution's own audit entry disagrees


def test_an_edited_meter_after_is_named_at_its_line(ledger):
    bank, lines = ledger
    sql("UPDATE jackpot_meterentry SET meter_after_cents = 1 WHERE id = %s", [lines[3].pk])
    code, message = verify()
    assert code == 1 and f"#{lines[3].pk} (bank {bank.slug}, line {lines[3].seq}" in message
    assert "meter_after_cents is 1" in message


def test_a_deleted_posted_contribution_is_named(ledger):
    bank, lines = ledger
    delete_line(lines[2].pk)
    code, message = verify()
    assert code == 1 and f"line {lines[2].seq} is missing" in message


def test_a_deleted_last_line_is_named(ledger):
    bank, _lines = ledger
    last = MeterEntry.objects.filter(bank=bank).order_by("-seq").first()
    delete_line(last.pk)
    code, message = verify()
    assert code == 1 and f"bank {bank.slug}: the bank counts {bank.ledger_seq} lines" in message


def test_a_contribution_rewritten_consistently_still_disagrees_with_its_audit_entry(ledger):
    # Amount and balance edited together, and every later balance moved along: the line
    # arithmetic holds, the audit entry (keyed outside the database) does not.
    bank, lines = ledger
    sql(
        "UPDATE jackpot_meterentry SET meter_delta_cents = meter_delta_cents + 100,"
        " meter_after_cents = meter_after_cents + 100 WHERE bank_id = %s AND seq >= %s",
        [bank.pk, lines[0].seq],
    )
    sql(
        "UPDATE jackpot_meterentry SET meter_delta_cents = meter_delta_cents - 100"
        " WHERE bank_id = %s AND seq > %s",
        [bank.pk, lines[0].seq],
    )
    code, message = verify()
    assert code == 1 and f"#{lines[0].pk}" in message and "recorded" in message
