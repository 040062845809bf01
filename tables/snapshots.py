"""What a table and a round look like to the tablet, the API and the live channel
(spec/round-api.md, "The round"). Written down once: the API answers with these, the table's
channel sends them, and a retried write gets the very body it got the first time."""

import datetime as dt

from django.db.models import Sum

from tables.models import Round, SettlementLine, Table


def iso(at: dt.datetime | None) -> str | None:
    if at is None:
        return None
    return at.astimezone(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def staff_ref(staff) -> dict | None:
    return None if staff is None else {"id": staff.pk, "name": str(staff)}


def round_snapshot(round_: Round, *, just_settled: bool = False) -> dict:
    """`just_settled`: the caller settled the round in this very transaction, so it has no
    correction yet (two queries fewer in the dealer's confirmation)."""
    state = round_.state
    payouts = _payouts(round_, corrected=not just_settled)
    seats = [{**seat, "payout": payouts.get(seat["seat"])} for seat in state["seats"]]
    body = {
        "id": round_.pk,
        "table": round_.table_id,
        "number": round_.number,
        "gaming_date": round_.gaming_date.isoformat(),
        "shift": round_.shift,
        "seq": round_.seq,
        "stage": state["stage"],
        "seats": seats,
        "board": state["board"],
        "dealer": state["dealer"],
        "cards_expected": state["cards_expected"],
        "irregularities": state["irregularities"],
        "pending_void": state["pending_void"],
        "void": state["void"],
        "settlement": round_.settlement,
        "dealer_staff": staff_ref(round_.dealer),
        "opened_at": iso(round_.opened_at),
        "settled_at": iso(round_.settled_at),
    }
    if round_.stage == Round.Stage.SETTLED:
        body["corrections"] = [] if just_settled else _corrections(round_)
    return body


def _payouts(round_: Round, *, corrected: bool = True) -> dict[int, dict]:
    """Each seat's net per bet once settled: as confirmed, plus any correction's lines."""
    if round_.settlement is None or round_.stage != Round.Stage.SETTLED:
        return {}
    payouts: dict[int, dict] = {}
    for seat in round_.settlement["seats"]:
        nets = {bet: result["net"] for bet, result in seat["bets"].items()}
        payouts[seat["seat"]] = {**nets, "capped_cents": seat["capped_cents"], "net": seat["net"]}
    if not corrected:
        return payouts
    corrections = (
        SettlementLine.objects.filter(round=round_, correction__isnull=False)
        .values("seat", "bet")
        .annotate(net=Sum("net_cents"))
    )
    for row in corrections:
        seat = payouts.setdefault(row["seat"], {"net": 0, "capped_cents": 0})
        if row["bet"] == SettlementLine.Bet.CAP:
            seat["capped_cents"] -= row["net"]
        else:
            seat[row["bet"]] = seat.get(row["bet"], 0) + row["net"]
        seat["net"] += row["net"]
    return payouts


def _corrections(round_: Round) -> list[dict]:
    return [
        {
            "number": c.number,
            "at": iso(c.at),
            "reason": c.reason,
            "requested_by": staff_ref(c.requested_by),
            "supervisor": staff_ref(c.supervisor),
            # The cards and decisions as corrected: the felt shows these once corrected.
            "facts": {
                "board": c.input["board"],
                "dealer": c.input["dealer"],
                "seats": [
                    {key: seat[key] for key in ("seat", "hole", "play", "fold") if key in seat}
                    for seat in c.input["seats"]
                ],
            },
            "lines": [
                {"seat": line.seat, "bet": line.bet, "net": line.net_cents}
                for line in c.lines.all()
            ],
        }
        for c in round_.corrections.select_related("requested_by", "supervisor").prefetch_related(
            "lines"
        )
    ]


def event_snapshot(event) -> dict:
    return {
        "seq": event.seq,
        "event": event.data,
        "by": staff_ref(event.actor),
        "supervisor": staff_ref(event.supervisor),
        "at": iso(event.at),
        "key": event.key,
    }


def table_snapshot(table: Table, *, dealer=None, round_in_progress=None, rules=None) -> dict:
    """`GET /api/tables/<id>/`: the caller passes what it fetched in bulk (see selectors)."""
    bank = table.bank
    trips_min, trips_max = table.trips_limits
    return {
        "id": table.pk,
        "name": table.name,
        "status": table.status,
        "seats": table.seats,
        "min_bet_cents": table.min_bet_cents,
        "max_bet_cents": table.max_bet_cents,
        "trips_min_cents": trips_min,
        "trips_max_cents": trips_max,
        "rules": rules,
        "bank": None
        if bank is None
        else {
            "slug": bank.slug,
            "progressive_wager_cents": bank.wager_cents,
            "status": bank.status,
        },
        "dealer": staff_ref(dealer),
        "round": None
        if round_in_progress is None
        else {"id": round_in_progress.pk, "stage": round_in_progress.stage},
    }
