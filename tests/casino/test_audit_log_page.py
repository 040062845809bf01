"""The audit log page in the back office (issue 25, item 6): newest first, worded in the
reader's language, filtered by person, by what was done and by period, exported as CSV."""

import csv
import datetime as dt
import io
import re

import pytest
from django.db import transaction
from django.utils import timezone

from casino.audit import audit
from casino.audit_words import CODES, code_words
from casino.roles import Role
from tests.factories import make_staff
from tests.tamper import sealed

pytestmark = pytest.mark.django_db
LIST = "/admin/casino/auditentry/"
EXPORT = "/admin/casino/auditentry/export/"


@pytest.fixture
def log(monkeypatch, auditor, casino_property):
    """Three entries by two people over two gaming days (the last one newest)."""
    camille = make_staff(Role.SUPERVISOR, username="camille")
    dominique = make_staff(Role.MANAGER, username="dominique")
    now = timezone.now()
    written = []
    for person, code, days_ago in (
        (camille, "tables.table.opened", 3),
        (dominique, "jackpot.hit.paid", 3),
        (camille, "tables.table.closed", 0),
    ):
        at = now - dt.timedelta(days=days_ago)
        monkeypatch.setattr(timezone, "now", lambda at=at: at)
        with transaction.atomic():
            written.append(audit(actor=person, code=code, data={"object": "UTH 1"}))
    monkeypatch.setattr(timezone, "now", lambda: now)
    return {"camille": camille, "dominique": dominique, "entries": sealed(written)}


def _rows(html: str) -> list[str]:
    body = re.search(r'<table id="result_list">.*?</table>', html, re.S)[0]
    return re.findall(r"<tr>.*?</tr>", body.split("<tbody>")[1], re.S)


def _page(client, query="", language="en"):
    return client.get(LIST + query, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def _reader(client, auditor, language):
    auditor.language = language
    auditor.save(update_fields=["language"])
    client.force_login(auditor)
    return client


def test_the_log_is_newest_first_and_worded(client, auditor, log):
    html = _page(_reader(client, auditor, "en"))
    rows = [r for r in _rows(html) if "Signed in" not in r]  # the reader's own sign-in
    assert len(rows) == 3
    assert "Table closed" in rows[0]
    positions = [int(re.search(r'field-position"><a[^>]*>(\d+)<', r)[1]) for r in rows]
    assert positions == sorted(positions, reverse=True)
    for row in rows:
        assert "tables.table." not in re.sub(r"<[^>]+>", " ", row)


def test_the_log_reads_in_french(client, auditor, log):
    html = _page(_reader(client, auditor, "fr"), language="fr")
    assert "Table fermée" in [r for r in _rows(html) if "Connexion" not in r][0]
    assert "Gain du jackpot progressif payé" in html


def test_the_log_filters_by_person_code_and_period(client, auditor, log):
    client = _reader(client, auditor, "en")
    camille = _rows(_page(client, f"?person={log['camille'].pk}"))
    assert len(camille) == 2 and all(str(log["camille"]) in r for r in camille)
    paid = _rows(_page(client, "?code=jackpot.hit.paid"))
    assert len(paid) == 1 and "Progressive hit paid" in paid[0]
    old = log["entries"][0].gaming_date
    period = _rows(_page(client, f"?since={old}&until={old}"))
    assert {
        re.search(r"(Table opened|Progressive hit paid|Table closed)", r)[0] for r in period
    } == {
        "Table opened",
        "Progressive hit paid",
    }
    both = _rows(_page(client, f"?since={old}&until={old}&person={log['camille'].pk}"))
    assert len(both) == 1 and "Table opened" in both[0]


def test_the_log_exports_what_the_filters_show_as_csv(client, auditor, log):
    client = _reader(client, auditor, "en")
    html = _page(client, f"?person={log['camille'].pk}")
    assert f'href="{EXPORT}?person={log["camille"].pk}"' in html
    answer = client.get(EXPORT + f"?person={log['camille'].pk}", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(b"".join(answer.streaming_content).decode())))
    assert rows[0][:6] == ["position", "time", "gaming date", "shift", "person", "what"]
    assert [(r[5], r[6]) for r in rows[1:]] == [
        ("Table closed", "tables.table.closed"),
        ("Table opened", "tables.table.opened"),
    ]
    expected = [log["entries"][2], log["entries"][0]]
    assert [r[9] for r in rows[1:]] == [e.hash for e in expected]


def test_who_may_not_read_the_log_may_not_export_it(client, log):
    dealer = make_staff(Role.DEALER, username="dealer-x")
    client.force_login(dealer)
    assert client.get(EXPORT).status_code in (302, 403)


def test_every_code_the_project_writes_has_its_words():
    from pathlib import Path

    from django.conf import settings

    written = set()
    for app in ("casino", "tables", "jackpot"):
        for source in (Path(settings.BASE_DIR) / app).rglob("*.py"):
            text = source.read_text()
            written |= set(re.findall(r'(?:code=|"code": )"([a-z_]+\.[a-z_.]+)"', text))
    assert len(written) > 50
    assert [code for code in sorted(written) if code_words(code) == code] == []
    from django.utils import translation

    with translation.override("en"):
        assert code_words("admin.tables.paytable.change") == "Back office: paytable changed"
    with translation.override("fr"):
        assert code_words("tables.table.opened") == "Table ouverte"
    assert all(str(words) != code for code, words in CODES.items())
