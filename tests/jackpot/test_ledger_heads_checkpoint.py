"""Each bank's ledger head in the audit checkpoints outside the database (issue 11, item 3).

The keyed chain shows an edited, forged or renumbered line, but not its own end cut off: a
bank's last hit, reset or adjustment lines deleted and the bank row's `ledger_seq` and
`ledger_hash` rewritten to the new last line verify cleanly (contributions are still missed by
their audit entries; the other kinds are not). Every checkpoint now also records each bank's
head (line number and hash), and `audit_verify` checks that each one is still in the ledger.

The attacker writes the database directly (the append-only trigger switched off, which a table
owner can do) and may even hold AUDIT_HMAC_KEY; the checkpoint file is out of reach.
"""

import datetime as dt
import json
import logging
from io import StringIO
from pathlib import Path
from unittest.mock import ANY

import pytest
from django.core.management import call_command
from django.utils import timezone

from casino import checkpoints as checkpoints_module
from casino.audit import atomic_audit, audit_checkpoint
from casino.audit_keys import current_key, current_key_id, mac
from casino.checkpoints import Checkpoint, checkpoints_read, shift_checkpoint
from jackpot.chains import ledger_find_break, ledger_heads_find_break
from jackpot.models import Bank, MeterEntry, meter_entry_digest
from tests.factories import PropertyFactory
from tests.jackpot.factories import adjust, contribute, hit, make_bank
from tests.tamper import audit_verify as verify
from tests.tamper import detach_adjustment_requests, write_unguarded

KEY = "test-heads-key-" + "k" * 40


@pytest.fixture(autouse=True)
def _production_key(settings):
    settings.AUDIT_HMAC_KEY = KEY
    settings.AUDIT_HMAC_PREVIOUS_KEYS = ""


def sql(statement: str, params: list | None = None) -> None:
    write_unguarded("jackpot_meterentry", statement, params)


def lines(bank: Bank) -> list[MeterEntry]:
    return list(MeterEntry.objects.filter(bank=bank).order_by("seq"))


def last_checkpoint() -> Checkpoint:
    found, bad = checkpoints_read()
    assert bad == []
    return found[-1]


def cut_after(bank: Bank, seq: int) -> None:
    """Delete the bank's lines after `seq` and rewrite its row to match the new last line, so
    the ledger's own chain holds again (what someone with database access can do)."""
    detach_adjustment_requests("bank_id = %s AND seq > %s", [bank.pk, seq])
    sql("DELETE FROM jackpot_meterentry WHERE bank_id = %s AND seq > %s", [bank.pk, seq])
    last = MeterEntry.objects.get(bank=bank, seq=seq)
    Bank.objects.filter(pk=bank.pk).update(
        ledger_seq=last.seq,
        ledger_hash=last.hash,
        meter_cents=last.meter_after_cents,
        reserve_cents=last.reserve_after_cents,
        overflow_cents=last.overflow_after_cents,
    )


@pytest.fixture
def played(bank, dealer):
    """Seed, contributions, then a top-level hit (its hit line and the reset after it)."""
    for n in range(1, 4):
        contribute(bank, dealer, ref=f"r{n}", wagers=n)
    hit(bank, dealer, level="royal_flush")
    bank.refresh_from_db()
    assert [line.kind for line in lines(bank)][-2:] == ["hit", "reset"]
    return bank


def test_every_checkpoint_records_each_banks_head_and_the_command_shows_it(played, manager, dealer):
    empty = make_bank(manager=manager, slug="second-link")
    contribute(empty, dealer, ref="s1")
    out = StringIO()
    call_command("audit_checkpoint", stdout=out)
    heads = last_checkpoint().heads["meter ledger"]
    ends = {bank.pk: lines(bank)[-1] for bank in (played, empty)}
    assert heads == [
        {"bank_id": pk, "bank": line.bank.slug, "seq": line.seq, "hash": line.hash}
        for pk, line in sorted(ends.items())
    ]
    shown = out.getvalue()
    for line in ends.values():
        expected = f"Meter ledger head: bank {line.bank.slug} at line {line.seq}, hash {line.hash}."
        assert expected in shown
    code, message = verify()
    assert code == 0, message
    assert "Meter ledger heads: all 2 recorded by 1 checkpoints are still in place." in message


def test_the_shift_change_checkpoint_records_the_heads_for_the_shift_report(
    db, manager, dealer, monkeypatch, django_capture_on_commit_callbacks
):
    PropertyFactory()  # Europe/Paris: day 06:00, swing 14:00
    morning = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
    monkeypatch.setattr(timezone, "now", lambda: morning)
    with django_capture_on_commit_callbacks(execute=True):
        bank = make_bank(manager=manager, slug="day-link")
        contribute(bank, dealer, ref="d1")
    monkeypatch.setattr(timezone, "now", lambda: morning + dt.timedelta(hours=5))
    with django_capture_on_commit_callbacks(execute=True):
        atomic_audit(actor=None, code="test.entry")  # the swing shift's first entry
    closing = shift_checkpoint(dt.date(2026, 12, 1), "day")
    head = lines(bank)[-1]
    assert closing is not None and closing.reason == "shift_change"
    assert closing.heads["meter ledger"] == [
        {"bank_id": bank.pk, "bank": "day-link", "seq": head.seq, "hash": head.hash}
    ]


def test_a_checkpoint_written_before_heads_existed_still_verifies(played, settings):
    # The line format of the checkpoints before this change: no "heads".
    audit_checkpoint()
    path = Path(settings.AUDIT_CHECKPOINT_PATH)
    body = json.loads(path.read_text())
    del body["heads"], body["mac"]
    body["mac"] = mac(current_key(), checkpoints_module._canonical(body))
    assert body["key_id"] == current_key_id()
    path.write_text(json.dumps(body) + "\n")
    (old,) = checkpoints_read()[0]
    assert old.heads == {}
    code, message = verify()
    assert code == 0, message
    assert "Meter ledger heads: no checkpoint records them yet." in message
    audit_checkpoint()  # an old line and a new one side by side
    code, message = verify()
    assert code == 0, message
    assert "all 1 recorded by 1 checkpoints" in message


def test_heads_taken_out_of_a_checkpoint_line_make_it_not_genuine(played, settings):
    audit_checkpoint()
    path = Path(settings.AUDIT_CHECKPOINT_PATH)
    body = json.loads(path.read_text())
    body["heads"] = {}
    path.write_text(json.dumps(body) + "\n")
    code, message = verify()
    assert code == 1 and "not a genuine checkpoint" in message


def test_a_checkpoint_is_still_written_when_the_heads_cannot_be_read(played, monkeypatch, caplog):
    def broken():
        raise RuntimeError("database gone")

    keeper = checkpoints_module.HEADS["meter ledger"]
    monkeypatch.setitem(
        checkpoints_module.HEADS,
        "meter ledger",
        checkpoints_module.HeadsKeeper(broken, keeper.find_break, keeper.describe),
    )
    with caplog.at_level(logging.ERROR, logger="casino.audit"):
        written = audit_checkpoint()
    assert written is not None and written["heads"] == {}
    assert "the meter ledger heads could not be read" in caplog.text
    assert last_checkpoint().position == written["position"]


def test_a_recorded_bank_that_is_gone_is_named(db):
    checkpoint = Checkpoint(
        line=1,
        position=1,
        hash="a" * 64,
        entry_id=1,
        gaming_date=None,
        shift="",
        written_at="2026-12-01T10:00:00+00:00",
        reason="requested",
        heads={"meter ledger": [{"bank_id": 987654, "bank": "gone", "seq": 4, "hash": "b" * 64}]},
    )
    broken = ledger_heads_find_break([checkpoint])
    assert broken is not None and broken.code == "bank #987654 (gone)"
    assert "recorded its line 4" in broken.reason and "no longer in the database" in broken.reason


@pytest.mark.postgres
def test_the_last_hit_and_reset_cut_off_with_the_bank_rewritten_are_named(played):
    audit_checkpoint()
    chain = lines(played)
    hit_line, reset_line = chain[-2:]
    cut_after(played, hit_line.seq - 1)
    # The hole: the ledger's own chain, its numbers and balances all hold after the cut.
    assert ledger_find_break() is None
    code, message = verify()
    assert code == 1
    assert (
        f"Meter ledger BROKEN at bank {played.slug}, line {reset_line.seq}: the ledger ends at "
        f"line {hit_line.seq - 1}, but the checkpoint written at "
    ) in message
    assert f"recorded line {reset_line.seq} with hash {reset_line.hash}" in message
    assert f"lines {hit_line.seq} to {reset_line.seq} were cut off" in message


@pytest.mark.postgres
def test_a_checkpoint_older_than_the_cut_still_catches_it(played):
    audit_checkpoint()
    hit_line, reset_line = lines(played)[-2:]
    cut_after(played, hit_line.seq - 1)
    # The next shift change records the cut ledger as it now stands: its head is in place.
    audit_checkpoint()
    newer = last_checkpoint().heads["meter ledger"]
    assert newer == [
        {"bank_id": played.pk, "bank": played.slug, "seq": hit_line.seq - 1, "hash": ANY}
    ]
    code, message = verify()
    assert code == 1
    assert f"Meter ledger BROKEN at bank {played.slug}, line {reset_line.seq}: " in message
    assert f"lines {hit_line.seq} to {reset_line.seq} were cut off" in message


@pytest.mark.postgres
def test_a_cut_below_the_checkpointed_head_after_more_lines_is_named_at_that_head(
    played, dealer, manager, other_manager
):

    audit_checkpoint()
    older = lines(played)[-1]
    adjust(
        bank_id=played.pk,
        reason="meter display fault",
        requested_by=manager,
        approved_by=other_manager,
        reserve_after_cents=321,
    )
    hit(played, dealer, level="straight_flush")  # more non-contribution lines, no checkpoint
    assert [line.kind for line in lines(played)][-3:] == ["adjustment", "hit", "reset"]
    cut_after(played, older.seq - 2)  # the hit, its reset and everything after are gone
    assert ledger_find_break() is None
    code, message = verify()
    assert code == 1
    assert f"Meter ledger BROKEN at bank {played.slug}, line {older.seq}: " in message
    assert f"recorded line {older.seq} with hash {older.hash}" in message
    assert f"lines {older.seq - 1} to {older.seq} were cut off" in message


@pytest.mark.postgres
def test_lines_added_after_the_checkpoint_are_fine(played, dealer, manager, other_manager):
    audit_checkpoint()
    contribute(played, dealer, ref="later", wagers=4)
    hit(played, dealer, level="straight_flush")
    audit_checkpoint()
    contribute(played, dealer, ref="later-still")
    code, message = verify()
    assert code == 0, message
    assert "Meter ledger heads: all 2 recorded by 2 checkpoints are still in place." in message


@pytest.mark.postgres
def test_a_head_line_rewritten_and_rechained_with_the_key_itself_is_named(played, dealer):
    # Whoever holds the key can re-seal every later line: the checkpoint still holds the old
    # hash of the line it recorded.
    audit_checkpoint()
    head = lines(played)[-1]
    contribute(played, dealer, ref="later", wagers=2)
    sql(
        "UPDATE jackpot_meterentry SET data = %s WHERE id = %s",
        ['{"note": "nothing to see"}', head.pk],
    )
    previous = MeterEntry.objects.get(bank=played, seq=head.seq - 1).hash
    for line in lines(played)[head.seq - 1 :]:
        line.prev_hash = previous
        line.hash = previous = meter_entry_digest(line, KEY)
        sql(
            "UPDATE jackpot_meterentry SET prev_hash = %s, hash = %s WHERE id = %s",
            [line.prev_hash, line.hash, line.pk],
        )
    Bank.objects.filter(pk=played.pk).update(ledger_hash=previous)
    assert ledger_find_break() is None
    code, message = verify()
    assert code == 1
    assert f"Meter ledger BROKEN at bank {played.slug}, line {head.seq}: its hash is " in message
    assert f"recorded {head.hash} for this line" in message
