"""Query budgets: a report is a handful of aggregate queries whatever the period and the
number of rounds, and the page adds only the request's own."""

import datetime as dt

import pytest

from casino.clock import current_property
from tables.accounting.reports import Period, report
from tables.accounting.seed import seed_days
from tables.accounting.summary import summarize_closed_days

# The property, the rolled-up days, then lines, voids and corrections from the roll-up and
# from the days not rolled up, drop, counts, slips, the labels, the bank and the rule sets;
# the computed win by table-day (what is not counted yet) and, for a month or a year, the
# trend per gaming day, each from the roll-up and from the days not rolled up; the computed
# par sheets of the rule sets' base games.
REPORT_QUERIES = 18


@pytest.fixture
def played_month(table, dealer, supervisor, manager):
    today = current_property().gaming_date()
    seed_days(
        first=today - dt.timedelta(days=20),
        days=20,
        tables=[table],
        dealers={table.pk: dealer},
        supervisor=supervisor,
        manager=manager,
        rounds_per_day=3,
    )
    summarize_closed_days()
    return today - dt.timedelta(days=1)


@pytest.mark.parametrize("kind", ["day", "month", "year"])
@pytest.mark.parametrize("by", ["table", "pit", "dealer", "game"])
def test_a_report_is_a_few_queries_whatever_the_period(
    played_month, kind, by, django_assert_max_num_queries
):
    with django_assert_max_num_queries(REPORT_QUERIES):
        data = report(Period.of(kind, played_month), by=by)
    assert data.total.rounds > 0


def test_the_report_page_stays_within_its_budget(
    client, played_month, manager, django_assert_max_num_queries
):
    client.force_login(manager)
    client.get("/reports/")  # the session and the catalogues warm up
    with django_assert_max_num_queries(REPORT_QUERIES + 8):
        response = client.get(f"/reports/?period=year&date={played_month}")
    assert response.status_code == 200
