"""A whole round through the services, and the cache equal to the replay after every step."""

import json
import subprocess
import sys

from casino.audit import seal_pending
from jackpot.models import Bank, Hit, MeterEntry
from tables.models import Round, RoundEvent, SettlementLine
from tables.services.rounds import state_of


def _cache_is_replay(round_id):
    round_ = Round.objects.get(pk=round_id)
    assert round_.state == state_of(round_).to_json()
    assert round_.seq == RoundEvent.objects.filter(round=round_).count()


def test_a_two_seat_round_settles_and_writes_one_line_per_bet(felt):
    felt.open()
    assert felt.round["seq"] == 0 and felt.round["stage"] == "betting"
    felt.wagers(1, ante=1000, trips=1000, progressive=100)
    felt.wagers(2, ante=2000)
    felt.play_to_showdown(
        {1: ["Ks", "8d"], 2: ["As", "Ad"]},
        board=["Kh", "9d", "4c", "2s", "7h"],
        dealer_cards=["Qc", "Qd"],
        decisions={2: [("check", None), ("check", None), ("bet", 1)]},
    )
    _cache_is_replay(felt.round["id"])
    done = felt.step("settlement_confirmed")
    assert done["stage"] == "settled"
    _cache_is_replay(done["id"])
    nets = {s["seat"]: s["net"] for s in done["settlement"]["seats"]}
    # Seat 1: pair of kings beats queens: Ante +1000, Blind push, Play 4x +4000; Trips lost.
    assert nets[1] == 1000 + 4000 - 1000 - 100
    # Seat 2: aces beat queens with 1x: +2000 +2000.
    assert nets[2] == 4000
    lines = SettlementLine.objects.filter(round_id=done["id"])
    assert sum(lines.values_list("net_cents", flat=True)) == nets[1] + nets[2]
    assert {(line.seat, line.bet) for line in lines} == {
        (1, "ante"),
        (1, "blind"),
        (1, "play"),
        (1, "trips"),
        (1, "progressive"),
        (2, "ante"),
        (2, "blind"),
        (2, "play"),
    }
    assert done["seats"][0]["payout"]["net"] == nets[1]


def test_the_export_settles_again_through_the_cli(felt, progressive):
    felt.open()
    felt.wagers(1, ante=1000, progressive=100)
    felt.play_to_showdown(
        {1: ["As", "Ks"]},
        board=["Qs", "Js", "Ts", "3h", "4h"],
        dealer_cards=["2c", "2d"],
    )
    done = felt.step("settlement_confirmed")
    round_ = Round.objects.get(pk=done["id"])
    result = subprocess.run(
        [sys.executable, "-m", "tables.rules", "settle", "-"],
        input=json.dumps(round_.settlement_input),
        capture_output=True,
        text=True,
        check=True,
    )
    again = json.loads(result.stdout)
    hits = done["settlement"]["progressive"]["hits"]
    assert [h["seat"] for h in hits] == [1]
    hit = Hit.objects.get(pk=hits[0]["hit"])
    assert hit.state == Hit.State.PENDING and hit.amount_cents == hits[0]["amount_cents"]
    for h in hits:
        h.pop("hit"), h.pop("state")
    assert again == done["settlement"]
    bank = Bank.objects.get(pk=progressive.pk)
    assert bank.meter_cents == bank.reset_cents


def test_a_confirmation_with_hits_audits_each_hit_then_the_settlement(felt, progressive):
    from casino.models import AuditEntry

    felt.open()
    felt.wagers(1, ante=1000, progressive=100)
    felt.wagers(2, ante=1000, progressive=100)
    # Both seats make a straight flush with the flop (the 10 % tier).
    felt.play_to_showdown(
        {1: ["9h", "8h"], 2: ["4h", "3h"]},
        board=["7h", "6h", "5h", "Kc", "2d"],
        dealer_cards=["Qc", "Qd"],
    )
    seal_pending()  # as after each commit
    top = AuditEntry.objects.order_by("position").last().position
    done = felt.step("settlement_confirmed")
    seal_pending()
    hits = [h["hit"] for h in done["settlement"]["progressive"]["hits"]]
    assert len(hits) == 2
    written = list(AuditEntry.objects.filter(position__gt=top).order_by("position"))
    assert [(e.code, e.subject_id) for e in written] == [
        ("jackpot.hit.recorded", str(hits[0])),
        ("jackpot.hit.recorded", str(hits[1])),
        ("tables.round.settled", str(done["id"])),
    ]
    assert written[2].data["hits"] == hits
    # Seat 2 is paid from the meter as seat 1's hit left it, below the reset amount (as the
    # engine pays it: spec/settle.md); the meter is reseeded once, after the round's last hit.
    first, second = (Hit.objects.get(pk=h) for h in hits)
    assert (first.order, second.order) == (1, 2)
    assert second.meter_before_cents == first.meter_before_cents - first.amount_cents
    assert second.amount_cents == second.meter_before_cents // 10
    bank = Bank.objects.get(pk=progressive.pk)
    assert first.meter_before_cents - first.amount_cents < bank.reset_cents
    assert bank.meter_cents == bank.reset_cents
    reseeds = MeterEntry.objects.filter(
        bank=bank, kind=MeterEntry.Kind.RESET, reference=f"round-{done['id']}"
    )
    assert [entry.hit_id for entry in reseeds] == [second.pk]
