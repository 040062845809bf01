"""The settlement: the dealer confirms the payouts, the engine settles with the progressive
meter as it then stands, each percentage-tier payout becomes a hit, and one line per seat and
bet is written, all in one transaction. Also what the engine would pay now (the preview)."""

from django.db import transaction
from django.utils import timezone

from casino.audit import audit
from casino.clock import stamp
from casino.models import Staff
from jackpot import services as jackpot
from jackpot.models import Bank
from tables import events, live
from tables.models import Round, SettlementLine
from tables.rules.errors import RulesError
from tables.rules.export import settlement_input_json
from tables.rules.machine import event_from_json, settlement_input
from tables.rules.settle import Meter, settle
from tables.services.rounds.answers import RoundWrite, check_key, remembered
from tables.services.rounds.people import require_a_dealer, require_round_dealer
from tables.services.rounds.state import (
    apply_event,
    check_seq,
    refusal,
    round_read,
    round_reference,
    rules_of,
    state_of,
    step,
)

# The bets of a seat, as settle.md names them.
BETS = ("ante", "blind", "play", "trips", "progressive", "envy")


def meter(bank: Bank | None) -> Meter | None:
    return None if bank is None else Meter(bank.meter_cents, bank.reset_cents)


def round_settle(*, round_id: int, dealer: Staff, key: str, expected_seq) -> RoundWrite:
    """The dealer confirms the payouts: the bank is locked and its meter read (queued
    contributions posted first), the engine settles with it, each percentage-tier hit is
    recorded (pending until a supervisor verifies it), and one line per seat and bet is
    written, all in one transaction."""
    key = check_key(key)
    require_a_dealer(dealer)
    scope = f"round:{round_id}:events"
    request = {"expected_seq": expected_seq, "event": {"kind": "settlement_confirmed"}}
    with transaction.atomic():
        round_ = round_read(round_id)
        if (again := remembered(scope, key, request)) is not None:
            return again
        require_round_dealer(dealer, round_)
        check_seq(round_, expected_seq)
        before = state_of(round_)
        event = event_from_json({"kind": "settlement_confirmed"})
        state = apply_event(before, event)
        bank = None
        if any(s.progressive for s in state.seats):
            bank = jackpot.bank_lock_and_post(round_.bank_id)
        output = settle(settlement_input(state, meter=meter(bank)), rules_of(round_)).to_json()
        at = timezone.now()
        hits = _record_hits(round_, output, dealer=dealer)  # each audited as recorded
        write_lines(round_, output, hits, at=at)
        round_.settlement = output
        round_.settlement_input = settlement_input_json(before, meter=meter(bank))
        round_.settled_at = at
        written = step(
            round_,
            state,
            event,
            actor=dealer,
            key=key,
            at=at,
            scope=scope,
            request=request,
            just_settled=True,
        )
        audit(
            actor=dealer,
            code="tables.round.settled",
            subject=round_,
            data={
                "nets": {str(s["seat"]): s["net"] for s in output["seats"]},
                "hits": [h["hit"] for h in output["progressive"]["hits"]],
                "meter_before_cents": output["progressive"]["meter_before_cents"],
            },
        )
        live.announce_round(written.body)
        events.tell_after_commit("round_settled", round_id=round_.pk)
    return written


def _record_hits(round_: Round, output: dict, *, dealer: Staff) -> dict[int, object]:
    """Each percentage-tier payout becomes a Hit, in the engine's seat order, each from the
    meter as it then stands. Returns {seat: Hit}."""
    hits = {}
    paying = output["progressive"]["hits"]
    for number, paid in enumerate(paying, start=1):
        hit = jackpot.hit_record(
            bank_id=round_.bank_id,
            table_label=round_.table.name,
            seat=paid["seat"],
            level=paid["category"],
            amount_cents=paid["amount_cents"],
            actor=dealer,
            reference=round_reference(round_.pk),
            reseed=number == len(paying),  # the engine pays the next from the meter as it is
        )
        paid["hit"], paid["state"] = hit.pk, hit.state
        hits[paid["seat"]] = hit
    return hits


def line_rows(output: dict) -> dict[tuple[int, str], tuple[int, int]]:
    """{(seat, bet): (stake, net)} of a settle.md output: every bet a seat made, its Envy
    when it collects any, and the amount withheld above the maximum payout."""
    rows = {}
    for seat in output["seats"]:
        for bet in BETS:
            result = seat["bets"][bet]
            stake = result.get("stake", 0)
            if stake or result["net"]:
                rows[(seat["seat"], bet)] = (stake, result["net"])
        if seat["capped_cents"]:
            rows[(seat["seat"], SettlementLine.Bet.CAP)] = (0, -seat["capped_cents"])
    return rows


def write_lines(round_: Round, output: dict, hits: dict, *, at, correction=None, rows=None):
    gaming_date, shift = stamp(at)
    lines = []
    for (seat, bet), (stake, net) in (rows if rows is not None else line_rows(output)).items():
        hit = hits.get(seat) if bet == SettlementLine.Bet.PROGRESSIVE else None
        lines.append(
            SettlementLine(
                round=round_,
                correction=correction,
                seat=seat,
                bet=bet,
                stake_cents=stake,
                net_cents=net,
                paid_from=SettlementLine.PaidFrom.METER if hit else SettlementLine.PaidFrom.HOUSE,
                hit=hit,
                gaming_date=gaming_date,
                shift=shift,
                at=at,
            )
        )
    SettlementLine.objects.bulk_create(lines)


def settlement_preview(round_: Round) -> dict:
    """`GET .../settlement`: what the engine pays now, with the meter as it reads now
    (provisional: the percentage tiers are fixed at confirmation). Once settled, the
    confirmed settlement."""
    if round_.settlement is not None:
        return {**round_.settlement, "provisional": False}
    state = state_of(round_)
    bank = None
    if any(s.progressive for s in state.seats):
        bank = Bank.objects.filter(pk=round_.bank_id).first()
    try:
        output = settle(settlement_input(state, meter=meter(bank)), rules_of(round_)).to_json()
    except RulesError as exc:  # not at showdown yet, or cards still to come
        raise refusal(exc) from None
    return {**output, "provisional": True}
