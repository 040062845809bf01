"""Past play written fast, for the demo and the benchmark (`manage.py demo_month`).

Each round is played through the engine (the round machine, event by event, then `settle`),
as the dealer's tablet would play it, and written with `bulk_create`: rounds, their settlement
lines, and each table's day at the chips: the opener (the previous closer), the fills the tray
needs, the closer and the count room's drop, chosen so that the counted win equals the win the
lines compute, except on a few table-days where chips walk away (the variance the reports
flag). Seeded history has no round events and no audit entries: it is data for reports, not a
record of what anybody did, and it never touches a day after yesterday's.
"""

import datetime as dt
import random
from collections import defaultdict
from dataclasses import dataclass

from django.db import transaction

from casino.clock import current_property, stamp
from casino.models import Staff
from tables.accounting.models import (
    ChipDenomination,
    ChipSlip,
    Drop,
    Inventory,
    SlipSeries,
)
from tables.models import Round, SettlementLine, Table
from tables.rules.export import settlement_input_json
from tables.rules.machine import (
    apply,
    cards_expected,
    legal_actions,
    new_round,
    settlement_input,
)
from tables.rules.ruleset import parse_rules
from tables.rules.settle import Meter, settle
from tables.services.rounds import line_rows  # the lines a round writes
from tables.simulator import ACTION_WEIGHTS, ANTE_FACTORS, DECK, TRIPS_FACTORS, deal_order

# The demo's chip set (cents), from the plaque down to the half-euro.
DEMO_CHIPS = (
    (1_000_000, "orange"),
    (100_000, "jaune"),
    (50_000, "violet"),
    (10_000, "noir"),
    (2_500, "vert"),
    (500, "rouge"),
    (100, "blanc"),
    (50, "rose"),
)
OPENER_CENTS = 2_000_000  # the tray each table opens with
MIN_DROP_CENTS, FILL_CENTS = 200_000, 500_000
WALKAWAY_ODDS = 0.02  # share of table-days where chips go missing from the tray
VOID_ODDS = 0.005
TRIPS_ODDS, PROGRESSIVE_ODDS = 0.4, 0.5


def ensure_chip_set(prop) -> list[int]:
    for value, colour in DEMO_CHIPS:
        ChipDenomination.objects.get_or_create(
            property=prop, value_cents=value, defaults={"colour": colour}
        )
    return sorted(
        ChipDenomination.objects.filter(property=prop, active=True).values_list(
            "value_cents", flat=True
        ),
        reverse=True,
    )


def chips_for(amount: int, chips: list[int]) -> dict[str, int]:
    """`amount` in as few chips as the set allows (greedy; the set's smallest chip divides
    every amount the seed asks for)."""
    counts = {}
    for value in chips:
        n, amount = divmod(amount, value)
        if n:
            counts[str(value)] = n
    if amount:
        raise ValueError(f"{amount} cents cannot be made of chips {chips}")
    return counts


@dataclass
class Played:
    state: dict
    output: dict | None
    input: dict | None
    void: bool


class Player:
    """One table's players and dealer, deciding as the floor simulator's do."""

    def __init__(self, rng: random.Random, table: Table, rules_json: dict, progressive: int):
        self.rng = rng
        self.table = table
        self.rules_json = rules_json
        self.rules = parse_rules(rules_json)
        self.progressive = progressive
        self.low, self.high = table.min_bet_cents, table.max_bet_cents
        self.trips_low, self.trips_high = table.trips_limits

    def ante(self) -> int:
        return min(self.low * self.rng.choice(ANTE_FACTORS), self.high // self.low * self.low)

    def trips(self) -> int:
        return max(
            self.trips_low, min(self.trips_low * self.rng.choice(TRIPS_FACTORS), self.trips_high)
        )

    def play(self, meter: Meter | None) -> Played:
        rng = self.rng
        seats = list(range(1, self.table.seats + 1))
        state = new_round(self.rules, seats=seats)
        for seat in sorted(rng.sample(seats, rng.randint(1, len(seats)))):
            ante = self.ante()
            state = apply(
                state,
                {
                    "kind": "wagers_placed",
                    "seat": seat,
                    "ante": ante,
                    "blind": ante,
                    "trips": self.trips() if rng.random() < TRIPS_ODDS else 0,
                    "progressive": self.progressive
                    if self.progressive and rng.random() < PROGRESSIVE_ODDS
                    else 0,
                },
            )
        state = apply(state, {"kind": "bets_locked"})
        if rng.random() < VOID_ODDS:
            state = apply(
                state, {"kind": "irregularity_declared", "irregularity": "preflop_card_exposed"}
            )
            state = apply(state, {"kind": "void_approved"})
            return Played(state.to_json(), None, None, True)
        deck = list(DECK)
        rng.shuffle(deck)
        while state.stage.value != "showdown" or cards_expected(state):
            acted = False
            for seat in state.to_act():
                actions = legal_actions(state, seat)
                if actions:
                    choice = rng.choices(actions, [ACTION_WEIGHTS.get(a, 1) for a in actions])[0]
                    action, _, multiple = choice.partition(":")
                    event = {"kind": "decision", "seat": seat, "action": action}
                    if multiple:
                        event["multiple"] = int(multiple)
                    state = apply(state, event)
                    acted = True
                    break
            if acted:
                continue
            expected = cards_expected(state)
            place = min((str(p) for p in expected), key=deal_order)
            target = int(place) if place.isdigit() else place
            count = expected[target]
            cards, deck = deck[:count], deck[count:]
            state = apply(state, {"kind": "cards_entered", "place": target, "cards": cards})
        needs_meter = any(s.progressive for s in state.seats)
        used = meter if needs_meter else None
        output = settle(settlement_input(state, meter=used), self.rules).to_json()
        given = settlement_input_json(state, meter=used)
        state = apply(state, {"kind": "settlement_confirmed"})
        return Played(state.to_json(), output, given, False)


def seed_days(
    *,
    first: dt.date,
    days: int,
    tables: list[Table],
    dealers: dict[int, Staff],
    supervisor: Staff,
    manager: Staff,
    rounds_per_day: int,
    seed: int = 1,
    progress=None,
) -> dict[str, int]:
    """`rounds_per_day` rounds a day at each table, from `first` for `days` gaming days, with
    each table-day's chips (opener, fills, closer, drop). Returns what it wrote."""
    prop = current_property()
    rng = random.Random(seed)
    chips = ensure_chip_set(prop)
    written: dict[str, int] = defaultdict(int)
    players = {}
    for table in tables:
        rules = table.ruleset.engine_rules()
        wager = table.bank.wager_cents if table.bank_id and table.bank else 0
        players[table.pk] = Player(rng, table, rules, wager)
    banks = {t.pk: t.bank for t in tables}
    last_closer: dict[int, dict[str, int]] = {}
    for t in tables:
        previous = (
            Inventory.objects.filter(table=t, kind=Inventory.Kind.CLOSER)
            .order_by("-counted_at")
            .first()
        )
        last_closer[t.pk] = previous.counts if previous else chips_for(OPENER_CENTS, chips)
    for offset in range(days):
        gaming_date = first + dt.timedelta(days=offset)
        start, end = prop.gaming_day_bounds(gaming_date)
        # Play from an hour after the day starts to an hour before it ends.
        span = (end - start) - dt.timedelta(hours=2)
        with transaction.atomic():
            day_rounds, day_lines = [], []
            wins: dict[int, int] = defaultdict(int)
            for table in tables:
                player = players[table.pk]
                bank = banks[table.pk]
                meter = Meter(bank.reset_cents, bank.reset_cents) if bank else None
                step = span / rounds_per_day
                for number in range(1, rounds_per_day + 1):
                    opened = start + dt.timedelta(hours=1) + step * (number - 1)
                    settled = opened + step * 0.8
                    played = player.play(meter)
                    gd, shift = stamp(opened)
                    round_ = Round(
                        table=table,
                        number=number,
                        gaming_date=gd,
                        shift=shift,
                        ruleset_id=table.ruleset_id,
                        rules=player.rules_json,
                        seat_numbers=list(range(1, table.seats + 1)),
                        bank_id=table.bank_id if played.output else None,
                        dealer=dealers[table.pk],
                        seq=0,
                        stage=Round.Stage.VOID if played.void else Round.Stage.SETTLED,
                        state=played.state,
                        opened_at=opened,
                        settled_at=None if played.void else settled,
                        settlement=played.output,
                        settlement_input=played.input,
                    )
                    day_rounds.append((round_, played, settled))
            Round.objects.bulk_create([r for r, _p, _s in day_rounds], batch_size=1000)
            for round_, played, settled in day_rounds:
                if played.output is None:
                    written["voids"] += 1
                    continue
                gd, shift = stamp(settled)
                hit_seats = {h["seat"] for h in played.output["progressive"]["hits"]}
                for (seat, bet), (stake, net) in line_rows(played.output).items():
                    meter_paid = bet == "progressive" and seat in hit_seats
                    day_lines.append(
                        SettlementLine(
                            round=round_,
                            seat=seat,
                            bet=bet,
                            stake_cents=stake,
                            net_cents=net,
                            paid_from=SettlementLine.PaidFrom.METER
                            if meter_paid
                            else SettlementLine.PaidFrom.HOUSE,
                            gaming_date=gd,
                            shift=shift,
                            at=settled,
                        )
                    )
                    if not meter_paid:
                        wins[round_.table_id] -= net
            SettlementLine.objects.bulk_create(day_lines, batch_size=5000)
            written["rounds"] += len(day_rounds)
            written["lines"] += len(day_lines)
            _seed_chips(
                prop=prop,
                gaming_date=gaming_date,
                bounds=(start, end),
                tables=tables,
                wins=wins,
                chips=chips,
                last_closer=last_closer,
                dealers=dealers,
                supervisor=supervisor,
                manager=manager,
                rng=rng,
                written=written,
            )
        if progress:
            progress(gaming_date, dict(written))
    return dict(written)


def _seed_chips(
    *,
    prop,
    gaming_date,
    bounds,
    tables,
    wins,
    chips,
    last_closer,
    dealers,
    supervisor,
    manager,
    rng,
    written,
) -> None:
    start, end = bounds
    opened_at, closed_at = start + dt.timedelta(minutes=30), end - dt.timedelta(minutes=30)
    inventories, slips, drops = [], [], []
    year = gaming_date.year
    series, _ = SlipSeries.objects.select_for_update(no_key=True).get_or_create(gaming_year=year)
    smallest = chips[-1]
    for table in tables:
        opener = last_closer[table.pk]
        opener_total = sum(int(v) * n for v, n in opener.items())
        win = wins.get(table.pk, 0)
        # Players buy in with cash (the drop) and take chips from the tray; what they lose
        # comes back to it; a fill tops up a tray running low. The drop is chosen for a
        # hold of 12 to 30 %, give or take the cents that no chip makes.
        drop = max(MIN_DROP_CENTS, int(max(win, 0) / rng.uniform(0.12, 0.30)))
        drop += (opener_total + win - drop) % smallest
        fills = 0
        closer_total = opener_total + win - drop
        while closer_total < opener_total // 2:
            fills += FILL_CENTS
            closer_total += FILL_CENTS
        walked = 0
        if rng.random() < WALKAWAY_ODDS:
            walked = 2_500 * rng.randint(4, 40)  # chips gone from the tray
            closer_total -= walked
        closer = chips_for(closer_total, chips)
        for kind, counts, total, at in (
            (Inventory.Kind.OPENER, opener, opener_total, opened_at),
            (Inventory.Kind.CLOSER, closer, closer_total, closed_at),
        ):
            gd, shift = stamp(at)
            inventories.append(
                Inventory(
                    table=table,
                    kind=kind,
                    counts=counts,
                    total_cents=total,
                    gaming_date=gd,
                    shift=shift,
                    counted_at=at,
                    dealer=dealers[table.pk],
                    supervisor=supervisor,
                    recorded_by=supervisor,
                )
            )
        if fills:
            series.last_number += 1
            at = start + (end - start) / 2
            gd, shift = stamp(at)
            slips.append(
                ChipSlip(
                    kind=ChipSlip.Kind.FILL,
                    gaming_year=year,
                    number=series.last_number,
                    table=table,
                    counts=chips_for(fills, chips),
                    total_cents=fills,
                    gaming_date=gd,
                    shift=shift,
                    state=ChipSlip.State.APPROVED,
                    requested_by=dealers[table.pk],
                    requested_at=at,
                    approved_by=supervisor,
                    approved_at=at,
                )
            )
        drops.append(
            Drop(
                table=table,
                gaming_date=gaming_date,
                cash_cents=drop,
                source=Drop.Source.IMPORTED,
                entered_by=manager,
                entered_at=end,
            )
        )
        last_closer[table.pk] = closer
        written["walkaways"] += bool(walked)
    series.save(update_fields=["last_number"])
    Inventory.objects.bulk_create(inventories)
    ChipSlip.objects.bulk_create(slips)
    Drop.objects.bulk_create(drops)
    written["fills"] += len(slips)
