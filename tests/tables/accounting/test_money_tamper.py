"""Every money record is tamper-evident (issue 23, item 6): with the append-only triggers off,
each of these edits passed `audit_verify` before; each is now caught and named. A record's
audit entries carry the digest of the record as it then stood (casino.audit_records.register_record),
the round events' heads are in the checkpoints, and the sealer's sweep checkpoints the chain.

The attacker writes the database directly (on PostgreSQL after switching the row triggers off)
and does not hold AUDIT_HMAC_KEY; the checkpoint file is out of reach."""

import datetime as dt
import json

import pytest
from django.utils import timezone

from casino.audit import audit_checkpoint, seal_pending, seal_sweep
from casino.checkpoints import checkpoints_read
from casino.models import AuditEntry
from jackpot import services as jackpot
from jackpot.models import Hit, PendingReversal
from tables.accounting import services
from tables.accounting.models import ChipSlip, Drop
from tables.models import Correction, Round, RoundEvent, SettlementLine
from tables.services import rounds
from tests.factories import make_staff
from tests.jackpot.factories import hit as record_hit
from tests.tables.accounting.conftest import pin
from tests.tables.rounds.conftest import deal_to, pin_of
from tests.tamper import audit_verify as verify
from tests.tamper import write_unguarded

KEY = "test-money-key-" + "m" * 40


@pytest.fixture(autouse=True)
def _production_key(settings):
    settings.AUDIT_HMAC_KEY = KEY
    settings.AUDIT_HMAC_PREVIOUS_KEYS = ""


def holds() -> bool:
    code, message = verify()
    assert code == 0, message
    return True


@pytest.fixture
def folded(felt):
    """A settled round where both seats folded at the river: their Antes are lost."""
    deal_to(felt, "settled", river="fold")
    round_ = Round.objects.get(pk=felt.round["id"])
    assert holds()
    return round_


def test_a_losing_ante_turned_into_a_win_is_named(folded):
    line = SettlementLine.objects.filter(round=folded, bet="ante", net_cents__lt=0).first()
    write_unguarded(
        "tables_settlementline",
        "UPDATE tables_settlementline SET net_cents = %s WHERE id = %s",
        [-line.net_cents, line.pk],
    )
    code, message = verify()
    assert code == 1 and "Round records BROKEN" in message
    assert f"round #{folded.pk} no longer matches" in message and "edited since" in message


def test_a_line_added_to_a_round_is_named(folded):
    line = SettlementLine.objects.filter(round=folded).first()
    line.pk, line.net_cents = None, 50_000
    write_unguarded(
        "tables_settlementline",
        "INSERT INTO tables_settlementline (round_id, seat, bet, stake_cents, net_cents, "
        "paid_from, gaming_date, shift, at) VALUES (%s, 1, 'ante', 1000, 50000, 'house', %s, "
        "%s, %s)",
        [folded.pk, line.gaming_date, line.shift, line.at],
    )
    code, message = verify()
    assert code == 1 and f"round #{folded.pk} no longer matches" in message


def test_the_settlement_stored_on_a_round_edited_is_named(folded):
    settlement = {**folded.settlement, "house_net": 0}
    Round.objects.filter(pk=folded.pk).update(settlement=settlement)
    code, message = verify()
    assert code == 1 and f"round #{folded.pk} no longer matches" in message


def test_corrections_deleted_with_their_lines_are_named(felt, supervisor, casino_property):
    casino_property.correction_threshold_cents = 10**9  # the supervisor corrects alone
    casino_property.save(update_fields=["correction_threshold_cents"])
    deal_to(felt, "settled")
    round_ = Round.objects.get(pk=felt.round["id"])
    facts = json.loads(json.dumps(round_.settlement_input))
    facts["seats"][0]["hole"] = ["3c", "5d"]
    rounds.round_correct(
        round_id=round_.pk,
        actor=supervisor,
        key="fix-1",
        supervisor=pin_of(supervisor),
        reason="The camera shows 3c 5d.",
        corrected=facts,
    )
    assert SettlementLine.objects.filter(correction__isnull=False).exists()
    assert holds()
    write_unguarded(
        "tables_settlementline",
        "DELETE FROM tables_settlementline WHERE correction_id IS NOT NULL",
    )
    write_unguarded("tables_correction", "DELETE FROM tables_correction")
    assert not Correction.objects.exists()
    code, message = verify()
    assert code == 1 and f"round #{round_.pk} no longer matches" in message
    assert "tables.round.corrected" in message


@pytest.fixture
def voided(felt, supervisor):
    """A round voided on the flop: its contribution's reversal is queued for the bank."""
    deal_to(felt, "flop")
    felt.step("irregularity_declared", irregularity="community_card_exposed")
    felt.step("void_approved", supervisor=pin_of(supervisor))
    round_ = Round.objects.get(pk=felt.round["id"])
    assert PendingReversal.objects.filter(reference=f"round-{round_.pk}").exists()
    assert holds()
    return round_


def test_a_void_undone_by_deleting_its_event_and_rewriting_the_round_is_named(voided):
    last = RoundEvent.objects.get(round=voided, kind="void_approved")
    write_unguarded("tables_roundevent", "DELETE FROM tables_roundevent WHERE id = %s", [last.pk])
    Round.objects.filter(pk=voided.pk).update(
        seq=last.seq - 1, stage="flop", settlement=None, settlement_input=None, settled_at=None
    )
    code, message = verify()
    assert code == 1 and "Round records BROKEN" in message
    assert f"round #{voided.pk} no longer matches" in message
    assert "tables.round.void_approved" in message


def test_a_queued_reversal_deleted_is_named(voided):
    write_unguarded(
        "jackpot_pendingreversal",
        "DELETE FROM jackpot_pendingreversal WHERE reference = %s",
        [f"round-{voided.pk}"],
    )
    code, message = verify()
    assert code == 1 and f"round #{voided.pk} no longer matches" in message


def test_a_round_events_tail_cut_after_a_checkpoint_is_named(felt):
    # A round still in play carries no money yet: only the checkpoint knows its last event.
    deal_to(felt, "flop")
    audit_checkpoint()
    (checkpoint,), _bad = checkpoints_read()
    round_id = felt.round["id"]
    assert {
        "round": round_id,
        "seq": felt.seq,
        "hash": RoundEvent.objects.get(round_id=round_id, seq=felt.seq).hash,
    } in checkpoint.heads["round events"]
    write_unguarded(
        "tables_roundevent",
        "DELETE FROM tables_roundevent WHERE round_id = %s AND seq = %s",
        [round_id, felt.seq],
    )
    Round.objects.filter(pk=round_id).update(seq=felt.seq - 1)
    code, message = verify()
    assert code == 1
    assert f"Round events BROKEN at round {round_id}, event {felt.seq}" in message
    assert "is missing (deleted)" in message


def test_the_last_entries_deleted_after_the_last_checkpoint_are_named(felt):
    # No progressive wager: the meter ledger (which catches a contribution's lost entry
    # itself) stays out of it.
    deal_to(felt, "settled", progressive=0)
    audit_checkpoint()
    (checkpoint,), _bad = checkpoints_read()
    deal_to(felt, "settled", progressive=0)
    second = felt.round["id"]
    seal_pending()
    write_unguarded(
        "casino_auditentry",
        "DELETE FROM casino_auditentry WHERE position > %s OR position IS NULL",
        [checkpoint.position],
    )
    code, message = verify()
    assert code == 1 and f"round #{second} has no audit entry that records it" in message


def test_the_sweep_checkpoints_the_chain_whenever_its_head_moved(felt):
    deal_to(felt, "betting")
    seal_sweep()
    (first,), _bad = checkpoints_read()
    assert first.reason == "sweep" and first.position == AuditEntry.objects.count()
    seal_sweep()  # nothing new: no new line
    assert len(checkpoints_read()[0]) == 1
    felt.step("bets_locked")  # audited
    seal_sweep()
    assert [c.reason for c in checkpoints_read()[0]] == ["sweep", "sweep"]


# --- progressive hits ----------------------------------------------------------------------


@pytest.fixture
def paid_hit(progressive, dealer, supervisor):
    hit = record_hit(progressive, dealer)
    jackpot.hit_verify(hit_id=hit.pk, supervisor=supervisor)
    other = make_staff("supervisor", username="payer", pin="7531")
    jackpot.hit_pay(hit_id=hit.pk, supervisor=other)
    assert holds()
    return Hit.objects.get(pk=hit.pk)


@pytest.mark.parametrize(
    "change",
    ["amount_cents = amount_cents * 2", "recorded_by_id = verified_by_id", "state = 'pending'"],
)
def test_a_hit_edited_is_named(paid_hit, change):
    write_unguarded("jackpot_hit", f"UPDATE jackpot_hit SET {change} WHERE id = %s", [paid_hit.pk])
    code, message = verify()
    assert code == 1 and "Progressive hit records BROKEN" in message
    assert f"progressive hit #{paid_hit.pk} no longer matches" in message


def test_a_hit_set_to_paid_without_its_payment_is_named(progressive, dealer):
    hit = record_hit(progressive, dealer)
    write_unguarded("jackpot_hit", "UPDATE jackpot_hit SET state = 'paid' WHERE id = %s", [hit.pk])
    code, message = verify()
    assert code == 1 and f"progressive hit #{hit.pk} no longer matches" in message
    assert "jackpot.hit.recorded" in message


def test_a_hit_written_without_its_entry_is_named(progressive, dealer):
    recorded = record_hit(progressive, dealer)
    forged = Hit.objects.create(
        bank=progressive,
        order=recorded.order + 1,
        table_label="UTH-1",
        seat=2,
        level="royal_flush",
        amount_cents=recorded.amount_cents,
        meter_before_cents=recorded.meter_before_cents,
        recorded_at=timezone.now(),
        recorded_by=dealer,
    )
    code, message = verify()
    assert code == 1
    assert f"progressive hit #{forged.pk} has no audit entry that records it" in message


# --- slips and drops -----------------------------------------------------------------------


def test_a_slips_total_changed_is_named(table, dealer, supervisor, chip_set):
    slip = services.slip_request(
        kind="fill", table_id=table.pk, counts={"10000": 5}, requested_by=dealer
    )
    services.slip_approve(slip_id=slip.pk, actor=dealer, supervisor_pin=pin(supervisor))
    assert holds()
    write_unguarded(
        "accounting_chipslip",
        "UPDATE accounting_chipslip SET total_cents = 5000000, counts = %s WHERE id = %s",
        ['{"100000": 50}', slip.pk],
    )
    code, message = verify()
    assert code == 1 and "Slip records BROKEN" in message
    assert f"slip #{slip.pk} no longer matches" in message and "accounting.fill.approved" in message


def test_a_drops_total_changed_is_named(table, manager):
    drop = services.drop_record(
        manager=manager, table_id=table.pk, gaming_date=dt.date(2026, 3, 10), cash_cents=120_000
    )
    assert holds()
    Drop.objects.filter(pk=drop.pk).update(cash_cents=20_000)
    code, message = verify()
    assert code == 1 and "Drop records BROKEN" in message
    assert f"drop #{drop.pk} no longer matches" in message


def test_a_drop_written_without_its_entry_is_named(table, manager):
    forged = Drop.objects.create(
        table=table,
        gaming_date=dt.date(2026, 3, 10),
        cash_cents=1,
        source="entered",
        entered_by=manager,
        entered_at=timezone.now(),
    )
    code, message = verify()
    assert code == 1 and f"drop #{forged.pk} has no audit entry that records it" in message


def test_a_slip_deleted_is_named(table, dealer, chip_set):
    slip = services.slip_request(
        kind="credit", table_id=table.pk, counts={"10000": 2}, requested_by=dealer
    )
    assert holds()
    ChipSlip.objects.filter(pk=slip.pk).delete()
    code, message = verify()
    assert code == 1 and f"slip #{slip.pk}, recorded by this entry, is missing" in message


def test_the_migration_digests_the_records_written_before_as_they_are(table, manager, felt):
    import importlib

    deal_to(felt, "settled")
    # As before this change: a drop and a round whose entries carry no digest.
    old = Drop.objects.create(
        table=table,
        gaming_date=dt.date(2026, 3, 9),
        cash_cents=90_000,
        source="imported",
        entered_by=manager,
        entered_at=timezone.now(),
    )
    write_unguarded(
        "casino_auditentry",
        "DELETE FROM casino_auditentry WHERE code = 'tables.round.settled'",
    )
    seal_pending()
    assert verify()[0] == 1
    migration = importlib.import_module("casino.migrations.0012_digest_existing_money_records")
    migration.digest_existing(None, None)
    assert holds()
    assert AuditEntry.objects.filter(code="casino.record.digested").count() == 2
    Drop.objects.filter(pk=old.pk).update(cash_cents=1)
    code, message = verify()
    assert code == 1 and f"drop #{old.pk} no longer matches" in message
    assert "casino.record.digested" in message
