"""A month's or a year's trend (issue 25, item 3): computed win, theoretical win and hold per
gaming day, from the lines and from the roll-up, drawn as SVG on the report page."""

import datetime as dt
import re

import pytest
from django.urls import reverse

from tables.accounting.chart import trend_chart
from tables.accounting.reports import Period, report
from tables.accounting.summary import summarize_day
from tests.tables.accounting.test_not_counted_yet import (
    TODAY,
    YESTERDAY,
    _counted_yesterday_then_played_today,
)


@pytest.fixture
def two_days(felt, clock, dealer, supervisor, manager, chip_set):
    _counted_yesterday_then_played_today(
        felt, clock, dealer=dealer, supervisor=supervisor, manager=manager
    )


def test_the_month_has_one_figure_per_gaming_day(two_days):
    for rolled in (False, True):
        if rolled:
            summarize_day(YESTERDAY)
        data = report(Period.of("month", TODAY))
        assert [d.day for d in data.days] == [dt.date(2027, 11, n) for n in range(1, 22)]
        by_day = {d.day: d for d in data.days}
        assert by_day[YESTERDAY].win == by_day[TODAY].win == -1_800
        assert by_day[dt.date(2027, 11, 5)].win == 0
        # The same standard round each day: the same theoretical, and the sum is the row's.
        assert by_day[YESTERDAY].theoretical == by_day[TODAY].theoretical > 0
        assert sum(d.theoretical for d in data.days) == pytest.approx(data.total.theoretical, abs=1)
        # Yesterday: 50 € dropped, the tray 68 € down: -18 € on 50 €. Today: not counted.
        assert by_day[YESTERDAY].hold == pytest.approx(-36.0)
        assert by_day[TODAY].hold is None


def test_a_day_has_no_trend_and_a_year_does(two_days):
    assert report(Period.of("day", TODAY)).days is None
    assert len(report(Period.of("year", TODAY)).days) == (TODAY - dt.date(2027, 1, 1)).days + 1


def test_the_trend_chart_draws_a_bar_a_day_and_a_dot_per_counted_day(two_days):
    svg = str(trend_chart(report(Period.of("month", TODAY)).days))
    assert svg.count("<rect ") == 21
    assert svg.count("<circle ") == 1
    assert 'data-day="2027-11-20"/>' in svg
    assert "<polyline" in svg


def test_the_month_page_shows_the_trend_in_both_languages(two_days, client, manager):
    client.force_login(manager)
    for language, words in (("en", "theoretical"), ("fr", "théorique")):
        page = client.get(
            reverse("accounting:report") + f"?period=month&date={TODAY}",
            HTTP_ACCEPT_LANGUAGE=language,
        ).content.decode()
        assert 'data-testid="trend-chart"' in page
        assert re.search(r"<title id=\"trend-chart-title\">[^<]*" + words, page, re.I)


def _priced_yesterday(cost: int):
    """Yesterday's seats priced (as the worker would have, from a par sheet) at `cost` each."""
    from tables.accounting.models import SeatDecisionCost
    from tables.models import Round

    for round_ in Round.objects.filter(gaming_date=YESTERDAY, stage=Round.Stage.SETTLED):
        for seat in set(round_.lines.values_list("seat", flat=True)):
            SeatDecisionCost.objects.create(
                round=round_, seat=seat, ante_cents=1_000, cost_cents=cost, decisions=[]
            )


def test_the_trend_has_the_theoretical_at_the_play_seen_on_the_priced_days(two_days):
    """Yesterday's two seats cost their players 1.25 € each: yesterday's theoretical at the
    play seen is its optimal one plus 2.50 €; today, not priced, has none (the line breaks)."""
    assert report(Period.of("month", TODAY)).trend_seen is False
    _priced_yesterday(125)
    for rolled in (False, True):
        if rolled:
            summarize_day(YESTERDAY)
        data = report(Period.of("month", TODAY))
        by_day = {d.day: d for d in data.days}
        assert by_day[YESTERDAY].theoretical_seen == by_day[YESTERDAY].theoretical + 250
        assert by_day[TODAY].theoretical_seen is None
        assert data.trend_seen
        svg = str(trend_chart(data.days))
        assert svg.count('<polyline class="theoretical-seen"') == 1
        assert 'data-testid="trend-legend"' in svg


def test_without_priced_decisions_the_chart_has_one_theoretical_line_and_no_legend(two_days):
    svg = str(trend_chart(report(Period.of("month", TODAY)).days))
    assert "theoretical-seen" not in svg and "trend-legend" not in svg


@pytest.mark.parametrize(
    "language, legend, caption",
    [
        ("en", ("Theoretical at optimal play", "Theoretical at the play seen"), "Dashed line"),
        ("fr", ("Théorique au jeu optimal", "Théorique au jeu observé"), "Ligne en tirets"),
    ],
)
def test_the_legend_names_both_theoretical_lines_in_both_languages(
    two_days, client, manager, language, legend, caption
):
    _priced_yesterday(125)
    client.force_login(manager)
    page = client.get(
        reverse("accounting:report") + f"?period=month&date={TODAY}",
        HTTP_ACCEPT_LANGUAGE=language,
    ).content.decode()
    for words in legend:
        assert f">{words}</text>" in page
    assert caption in page
    # Yesterday's bar says it too.
    words = "théorique au jeu observé" if language == "fr" else "theoretical at the play seen"
    assert re.search(r"<title>[^<]*, " + words + r" [^<]*</title></rect>", page)
