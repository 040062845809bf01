"""One root per app: `except JackpotError` catches every error the progressive raises."""

import inspect

import pytest
from django.utils import translation

from casino.errors import CasinoError, IllegalTransition, NotFound
from jackpot import errors, services
from jackpot.errors import JackpotError

ERRORS = [
    cls
    for _, cls in inspect.getmembers(errors, inspect.isclass)
    if issubclass(cls, Exception) and cls.__module__ == errors.__name__
]


def test_the_module_defines_errors_at_all():
    assert len(ERRORS) > 10


@pytest.mark.parametrize("cls", ERRORS, ids=[c.__name__ for c in ERRORS])
def test_every_jackpot_error_is_a_jackpot_error_with_its_own_code(cls):
    assert issubclass(cls, JackpotError)
    assert issubclass(cls, CasinoError)
    assert cls is JackpotError or cls.code != JackpotError.code, "each error has its own code"


@pytest.mark.parametrize(
    "name, family, status",
    [
        ("BankNotFound", NotFound, 404),
        ("ContributionNotFound", NotFound, 404),
        ("HitNotFound", NotFound, 404),
        ("ParameterChangeNotFound", NotFound, 404),
        ("DisplayTokenNotFound", NotFound, 404),
        ("HitAlreadyVerified", IllegalTransition, 409),
        ("HitNotVerified", IllegalTransition, 409),
        ("HitAlreadyPaid", IllegalTransition, 409),
        ("ParameterChangeClosed", IllegalTransition, 409),
        ("BankStatusUnchanged", IllegalTransition, 409),
        ("DisplayRefused", JackpotError, 403),
        ("DisplayTokenInvalid", JackpotError, 400),
    ],
)
def test_not_found_and_illegal_moves_keep_their_casino_family_and_status(name, family, status):
    cls = getattr(errors, name)
    assert issubclass(cls, family)
    assert cls("x").http_status == status


def test_an_unknown_bank_is_caught_as_a_jackpot_error_in_the_floor_s_language(supervisor):
    with translation.override("fr"), pytest.raises(JackpotError) as refused:
        services.bank_open(bank_id=999_999, actor=supervisor)
    assert refused.value.code == "bank_not_found"
    assert refused.value.message == "Il n’y a pas de jackpot progressif n°\u00a0999999."


def test_opening_an_open_bank_says_so_in_french(bank, supervisor):
    with translation.override("fr"), pytest.raises(JackpotError) as refused:
        services.bank_open(bank_id=bank.pk, actor=supervisor)
    assert refused.value.code == "bank_status_unchanged"
    assert refused.value.message.endswith("est déjà ouvert\u00a0: il n’y a rien à changer.")


@pytest.mark.parametrize(
    "call",
    [
        lambda bank, dealer: services.bank_open(bank_id=bank.pk, actor=dealer),
        lambda bank, dealer: services.bank_reverse(bank_id=bank.pk, reference="r", actor=dealer),
        lambda bank, dealer: services.meter_reading_take(bank_id=bank.pk, reason="x", actor=dealer),
        lambda bank, dealer: services.adjustment_request(
            bank_id=bank.pk, manager=dealer, reason="x", meter_after_cents=1
        ),
        lambda bank, dealer: services.parameter_change_request(
            bank_id=bank.pk, params={}, reason="x", manager=dealer
        ),
    ],
    ids=["banks", "ledger", "readings", "adjustments", "parameters"],
)
def test_a_missing_role_is_a_jackpot_error_with_its_code_and_roles(call, bank, dealer):
    from casino.errors import RoleRequired

    with translation.override("fr"), pytest.raises(JackpotError) as refused:
        call(bank, dealer)
    assert isinstance(refused.value, RoleRequired) and refused.value.http_status == 403
    assert refused.value.code == "role_required"
    assert refused.value.params["roles"]
    assert refused.value.message.startswith("Cette action demande le rôle")
