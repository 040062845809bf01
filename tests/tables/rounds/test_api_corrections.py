"""`POST /api/rounds/<id>/corrections` over HTTP (issue 23, 2 and 7): the correction waits
for a second person (202 with `correction_request`, the round unchanged), a retried key
answers the same, a dealer of another table is refused, and a kept answer is never replayed
to a caller without the role."""

import copy

from tables.api.openapi import OPENAPI
from tables.models import CorrectionRequest, Round, SettlementLine
from tests.tables.rounds.conftest import SUPERVISOR_PIN, deal_to
from tests.tables.rounds.test_api import Tablet


def _body(round_, supervisor, key="fix-http"):
    facts = copy.deepcopy(round_.settlement_input)
    facts["seats"][0]["hole"] = ["3c", "5d"]
    return {
        "key": key,
        "supervisor": {"employee_number": supervisor.employee_number, "pin": SUPERVISOR_PIN},
        "reason": "camera shows 3c 5d",
        "round": facts,
    }


def test_a_correction_over_http_waits_for_a_second_person(felt, supervisor, other_dealer, auditor):
    deal_to(felt, "settled")
    round_ = Round.objects.get(pk=felt.round["id"])
    lines = SettlementLine.objects.filter(round=round_).count()
    path = f"/api/rounds/{round_.pk}/corrections"
    body = _body(round_, supervisor)
    answer = Tablet(felt.dealer, pin="1234").post(path, body)
    assert answer.status_code == 202, answer.content
    waiting = answer.json()["correction_request"]
    assert waiting["state"] == "requested" and waiting["lines"]
    assert answer.json()["corrections"] == []
    assert SettlementLine.objects.filter(round=round_).count() == lines
    again = Tablet(felt.dealer, pin="1234").post(path, body)
    assert (again.status_code, again.json()) == (202, answer.json())
    assert CorrectionRequest.objects.count() == 1
    # A dealer of another table; an auditor replaying the kept key.
    refused = Tablet(other_dealer).post(path, _body(round_, supervisor, key="other"))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_your_table"
    replay = Tablet(auditor).post(path, body)
    assert replay.status_code == 403 and replay.json()["error"]["code"] == "role_required"
    assert CorrectionRequest.objects.count() == 1


def test_the_openapi_description_says_a_correction_may_wait():
    responses = OPENAPI["paths"]["/api/rounds/{round_id}/corrections"]["post"]["responses"]
    assert {"200", "202"} <= set(responses)
    round_schema = OPENAPI["components"]["schemas"]["Round"]["properties"]
    assert "correction_request" in round_schema
