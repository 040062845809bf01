"""The HTML forms under random fields: the sign-in pages, the display-token form, the pit's
POST views. Never a 5xx, whoever posts (nobody, a supervisor, a manager)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.strategies import FUZZ, hostile_texts

FIELDS = [
    "employee_number",
    "pin",
    "username",
    "password",
    "next",
    "bank",
    "name",
    "language",
    "dealer",
    "ruleset",
    "decision",
    "seq",
    "key",
    "reason",
    "note",
    "employee",
    "supervisor_pin",
]
forms = st.dictionaries(st.sampled_from(FIELDS), hostile_texts, max_size=6)
ids = st.sampled_from(["1", "2", "999999", "9" * 19, "9" * 30])

SIGN_IN = ["/login/", "/login/pin/"]
PIT = [
    "/pit/tables/{id}/open/",
    "/pit/tables/{id}/close/",
    "/pit/tables/{id}/rotate/",
    "/pit/tables/{id}/end-assignment/",
    "/pit/tables/{id}/ruleset/",
    "/pit/hits/{id}/verify/",
    "/pit/hits/{id}/pay/",
    "/pit/rounds/{id}/void/",
    "/pit/parameters/{id}/",
    "/pit/alerts/{id}/acknowledge/",
]


@FUZZ
@given(path=st.sampled_from(SIGN_IN), data=forms)
def test_the_sign_in_pages_never_answer_a_5xx(client, db, path, data):
    assert client.post(path, data).status_code < 500


@FUZZ
@given(data=forms)
def test_the_display_token_form_never_answers_a_5xx(client, manager, data):
    client.force_login(manager)
    assert client.post("/jackpot/displays/issue/", data).status_code < 500


@pytest.fixture(params=["supervisor", "manager"])
def pit_person(request, client, table, supervisor, manager):  # noqa: F811
    client.force_login(supervisor if request.param == "supervisor" else manager)
    return client, table


@FUZZ
@given(path=st.sampled_from(PIT), number=ids, data=forms)
def test_the_pits_post_views_never_answer_a_5xx(pit_person, path, number, data):
    client, table = pit_person
    number = str(table.pk) if number == "1" else number
    answer = client.post(path.format(id=number), data)
    assert answer.status_code < 500, (path, number, data)


CHIPS = [
    "/reports/chips/inventory/",
    "/reports/chips/slips/",
    "/reports/chips/drop/",
    "/reports/chips/slips/{id}/approve/",
    "/reports/chips/slips/{id}/void/",
]
chips_forms = st.dictionaries(
    st.sampled_from(
        [
            "table",
            "kind",
            "chip_100",
            "chip_100000",
            "cash",
            "markers",
            "shift",
            "date",
            "reason",
            "dealer_number",
            "dealer_pin",
            "supervisor_number",
            "supervisor_pin",
        ]
    ),  # fmt: skip
    hostile_texts | st.sampled_from(["1.5", "NaN", " ", "١", str(2**63), "9" * 30, "day\x00"]),
    max_size=7,
)


@pytest.fixture(params=["supervisor", "manager"])
def chips_person(request, client, table, chip_set, supervisor, manager):  # noqa: F811
    client.force_login(supervisor if request.param == "supervisor" else manager)
    return client, table


@FUZZ
@given(path=st.sampled_from(CHIPS), number=ids, data=chips_forms)
def test_the_chips_forms_never_answer_a_5xx(chips_person, path, number, data):
    """Issue 23, item 5: table=abc, 1.5, NaN, a space, other scripts' digits, counts and
    amounts beyond a bigint, a shift with NUL: each the page's own refusal."""
    client, table = chips_person
    data = {"table": str(table.pk), **data}
    answer = client.post(path.format(id=number), data)
    assert answer.status_code < 500, (path, number, data)
