"""Two tablets writing to one round at the same moment, on PostgreSQL with real threads: the
round row's lock orders them, the first wins and the second learns it is stale."""

import threading

import pytest
from django.db import connection

from tables.errors import StaleRound
from tables.models import Round, RoundEvent
from tables.services import rounds
from tables.services.rounds import RoundWrite as Written
from tables.services.rounds import state_of

RACES = 10


def _race(round_id, dealer, seq, events, *, tag) -> list:
    barrier = threading.Barrier(len(events))
    results: list = [None] * len(events)

    def tablet(i, event):
        try:
            barrier.wait(timeout=10)
            results[i] = rounds.round_event_record(
                round_id=round_id,
                actor=dealer,
                key=f"{tag}-tablet-{i}",
                expected_seq=seq,
                event=event,
            )
        except Exception as exc:  # noqa: BLE001  (the test looks at what each tablet got)
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=tablet, args=(i, e)) for i, e in enumerate(events)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a tablet is still waiting"
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_tablets_at_once_one_write_wins_and_the_other_is_stale(felt):
    round_id = felt.open()["id"]
    for race in range(RACES):
        seq = Round.objects.get(pk=round_id).seq
        ante = 1000 + 100 * race
        events = [
            {"kind": "wagers_placed", "seat": 1, "ante": ante, "blind": ante},
            {"kind": "wagers_placed", "seat": 2, "ante": ante, "blind": ante, "trips": 1000},
        ]
        results = _race(round_id, felt.dealer, seq, events, tag=f"race{race}")
        won = [r for r in results if isinstance(r, Written)]
        stale = [r for r in results if isinstance(r, StaleRound)]
        assert (len(won), len(stale)) == (1, 1), results
        round_ = Round.objects.get(pk=round_id)
        assert round_.seq == seq + 1 == won[0].body["seq"] == stale[0].round["seq"]
        assert stale[0].round == won[0].body
        assert RoundEvent.objects.filter(round_id=round_id).count() == seq + 1
        assert round_.state == state_of(round_).to_json()
    assert Round.objects.get(pk=round_id).seq == RACES


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_bets_locked_racing_a_wager_contributes_only_if_it_won(felt, progressive):
    from jackpot.models import PendingContribution

    round_id = felt.open()["id"]
    felt.wagers(1, progressive=100)
    seq = felt.seq
    events = [
        {"kind": "bets_locked"},
        {"kind": "wagers_placed", "seat": 2, "ante": 1000, "blind": 1000, "progressive": 100},
    ]
    results = _race(round_id, felt.dealer, seq, events, tag="lock")
    won = [r for r in results if isinstance(r, Written)]
    assert len(won) == 1 and sum(isinstance(r, StaleRound) for r in results) == 1, results
    queued = PendingContribution.objects.filter(reference=f"round-{round_id}")
    assert queued.count() == (1 if won[0].body["stage"] == "preflop" else 0)
    assert Round.objects.get(pk=round_id).seq == seq + 1
