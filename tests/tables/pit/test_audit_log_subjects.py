"""The audit log page names a round by its table and number, as every page does (issue 25,
items 4 and 6), and lists each kind of entry once in its filter."""

import re

import pytest

from tests.casino.test_audit_log_page import _page, _reader, _rows

pytestmark = pytest.mark.django_db


def test_a_round_is_named_by_its_table_and_number_and_each_kind_is_listed_once(
    client, auditor, felt
):
    from tests.tables.rounds.conftest import deal_to

    round_ = deal_to(felt, "settled")
    client = _reader(client, auditor, "en")
    html = _page(client)
    settled = [r for r in _rows(html) if "Round settled" in r]
    assert settled and f"{felt.table.name}, round #{round_['number']}" in settled[0]
    assert f"tables.round {round_['id']}" not in html
    filters = re.search(r'data-filter-title="what".*?</details>', html, re.S)[0]
    words = re.findall(r"<a [^>]*>([^<]+)</a>", filters)
    assert len(words) == len(set(words)), words
