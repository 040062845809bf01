"""A settled round is never changed: a supervisor's correction settles the corrected facts
and writes the difference as compensating lines of its own, with its reason.

These tests are of a correction the property lets the table's supervisor make alone (below
its threshold); the second person's approval is in test_services_correction_approval.py."""

import copy

import pytest

from casino.errors import PinRejected, RoleRequired
from casino.models import AuditEntry
from tables.errors import IllegalTransition, KeyReused, RoundRefused
from tables.models import Correction, Round, SettlementLine
from tables.rules.export import settlement_input_json
from tables.services import rounds
from tests.tables.rounds.conftest import (
    DEALING_SUPERVISOR_PIN,
    deal_to,
    nothing_changes,
    pin_of,
)

REASON = "Seat 1's hole cards were entered as Ks 8d; the camera shows 3c 5d."


@pytest.fixture(autouse=True)
def below_the_threshold(casino_property):
    casino_property.correction_threshold_cents = 10**9
    casino_property.save(update_fields=["correction_threshold_cents"])


@pytest.fixture
def settled(felt):
    """The standard round, settled: seat 1's pair of kings beats the dealer's queens."""
    deal_to(felt, "settled")
    return Round.objects.get(pk=felt.round["id"])


def _facts(round_: Round, **holes) -> dict:
    """The round's settle.md input with some seats' hole cards changed (`seat1=[...]`)."""
    facts = copy.deepcopy(round_.settlement_input)
    for seat in facts["seats"]:
        if f"seat{seat['seat']}" in holes:
            seat["hole"] = holes[f"seat{seat['seat']}"]
    return facts


def _correct(round_, *, by, supervisor, key="fix-1", reason=REASON, corrected=None, pin=None):
    return rounds.round_correct(
        round_id=round_.pk,
        actor=by,
        key=key,
        supervisor=pin_of(supervisor) if pin is None else pin_of(supervisor, pin=pin),
        reason=reason,
        corrected=_facts(round_, seat1=["3c", "5d"]) if corrected is None else corrected,
    )


def _lines(round_, **filters):
    return list(
        SettlementLine.objects.filter(round=round_, **filters)
        .order_by("pk")
        .values_list("pk", "seat", "bet", "stake_cents", "net_cents", "paid_from", "hit_id")
    )


def test_a_correction_writes_the_difference_as_compensating_lines(settled, supervisor):
    original = _lines(settled)
    assert settled.settlement["seats"][0]["net"] == 900  # Ante +10, Play +10, Trips and prog. lost
    written = _correct(settled, by=supervisor, supervisor=supervisor)
    assert (written.status, written.replayed) == (200, False)
    correction = Correction.objects.get(round=settled)
    assert (correction.number, correction.reason, correction.supervisor) == (1, REASON, supervisor)
    # K high loses to the queens: Ante, Blind and Play are lost instead of won or pushed.
    assert sorted(
        (seat, bet, net)
        for _pk, seat, bet, _s, net, *_rest in _lines(settled, correction=correction)
    ) == [(1, "ante", -2000), (1, "blind", -1000), (1, "play", -2000)]
    assert _lines(settled, correction__isnull=True) == original
    seat = written.body["seats"][0]
    assert seat["payout"]["net"] == 900 - 5000 == correction.output["seats"][0]["net"]
    assert (seat["payout"]["ante"], seat["payout"]["blind"], seat["payout"]["play"]) == (
        -1000,
        -1000,
        -1000,
    )
    assert written.body["seats"][1]["payout"]["net"] == settled.settlement["seats"][1]["net"]
    assert written.body["settlement"] == settled.settlement  # as confirmed, never rewritten
    [listed] = written.body["corrections"]
    assert (listed["number"], listed["reason"], listed["supervisor"]["id"]) == (
        1,
        REASON,
        supervisor.pk,
    )
    assert len(listed["lines"]) == 3
    entry = AuditEntry.objects.get(code="tables.round.corrected")
    assert (entry.actor, entry.subject_id, entry.data["correction"]) == (
        supervisor,
        str(settled.pk),
        1,
    )


def test_a_second_correction_compensates_the_first(settled, supervisor, dealer):
    original = settled.settlement["seats"][0]["net"]
    _correct(settled, by=dealer, supervisor=supervisor)
    back = _correct(
        settled, by=dealer, supervisor=supervisor, key="fix-2", corrected=settled.settlement_input
    )
    assert back.body["seats"][0]["payout"]["net"] == original
    assert [c["number"] for c in back.body["corrections"]] == [1, 2]
    nets = SettlementLine.objects.filter(round=settled, seat=1).values_list("net_cents", flat=True)
    assert sum(nets) == original


def test_the_same_correction_sent_again_answers_the_same_and_counts_once(settled, supervisor):
    first = _correct(settled, by=supervisor, supervisor=supervisor)
    with nothing_changes():
        again = _correct(settled, by=supervisor, supervisor=supervisor)
    assert (again.status, again.body, again.replayed) == (first.status, first.body, True)
    assert Correction.objects.filter(round=settled).count() == 1
    with nothing_changes(), pytest.raises(KeyReused):
        _correct(settled, by=supervisor, supervisor=supervisor, reason="another reason")


def test_a_correction_needs_its_reason_and_facts_the_engine_accepts(settled, supervisor):
    for reason in ("", "   ", None, 12):
        with nothing_changes(), pytest.raises(RoundRefused) as refused:
            _correct(settled, by=supervisor, supervisor=supervisor, reason=reason)
        assert (refused.value.code, refused.value.field) == ("reason_required", "reason")
    with nothing_changes(), pytest.raises(RoundRefused) as refused:
        _correct(settled, by=supervisor, supervisor=supervisor, corrected=[])
    assert refused.value.code == "bad_input"
    with nothing_changes(but_pin_checks=True), pytest.raises(RoundRefused) as refused:
        _correct(
            settled,
            by=supervisor,
            supervisor=supervisor,
            corrected=_facts(settled, seat1=["1x", "5d"]),
        )
    assert refused.value.code == "bad_card" and refused.value.field.startswith("seats[0]")


def test_a_correction_needs_a_supervisors_pin_not_the_dealers(settled, supervisor, dealer):
    with nothing_changes(but_pin_checks=True), pytest.raises(RoleRequired):
        _correct(settled, by=dealer, supervisor=dealer, pin="1234")
    with nothing_changes(but_pin_checks=True), pytest.raises(PinRejected):
        _correct(settled, by=dealer, supervisor=supervisor, pin="0000")
    with nothing_changes(), pytest.raises(RoundRefused) as refused:
        rounds.round_correct(
            round_id=settled.pk,
            actor=dealer,
            key="fix-1",
            supervisor=None,
            reason=REASON,
            corrected=_facts(settled),
        )
    assert refused.value.code == "supervisor_required"


def test_a_dealing_supervisor_cannot_correct_their_own_round(
    dual_felt, dealing_supervisor, supervisor
):
    deal_to(dual_felt, "settled")
    round_ = Round.objects.get(pk=dual_felt.round["id"])
    with nothing_changes(but_pin_checks=True), pytest.raises(RoundRefused) as refused:
        _correct(
            round_, by=dealing_supervisor, supervisor=dealing_supervisor, pin=DEALING_SUPERVISOR_PIN
        )
    assert refused.value.code == "supervisor_is_dealer"
    assert _correct(round_, by=dealing_supervisor, supervisor=supervisor).status == 200


def test_only_a_settled_round_is_corrected(felt, supervisor):
    deal_to(felt, "showdown")
    round_ = Round.objects.get(pk=felt.round["id"])
    facts = settlement_input_json(rounds.state_of(round_))
    with nothing_changes(but_pin_checks=True), pytest.raises(IllegalTransition) as refused:
        _correct(round_, by=supervisor, supervisor=supervisor, corrected=facts)
    assert refused.value.code == "not_settled"
    felt.step("irregularity_declared", irregularity="duplicate_card")
    felt.step("void_approved", supervisor=pin_of(supervisor))
    with nothing_changes(but_pin_checks=True), pytest.raises(IllegalTransition) as refused:
        _correct(round_, by=supervisor, supervisor=supervisor, corrected=facts)
    assert refused.value.code == "not_settled"


def test_facts_that_settle_the_same_are_nothing_to_correct(settled, supervisor):
    for facts in (
        settled.settlement_input,
        _facts(settled, seat2=["Ad", "As"]),  # the same cards in another order
        _facts(settled, seat2=["Ac", "Ah"]),  # another pair of aces: the same payouts
    ):
        with nothing_changes(but_pin_checks=True), pytest.raises(RoundRefused) as refused:
            _correct(settled, by=supervisor, supervisor=supervisor, corrected=facts)
        assert refused.value.code == "nothing_to_correct"


def test_a_correction_cannot_change_the_rules(settled, supervisor):
    facts = _facts(settled, seat1=["3c", "5d"])
    facts["rules"] = {**facts["rules"], "blind_paytable": "B"}
    with nothing_changes(but_pin_checks=True), pytest.raises(RoundRefused) as refused:
        _correct(settled, by=supervisor, supervisor=supervisor, corrected=facts)
    assert (refused.value.code, refused.value.field) == ("rules_differ", "round.rules")
    facts["rules"] = settled.rules  # the very same rules, spelt out, are fine
    assert _correct(settled, by=supervisor, supervisor=supervisor, corrected=facts).status == 200


def test_a_correction_cannot_change_a_progressive_wager_or_hit(felt, supervisor):
    felt.open()
    felt.wagers(1, progressive=100)
    felt.wagers(2, progressive=100)
    felt.play_to_showdown(
        {1: ["As", "Ks"], 2: ["Ac", "Ad"]},
        board=["Qs", "Js", "Ts", "3h", "4h"],
        dealer_cards=["2d", "2h"],
    )
    felt.step("settlement_confirmed")
    round_ = Round.objects.get(pk=felt.round["id"])
    assert [h["seat"] for h in round_.settlement["progressive"]["hits"]] == [1]
    no_hit = _facts(round_, seat1=["As", "Kd"])
    no_wager = _facts(round_)
    no_wager["seats"][1]["progressive"] = 0
    for facts in (no_hit, no_wager):
        with nothing_changes(but_pin_checks=True), pytest.raises(RoundRefused) as refused:
            _correct(round_, by=supervisor, supervisor=supervisor, corrected=facts)
        assert refused.value.code == "correction_changes_progressive"


def test_facts_that_void_a_round_with_progressive_wagers_are_refused(settled, supervisor):
    """A void returns the progressive wagers, but the meter keeps their contribution: only a
    void approved before settlement reverses it."""
    duplicate = _facts(settled, seat1=["Kh", "5d"])  # Kh is on the board
    declared = _facts(settled)
    declared["irregularities"] = [{"kind": "wrong_card_count"}]
    for facts in (duplicate, declared):
        with nothing_changes(but_pin_checks=True), pytest.raises(RoundRefused) as refused:
            _correct(settled, by=supervisor, supervisor=supervisor, corrected=facts)
        assert refused.value.code == "correction_changes_progressive"


def test_facts_that_void_a_round_without_progressive_wagers_return_every_bet(felt, supervisor):
    deal_to(felt, "settled", progressive=0)
    round_ = Round.objects.get(pk=felt.round["id"])
    written = _correct(
        round_, by=supervisor, supervisor=supervisor, corrected=_facts(round_, seat1=["Kh", "5d"])
    )
    assert [seat["payout"]["net"] for seat in written.body["seats"]] == [0, 0]
    assert sum(SettlementLine.objects.filter(round=round_).values_list("net_cents", flat=True)) == 0


def test_a_correction_is_settled_on_the_meter_as_it_was(felt, supervisor, progressive):
    """The meter of the facts sent is ignored: the round's own meter reading stands."""
    deal_to(felt, "settled")
    round_ = Round.objects.get(pk=felt.round["id"])
    facts = _facts(round_, seat1=["3c", "5d"])
    facts["progressive"] = {"meter_cents": 99_999_999, "reset_cents": 1}
    _correct(round_, by=supervisor, supervisor=supervisor, corrected=facts)
    correction = Correction.objects.get(round=round_)
    assert correction.input["progressive"] == round_.settlement_input["progressive"]
