"""A void is approved or refused by a supervisor's PIN: never the dealer's, never a wrong one.
A refused PIN writes nothing to the round, but counts toward the PIN's lockout."""

import pytest

from casino.errors import PinLocked, PinRejected, RoleRequired
from casino.models import AuditEntry, Staff
from tables.errors import NotThisDealersTable
from tables.models import RoundEvent
from tests.tables.rounds.conftest import (
    DEALING_SUPERVISOR_PIN,
    SUPERVISOR_PIN,
    deal_to,
    pin_of,
    refuse,
)

DECISIONS = ["void_approved", "void_refused"]


@pytest.fixture
def void_pending(felt):
    deal_to(felt, "preflop", seats=(1,))
    felt.step("irregularity_declared", irregularity="preflop_card_exposed")
    assert felt.round["pending_void"] == "preflop_card_exposed"
    return felt


def _attempts(staff) -> int:
    return Staff.objects.get(pk=staff.pk).failed_pin_attempts


def test_a_wrong_pin_is_refused_and_counts_toward_the_lockout(void_pending, supervisor):
    for attempt, kind in enumerate(DECISIONS, start=1):
        refuse(
            void_pending,
            kind,
            "pin_rejected",
            error=PinRejected,
            but_pin_checks=True,
            supervisor=pin_of(supervisor, pin="0000"),
        )
        assert _attempts(supervisor) == attempt
    assert (
        AuditEntry.objects.filter(code="casino.pin.rejected", subject_id=str(supervisor.pk)).count()
        == 2
    )
    unknown = {"employee_number": "E99999", "pin": SUPERVISOR_PIN}
    refuse(
        void_pending,
        "void_approved",
        "pin_rejected",
        error=PinRejected,
        but_pin_checks=True,
        supervisor=unknown,
    )
    assert void_pending.round["pending_void"] == "preflop_card_exposed"


def test_three_wrong_pins_lock_the_pin_even_for_the_right_one(void_pending, supervisor):
    wrong = pin_of(supervisor, pin="0000")
    refuse(
        void_pending,
        "void_approved",
        "pin_rejected",
        error=PinRejected,
        but_pin_checks=True,
        supervisor=wrong,
    )
    refuse(
        void_pending,
        "void_refused",
        "pin_rejected",
        error=PinRejected,
        but_pin_checks=True,
        supervisor=wrong,
    )
    refuse(
        void_pending,
        "void_approved",
        "pin_locked",
        error=PinLocked,
        but_pin_checks=True,
        supervisor=wrong,
    )
    assert Staff.objects.get(pk=supervisor.pk).pin_locked_until is not None
    for kind in DECISIONS:
        refuse(
            void_pending,
            kind,
            "pin_locked",
            error=PinLocked,
            but_pin_checks=True,
            supervisor=pin_of(supervisor),
        )


def test_a_right_pin_after_a_wrong_one_approves_and_clears_the_count(void_pending, supervisor):
    with pytest.raises(PinRejected):
        void_pending.step("void_approved", supervisor=pin_of(supervisor, pin="0000"))
    done = void_pending.step("void_approved", supervisor=pin_of(supervisor))
    assert done["stage"] == "void"
    assert _attempts(supervisor) == 0


def test_only_a_supervisor_decides_a_void(void_pending, other_dealer, dealer):
    for someone in (other_dealer, dealer):
        for kind in DECISIONS:
            refuse(
                void_pending,
                kind,
                "role_required",
                error=RoleRequired,
                but_pin_checks=True,
                supervisor=pin_of(someone, pin="1234"),
            )


def test_a_dealer_who_is_also_a_supervisor_never_decides_the_void_of_their_round(
    dual_felt, dealing_supervisor, supervisor
):
    deal_to(dual_felt, "preflop", seats=(1,))
    dual_felt.step("irregularity_declared", irregularity="preflop_card_exposed")
    own = pin_of(dealing_supervisor, pin=DEALING_SUPERVISOR_PIN)
    for kind in DECISIONS:
        error = refuse(dual_felt, kind, "supervisor_is_dealer", but_pin_checks=True, supervisor=own)
        assert error.field == "supervisor"
    done = dual_felt.step("void_approved", supervisor=pin_of(supervisor))
    assert done["stage"] == "void"
    event = RoundEvent.objects.get(round_id=done["id"], kind="void_approved")
    assert (event.actor_id, event.supervisor_id) == (dealing_supervisor.pk, supervisor.pk)


def test_a_void_is_not_decided_without_a_supervisors_credentials(void_pending):
    for credentials in (
        None,
        {},
        {"pin": SUPERVISOR_PIN},
        {"employee_number": "", "pin": SUPERVISOR_PIN},
        "E1",
    ):
        for kind in DECISIONS:
            error = refuse(void_pending, kind, "supervisor_required", supervisor=credentials)
            assert error.field == "supervisor"


def test_there_is_no_void_to_decide_when_none_is_pending(felt, supervisor):
    deal_to(felt, "preflop", seats=(1,))
    for kind in DECISIONS:
        refuse(felt, kind, "no_pending_void", but_pin_checks=True, supervisor=pin_of(supervisor))
    after = felt.step("irregularity_declared", irregularity="card_drawn_in_error_unexposed")
    assert after["pending_void"] is None
    assert after["irregularities"] == ["card_drawn_in_error_unexposed"]
    for kind in DECISIONS:
        refuse(felt, kind, "no_pending_void", but_pin_checks=True, supervisor=pin_of(supervisor))


def test_a_dealer_of_another_table_cannot_ask_for_the_decision(
    void_pending, other_dealer, supervisor
):
    for kind in DECISIONS:
        refuse(
            void_pending,
            kind,
            "not_your_table",
            error=NotThisDealersTable,
            actor=other_dealer,
            supervisor=pin_of(supervisor),
        )


def test_a_supervisor_at_the_tablet_may_approve_with_their_own_pin(void_pending, supervisor):
    done = void_pending.step("void_approved", actor=supervisor, supervisor=pin_of(supervisor))
    assert done["stage"] == "void"
    event = RoundEvent.objects.get(round_id=done["id"], kind="void_approved")
    assert event.actor_id == event.supervisor_id == supervisor.pk
