"""Every refusal of the round services names its reason by a stable code and writes nothing:
no event, no line, no kept answer, no audit entry, no contribution, the round as it was.

A refusal changes nothing, so one round can take several in a row: each test plays a round
to a stage and tries there everything that must be refused."""

import pytest
from django.utils import translation

from jackpot import services as jackpot
from tables import services
from tables.errors import (
    IllegalTransition,
    KeyReused,
    NotFound,
    NotThisDealersTable,
    RoundOpen,
    RoundRefused,
    StaleRound,
)
from tables.models import IdempotentWrite, Round, RoundEvent, Table
from tables.services import rounds
from tables.snapshots import round_snapshot
from tests.tables.rounds.conftest import deal_to, nothing_changes, pin_of, refuse, write

# --- who -------------------------------------------------------------------------------------


def test_only_the_dealer_assigned_now_opens_a_round(felt, other_dealer, supervisor):
    for someone in (other_dealer, supervisor):
        with nothing_changes(), pytest.raises(NotThisDealersTable) as refused:
            rounds.round_open(table_id=felt.table.pk, dealer=someone, key="open-1")
        assert refused.value.code == "not_your_table"
    assert felt.open()["seq"] == 0


def test_only_the_dealer_assigned_now_takes_the_bets(felt, other_dealer, supervisor):
    deal_to(felt, "betting")
    for someone in (other_dealer, supervisor):
        for kind, fields in [
            ("wagers_placed", {"seat": 3, "ante": 1000, "blind": 1000}),
            ("wagers_withdrawn", {"seat": 1}),
            ("bets_locked", {}),
        ]:
            refuse(felt, kind, "not_your_table", error=NotThisDealersTable, actor=someone, **fields)


def test_only_the_dealer_assigned_now_deals_and_settles(felt, other_dealer, supervisor):
    deal_to(felt, "showdown", seats=(1,))
    others = (other_dealer, supervisor)
    for someone in others:
        refuse(
            felt, "settlement_confirmed", "not_your_table", error=NotThisDealersTable, actor=someone
        )
        refuse(
            felt,
            "card_removed",
            "not_your_table",
            error=NotThisDealersTable,
            actor=someone,
            place=1,
            card="Ks",
        )
    felt.step("card_removed", place=1, card="Ks")
    for someone in others:
        refuse(
            felt,
            "cards_entered",
            "not_your_table",
            error=NotThisDealersTable,
            actor=someone,
            place=1,
            cards=["Ks"],
        )
        with nothing_changes(), pytest.raises(NotThisDealersTable):
            rounds.round_settle(
                round_id=felt.round["id"], dealer=someone, key="settle", expected_seq=felt.seq
            )


def test_the_dealer_relieved_by_a_rotation_no_longer_plays_the_round(
    felt, supervisor, other_dealer
):
    deal_to(felt, "preflop", seats=(1,))
    services.dealer_rotate(table_id=felt.table.pk, dealer_id=other_dealer.pk, supervisor=supervisor)
    refuse(felt, "decision", "not_your_table", error=NotThisDealersTable, seat=1, action="check")
    after = felt.step("decision", seat=1, action="check", actor=other_dealer)
    assert after["seats"][0]["to_act"] is False
    assert RoundEvent.objects.get(round_id=after["id"], seq=after["seq"]).actor == other_dealer


# --- the table and the round -----------------------------------------------------------------


def test_a_closed_table_cannot_open_a_round(felt, supervisor):
    services.table_close(table_id=felt.table.pk, supervisor=supervisor)
    with nothing_changes(), pytest.raises(IllegalTransition) as refused:
        felt.open()
    assert refused.value.code == "table_closed"
    with nothing_changes(), pytest.raises(NotFound):
        rounds.round_open(table_id=10**6, dealer=felt.dealer, key="open-1")
    with nothing_changes(), pytest.raises(NotFound):
        rounds.round_event_record(
            round_id=10**6,
            actor=felt.dealer,
            key="k",
            expected_seq=0,
            event={"kind": "bets_locked"},
        )


def test_one_round_at_a_time_then_the_next_one(felt):
    first = deal_to(felt, "showdown", seats=(1,))
    with nothing_changes(), pytest.raises(RoundOpen) as refused:
        rounds.round_open(table_id=felt.table.pk, dealer=felt.dealer, key="open-again")
    assert refused.value.code == "round_open"
    assert refused.value.round == first
    assert refused.value.as_json()["round"]["id"] == first["id"]
    felt.step("settlement_confirmed")
    second = rounds.round_open(table_id=felt.table.pk, dealer=felt.dealer, key="open-again").body
    assert second["id"] != first["id"] and second["number"] == first["number"] + 1


def test_opening_again_with_the_same_key_answers_the_same_round(felt):
    first = rounds.round_open(table_id=felt.table.pk, dealer=felt.dealer, key="open-1")
    with nothing_changes():
        again = rounds.round_open(table_id=felt.table.pk, dealer=felt.dealer, key="open-1")
    assert (first.status, first.replayed) == (201, False)
    assert (again.status, again.body, again.replayed) == (201, first.body, True)


# --- the stage -------------------------------------------------------------------------------


def test_while_bets_are_open_no_decision_no_card_no_settlement(felt):
    deal_to(felt, "betting", seats=(1,))
    refuse(felt, "decision", "wrong_stage", seat=1, action="bet", multiple=4)
    refuse(felt, "cards_entered", "wrong_stage", place="board", cards=["Kh", "9d", "4c"])
    refuse(felt, "settlement_confirmed", "wrong_stage")
    refuse(felt, "irregularity_declared", "wrong_stage", irregularity="wrong_card_count")
    refuse(felt, "wagers_withdrawn", "no_wagers", seat=4)
    felt.step("wagers_withdrawn", seat=1)
    refuse(felt, "bets_locked", "no_seats")


def test_once_bets_are_locked_cards_wait_for_every_decision(felt):
    deal_to(felt, "preflop")
    refuse(felt, "wagers_placed", "wrong_stage", seat=3, ante=1000, blind=1000)
    refuse(felt, "bets_locked", "wrong_stage")
    felt.step("decision", seat=1, action="check")
    refuse(felt, "decision", "not_to_act", seat=1, action="bet", multiple=4)
    refuse(felt, "decision", "not_in_round", seat=3, action="check")
    refuse(felt, "decision", "illegal_play", seat=2, action="bet", multiple=2)
    refuse(felt, "cards_entered", "decisions_pending", place="board", cards=["Kh", "9d", "4c"])
    refuse(felt, "settlement_confirmed", "wrong_stage")


def test_settlement_waits_for_every_card_and_a_settled_round_takes_nothing_more(felt):
    deal_to(felt, "showdown", seats=(1,))
    felt.step("card_removed", place=1, card="8d")
    refuse(felt, "settlement_confirmed", "cards_missing")
    felt.cards(1, "8d")
    felt.step("settlement_confirmed")
    refuse(felt, "settlement_confirmed", "round_closed")
    refuse(felt, "card_removed", "round_closed", place=1, card="8d")


def test_an_event_the_engine_does_not_know_is_refused(felt):
    deal_to(felt, "betting", seats=(1,))
    assert refuse(felt, "shuffle", "bad_event").field == "kind"
    assert refuse(felt, "bets_locked", "bad_event", seat=1).field == "seat"
    assert refuse(felt, "wagers_placed", "bad_event", seat="1", ante=1000, blind=1000).field == (
        "seat"
    )
    refuse(felt, "wagers_placed", "bad_event", seat=3)
    for event in ([], "bets_locked", None):
        with nothing_changes(), pytest.raises(RoundRefused) as refused:
            rounds.round_event_record(
                round_id=felt.round["id"], actor=felt.dealer, key="k", expected_seq=0, event=event
            )
        assert refused.value.code == "bad_event"


# --- the table's limits ----------------------------------------------------------------------


def test_the_ante_is_within_the_tables_limits(felt):
    deal_to(felt, "betting", seats=(1,))
    for ante in (999, 20_001, 100_000):
        assert (
            refuse(
                felt, "wagers_placed", "ante_outside_limits", seat=3, ante=ante, blind=ante
            ).field
            == "ante"
        )
    assert felt.wagers(3, ante=1_000)["seats"][-1]["ante"] == 1_000
    assert felt.wagers(4, ante=20_000)["seats"][-1]["ante"] == 20_000


def test_trips_are_within_the_tables_limits_unless_it_has_trips_limits(felt):
    deal_to(felt, "betting", seats=(1,))
    for trips in (999, 20_001):
        assert (
            refuse(
                felt,
                "wagers_placed",
                "trips_outside_limits",
                seat=3,
                ante=1000,
                blind=1000,
                trips=trips,
            ).field
            == "trips"
        )
    assert felt.wagers(3, trips=1_000)["seats"][-1]["trips"] == 1_000
    assert felt.wagers(4, trips=20_000)["seats"][-1]["trips"] == 20_000


def test_the_tables_trips_limits_override_its_limits(felt):
    Table.objects.filter(pk=felt.table.pk).update(trips_min_cents=500, trips_max_cents=5_000)
    deal_to(felt, "betting", seats=())
    for trips in (499, 5_001, 20_000):
        error = refuse(
            felt,
            "wagers_placed",
            "trips_outside_limits",
            seat=3,
            ante=1000,
            blind=1000,
            trips=trips,
        )
        assert "5" in error.message and "50" in error.message.replace(",", "").replace(".", "")
    for seat, trips in ((3, 500), (4, 5_000), (5, 0)):
        assert felt.wagers(seat, trips=trips)["seats"][-1]["trips"] == trips


def test_the_engine_holds_the_blind_to_the_ante_and_the_progressive_to_its_wager(felt):
    deal_to(felt, "betting", seats=(1,))
    assert (
        refuse(felt, "wagers_placed", "ante_blind_mismatch", seat=3, ante=1000, blind=2000).field
        == "blind"
    )
    for amount in (50, 200):
        assert (
            refuse(
                felt,
                "wagers_placed",
                "bad_progressive_wager",
                seat=3,
                ante=1000,
                blind=1000,
                progressive=amount,
            ).field
            == "progressive"
        )
    refuse(
        felt, "wagers_placed", "negative_amount", seat=3, ante=1000, blind=1000, progressive=-100
    )
    refuse(felt, "wagers_placed", "bad_amount", seat=3, ante=0, blind=0)
    refuse(felt, "wagers_placed", "bad_seat", seat=8, ante=1000, blind=1000)


def test_no_progressive_wager_while_the_bank_is_closed(felt, progressive, supervisor):
    deal_to(felt, "betting", seats=(1,))
    jackpot.bank_close(bank_id=progressive.pk, actor=supervisor, reason="link fault")
    error = refuse(
        felt, "wagers_placed", "bank_closed", seat=3, ante=1000, blind=1000, progressive=100
    )
    assert error.field == "progressive"
    assert felt.wagers(3, progressive=0)["seats"][-1]["progressive"] == 0


def test_bets_do_not_lock_if_the_bank_closed_after_the_progressive_wagers(
    felt, progressive, supervisor
):
    deal_to(felt, "betting", seats=(1,))
    jackpot.bank_close(bank_id=progressive.pk, actor=supervisor, reason="link fault")
    assert refuse(felt, "bets_locked", "bank_closed").field == "progressive"
    felt.wagers(1, progressive=0)
    assert felt.step("bets_locked")["stage"] == "preflop"


def test_no_progressive_wager_at_a_table_without_a_progressive(bankless_felt):
    bankless_felt.open()
    error = refuse(
        bankless_felt,
        "wagers_placed",
        "no_progressive",
        seat=1,
        ante=1000,
        blind=1000,
        progressive=100,
    )
    assert error.field == "progressive"
    bankless_felt.wagers(1)
    assert bankless_felt.step("bets_locked")["stage"] == "preflop"


# --- cards -----------------------------------------------------------------------------------


@translation.override("en")
def test_at_showdown_a_card_already_dealt_or_one_too_many_is_refused(felt):
    deal_to(felt, "showdown", cards=False)
    error = refuse(felt, "cards_entered", "duplicate_card", place="dealer", cards=["kh"])
    assert error.field == "cards" and "Kh" in error.message and "board" in error.message
    felt.cards("dealer", "Qc")
    felt.cards(1, "Ks")
    for place, card, where in ((1, "qC", "dealer"), (2, "Ks", "seat 1"), (2, "9d", "board")):
        error = refuse(felt, "cards_entered", "duplicate_card", place=place, cards=[card])
        assert card[0].upper() in error.message and where in error.message
    refuse(felt, "cards_entered", "duplicate_card", place=2, cards=["3c", "3C"])
    refuse(felt, "cards_entered", "bad_card", place=2, cards=["1x"])
    refuse(felt, "cards_entered", "wrong_card_count", place="dealer", cards=["3c", "3d"])
    refuse(felt, "cards_entered", "wrong_card_count", place=2, cards=["3c", "3d", "3h"])
    refuse(felt, "cards_entered", "wrong_card_count", place=2, cards=[])
    assert refuse(felt, "cards_entered", "not_in_round", place=5, cards=["3c"]).field == "place"
    refuse(felt, "cards_entered", "wrong_stage", place="board", cards=["3c"])
    refuse(felt, "cards_entered", "bad_event", place="shoe", cards=["3c"])


@translation.override("en")
def test_before_showdown_only_the_board_takes_cards_and_no_more_than_its_street(felt):
    deal_to(felt, "preflop")
    for seat in (1, 2):
        felt.step("decision", seat=seat, action="check")
    refuse(felt, "cards_entered", "wrong_card_count", place="board", cards=["Kh", "9d", "4c", "2s"])
    refuse(felt, "cards_entered", "wrong_stage", place="dealer", cards=["3c", "3d"])
    refuse(felt, "cards_entered", "wrong_stage", place=1, cards=["Ks", "8d"])
    refuse(felt, "cards_entered", "not_in_round", place=5, cards=["3c", "3d"])
    felt.cards("board", "Kh", "9d", "4c")
    for seat in (1, 2):
        felt.step("decision", seat=seat, action="check")
    error = refuse(felt, "cards_entered", "duplicate_card", place="board", cards=["9d", "2s"])
    assert "9d" in error.message and "board" in error.message
    refuse(felt, "cards_entered", "wrong_card_count", place="board", cards=["2s", "7h", "3c"])


# --- expected_seq ----------------------------------------------------------------------------


def test_a_write_on_a_round_seen_before_another_write_is_stale(felt):
    deal_to(felt, "betting", seats=(1,))
    seen = felt.seq
    felt.wagers(3)
    for expected_seq in (seen, seen + 2):
        with nothing_changes(), pytest.raises(StaleRound) as stale:
            write(felt, "wagers_withdrawn", key="late", expected_seq=expected_seq, seat=1)
        assert stale.value.code == "stale"
        current = round_snapshot(Round.objects.get(pk=felt.round["id"]))
        assert stale.value.round == current and current["seq"] == seen + 1
        assert stale.value.as_json()["round"] == current


def test_every_kind_of_write_checks_expected_seq(felt, supervisor):
    deal_to(felt, "betting", seats=(1,))

    def stale(kind):
        with nothing_changes(but_pin_checks=True), pytest.raises(StaleRound):
            write(felt, kind, key="late", expected_seq=felt.seq - 1, supervisor=pin_of(supervisor))

    stale("bets_locked")
    felt.step("bets_locked")
    felt.step("irregularity_declared", irregularity="preflop_card_exposed")
    stale("void_approved")
    stale("void_refused")
    felt.step("void_refused", supervisor=pin_of(supervisor))
    felt.step("decision", seat=1, action="bet", multiple=4)
    felt.cards("board", "Kh", "9d", "4c")
    felt.cards("board", "2s", "7h")
    felt.cards("dealer", "Qc", "Qd")
    felt.cards(1, "Ks", "8d")
    stale("settlement_confirmed")


def test_a_stale_approval_with_the_right_pin_writes_nothing_not_even_the_pins_approval(
    felt, supervisor
):
    """The PIN's approval is audited with what it approves, in the same transaction."""
    deal_to(felt, "preflop", seats=(1,))
    felt.step("irregularity_declared", irregularity="preflop_card_exposed")
    for kind in ("void_approved", "void_refused"):
        with nothing_changes(), pytest.raises(StaleRound):
            write(felt, kind, key="late", expected_seq=felt.seq - 1, supervisor=pin_of(supervisor))


def test_expected_seq_is_a_whole_number(felt):
    deal_to(felt, "betting", seats=(1,))
    for expected_seq in ("1", None, True, -1, 1.0):
        with nothing_changes(), pytest.raises(RoundRefused) as refused:
            write(felt, "bets_locked", key="k", expected_seq=expected_seq)
        assert (refused.value.code, refused.value.field) == ("bad_seq", "expected_seq")


# --- keys ------------------------------------------------------------------------------------


def test_the_same_key_and_body_again_answers_as_the_first_time_and_counts_once(felt):
    deal_to(felt, "betting", seats=(1,))
    seen = felt.seq
    first = write(felt, "wagers_placed", key="w3", expected_seq=seen, seat=3, ante=1500, blind=1500)
    for _later in range(2):
        with nothing_changes():
            again = write(
                felt, "wagers_placed", key="w3", expected_seq=seen, seat=3, ante=1500, blind=1500
            )
        assert (again.status, again.body) == (first.status, first.body)
        assert (first.replayed, again.replayed) == (False, True)
    felt.step("bets_locked")
    with nothing_changes():
        late = write(
            felt, "wagers_placed", key="w3", expected_seq=seen, seat=3, ante=1500, blind=1500
        )
    assert late.body == first.body and late.body["stage"] == "betting"
    assert RoundEvent.objects.filter(round_id=first.round_id, key="w3").count() == 1


def test_a_key_sent_again_with_another_body_is_refused(felt):
    deal_to(felt, "betting")
    seen = felt.seq
    write(felt, "wagers_placed", key="w3", expected_seq=seen, seat=3, ante=1500, blind=1500)
    for expected_seq, other in [
        (seen, {"kind": "wagers_placed", "seat": 3, "ante": 2000, "blind": 2000}),
        (seen, {"kind": "wagers_withdrawn", "seat": 1}),
        (seen, {"kind": "settlement_confirmed"}),
        (seen, {"kind": "void_approved"}),
        (seen + 1, {"kind": "wagers_placed", "seat": 3, "ante": 1500, "blind": 1500}),
    ]:
        with nothing_changes(), pytest.raises(KeyReused) as refused:
            rounds.round_event_record(
                round_id=felt.round["id"],
                actor=felt.dealer,
                key="w3",
                expected_seq=expected_seq,
                event=other,
            )
        assert refused.value.code == "key_reused"


def _every_write(felt, supervisor, key):
    round_id = felt.round["id"]
    return [
        lambda: rounds.round_open(table_id=felt.table.pk, dealer=felt.dealer, key=key),
        lambda: write(felt, "bets_locked", key=key),
        lambda: rounds.round_settle(
            round_id=round_id, dealer=felt.dealer, key=key, expected_seq=felt.seq
        ),
        lambda: write(felt, "void_approved", key=key, supervisor=pin_of(supervisor)),
        lambda: rounds.round_correct(
            round_id=round_id,
            actor=felt.dealer,
            key=key,
            supervisor=pin_of(supervisor),
            reason="r",
            corrected={},
        ),
    ]


def test_a_write_needs_a_key_of_1_to_64_characters(felt, supervisor):
    deal_to(felt, "betting", seats=(1,))
    for key in ("", "k" * 65, 7, None, ["k"]):
        for call in _every_write(felt, supervisor, key):
            with nothing_changes(), pytest.raises(RoundRefused) as refused:
                call()
            assert (refused.value.code, refused.value.field) == ("bad_key", "key")
    written = write(felt, "bets_locked", key="k" * 64)
    assert written.body["stage"] == "preflop"
    assert IdempotentWrite.objects.filter(key="k" * 64).count() == 1
