"""Before a supervisor signs a correction, the tablet shows what it would pay: the engine's
settlement of the corrected facts and the compensating lines, written nowhere."""

import copy

import pytest

from casino.roles import Role
from tables.models import Round
from tests.factories import make_staff
from tests.tables.rounds.conftest import deal_to, nothing_changes, pin_of
from tests.tables.rounds.test_api import Tablet


@pytest.fixture(autouse=True)
def below_the_threshold(casino_property):
    """The supervisor's correction is written at once, so the preview can be compared with
    what it writes (the second person's approval is tested with the corrections)."""
    casino_property.correction_threshold_cents = 10**9
    casino_property.save(update_fields=["correction_threshold_cents"])


@pytest.fixture
def settled(felt):
    deal_to(felt, "settled")  # seat 1's pair of kings beats the dealer's queens
    return Round.objects.get(pk=felt.round["id"])


def _facts(round_: Round, hole: list[str]) -> dict:
    facts = copy.deepcopy(round_.settlement_input)
    facts["seats"][0]["hole"] = hole
    return facts


def test_the_preview_is_the_engines_settlement_of_the_corrected_facts_and_writes_nothing(
    settled, dealer, supervisor
):
    tablet = Tablet(dealer)
    with nothing_changes():
        answer = tablet.post(
            f"/api/rounds/{settled.pk}/corrections/preview",
            {"round": _facts(settled, ["3c", "5d"])},
        )
    assert answer.status_code == 200, answer.content
    preview = answer.json()
    # K high loses to the queens: Ante, Blind and Play are lost instead of won or pushed.
    assert sorted((line["seat"], line["bet"], line["net"]) for line in preview["lines"]) == [
        (1, "ante", -2000),
        (1, "blind", -1000),
        (1, "play", -2000),
    ]
    assert preview["settlement"]["seats"][0]["net"] == 900 - 5000
    # The correction (the dealer asks, the supervisor's PIN approves) writes what it showed.
    written = tablet.post(
        f"/api/rounds/{settled.pk}/corrections",
        {
            "key": "fix-1",
            "reason": "3c 5d read as Kd Ks",
            "supervisor": pin_of(supervisor),
            "round": _facts(settled, ["3c", "5d"]),
        },
    ).json()
    [correction] = written["corrections"]
    assert sorted(correction["lines"], key=lambda line: line["bet"]) == sorted(
        preview["lines"], key=lambda line: line["bet"]
    )
    assert correction["facts"]["seats"][0]["hole"] == ["3c", "5d"]
    assert written["seats"][0]["payout"]["net"] == preview["settlement"]["seats"][0]["net"]


def test_the_preview_refuses_what_the_correction_would_refuse(felt, settled, dealer):
    tablet = Tablet(dealer)
    path = f"/api/rounds/{settled.pk}/corrections/preview"
    answer = tablet.post(path, {"round": _facts(settled, ["Zz", "5d"])})
    assert answer.status_code == 400, answer.content
    assert "Zz" in answer.json()["error"]["message"]
    answer = tablet.post(path, {"round": "not facts"})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_input"


def test_only_staff_at_the_table_see_a_preview(settled):
    auditor = make_staff(Role.AUDITOR, pin="1234")
    answer = Tablet(auditor).post(
        f"/api/rounds/{settled.pk}/corrections/preview", {"round": settled.settlement_input}
    )
    assert answer.status_code == 403
