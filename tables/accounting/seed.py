"""Past play written fast, for the demo and the benchmark (`manage.py demo_month`).

Each round is played through the engine (the round machine, event by event, then `settle`),
as the dealer's tablet would play it, and written with `bulk_create`: rounds, their settlement
lines, and each table's day at the chips: the opener (the previous closer), the fills the tray
needs, the closer and the count room's drop, chosen so that the counted win equals the win the
lines compute, except on a few table-days where chips walk away (the variance the reports
flag). Seeded history has no audit entries and, by default, no round events: it is data for
reports, not a record of what anybody did, and it never touches a day after yesterday's.

With `sittings=True` (`demo_month`) players sit at seats for stretches of rounds, each with a
bet of their own, sometimes sitting a few rounds out, and every round keeps its one
`bets_locked` event (sealed as the round services seal it): what a rating counts by. The
apps above hear of each day's sittings (`register_sittings`: the ratings app rates some of
them, its figures then measured from these rounds' lines as for live ones).
"""

import datetime as dt
import random
from collections import defaultdict
from dataclasses import dataclass, field

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
from tables.models import Round, RoundEvent, SettlementLine, Table
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
# Sittings (seed_days(sittings=True)): a player stays 6 to 40 rounds at a seat, which then
# stays empty for 1 to 15; in a round a seated player sits the next 2 to 4 out at these odds.
SITTING_ROUNDS, EMPTY_ROUNDS, SIT_OUT_ROUNDS = (6, 40), (1, 15), (2, 4)
SIT_OUT_ODDS = 0.04
LOCKED_AFTER = 0.1  # share of a round's step between its open and its bets' lock


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
class Sitting:
    """One player's stay at one seat of a table-day, as the seed played it: the rounds they
    wagered in and the stretches they sat out (round indexes of the day until the rounds are
    written, then the rounds), and each played round's stake and net at the seat (every line,
    the meter's included)."""

    table_id: int
    seat: int
    gaming_date: dt.date
    ante_cents: int
    played: list = field(default_factory=list)
    sat_out: list = field(default_factory=list)
    stakes: list = field(default_factory=list)
    nets: list = field(default_factory=list)
    passer_by: bool = False  # one hand at a seat nobody sat at


# What an app above the accounting makes of each seeded day's sittings (the ratings app rates
# some of them), registered at start-up as tables.simulator's ratings are. Called inside the
# day's transaction: (sittings, supervisor=, rng=) -> {what: how many written}.
_sittings_hooks: list = []


def register_sittings(hook) -> None:
    if hook not in _sittings_hooks:
        _sittings_hooks.append(hook)


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

    def sittings(self, count: int, gaming_date: dt.date) -> tuple[list[dict], list[Sitting]]:
        """The day's `count` rounds as players sit: per round {seat: Ante} of the seats that
        wager, and the sittings. A round nobody sits at gets a passer-by for one hand at an
        empty seat (a sitting of one round, `passer_by`: nobody rates it)."""
        rng = self.rng
        plans: list[dict[int, int]] = [{} for _ in range(count)]
        spans: list[set[int]] = [set() for _ in range(count)]  # seats taken, sat out or not
        found = []
        for seat in range(1, self.table.seats + 1):
            n = rng.randint(0, EMPTY_ROUNDS[1])
            while n < count:
                end = min(count, n + rng.randint(*SITTING_ROUNDS))
                s = Sitting(self.table.pk, seat, gaming_date, self.ante())
                i = n
                while i < end:
                    spans[i].add(seat)
                    if s.played and i < end - 1 and rng.random() < SIT_OUT_ODDS:
                        gap = list(range(i, min(i + rng.randint(*SIT_OUT_ROUNDS), end - 1)))
                        s.sat_out.append(gap)
                        for j in gap:
                            spans[j].add(seat)
                        i = gap[-1] + 1
                        continue
                    plans[i][seat] = s.ante_cents
                    s.played.append(i)
                    i += 1
                found.append(s)
                n = end + rng.randint(*EMPTY_ROUNDS)
        for i, plan in enumerate(plans):
            if not plan:
                free = [x for x in range(1, self.table.seats + 1) if x not in spans[i]]
                if free:
                    seat = rng.choice(free)
                    plan[seat] = self.ante()
                    found.append(
                        Sitting(self.table.pk, seat, gaming_date, plan[seat], [i], passer_by=True)
                    )
                else:  # every seat sitting out: one of them plays after all
                    s = next(s for s in found if any(i in gap for gap in s.sat_out))
                    split = []  # the stretch sat out, cut around the round played
                    for gap in s.sat_out:
                        split += [[x for x in gap if x < i], [x for x in gap if x > i]]
                    s.sat_out = [gap for gap in split if gap]
                    s.played = sorted([*s.played, i])
                    plan[s.seat] = s.ante_cents
        return plans, found

    def play(self, meter: Meter | None, plan: dict[int, int] | None = None) -> Played:
        """One round; `plan`: {seat: Ante} of the seats that wager (else seats at random)."""
        rng = self.rng
        seats = list(range(1, self.table.seats + 1))
        state = new_round(self.rules, seats=seats)
        chosen = sorted(plan) if plan else sorted(rng.sample(seats, rng.randint(1, len(seats))))
        for seat in chosen:
            ante = plan[seat] if plan else self.ante()
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
    sittings: bool = False,
) -> dict[str, int]:
    """`rounds_per_day` rounds a day at each table, from `first` for `days` gaming days, with
    each table-day's chips (opener, fills, closer, drop). With `sittings`, players sit at
    seats, each round keeps its `bets_locked` event, and the registered hooks hear of each
    day's sittings. Returns what it wrote."""
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
            day_sittings: list[Sitting] = []
            for table in tables:
                player = players[table.pk]
                bank = banks[table.pk]
                meter = Meter(bank.reset_cents, bank.reset_cents) if bank else None
                step = span / rounds_per_day
                plans = [None] * rounds_per_day
                if sittings:
                    plans, seated = player.sittings(rounds_per_day, gaming_date)
                    first_index = len(day_rounds)  # the sittings' indexes, into day_rounds
                    for s in seated:
                        s.played = [first_index + i for i in s.played]
                        s.sat_out = [[first_index + i for i in gap] for gap in s.sat_out]
                    day_sittings.extend(seated)
                for number in range(1, rounds_per_day + 1):
                    opened = start + dt.timedelta(hours=1) + step * (number - 1)
                    settled = opened + step * 0.8
                    played = player.play(meter, plans[number - 1])
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
                        seq=1 if sittings else 0,
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
            if sittings:
                _lock_events(day_rounds, dealers)
                _sittings_played(day_sittings, day_rounds, day_lines)
                for hook in _sittings_hooks:
                    for what, n in hook(day_sittings, supervisor=supervisor, rng=rng).items():
                        written[what] += n
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


def _lock_events(day_rounds, dealers) -> None:
    """Each round's `bets_locked` event, its first (the seed keeps no other), sealed as the
    round services seal theirs."""
    events = []
    for round_, _played, settled in day_rounds:
        event = RoundEvent(
            round=round_,
            seq=1,
            kind="bets_locked",
            data={"kind": "bets_locked"},
            key=f"seed-{round_.pk}",
            actor=dealers[round_.table_id],
            at=round_.opened_at + (settled - round_.opened_at) * (LOCKED_AFTER / 0.8),
        )
        event.seal()
        events.append(event)
    RoundEvent.objects.bulk_create(events, batch_size=2000)


def _sittings_played(sittings: list[Sitting], day_rounds, day_lines) -> None:
    """The sittings' round indexes made rounds, each played round's stake and net added."""
    at_seat: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    for line in day_lines:
        found = at_seat[line.round_id, line.seat]
        found[0] += line.stake_cents
        found[1] += line.net_cents
    for s in sittings:
        s.played = [day_rounds[i][0] for i in s.played]
        s.sat_out = [[day_rounds[i][0] for i in gap] for gap in s.sat_out]
        s.stakes = [at_seat[r.pk, s.seat][0] for r in s.played]
        s.nets = [at_seat[r.pk, s.seat][1] for r in s.played]


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
