"""Hostile arguments to the progressive's services (issue 11, item 6): each is refused with a
JackpotError before any row is written, never a TypeError, a DataError or an overflow."""

import pytest

from casino.errors import RoleRequired
from jackpot import services
from jackpot.errors import InvalidParameters, JackpotError, WrongContributionAmount
from jackpot.models import Bank, Hit, MeterEntry, PendingContribution
from jackpot.selectors import level_amount
from tests.jackpot.factories import DEFAULTS, contribute, reverse


def ledger_of(bank: Bank) -> tuple:
    bank.refresh_from_db()
    return (
        bank.meter_cents,
        bank.reserve_cents,
        bank.contributions_count,
        MeterEntry.objects.filter(bank=bank).count(),
        PendingContribution.objects.filter(bank=bank).count(),
        Hit.objects.filter(bank=bank).count(),
    )


def contribution(bank, dealer, **changes):
    kwargs = {
        "bank_id": bank.pk,
        "reference": "round-1",
        "wager_count": 1,
        "wager_cents": bank.wager_cents,
        "actor": dealer,
    }
    return services.bank_contribute(**{**kwargs, **changes})


@pytest.mark.parametrize("count", [8, 1_000_000, 2**70, 0, -1, "3", 3.0, True, None])
def test_a_wager_count_no_round_can_have_is_refused_and_changes_nothing(bank, dealer, count):
    before = ledger_of(bank)
    with pytest.raises(WrongContributionAmount):
        contribution(bank, dealer, wager_count=count)
    assert ledger_of(bank) == before


def test_a_round_of_seven_wagers_one_per_seat_is_accepted(bank, dealer):
    assert contribution(bank, dealer, wager_count=7).entry.wager_count == 7


@pytest.mark.parametrize("cents", ["100", 100.0, True, None, [100], 2**70, -100])
def test_cents_that_are_not_whole_cents_are_refused_and_change_nothing(bank, dealer, cents):
    before = ledger_of(bank)
    with pytest.raises(WrongContributionAmount):
        contribution(bank, dealer, wager_cents=cents)
    assert ledger_of(bank) == before


@pytest.mark.parametrize(
    "changes",
    [
        {"bank_id": "1"},
        {"bank_id": 2**70},
        {"bank_id": None},
        {"reference": "round\x00"},
        {"reference": "r" * 121},
        {"reference": 42},
    ],
)
def test_a_bank_or_reference_no_row_can_hold_is_a_jackpot_error(bank, dealer, changes):
    before = ledger_of(bank)
    with pytest.raises(JackpotError):
        contribution(bank, dealer, **changes)
    assert ledger_of(bank) == before


def record_hit(bank, dealer, **changes):
    kwargs = {
        "bank_id": bank.pk,
        "table_label": "UTH-1",
        "seat": 3,
        "level": "royal_flush",
        "amount_cents": level_amount(bank, "royal_flush"),
        "actor": dealer,
    }
    return services.hit_record(**{**kwargs, **changes})


@pytest.mark.parametrize(
    "changes",
    [
        {"seat": 99},
        {"seat": 8},
        {"seat": 0},
        {"seat": "3"},
        {"seat": True},
        {"amount_cents": "10000"},
        {"amount_cents": 10_000.0},
        {"amount_cents": 2**70},
        {"amount_cents": None},
        {"table_label": "UTH\x00"},
        {"table_label": "T" * 61},
        {"table_label": 7},
        {"level": "royal\x00flush"},
        {"level": ["royal_flush"]},
        {"reference": "r\x00"},
        {"bank_id": "x"},
    ],
)
def test_a_hit_on_a_seat_or_amount_no_round_can_have_is_refused(bank, dealer, changes):
    before = ledger_of(bank)
    with pytest.raises(JackpotError):
        record_hit(bank, dealer, **changes)
    assert ledger_of(bank) == before


def test_a_hit_on_seat_seven_is_recorded(bank, dealer):
    assert record_hit(bank, dealer, seat=7).seat == 7


@pytest.mark.parametrize(
    "changes",
    [
        {"reset_cents": 2**70},
        {"reset_cents": 10**13},
        {"cap_cents": 2**70},
        {"wager_cents": 2**40},
        {"increment_rate_ppm": 2**70},
        {"reset_cents": "10000"},
        {"reset_cents": 10_000.0},
        {"levels": [{"level": "royal_flush", "percent": 100, "label_fr": "x\x00"}]},
        {"levels": [{"level": "royal_flush", "percent": 100, "label_en": ["x"]}]},
        {"levels": [{"level": "royal_flush\n", "percent": 100}]},
    ],
)
def test_parameters_no_bank_can_hold_are_refused_before_any_transaction(changes):
    with pytest.raises(InvalidParameters):
        services.validate_parameters({**DEFAULTS, **changes})


@pytest.mark.parametrize("params", [None, [], "reset_cents", 7, {1: 2}])
def test_parameters_that_are_not_an_object_are_refused(params):
    with pytest.raises(InvalidParameters):
        services.validate_parameters(params)


def test_a_dealer_cannot_reverse_a_rounds_contribution(bank, dealer):
    contribute(bank, dealer, ref="a")
    before = ledger_of(bank)
    with pytest.raises(RoleRequired):
        services.bank_reverse(bank_id=bank.pk, reference="a", actor=dealer)
    assert ledger_of(bank) == before


def test_a_supervisor_reverses_a_rounds_contribution(bank, dealer, supervisor):
    contribute(bank, dealer, ref="a")
    entry = reverse(bank, supervisor, ref="a")
    assert entry.kind == MeterEntry.Kind.REVERSAL


@pytest.mark.parametrize("reason", ["void\x00", "x" * 501, 12])
def test_a_reversal_reason_no_record_can_hold_is_refused(bank, dealer, supervisor, reason):
    contribute(bank, dealer, ref="a")
    before = ledger_of(bank)
    with pytest.raises(JackpotError):
        services.bank_reverse(bank_id=bank.pk, reference="a", actor=supervisor, reason=reason)
    assert ledger_of(bank) == before
