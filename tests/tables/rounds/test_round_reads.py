"""The round's reads (tables.services.rounds.reads) answer as the ORM's definitions do:
who deals the table at an instant is DealerAssignment.objects.covering(at), on its edges too;
an id nobody can hold names no round; JSON comes back decoded."""

import datetime as dt

import pytest
from django.db import transaction
from django.utils import timezone

from tables.models import DealerAssignment, IdempotentWrite
from tables.selectors import current_dealer
from tables.services.rounds import reads as round_reads
from tables.services.rounds import round_read as _round_read
from tables.services.rounds import round_relock as _round_relock
from tests.factories import make_staff

HOUR = dt.timedelta(hours=1)


def dealing_at(round_id, at):
    with transaction.atomic():
        return round_reads.round_locked(round_id, at=at).dealing_id


def test_the_dealer_at_each_instant_is_the_one_covering_it(felt, table, dealer, supervisor):
    round_id = felt.open()["id"]
    now = timezone.now()
    other = make_staff("dealer", username="relief")
    DealerAssignment.objects.filter(table=table).update(starts_at=now - 3 * HOUR, ends_at=now)
    DealerAssignment.objects.create(
        table=table, dealer=other, starts_at=now, ends_at=None, assigned_by=supervisor
    )
    instants = [now - 4 * HOUR, now - 3 * HOUR, now - HOUR, now, now + HOUR]
    for at in instants:  # before any, the first's start, inside, the change (end excluded), after
        expected = current_dealer(table, at)
        assert dealing_at(round_id, at) == (expected.pk if expected else None), at
    assert [dealing_at(round_id, at) for at in instants] == [
        None,
        dealer.pk,
        dealer.pk,
        other.pk,
        other.pk,
    ]


def test_the_round_read_is_the_whole_round(felt, django_assert_num_queries):
    opened = felt.open()
    felt.wagers(1)
    with transaction.atomic():
        round_ = round_reads.round_locked(opened["id"], at=timezone.now())
    with django_assert_num_queries(0):  # the dealer as the snapshot names them, read with it
        assert str(round_.dealer) == str(felt.dealer) and round_.dealer.is_active
    assert round_.dealer.email == felt.dealer.email  # the rest when first used
    assert round_.pk == opened["id"] and round_.seq == 1
    assert round_.state["seats"][0]["ante"] == 1000  # the JSON columns decoded
    assert round_.table.name == "UTH 1" and round_.dealer == felt.dealer


@pytest.mark.parametrize("bad", [0, -1, 2**63, 10**40, True, None, "abc", "١٢", 1.5, [1]])
def test_an_id_no_round_can_have_is_no_round(db, bad):
    with transaction.atomic():
        assert round_reads.round_locked(bad, at=timezone.now()) is None


def test_an_id_in_ascii_digits_names_its_round(felt):
    round_id = felt.open()["id"]
    with transaction.atomic():
        assert round_reads.round_locked(str(round_id), at=timezone.now()).pk == round_id


def test_events_and_kept_writes_come_back_decoded(felt):
    round_id = felt.open()["id"]
    felt.wagers(1)
    events = round_reads.round_events(round_id)
    assert [data["kind"] for data, _hash in events] == ["wagers_placed"]
    assert len(events[0][1]) == 64
    kept = IdempotentWrite.objects.filter(scope=f"round:{round_id}:events").get()
    assert round_reads.write_kept(kept.scope, kept.key) == (kept.body_hash, 200, kept.response)
    assert round_reads.write_kept(kept.scope, "no such key") is None


def test_the_settlement_answers_the_round_as_any_later_read_shows_it(felt):
    """round_settle builds its answer without looking for corrections (there can be none in
    the transaction that settles): the same body as the snapshot read afterwards."""
    from tables.models import Round
    from tables.snapshots import round_snapshot
    from tests.tables.rounds.conftest import deal_to

    answered = deal_to(felt, "settled")
    round_ = Round.objects.get(pk=answered["id"])
    assert answered == round_snapshot(round_) == round_snapshot(round_, just_settled=True)
    assert answered["corrections"] == [] and answered["seats"][0]["payout"]["net"] != 0


def test_a_probe_relocked_is_read_again_only_when_a_step_was_written_since(
    felt, django_assert_num_queries
):
    opened = felt.open()
    probe = _round_read(opened["id"], lock=False)
    with transaction.atomic(), django_assert_num_queries(1):  # the seq, locked
        assert _round_relock(probe) is probe
    felt.wagers(1)  # a step written after the probe
    with transaction.atomic():
        fresh = _round_relock(probe)
    assert fresh is not probe and fresh.seq == probe.seq + 1
    assert fresh.state["seats"][0]["ante"] == 1000
    with transaction.atomic():
        assert round_reads.round_seq_locked(opened["id"]) == fresh.seq
        assert round_reads.round_seq_locked(opened["id"] + 1000) is None
