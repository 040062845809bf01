"""Win and hold, worked by hand: the counted win from the chips, the computed win from the
settlement lines per bet, the variance between them and its alert."""

import datetime as dt

import pytest

from casino.clock import current_property
from tables.accounting import services
from tables.accounting.reports import Period, ReportRow, report
from tables.accounting.summary import summarize_day
from tables.models import Round, SettlementLine
from tests.tables.accounting.conftest import pin
from tests.tables.rounds.conftest import deal_to


def test_counted_win_is_drop_plus_closer_minus_opener_plus_credits_minus_fills():
    row = ReportRow(key=1, label="UTH 1")
    row.drop, row.opener, row.closer = 1_000_000, 2_000_000, 1_850_000
    row.fills, row.credits = 300_000, 50_000
    # 10,000 + (18,500 - 20,000) + 500 - 3,000 = 6,000 €
    assert row.counted_win == 1_000_000 + (1_850_000 - 2_000_000) + 50_000 - 300_000 == 600_000
    assert row.hold == pytest.approx(60.0)


def test_without_a_drop_there_is_no_counted_win_nor_hold():
    row = ReportRow(key=1, label="UTH 1")
    row.opener, row.closer = 100, 200
    assert (row.counted_win, row.hold, row.variance, row.alert) == (None, None, None, False)


def _today(table) -> Period:
    return Period.of("day", current_property().gaming_date())


def test_the_standard_round_computes_the_win_of_every_bet_by_hand(felt):
    deal_to(felt, "settled")
    # Seats 1 and 2 each: Ante, Blind, Trips 10 €, progressive 1 €, Play 1x at the river.
    # The dealer's queens qualify; seat 1's kings and seat 2's aces both win:
    # Ante +10 € each, Blind pushes (a pair), Play +10 € each, Trips and progressive lose.
    data = report(_today(felt.table))
    row = data.rows[0]
    assert (row.rounds, row.seats) == (1, 2)
    assert {bet: (f.handle, f.win) for bet, f in row.bets.items() if f.lines} == {
        "ante": (2_000, -2_000),
        "blind": (2_000, 0),
        "play": (2_000, -2_000),
        "trips": (2_000, 2_000),
        "progressive": (200, 200),
    }
    assert row.computed_win == -1_800
    assert row.progressive_contributions == 200
    assert data.total.computed_win == -1_800


def _chips_for_the_day(table, *, dealer, supervisor, manager, closer_cents, drop_cents):
    services.inventory_record(
        table_id=table.pk,
        kind="opener",
        counts={"100000": 20},
        recorded_by=supervisor,
        dealer_pin=pin(dealer),
        supervisor_pin=pin(supervisor),
    )
    counts = {"100000": closer_cents // 100_000, "100": closer_cents % 100_000 // 100}
    services.inventory_record(
        table_id=table.pk,
        kind="closer",
        counts=counts,
        recorded_by=supervisor,
        dealer_pin=pin(dealer),
        supervisor_pin=pin(supervisor),
    )
    services.drop_record(
        manager=manager,
        table_id=table.pk,
        gaming_date=current_property().gaming_date(),
        cash_cents=drop_cents,
    )


def test_a_tray_that_matches_the_lines_shows_no_variance(
    felt, dealer, supervisor, manager, chip_set
):
    deal_to(felt, "settled")  # the house lost 18 €
    # Players bought 50 € of chips with cash (the drop) and the tray then lost 18 € on the
    # round: it closes at 20,000 - 50 - 18 = 19,932 €.
    _chips_for_the_day(
        felt.table,
        dealer=dealer,
        supervisor=supervisor,
        manager=manager,
        closer_cents=2_000_000 - 5_000 - 1_800,
        drop_cents=5_000,
    )
    row = report(_today(felt.table)).rows[0]
    assert row.counted_win == 5_000 + (1_993_200 - 2_000_000) == -1_800
    assert (row.computed_win, row.variance, row.alert) == (-1_800, 0, False)


def test_a_mispaid_round_shows_as_variance_and_raises_the_alert(
    felt, dealer, supervisor, manager, chip_set, settings
):
    settings.ACCOUNTING_VARIANCE_ALERT_CENTS = 1_000
    deal_to(felt, "settled")
    # The dealer paid seat 2's Play 3x instead of 1x: 20 € more left the tray than the
    # engine's settlement says.
    mispaid = 2_000
    _chips_for_the_day(
        felt.table,
        dealer=dealer,
        supervisor=supervisor,
        manager=manager,
        closer_cents=2_000_000 - 5_000 - 1_800 - mispaid,
        drop_cents=5_000,
    )
    row = report(_today(felt.table)).rows[0]
    assert (row.counted_win, row.computed_win) == (-3_800, -1_800)
    assert row.variance == -mispaid
    assert row.alert


def test_fills_and_credits_count_only_once_approved(felt, dealer, supervisor, chip_set):
    table = felt.table
    fill = services.slip_request(
        kind="fill", table_id=table.pk, counts={"100000": 3}, requested_by=dealer
    )
    services.slip_request(
        kind="credit", table_id=table.pk, counts={"10000": 2}, requested_by=dealer
    )
    services.slip_approve(slip_id=fill.pk, actor=dealer, supervisor_pin=pin(supervisor))
    row = report(_today(table)).rows[0]
    assert (row.fills, row.credits) == (300_000, 0)


def test_a_correction_is_counted_and_its_lines_change_the_computed_win(
    felt, supervisor, dealer, casino_property
):
    from tests.tables.rounds.test_services_corrections import _correct

    casino_property.correction_threshold_cents = 10**9  # the supervisor corrects alone
    casino_property.save(update_fields=["correction_threshold_cents"])
    deal_to(felt, "settled")
    round_ = Round.objects.get(pk=felt.round["id"])
    _correct(round_, by=dealer, supervisor=supervisor)  # seat 1 held 3c 5d: it lost
    row = report(_today(felt.table)).rows[0]
    lines = SettlementLine.objects.filter(round=round_)
    assert row.corrections == 1
    assert row.computed_win == -sum(line.net_cents for line in lines)
    assert (row.rounds, row.seats) == (1, 2)  # a correction adds no round nor seat
    summarize_day(current_property().gaming_date())
    rolled = report(_today(felt.table)).rows[0]
    assert (rolled.corrections, rolled.computed_win) == (1, row.computed_win)


def test_a_void_round_is_counted_and_writes_no_line(felt, supervisor):
    felt.open()
    felt.wagers(1)
    felt.step("bets_locked")
    felt.step("irregularity_declared", irregularity="preflop_card_exposed")
    felt.step("void_approved", supervisor=pin(supervisor))
    row = report(_today(felt.table)).rows[0]
    assert (row.voids, row.rounds, row.computed_win) == (1, 0, 0)
    summarize_day(current_property().gaming_date())
    assert report(_today(felt.table)).rows[0].voids == 1


def test_month_and_year_to_date_run_from_the_first_of_the_month_and_of_the_year():
    day = dt.date(2026, 11, 20)
    assert (Period.of("month", day).first, Period.of("month", day).last) == (
        dt.date(2026, 11, 1),
        day,
    )
    assert Period.of("year", day).first == dt.date(2026, 1, 1)
