"""A correction changes money after the fact: one of the table's supervisors asks for it with
their PIN, and a second person (a supervisor or manager who is neither the requester nor
anyone who had a hand in the round) approves it, unless the property sets a threshold the
correction stays within (issue 23, 2). Refusals change nothing."""

import copy

import pytest

from casino.errors import RoleRequired
from casino.models import AuditEntry
from tables.errors import IllegalTransition, NotThisDealersTable, RoundRefused
from tables.models import Correction, CorrectionRequest, Round, SettlementLine
from tables.services import rounds
from tables.services.rounds import correction_approval as corrections
from tests.tables.rounds.conftest import (
    DEALING_SUPERVISOR_PIN,
    deal_to,
    nothing_changes,
    pin_of,
)

REASON = "Seat 1's hole cards were entered as Ks 8d; the camera shows 3c 5d."


@pytest.fixture
def settled(felt):
    deal_to(felt, "settled")
    return Round.objects.get(pk=felt.round["id"])


def _facts(round_: Round) -> dict:
    facts = copy.deepcopy(round_.settlement_input)
    for seat in facts["seats"]:
        if seat["seat"] == 1:
            seat["hole"] = ["3c", "5d"]
    return facts


def _ask(round_, *, by, supervisor, key="fix-1", pin=None):
    return rounds.round_correct(
        round_id=round_.pk,
        actor=by,
        key=key,
        supervisor=pin_of(supervisor) if pin is None else pin_of(supervisor, pin=pin),
        reason=REASON,
        corrected=_facts(round_),
    )


def _lines(round_):
    return list(SettlementLine.objects.filter(round=round_).values_list("pk", "net_cents"))


def _waiting():
    return list(CorrectionRequest.objects.values_list("pk", "state", "decided_by_id"))


def test_a_supervisor_alone_only_asks_and_a_second_supervisor_approves(
    settled, felt, supervisor, other_supervisor
):
    before = _lines(settled)
    asked = _ask(settled, by=supervisor, supervisor=supervisor)
    assert asked.status == 202
    request = asked.body["correction_request"]
    assert request["state"] == "requested" and request["amount_cents"] > 0
    assert _lines(settled) == before and not Correction.objects.exists()  # no money moved yet
    assert AuditEntry.objects.filter(code="tables.round.correction_requested").count() == 1
    # The requester cannot approve his own; nor can the round's dealer.
    for someone, pin in ((supervisor, "2468"),):
        with nothing_changes(but_pin_checks=True), pytest.raises(RoundRefused) as refused:
            corrections.round_correction_approve(
                request_id=request["id"], approver=someone, pin=pin
            )
        assert refused.value.code == "two_people_required"
    with nothing_changes(), pytest.raises(RoleRequired):
        corrections.round_correction_approve(
            request_id=request["id"], approver=felt.dealer, pin="1234"
        )
    assert _waiting() == [(request["id"], "requested", None)]
    done = corrections.round_correction_approve(
        request_id=request["id"], approver=other_supervisor, pin="1234"
    )
    assert done.state == "approved"
    correction = Correction.objects.get()
    assert (correction.requested_by_id, correction.supervisor_id) == (
        supervisor.pk,
        other_supervisor.pk,
    )
    assert len(_lines(settled)) > len(before)
    entry = AuditEntry.objects.get(code="tables.round.corrected")
    assert entry.actor_id == other_supervisor.pk and entry.data["asked_by"] == supervisor.pk
    with nothing_changes(), pytest.raises(IllegalTransition) as closed:
        corrections.round_correction_approve(
            request_id=request["id"], approver=other_supervisor, pin="1234"
        )
    assert closed.value.code == "correction_request_closed"


def test_a_manager_may_be_the_second_person(settled, supervisor, manager):
    request = _ask(settled, by=supervisor, supervisor=supervisor).body["correction_request"]
    corrections.round_correction_approve(request_id=request["id"], approver=manager, pin="1234")
    assert Correction.objects.get().supervisor_id == manager.pk


def test_whoever_dealt_the_round_is_not_the_second_person(
    dual_felt, dealing_supervisor, supervisor
):
    deal_to(dual_felt, "settled")
    round_ = Round.objects.get(pk=dual_felt.round["id"])
    request = _ask(round_, by=dealing_supervisor, supervisor=supervisor).body["correction_request"]
    with nothing_changes(but_pin_checks=True), pytest.raises(RoundRefused) as refused:
        corrections.round_correction_approve(
            request_id=request["id"], approver=dealing_supervisor, pin=DEALING_SUPERVISOR_PIN
        )
    assert refused.value.code == "two_people_required"


def test_a_rejected_correction_writes_nothing(settled, supervisor, other_supervisor):
    before = _lines(settled)
    request = _ask(settled, by=supervisor, supervisor=supervisor).body["correction_request"]
    corrections.round_correction_reject(
        request_id=request["id"], actor=other_supervisor, reason="no"
    )
    assert _lines(settled) == before and not Correction.objects.exists()
    assert AuditEntry.objects.filter(code="tables.round.correction_rejected").count() == 1
    with pytest.raises(IllegalTransition):
        corrections.round_correction_approve(
            request_id=request["id"], approver=other_supervisor, pin="1234"
        )


def test_one_correction_waits_at_a_time(settled, supervisor):
    _ask(settled, by=supervisor, supervisor=supervisor)
    with nothing_changes(but_pin_checks=True), pytest.raises(RoundRefused) as refused:
        _ask(settled, by=supervisor, supervisor=supervisor, key="fix-2")
    assert refused.value.code == "correction_pending"


def test_within_the_propertys_threshold_the_supervisor_corrects_alone(
    settled, supervisor, casino_property
):
    moved = _ask(settled, by=supervisor, supervisor=supervisor).body["correction_request"][
        "amount_cents"
    ]
    CorrectionRequest.objects.all().update(state="rejected")
    casino_property.correction_threshold_cents = moved - 1  # just below: still two people
    casino_property.save()
    assert _ask(settled, by=supervisor, supervisor=supervisor, key="fix-2").status == 202
    CorrectionRequest.objects.all().update(state="rejected")
    casino_property.correction_threshold_cents = moved  # within it: written at once
    casino_property.save()
    written = _ask(settled, by=supervisor, supervisor=supervisor, key="fix-3")
    assert written.status == 200
    assert Correction.objects.get().supervisor_id == supervisor.pk


def test_a_dealer_of_another_table_cannot_ask_for_a_correction(settled, other_dealer, supervisor):
    with nothing_changes(), pytest.raises(NotThisDealersTable):
        _ask(settled, by=other_dealer, supervisor=supervisor)


def test_only_a_supervisor_the_pit_names_asks_when_it_names_them(
    settled, felt, supervisor, other_supervisor
):
    felt.table.pit.supervisors.set([other_supervisor])
    for by in (supervisor, felt.dealer):
        with nothing_changes(but_pin_checks=True), pytest.raises(RoundRefused) as refused:
            _ask(settled, by=by, supervisor=supervisor)
        assert refused.value.code == "not_table_supervisor"
    assert _ask(settled, by=felt.dealer, supervisor=other_supervisor, pin="1234").status == 202
