"""A shift's report shows the audit checkpoint written when the shift ended: the audit chain's
head and each bank's ledger head, in the reader's language, so that the printed report keeps
them outside the database."""

import datetime as dt

import pytest

from casino.checkpoints import checkpoint_write

DAY = dt.date(2026, 11, 30)
HEAD_HASH = "9aa8" + "0" * 60


@pytest.fixture
def closed_day_shift(db):
    checkpoint_write(
        position=1234,
        hash="29cd" + "f" * 60,
        entry_id=1234,
        gaming_date=DAY,
        shift="day",
        reason="shift_change",
        heads={"meter ledger": [{"bank_id": 1, "bank": "uth", "seq": 412, "hash": HEAD_HASH}]},
    )


def shift_report(client, who, language, shift="day"):
    client.force_login(who)
    client.cookies["django_language"] = language
    return client.get(
        f"/reports/?period=shift&date={DAY.isoformat()}&shift={shift}"
    ).content.decode()


def test_the_shift_report_shows_the_checkpoint_that_closed_it(client, manager, closed_day_shift):
    page = shift_report(client, manager, "en")
    assert "At the end of this shift the audit log held 1234 entries" in page
    assert "29cd" + "f" * 60 in page
    assert ">uth<" in page and ">412<" in page and HEAD_HASH in page


def test_in_french_too(client, manager, closed_day_shift):
    page = shift_report(client, manager, "fr")
    assert "À la fin de ce poste, le journal d’audit comptait 1234 entrées" in page
    assert "Dernière ligne du registre" in page and HEAD_HASH in page


def test_a_shift_not_closed_yet_says_so(client, manager, closed_day_shift):
    page = shift_report(client, manager, "en", shift="swing")
    assert "No checkpoint for this shift yet" in page
    assert HEAD_HASH not in page


def test_other_periods_show_no_checkpoint(client, manager, closed_day_shift):
    client.force_login(manager)
    page = client.get(f"/reports/?period=day&date={DAY.isoformat()}").content.decode()
    assert "Audit checkpoint" not in page and HEAD_HASH not in page
