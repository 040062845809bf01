"""Two second persons at once, on PostgreSQL with real threads (issue 23, 2): a waiting
correction is approved once, however many supervisors approve it at the same moment; two
requests for one round at once leave one waiting."""

import copy
import threading

import pytest
from django.db import connection

from casino.roles import Role
from tables.errors import IllegalTransition, RoundRefused
from tables.models import Correction, CorrectionRequest, Round, SettlementLine
from tables.services import rounds
from tables.services.rounds import correction_approval as corrections
from tests.factories import make_staff
from tests.tables.rounds.conftest import deal_to, pin_of


def _together(calls) -> list:
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=10)
            results[i] = call()
        except Exception as exc:  # noqa: BLE001  (the test looks at what each one got)
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "one is still waiting"
    return results


def _facts(round_):
    facts = copy.deepcopy(round_.settlement_input)
    facts["seats"][0]["hole"] = ["3c", "5d"]
    return facts


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_correction_approved_by_three_supervisors_at_once_is_written_once(felt, supervisor):
    deal_to(felt, "settled")
    round_ = Round.objects.get(pk=felt.round["id"])
    asked = rounds.round_correct(
        round_id=round_.pk,
        actor=felt.dealer,
        key="fix",
        supervisor=pin_of(supervisor),
        reason="camera",
        corrected=_facts(round_),
    ).body["correction_request"]["id"]
    lines = SettlementLine.objects.filter(round=round_).count()
    approvers = [make_staff(Role.SUPERVISOR, pin="1234") for _ in range(3)]
    results = _together(
        [
            lambda a=a: corrections.round_correction_approve(
                request_id=asked, approver=a, pin="1234"
            )
            for a in approvers
        ]
    )
    won = [r for r in results if isinstance(r, CorrectionRequest)]
    closed = [r for r in results if isinstance(r, IllegalTransition)]
    assert (len(won), len(closed)) == (1, 2), results
    assert Correction.objects.count() == 1
    written = SettlementLine.objects.filter(round=round_).count() - lines
    assert written == len(won[0].lines)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_requests_for_one_round_at_once_leave_one_waiting(felt, supervisor):
    deal_to(felt, "settled")
    round_ = Round.objects.get(pk=felt.round["id"])
    results = _together(
        [
            lambda key=key: rounds.round_correct(
                round_id=round_.pk,
                actor=felt.dealer,
                key=key,
                supervisor=pin_of(supervisor),
                reason="camera",
                corrected=_facts(round_),
            )
            for key in ("a", "b")
        ]
    )
    refused = [r for r in results if isinstance(r, RoundRefused)]
    assert len(refused) == 1 and refused[0].code == "correction_pending", results
    assert CorrectionRequest.objects.filter(state="requested").count() == 1
