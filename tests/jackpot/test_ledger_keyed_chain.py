"""The meter ledger chained per bank and keyed like the audit log (issue 11, item 3: "the same
chaining for the meter ledger"). Before it, a hit's, a reset's or an adjustment's amount
rewritten together with every later balance passed the ledger walk; now each kind of
tampering is caught by `audit_verify` and named at its line.

The attacker writes the database directly (the append-only row trigger switched off, which a
table owner can do) and knows the project's code, its digest and its embedded development key,
but not AUDIT_HMAC_KEY.
"""

import hashlib
import importlib
import json

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from casino import audit_keys
from jackpot import services
from jackpot.chains import ledger_find_break
from jackpot.models import LEDGER_GENESIS, Bank, MeterEntry, meter_entry_digest
from tests.jackpot.factories import adjust, contribute, hit
from tests.tamper import audit_verify as verify
from tests.tamper import detach_adjustment_requests, write_unguarded

KEY = "test-ledger-key-" + "k" * 40
OLD_KEY = "test-ledger-old-key-" + "o" * 40

tamper = pytest.mark.postgres


@pytest.fixture(autouse=True)
def _production_key(settings):
    settings.AUDIT_HMAC_KEY = KEY
    settings.AUDIT_HMAC_PREVIOUS_KEYS = ""


def sql(statement: str, params: list | None = None) -> None:
    write_unguarded("jackpot_meterentry", statement, params)


def named_at(message: str, line: MeterEntry, pk: int | None = None) -> bool:
    return f"Meter ledger BROKEN at #{pk or line.pk} (bank {line.bank.slug}, line {line.seq}" in (
        message
    )


@pytest.fixture
def ledger(bank, dealer, supervisor, manager, other_manager):
    """Every kind of line: the seed (a reset), contributions, a reversal, a hit with its
    reset, an adjustment, and contributions after them."""
    for n in range(1, 6):
        contribute(bank, dealer, ref=f"r{n}", wagers=n)
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
    contribute(bank, dealer, ref="r7", wagers=2)
    bank.refresh_from_db()
    return bank


def line_of(bank: Bank, kind: str, nth: int = 0) -> MeterEntry:
    return MeterEntry.objects.filter(bank=bank, kind=kind).order_by("seq")[nth]


def lines(bank: Bank) -> list[MeterEntry]:
    return list(MeterEntry.objects.filter(bank=bank).order_by("seq"))


def rechain(bank: Bank, from_seq: int, digest) -> None:
    """Recompute every link and hash from line `from_seq` on with `digest`, and the bank's
    last hash: what someone without the key can do."""
    chain = lines(bank)
    previous = chain[from_seq - 2].hash if from_seq > 1 else LEDGER_GENESIS
    for line in chain[from_seq - 1 :]:
        line.prev_hash = previous
        line.hash = previous = digest(line)
        sql(
            "UPDATE jackpot_meterentry SET prev_hash = %s, hash = %s WHERE id = %s",
            [line.prev_hash, line.hash, line.pk],
        )
    Bank.objects.filter(pk=bank.pk).update(ledger_hash=previous)


def development_key_digest(line: MeterEntry) -> str:
    """The project's own digest with the key anyone can read in the source."""
    return meter_entry_digest(line, audit_keys.DEVELOPMENT_KEY)


def sha256_digest(line: MeterEntry) -> str:
    body = {"id": line.pk, "seq": line.seq, "meter": line.meter_delta_cents, "p": line.prev_hash}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def test_every_line_is_sealed_at_its_insert_and_the_bank_keeps_the_last_hash(ledger):
    chain = lines(ledger)
    assert set(line.kind for line in chain) == set(MeterEntry.Kind.values)
    previous = LEDGER_GENESIS
    for line in chain:
        assert line.key_id == audit_keys.key_id(KEY) and KEY not in line.key_id
        assert line.prev_hash == previous
        assert line.hash == meter_entry_digest(line, KEY)
        previous = line.hash
    assert ledger.ledger_hash == chain[-1].hash
    assert ledger_find_break() is None
    code, message = verify()
    assert code == 0 and "Meter ledger verified: no break." in message


def test_two_banks_have_two_chains(ledger, manager, dealer):
    from tests.jackpot.factories import make_bank

    other = make_bank(manager=manager, slug="other-link")
    contribute(other, dealer, ref="o1")
    first = lines(other)[0]
    assert first.prev_hash == LEDGER_GENESIS and first.seq == 1
    assert ledger_find_break() is None


def test_lines_written_under_a_previous_key_verify_after_a_rotation(settings, bank, dealer):
    settings.AUDIT_HMAC_KEY = OLD_KEY
    contribute(bank, dealer, ref="before")
    settings.AUDIT_HMAC_KEY, settings.AUDIT_HMAC_PREVIOUS_KEYS = KEY, OLD_KEY
    contribute(bank, dealer, ref="after")
    chain = lines(bank)
    assert chain[-2].key_id == audit_keys.key_id(OLD_KEY)
    assert chain[-1].key_id == audit_keys.key_id(KEY)
    assert ledger_find_break() is None
    settings.AUDIT_HMAC_PREVIOUS_KEYS = ""  # the old key dropped too early
    broken = ledger_find_break()
    assert broken is not None and broken.pk == chain[-2].pk
    assert "not a known key" in broken.reason


@tamper
@pytest.mark.parametrize(
    "kind, nth, change",
    [
        ("reset", 0, "house_funded_cents = house_funded_cents + 1"),
        ("reset", 1, "reference = 'seed'"),
        ("hit", 0, "created_at = created_at - interval '1 hour'"),
        ("hit", 0, "hit_id = NULL"),
        ("adjustment", 0, """data = '{"reason": "nothing to see"}'"""),
        ("reversal", 0, "actor_id = NULL"),
        ("contribution", 2, "gaming_date = '2020-01-01'"),
        ("contribution", 5, "shift = 'grave'"),
        ("adjustment", 0, "prev_hash = repeat('1', 64)"),
        ("hit", 0, "hash = repeat('2', 64)"),
    ],
)
def test_an_edit_of_any_field_is_named_at_the_edited_line(ledger, kind, nth, change):
    line = line_of(ledger, kind, nth)
    sql(f"UPDATE jackpot_meterentry SET {change} WHERE id = %s", [line.pk])
    code, message = verify()
    assert code == 1 and named_at(message, line), message
    assert "MAC" in message or "previous-hash" in message


@tamper
def test_a_hit_rewritten_with_every_later_balance_is_named_at_the_hit(ledger):
    # The hole the ledger walk left: 100 cents less paid, every later balance and the bank's
    # cached meter moved along, so the arithmetic and the reconciliation agree.
    line = line_of(ledger, "hit")
    sql(
        "UPDATE jackpot_meterentry SET meter_delta_cents = meter_delta_cents + 100 WHERE id = %s",
        [line.pk],
    )
    sql(
        "UPDATE jackpot_meterentry SET meter_after_cents = meter_after_cents + 100"
        " WHERE bank_id = %s AND seq >= %s",
        [ledger.pk, line.seq],
    )
    Bank.objects.filter(pk=ledger.pk).update(
        meter_cents=ledger.meter_cents + 100, paid_total_cents=ledger.paid_total_cents - 100
    )
    assert services.bank_reconcile(bank_id=ledger.pk) == []  # the sums see nothing
    code, message = verify()
    assert code == 1 and named_at(message, line)
    assert "no longer matches its MAC" in message


@tamper
@pytest.mark.parametrize("digest", [development_key_digest, sha256_digest])
def test_a_tail_rechained_without_the_key_is_named_at_the_edit(ledger, digest):
    line = line_of(ledger, "adjustment")
    sql(
        "UPDATE jackpot_meterentry SET reserve_delta_cents = reserve_delta_cents + 5000,"
        " reserve_after_cents = reserve_after_cents + 5000 WHERE id = %s",
        [line.pk],
    )
    sql(
        "UPDATE jackpot_meterentry SET reserve_after_cents = reserve_after_cents + 5000"
        " WHERE bank_id = %s AND seq > %s",
        [ledger.pk, line.seq],
    )
    rechain(ledger, line.seq, digest)
    code, message = verify()
    assert code == 1 and named_at(message, line)
    assert "no longer matches its MAC" in message


@tamper
def test_a_tail_rechained_under_a_made_up_key_id_is_named_at_the_edit(ledger):
    line = line_of(ledger, "reset", 1)
    sql("UPDATE jackpot_meterentry SET data = '{}' WHERE id = %s", [line.pk])
    forged_id = audit_keys.key_id(audit_keys.DEVELOPMENT_KEY)
    sql(
        "UPDATE jackpot_meterentry SET key_id = %s WHERE bank_id = %s AND seq >= %s",
        [forged_id, ledger.pk, line.seq],
    )
    rechain(ledger, line.seq, development_key_digest)
    code, message = verify()
    assert code == 1 and named_at(message, line)
    assert f"key id {forged_id!r} is not a known key" in message


def _unlink_and_delete(line: MeterEntry) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE jackpot_pendingcontribution SET entry_id = NULL WHERE entry_id = %s",
            [line.pk],
        )
    detach_adjustment_requests("id = %s", [line.pk])
    sql("DELETE FROM jackpot_meterentry WHERE id = %s", [line.pk])


@tamper
def test_a_deleted_line_is_named(ledger):
    line = line_of(ledger, "adjustment")
    _unlink_and_delete(line)
    code, message = verify()
    assert code == 1 and f"line {line.seq} is missing (deleted) before it" in message


@tamper
def test_a_deleted_line_with_the_later_ones_renumbered_is_named_at_the_first_renumbered(
    ledger,
):
    line = line_of(ledger, "adjustment")
    after = [later for later in lines(ledger) if later.seq > line.seq]
    # The adjustment's reserve change is taken out of the later balances too.
    _unlink_and_delete(line)
    for later in after:
        sql(
            "UPDATE jackpot_meterentry SET seq = seq - 1, reserve_after_cents = "
            "reserve_after_cents - %s WHERE id = %s",
            [line.reserve_delta_cents, later.pk],
        )
    Bank.objects.filter(pk=ledger.pk).update(ledger_seq=ledger.ledger_seq - 1)
    code, message = verify()
    assert code == 1
    assert f"Meter ledger BROKEN at #{after[0].pk} (bank {ledger.slug}, line {line.seq}" in message


@tamper
def test_a_forged_line_appended_with_the_projects_digest_is_named(ledger):
    last = lines(ledger)[-1]
    forged = MeterEntry.objects.get(pk=last.pk)
    top = MeterEntry.objects.order_by("-pk").values_list("pk", flat=True).first()
    forged.pk, forged.seq, forged.kind = top + 1, last.seq + 1, MeterEntry.Kind.ADJUSTMENT
    forged.reference, forged.data = "display fault", {"reason": "display fault"}
    forged.meter_delta_cents, forged.meter_after_cents = 50_000, last.meter_after_cents + 50_000
    forged.reserve_delta_cents = forged.overflow_delta_cents = 0
    forged.meter_carry_delta_ppm = forged.reserve_carry_delta_ppm = forged.wager_count = 0
    forged.prev_hash = last.hash
    forged.key_id = audit_keys.key_id(KEY)  # key ids are public: the key is not
    forged.hash = development_key_digest(forged)
    forged._state.adding = True
    forged.save(force_insert=True)
    Bank.objects.filter(pk=ledger.pk).update(
        ledger_seq=forged.seq, ledger_hash=forged.hash, meter_cents=forged.meter_after_cents
    )
    code, message = verify()
    assert code == 1 and named_at(message, forged)
    assert "no longer matches its MAC" in message


@tamper
def test_a_line_whose_id_is_changed_is_named_under_its_new_id(ledger):
    line = line_of(ledger, "adjustment")
    new_id = line.pk + 100_000
    detach_adjustment_requests("id = %s", [line.pk])
    sql("UPDATE jackpot_meterentry SET id = %s WHERE id = %s", [new_id, line.pk])
    code, message = verify()
    assert code == 1 and named_at(message, line, pk=new_id)
    assert "no longer matches its MAC" in message


@tamper
def test_the_banks_last_hash_rewritten_is_named_at_the_bank(ledger):
    Bank.objects.filter(pk=ledger.pk).update(ledger_hash="3" * 64)
    code, message = verify()
    assert code == 1 and f"Meter ledger BROKEN at bank {ledger.slug}: the bank's last" in message


@tamper
def test_the_migration_seals_an_existing_ledger_exactly_as_posting_does(ledger):
    sealed = {line.pk: (line.prev_hash, line.hash, line.key_id) for line in lines(ledger)}
    sql("UPDATE jackpot_meterentry SET prev_hash = '', hash = '', key_id = ''")
    Bank.objects.filter(pk=ledger.pk).update(ledger_hash="")
    assert ledger_find_break() is not None
    migration = importlib.import_module("jackpot.migrations.0006_meter_ledger_chain")
    state = MigrationExecutor(connection).loader.project_state(
        ("jackpot", "0006_meter_ledger_chain")
    )
    with connection.schema_editor(atomic=False) as editor:
        migration.seal_existing(state.apps, editor)
    assert {line.pk: (line.prev_hash, line.hash, line.key_id) for line in lines(ledger)} == (sealed)
    assert Bank.objects.get(pk=ledger.pk).ledger_hash == ledger.ledger_hash
    assert ledger_find_break() is None
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:  # the append-only trigger is back
            cursor.execute(
                "UPDATE jackpot_meterentry SET hash = '' WHERE bank_id = %s", [ledger.pk]
            )
