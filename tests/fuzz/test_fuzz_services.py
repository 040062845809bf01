"""The services under random keyword arguments: only the project's own errors (CasinoError,
each with its code), never a TypeError, ValueError, OverflowError or DataError."""

import pytest
from django.db import transaction
from hypothesis import given
from hypothesis import strategies as st

from casino.errors import CasinoError
from jackpot import services
from tables.services import rounds
from tests.fuzz.strategies import FUZZ, atoms, json_values
from tests.jackpot.factories import DEFAULTS, make_bank

values = atoms | json_values


def only_project_errors(call) -> None:
    try:
        with transaction.atomic():  # a refusal leaves the test's transaction usable
            call()
    except CasinoError as exc:
        assert exc.code


@pytest.fixture
def bank(manager):
    return make_bank(manager=manager)


@FUZZ
@given(
    kwargs=st.fixed_dictionaries(
        {},
        optional={
            "reference": values,
            "wager_count": values,
            "wager_cents": values,
            "bank_id": values,
        },
    )
)
def test_bank_contribute_raises_only_project_errors(bank, dealer, kwargs):
    call = {"bank_id": bank.pk, "reference": "r", "wager_count": 1, "wager_cents": 100, **kwargs}
    only_project_errors(lambda: services.bank_contribute(actor=dealer, **call))


@FUZZ
@given(
    kwargs=st.fixed_dictionaries(
        {},
        optional={
            "table_label": values,
            "seat": values,
            "level": values,
            "amount_cents": values,
            "reference": values,
            "bank_id": values,
        },
    )
)
def test_hit_record_raises_only_project_errors(bank, dealer, kwargs):
    call = {
        "bank_id": bank.pk,
        "table_label": "UTH-1",
        "seat": 1,
        "level": "royal_flush",
        "amount_cents": bank.meter_cents,
        **kwargs,
    }
    only_project_errors(lambda: services.hit_record(actor=dealer, **call))


@FUZZ
@given(
    params=st.fixed_dictionaries(
        {},
        optional={name: values for name in DEFAULTS},
    )
    | values
)
def test_validate_parameters_raises_only_project_errors(db, params):
    only_project_errors(
        lambda: services.validate_parameters(
            {**DEFAULTS, **params} if isinstance(params, dict) else params
        )
    )


@FUZZ
@given(
    key=values,
    expected_seq=values,
    event=st.fixed_dictionaries(
        {
            "kind": st.sampled_from(
                [
                    "wagers_placed",
                    "cards_entered",
                    "decision",
                    "bets_locked",
                    "card_removed",
                    "irregularity_declared",
                    "settlement_confirmed",
                    "void_approved",
                ]
            )
        },
        optional={
            n: values
            for n in (
                "seat",
                "ante",
                "blind",
                "trips",
                "progressive",
                "action",
                "multiple",
                "place",
                "cards",
                "card",
                "irregularity",
            )
        },
    )
    | values,
    supervisor_=values,
)
def test_round_event_record_raises_only_project_errors(
    table, dealer, key, expected_seq, event, supervisor_
):  # noqa: F811
    opened = rounds.round_open(table_id=table.pk, dealer=dealer, key="fuzz-open").body
    only_project_errors(
        lambda: rounds.round_event_record(
            round_id=opened["id"],
            actor=dealer,
            key=key,
            expected_seq=expected_seq,
            event=event,
            supervisor=supervisor_,
        )
    )
