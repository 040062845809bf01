"""One root per app: `except TablesError` catches every error the tables app raises, and
what it says reads in the floor's language, times on the property's clock."""

import datetime as dt
import inspect

import pytest
from django.utils import translation

from casino import errors as casino
from tables import errors, services
from tables.errors import TablesError

ERRORS = [
    cls
    for _, cls in inspect.getmembers(errors, inspect.isclass)
    if issubclass(cls, Exception) and cls.__module__ == errors.__name__
]
NINE = dt.datetime(2026, 11, 29, 9, 0, tzinfo=dt.UTC)  # 10:00 in Paris


def test_the_module_defines_errors_at_all():
    assert len(ERRORS) > 10


@pytest.mark.parametrize("cls", ERRORS, ids=[c.__name__ for c in ERRORS])
def test_every_tables_error_is_a_tables_error_with_its_own_code(cls):
    assert issubclass(cls, TablesError)
    is_base = any(other is not cls and issubclass(other, cls) for other in ERRORS)
    assert is_base or cls.code != TablesError.code, "each error has its own code"


@pytest.mark.parametrize(
    "name, family, status",
    [
        ("NotFound", casino.NotFound, 404),
        ("IllegalTransition", casino.IllegalTransition, 409),
        ("RoleRequired", casino.RoleRequired, 403),
    ],
)
def test_the_casino_families_keep_their_code_and_status(name, family, status):
    cls = getattr(errors, name)
    assert issubclass(cls, family)
    assert cls("x").code == family.code
    assert cls("x").http_status == status


def test_a_missing_role_is_a_tables_error(dealer, closed_table):
    with pytest.raises(TablesError) as refused:
        services.table_open(table_id=closed_table.pk, supervisor=dealer)
    assert refused.value.code == "role_required"


def test_an_unknown_table_is_a_tables_error_in_french(supervisor, casino_property):
    with translation.override("fr"), pytest.raises(TablesError) as refused:
        services.table_open(table_id=999_999, supervisor=supervisor)
    assert refused.value.code == "not_found"
    assert refused.value.message == "Introuvable\u00a0: table n° 999999."


def test_opening_an_open_table_says_so_in_french(open_table, supervisor):
    with translation.override("fr"), pytest.raises(TablesError) as refused:
        services.table_open(table_id=open_table.pk, supervisor=supervisor)
    assert refused.value.message == "UTH 1 est déjà ouverte."


def test_an_unknown_rule_set_field_is_refused_in_french(manager):
    with translation.override("fr"), pytest.raises(TablesError) as refused:
        services.ruleset_create(manager=manager, name="Maison", trip_paytable_id=1)
    assert refused.value.message == "Champs de règles du jeu inconnus\u00a0: trip_paytable_id."


def test_an_assignment_s_start_is_shown_on_the_property_s_clock(
    casino_property, closed_table, dealer, supervisor
):
    assignment = services.assignment_create(
        table_id=closed_table.pk, dealer_id=dealer.pk, supervisor=supervisor, starts_at=NINE
    )
    with translation.override("fr"), pytest.raises(TablesError) as refused:
        services.assignment_end(
            assignment_id=assignment.pk, supervisor=supervisor, at=NINE - dt.timedelta(hours=1)
        )
    assert refused.value.message == (
        f"{dealer} @ UTH 1 commence le 2026-11-29 10:00\u00a0: elle ne peut pas finir avant."
    )


def test_a_dealer_on_another_table_is_refused_on_the_property_s_clock(
    casino_property, closed_table, other_table, dealer, supervisor
):
    services.assignment_create(
        table_id=closed_table.pk, dealer_id=dealer.pk, supervisor=supervisor, starts_at=NINE
    )
    with translation.override("fr"), pytest.raises(TablesError) as refused:
        services.assignment_create(
            table_id=other_table.pk, dealer_id=dealer.pk, supervisor=supervisor, starts_at=NINE
        )
    assert "à partir de 2026-11-29 10:00." in refused.value.message
    assert "UTC" not in refused.value.message
