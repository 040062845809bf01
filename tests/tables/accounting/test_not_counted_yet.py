"""A day whose drop is not counted yet is not a variance (issue 25, item 1): its play and its
chips stay out of the counted win, the variance and the alerts until the drop is entered,
and the reports say "not counted yet"."""

import datetime as dt

from django.urls import reverse

from casino.clock import current_property
from tables.accounting import services
from tables.accounting.reports import Period, report
from tables.accounting.selectors import table_variances
from tables.accounting.summary import summarize_day
from tests.tables.accounting.conftest import pin
from tests.tables.accounting.test_win import _chips_for_the_day
from tests.tables.rounds.conftest import deal_to

# Dealt in the coming year: the felt's dealer is assigned from now on.
YESTERDAY = dt.date(2027, 11, 20)
TODAY = dt.date(2027, 11, 21)


def _counted_yesterday_then_played_today(felt, clock, *, dealer, supervisor, manager):
    clock.set(dt.datetime(2027, 11, 20, 14, 0))
    deal_to(felt, "settled")  # the house lost 18 €, and the tray says so
    _chips_for_the_day(
        felt.table,
        dealer=dealer,
        supervisor=supervisor,
        manager=manager,
        closer_cents=2_000_000 - 5_000 - 1_800,
        drop_cents=5_000,
    )
    clock.set(dt.datetime(2027, 11, 21, 14, 0))
    deal_to(felt, "settled")  # today: 18 € more, and a fill, with no drop counted yet
    fill = services.slip_request(
        kind="fill", table_id=felt.table.pk, counts={"100000": 3}, requested_by=dealer
    )
    services.slip_approve(slip_id=fill.pk, actor=dealer, supervisor_pin=pin(supervisor))


def test_today_without_its_drop_is_not_a_variance_of_the_month(
    felt, clock, dealer, supervisor, manager, chip_set, settings
):
    settings.ACCOUNTING_VARIANCE_ALERT_CENTS = 1_000
    _counted_yesterday_then_played_today(
        felt, clock, dealer=dealer, supervisor=supervisor, manager=manager
    )
    for summarized in (False, True):
        if summarized:
            summarize_day(YESTERDAY)
        data = report(Period.of("month", TODAY))
        row = data.rows[0]
        assert row.computed_win == -3_600  # both days' play
        assert row.counted_win == -1_800  # yesterday's count only
        assert (row.variance, row.alert) == (0, False)
        assert row.not_counted_yet == [TODAY]
        assert (data.total.variance, data.total.alert) == (0, False)
        assert data.total.not_counted_yet == [TODAY]


def test_a_day_not_counted_has_no_variance_nor_alert_until_its_drop(
    felt, clock, dealer, supervisor, manager, chip_set, settings
):
    settings.ACCOUNTING_VARIANCE_ALERT_CENTS = 1_000
    _counted_yesterday_then_played_today(
        felt, clock, dealer=dealer, supervisor=supervisor, manager=manager
    )
    row = report(Period.of("day", TODAY)).rows[0]
    assert (row.counted_win, row.variance, row.alert) == (None, None, False)
    assert row.not_counted_yet == [TODAY]
    assert table_variances(TODAY)[0].alert is False
    # Counted: the 3,000 € fill came in, 50 € of chips were bought and 18 € lost.
    services.drop_record(
        manager=manager, table_id=felt.table.pk, gaming_date=TODAY, cash_cents=5_000
    )
    row = report(Period.of("day", TODAY)).rows[0]
    assert row.not_counted_yet == []
    assert row.counted_win == 5_000 - 300_000
    assert row.alert  # the closer is not counted: the fill is not back in a tray count
    month = report(Period.of("month", TODAY)).rows[0]
    assert month.not_counted_yet == []
    assert month.variance == row.variance


def test_a_shift_counted_leaves_the_day_s_other_shifts_out_of_the_variance(
    felt, clock, dealer, supervisor, manager, chip_set, settings
):
    settings.ACCOUNTING_VARIANCE_ALERT_CENTS = 1_000
    clock.set(dt.datetime(2027, 11, 21, 10, 0))  # the day shift
    deal_to(felt, "settled")
    clock.set(dt.datetime(2027, 11, 21, 20, 0))  # the swing shift
    deal_to(felt, "settled")
    day_shift = report(Period.of("shift", TODAY, "day")).rows[0].computed_win
    services.drop_record(
        manager=manager,
        table_id=felt.table.pk,
        gaming_date=TODAY,
        shift="day",
        cash_cents=5_000,
    )
    row = report(Period.of("day", TODAY)).rows[0]
    assert row.computed_win == 2 * day_shift == -3_600
    assert row.counted_win == 5_000
    assert row.variance == 5_000 - day_shift  # the swing shift's play is left out
    assert row.not_counted_yet == [TODAY]  # its swing shift is not counted


def test_the_report_page_says_not_counted_yet(
    felt, clock, client, dealer, supervisor, manager, chip_set, settings
):
    settings.ACCOUNTING_VARIANCE_ALERT_CENTS = 1_000
    _counted_yesterday_then_played_today(
        felt, clock, dealer=dealer, supervisor=supervisor, manager=manager
    )
    client.force_login(manager)
    page = client.get(
        reverse("accounting:report") + f"?period=month&date={TODAY}",
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "not counted yet" in page
    assert 'class="alert"' not in page
    day = client.get(
        reverse("accounting:report") + f"?period=day&date={TODAY}", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert day.count("not counted yet") >= 4  # counted win and variance, row and total
    assert current_property().currency in page
