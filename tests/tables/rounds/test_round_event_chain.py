"""Round events are chained per round and keyed like the audit log (issue 11, item 3): each
kind of tampering with them is caught and named by `manage.py audit_verify`."""

import json

import pytest
from django.db import connection

from casino.audit_keys import DEVELOPMENT_KEY, current_key_id
from tables.models import RoundEvent
from tables.models.rounds import GENESIS, round_event_digest, round_events_find_break
from tests.tamper import audit_verify as verify
from tests.tamper import write_unguarded

KEY = "test-round-key-" + "r" * 40


@pytest.fixture(autouse=True)
def _production_key(settings):
    settings.AUDIT_HMAC_KEY = KEY


def sql(statement: str, params: list | None = None) -> None:
    write_unguarded("tables_roundevent", statement, params)


@pytest.fixture
def played(felt):
    felt.open()
    felt.wagers(1)
    felt.wagers(2)
    felt.step("bets_locked")
    return list(RoundEvent.objects.filter(round_id=felt.round["id"]).order_by("seq"))


def test_every_event_is_sealed_and_linked_to_the_one_before(played):
    assert played[0].prev_hash == GENESIS
    assert all(b.prev_hash == a.hash for a, b in zip(played, played[1:], strict=False))
    assert {e.key_id for e in played} == {current_key_id()}
    assert round_events_find_break() is None
    code, message = verify()
    assert code == 0 and "Round events verified: no break." in message


def test_an_edited_event_is_named(played):
    target = played[1]
    sql(
        "UPDATE tables_roundevent SET data = %s WHERE id = %s",
        [json.dumps({**target.data, "ante": 100000}), target.pk],
    )
    code, message = verify()
    assert code == 1
    assert f"Round events BROKEN at #{target.pk} (round {target.round_id}, event 2)" in message
    assert "MAC" in message


def test_an_event_forged_without_the_key_is_named(played):
    target = played[1]
    target.data = {**target.data, "ante": 5}
    sql(
        "UPDATE tables_roundevent SET data = %s, hash = %s WHERE id = %s",
        [json.dumps(target.data), round_event_digest(target, DEVELOPMENT_KEY), target.pk],
    )
    code, message = verify()
    assert code == 1 and f"#{target.pk}" in message


def test_a_deleted_event_is_named_by_its_number(played):
    sql("DELETE FROM tables_roundevent WHERE id = %s", [played[1].pk])
    code, message = verify()
    assert code == 1 and "event 2 is missing" in message and f"#{played[2].pk}" in message


def test_a_round_whose_last_events_were_deleted_is_named(played):
    sql("DELETE FROM tables_roundevent WHERE id = %s", [played[-1].pk])
    code, message = verify()
    assert code == 1
    n = len(played)
    assert f"round {played[0].round_id}: the round records {n} events but {n - 1} remain" in message


def test_a_renumbered_event_is_named(played):
    target = played[1]
    sql("UPDATE tables_roundevent SET seq = %s WHERE id = %s", [9, target.pk])
    code, message = verify()
    assert code == 1 and "missing" in message


def test_the_migration_seals_events_written_before_the_chain(played):
    import importlib

    migration = importlib.import_module("tables.migrations.0004_round_event_chain")
    sql("UPDATE tables_roundevent SET prev_hash = '', hash = '', key_id = ''", [])
    assert round_events_find_break() is not None  # unsealed events do not verify

    class Editor:
        def __init__(self):
            self.connection = connection

        def execute(self, statement, params=None):
            with connection.cursor() as cursor:
                cursor.execute(statement, params)

    from django.db.migrations.loader import MigrationLoader

    # The models as the migration sees them (plain managers, as in a real migrate).
    apps = MigrationLoader(connection).project_state(("tables", "0004_round_event_chain")).apps

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    migration.seal_existing(apps, Editor())
    assert round_events_find_break() is None
    resealed = list(RoundEvent.objects.filter(round_id=played[0].round_id).order_by("seq"))
    assert [e.hash for e in resealed] == [e.hash for e in played]
