"""A kept answer is replayed only to someone allowed to make the write (issue 23, 7): the
role is checked before the key is looked up, so a reused key tells nothing to a caller who
may not write, and the refusal changes nothing."""

import pytest

from casino.roles import Role
from tables.errors import NotThisDealersTable, RoleRequired
from tables.services import rounds
from tests.factories import make_staff
from tests.tables.rounds.conftest import deal_to, nothing_changes, pin_of


@pytest.fixture
def outsiders(db):
    return [
        make_staff(Role.AUDITOR, username="auditor_replay"),
        make_staff(Role.STAFF_ADMIN, username="staff_admin_replay"),
    ]


def test_a_void_approvals_kept_answer_is_not_replayed_to_someone_without_the_role(
    felt, supervisor, outsiders
):
    deal_to(felt, "preflop", seats=(1,))
    felt.step("irregularity_declared", irregularity="preflop_card_exposed")
    seq = felt.seq
    args = {
        "round_id": felt.round["id"],
        "key": "void-once",
        "expected_seq": seq,
        "approved": True,
        "supervisor": pin_of(supervisor),
    }
    first = rounds.round_void(actor=felt.dealer, **args)
    assert first.body["stage"] == "void"
    assert rounds.round_void(actor=felt.dealer, **args).replayed
    for someone in outsiders:
        with nothing_changes(), pytest.raises(RoleRequired):
            rounds.round_void(actor=someone, **args)


def test_a_steps_and_an_openings_kept_answers_are_not_replayed_without_the_role(felt, outsiders):
    opened = rounds.round_open(table_id=felt.table.pk, dealer=felt.dealer, key="open-once")
    felt.round = opened.body
    wagers = {"kind": "wagers_placed", "seat": 1, "ante": 1000, "blind": 1000}
    step = {"round_id": felt.round["id"], "key": "step-once", "expected_seq": 0, "event": wagers}
    rounds.round_event_record(actor=felt.dealer, **step)
    for someone in outsiders:
        with nothing_changes(), pytest.raises(NotThisDealersTable):
            rounds.round_open(table_id=felt.table.pk, dealer=someone, key="open-once")
        with nothing_changes(), pytest.raises(NotThisDealersTable):
            rounds.round_event_record(actor=someone, **step)
