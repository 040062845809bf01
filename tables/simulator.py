"""The floor simulator behind `manage.py simulate_floor`: dealers playing real rounds through
the round API (spec/round-api.md), as tablets would, then the books checked in the database.

Three parts:

- `floor_prepare` runs in Django, in the database the server uses, through the services and
  with the demo floor's manager and supervisor as actors (so the audit log says who): one
  table "SIM i" per simulated table, opened, and one dealer `sim-dealer-i` assigned to it now.
- `TableDealer` is one dealer at one table: an HTTP client of the standard library only, with
  its own connection, cookies and random generator. It plays round after round, each step
  chosen from what the round's last answer allows (`actions`, `cards_expected`), so a round
  refreshed after `409 stale`, or found in progress at the table, is played on from where it
  stands. As a dealer would, it waits for a closed table to open again and for a server that
  stopped answering (a restart) to come back, sends the step again under its key, and says so.
- `floor_checks` reads the database once the dealers are done: the invariants every round and
  every bank must hold, whatever was played.
"""

import http.client
import json
import math
import random
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import urlsplit

SIM_TABLE = "SIM {}"
SIM_DEALER = "sim-dealer-{}"
SIM_EMPLOYEE_BASE = 9000  # dealer i: employee number and PIN 9000 + i
DEMO_MANAGER, DEMO_SUPERVISOR = "directeur", "inspecteur"
DEMO_TEMPLATES = ("UTH 1", "UTH 2", "UTH 3", "UTH 4")
FINISHED = ("settled", "void")

RANKS, SUITS = "23456789TJQKA", "shdc"
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)

# How a simulated dealer's players decide: raise 4x pre-flop often, call the river mostly.
ACTION_WEIGHTS = {"bet:4": 4, "bet:3": 1, "check": 5, "bet:2": 3, "bet:1": 6, "fold": 2}
ANTE_FACTORS = (1, 1, 1, 2, 2, 3, 5)
TRIPS_FACTORS = (1, 1, 2, 5)
TRIPS_ODDS, PROGRESSIVE_ODDS = 0.4, 0.5
# Seconds a human dealer takes, divided by --speed: between two steps, between two rounds.
STEP_PAUSE, ROUND_PAUSE = (1.0, 2.0), (3.0, 5.0)
# Targets of the round API (client wall time, p95, milliseconds).
TARGET_SETTLE_MS, TARGET_EVENT_MS = 50, 25
SERVER_ERROR_RETRIES = 3
# Seconds a dealer waits for a closed table to open or a stopped server to answer (--patience),
# and between two looks.
PATIENCE, LOOK_AGAIN = 600.0, 1.0


def sim_employee_number(index: int) -> str:
    return str(SIM_EMPLOYEE_BASE + index)


# --- the floor (Django, in the server's database) ------------------------------------------


@dataclass(frozen=True)
class SimTable:
    index: int
    table_id: int
    name: str
    employee_number: str
    pin: str
    created: tuple[str, ...]  # what this run created or changed for it, for the report
    rated_card: str | None = None  # the demo player the supervisor rates at this table


def floor_prepare(count: int, *, rated: bool = True) -> list[SimTable]:
    """Tables "SIM 1".."SIM <count>", each open with its own dealer assigned now, created
    through the services only when missing (a second run changes nothing). SIM i copies demo
    table UTH ((i - 1) % 4 + 1): its seats, limits, rule set and progressive bank.
    `rated=False`: no player is rated at them (the floor as it was before ratings existed)."""
    from django.core.management.base import CommandError

    from casino.models import Staff
    from casino.roles import Role
    from casino.staffing import staff_create
    from tables import services
    from tables.models import Table
    from tables.selectors import current_dealer

    manager = Staff.objects.filter(username=DEMO_MANAGER, is_active=True).first()
    supervisor = Staff.objects.filter(username=DEMO_SUPERVISOR, is_active=True).first()
    templates = [Table.objects.filter(name=name).first() for name in DEMO_TEMPLATES]
    if manager is None or supervisor is None or None in templates:
        raise CommandError(
            "the demo floor is missing (manager 'directeur', supervisor 'inspecteur', tables "
            "UTH 1 to UTH 4): run `manage.py load_demo` on this database first"
        )
    prepared = []
    rating = _rated_players if rated else None
    cards, closed = rating(count, supervisor) if rating else ([], [])
    for index in range(1, count + 1):
        created = []
        template = templates[(index - 1) % len(templates)]
        name = SIM_TABLE.format(index)
        table = Table.objects.filter(name=name).first()
        if table is None:
            # A console command's copy of an approved table: no second manager approves it.
            table = services.table_create_as_approved(
                manager=manager,
                name=name,
                pit_id=template.pit_id,
                seats=template.seats,
                min_bet_cents=template.min_bet_cents,
                max_bet_cents=template.max_bet_cents,
                ruleset_id=template.ruleset_id,
                bank_id=template.bank_id,
            )
            created.append(f"table {name} (as {template.name})")
        if not table.is_open:
            table = services.table_open(table_id=table.pk, supervisor=supervisor)
            created.append(f"opened {name}")
        number = sim_employee_number(index)
        username = SIM_DEALER.format(index)
        dealer = Staff.objects.filter(username=username).first()
        if dealer is None:
            if Staff.objects.filter(employee_number=number).exists():
                raise CommandError(
                    f"employee number {number} belongs to someone else: the simulator keeps "
                    f"{SIM_EMPLOYEE_BASE + 1} and up for its dealers"
                )
            dealer = staff_create(
                username=username,
                roles=[Role.DEALER],
                pin=number,
                employee_number=number,
                first_name="Sim",
                last_name=f"Dealer {index}",
            )  # created at the console, as `load_demo` creates the demo staff
            created.append(f"dealer {username} (employee {number}, PIN {number})")
        dealing = current_dealer(table)
        if dealing is None or dealing.pk != dealer.pk:
            services.dealer_rotate(table_id=table.pk, dealer_id=dealer.pk, supervisor=supervisor)
            created.append(f"{username} assigned to {name}")
        card = cards[index - 1] if index <= len(cards) else None
        if index == 1:
            created += closed
        prepared.append(
            SimTable(
                index=index,
                table_id=table.pk,
                name=name,
                employee_number=dealer.employee_number,
                pin=number,
                created=tuple(created),
                rated_card=card,
            )
        )
    return prepared


# What an app above the tables adds to a simulated floor, registered at start-up (as
# tables/seat_labels.py is): the ratings app names the players to rate, one card per table,
# and checks their ratings afterwards (tables/ratings/simulation.py).
_rated_players = None  # (count, supervisor) -> (cards, what it changed)
_rating_checks = None  # {rating id: rounds counted} -> [Check]


def register_ratings(players, checks) -> None:
    global _rated_players, _rating_checks
    _rated_players, _rating_checks = players, checks


def rating_checks(rated_rounds: dict[int, int]) -> list["Check"]:
    return _rating_checks(rated_rounds) if _rating_checks and rated_rounds else []


def demo_supervisor_credentials() -> dict:
    """The demo supervisor's PIN (casino/demo.py): the approver of every void."""
    from casino.demo import DEMO_STAFF

    for username, _roles, number, pin, _first, _last in DEMO_STAFF:
        if username == DEMO_SUPERVISOR:
            return {"employee_number": number, "pin": pin}
    raise LookupError(DEMO_SUPERVISOR)


# --- HTTP ----------------------------------------------------------------------------------


class NoServer(Exception):
    pass


class Refused(Exception):
    """The server answered a step with something else than the contract promises."""

    @classmethod
    def answer(cls, what: str, status: int, body) -> "Refused":
        return cls(f"{what}: HTTP {status} {json.dumps(body)[:300]}")


class Http:
    """One keep-alive connection with its cookies, timing every request (client wall time).

    Cookies are kept whatever their Secure flag: `make serve` marks them Secure for the TLS
    proxy it expects in front, and this client talks plain HTTP to the server behind it.
    """

    def __init__(
        self,
        base: str,
        timings: list | None = None,
        timeout: float = 30,
        server_timings: list | None = None,
        db_timings: list | None = None,
    ):
        parts = urlsplit(base)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise NoServer(f"--base must be an http:// or https:// URL, not {base!r}")
        kind = (
            http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        )
        self.prefix = parts.path.rstrip("/")
        self.conn = kind(parts.hostname, parts.port, timeout=timeout)
        self.cookies: dict[str, str] = {}
        self.timings = timings if timings is not None else []
        self.server_timings = server_timings if server_timings is not None else []
        self.db_timings = db_timings if db_timings is not None else []

    def close(self) -> None:
        self.conn.close()

    def request(self, method: str, path: str, body=None, *, label: str) -> tuple[int, object]:
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if method != "GET":
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in (1, 2):
            started = time.perf_counter()
            try:
                self.conn.request(method, self.prefix + path, body=data, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
            except (ConnectionError, http.client.HTTPException):
                # The server closed an idle keep-alive connection. Sending again is safe:
                # every write carries its key, and a retried key has one effect.
                self.conn.close()
                if attempt == 2:
                    raise
                continue
            break
        self.timings.append((label, (time.perf_counter() - started) * 1000))
        timing = response.headers.get("Server-Timing", "")
        served, waited = server_time_ms(timing), server_time_ms(timing, "db")
        if served is not None:
            self.server_timings.append((label, served))
        if waited is not None:
            self.db_timings.append((label, waited))
        for header in response.headers.get_all("Set-Cookie") or ():
            jar = SimpleCookie()
            jar.load(header)
            for name, morsel in jar.items():
                if morsel.value and morsel["max-age"] != "0":
                    self.cookies[name] = morsel.value
                else:
                    self.cookies.pop(name, None)
        content = response.headers.get("Content-Type", "")
        if raw and content.startswith("application/json"):
            return response.status, json.loads(raw)
        return response.status, raw.decode(errors="replace")


def server_probe(base: str) -> None:
    """Raise NoServer unless something answers the tablet login page at `base`."""
    client = Http(base, timeout=5)
    try:
        status, _body = client.request("GET", "/login/pin/", label="probe")
    except OSError as exc:
        raise NoServer(f"no server answers at {base} ({exc})") from None
    finally:
        client.close()
    if status != 200:
        raise NoServer(f"{base}/login/pin/ answers HTTP {status}: is this a Tapis server?")


# --- one dealer at one table ---------------------------------------------------------------


@dataclass
class RoundPlan:
    """What the dealer will do in one round: who bets what, the cards in deal order."""

    wagers: dict[int, dict]
    deck: list[str]
    reserved: dict = field(default_factory=dict)  # place -> cards dealt there first
    void_at: str | None = None  # "preflop" or "flop"
    rigged_seat: int | None = None
    locked_here: bool = False  # this dealer locked its bets (not an earlier run)


@dataclass
class RatedPlay:
    """The player the demo supervisor rates at one table, as the supervisor follows them."""

    card: str
    seat: int = 1
    rating: dict | None = None  # the open rating, as its last write answered
    paused: bool = False
    stake: int = 0  # the buy-ins of the open rating (chips carried from a move included)
    won: int = 0  # the seat's nets in the rounds the open rating counts


@dataclass
class DealerResult:
    table: SimTable
    round_ids: list[int] = field(default_factory=list)
    settled: int = 0
    void: int = 0
    hits: int = 0
    rigged: list[int] = field(default_factory=list)  # round ids stacked for a hit
    rig_skipped: int = 0  # rigged turns at a table without an open bank
    stale: int = 0
    resumed: int = 0
    waited: float = 0.0  # seconds spent waiting for the table to open or the server to answer
    problems: list[str] = field(default_factory=list)
    timings: list = field(default_factory=list)
    server_timings: list = field(default_factory=list)
    db_timings: list = field(default_factory=list)
    # rating id -> the rounds this dealer saw it count (settled, bets locked here while the
    # rating was open and not paused, the rated seat wagering)
    rated_rounds: dict[int, int] = field(default_factory=dict)
    rating_writes: int = 0


def server_time_ms(header: str, metric_name: str = "app") -> float | None:
    """The `app;dur=12.3` (or another metric's duration) of a Server-Timing header
    (casino.middleware.ServerTimingMiddleware)."""
    for metric in header.split(","):
        name, _, params = metric.strip().partition(";")
        if name == metric_name:
            for param in params.split(";"):
                key, _, value = param.strip().partition("=")
                if key == "dur":
                    try:
                        return float(value)
                    except ValueError:
                        return None
    return None


class TableDealer:
    def __init__(
        self,
        *,
        base: str,
        table: SimTable,
        rounds: int,
        speed: float,
        seed,
        rig_every: int,
        void_every: int,
        supervisor: dict,
        run: str,
        patience: float = PATIENCE,
        say=None,
    ):
        self.table, self.rounds, self.speed = table, rounds, speed
        self.patience = patience
        self.say = say or (lambda text: None)
        self.rig_every, self.void_every, self.supervisor = rig_every, void_every, supervisor
        self.rng = random.Random(f"{seed}-{table.index}") if seed is not None else random.Random()
        self.result = DealerResult(table=table)
        self.http = Http(
            base,
            self.result.timings,
            server_timings=self.result.server_timings,
            db_timings=self.result.db_timings,
        )
        self.run_tag, self.keys = run, 0
        self.info: dict = {}
        # The demo supervisor at the pit, rating the table's player: its own connection.
        self.pit = Http(
            base,
            self.result.timings,
            server_timings=self.result.server_timings,
            db_timings=self.result.db_timings,
        )
        self.rated = RatedPlay(card=table.rated_card) if table.rated_card else None
        self.pit_signed_in = False

    # -- plumbing

    def key(self) -> str:
        self.keys += 1
        return f"sim-{self.run_tag}-{self.table.index}-{self.keys}"

    def pause(self, span: tuple[float, float]) -> None:
        if self.speed > 0:
            time.sleep(self.rng.uniform(*span) / self.speed)

    def wait_until(self, what: str, started: float) -> None:
        """One more look after `LOOK_AGAIN` seconds, unless the dealer has waited `patience`."""
        if time.monotonic() - started > self.patience:
            raise Refused(f"{self.table.name}: waited {self.patience:g} s for {what}; gave up")
        time.sleep(LOOK_AGAIN)

    def waited(self, started: float, text: str) -> None:
        waited = time.monotonic() - started
        self.result.waited += waited
        self.say(f"{self.table.name}: {text} after {waited:.0f} s; the dealer goes on")

    def answered(
        self, method: str, path: str, body=None, *, label: str, client=None
    ) -> tuple[int, object]:
        """One request, sent again under the same key while the server does not answer (a
        restart): a write that arrived has one effect however often it is sent."""
        client = client or self.http
        started = None
        while True:
            try:
                answer = client.request(method, path, body, label=label)
            except (OSError, http.client.HTTPException) as exc:
                if started is None:
                    started = time.monotonic()
                    self.say(
                        f"{self.table.name}: the server does not answer ({exc}); the dealer "
                        "waits for it, then sends the step again"
                    )
                client.close()
                self.wait_until("the server", started)
                continue
            if started is not None:
                self.waited(started, "the server answers again")
            return answer

    def send(
        self, method: str, path: str, body=None, *, label: str, client=None
    ) -> tuple[int, object]:
        """One request; a server error (5xx) is noted as a problem and the very same request
        sent again, as a tablet would: a refused or failed write changed nothing, and the
        same key cannot have two effects. Signed out meanwhile (a server that lost its
        sessions), the dealer signs in again and sends it again."""
        at_pit = client is not None and client is not self.http
        for attempt in range(1, SERVER_ERROR_RETRIES + 2):
            status, answer = self.answered(method, path, body, label=label, client=client)
            if status == 401 and path != "/api/login":
                who = "the supervisor" if at_pit else "the dealer"
                self.say(f"{self.table.name}: signed out by the server; {who} signs in again")
                self.pit_sign_in() if at_pit else self.sign_in()
                status, answer = self.answered(method, path, body, label=label, client=client)
            if status < 500:
                break
            text = answer if isinstance(answer, str) else json.dumps(answer)
            self.result.problems.append(
                f"{self.table.name}: {label} {path}: HTTP {status} (attempt {attempt}): "
                + " ".join(text.split())[:300]
            )
            time.sleep(0.2 * attempt)
        return status, answer

    def expect(self, what: str, method: str, path: str, body=None, *, ok=(200,), client=None):
        status, answer = self.send(method, path, body, label=what, client=client)
        if status not in ok:
            raise Refused.answer(what, status, answer)
        return answer

    # -- signing in

    def sign_in(self) -> None:
        """The tablet's way in: the login page for the CSRF cookie, then the PIN."""
        self.expect("GET /login/pin/", "GET", "/login/pin/")
        who = self.expect(
            "POST /api/login",
            "POST",
            "/api/login",
            {"employee_number": self.table.employee_number, "pin": self.table.pin},
        )
        table = self.expect("GET /api/tables/<id>/", "GET", f"/api/tables/{self.table.table_id}/")
        me = who["staff"]["id"]
        if table.get("name") != self.table.name or (table.get("dealer") or {}).get("id") != me:
            raise Refused(
                f"the server at this --base shows table #{self.table.table_id} as "
                f"{table.get('name')!r} dealt by {table.get('dealer')}, not {self.table.name} "
                "dealt by the simulator: it does not use this command's database (DATABASE_URL)"
            )
        self.info = table

    def pit_sign_in(self) -> None:
        """The demo supervisor signs in at the pit with their PIN (the same way in)."""
        self.expect("GET /login/pin/", "GET", "/login/pin/", client=self.pit)
        self.expect("POST /api/login", "POST", "/api/login", self.supervisor, client=self.pit)
        self.pit_signed_in = True

    # -- rating the table's player (the demo supervisor, through /api/ratings)

    def rate(self, what: str, path: str, body: dict, *, ok=(200,)) -> dict:
        """One rating write by the supervisor; its answer is the rating now."""
        if not self.pit_signed_in:
            self.pit_sign_in()
        answer = self.expect(
            what, "POST", path, {"key": self.key(), **body}, ok=ok, client=self.pit
        )
        self.result.rating_writes += 1
        return answer

    def rating_turn(self, number: int) -> None:
        """Once round `number` is open, before its bets lock: what the supervisor does to the
        rating, on a schedule that fits the rounds played: open with a cash buy-in (round 1), a pause (one round sat
        out), the resume, a move to another seat with the chips carried as a buy-in, and,
        after the last round (`number` past it), the close with the walk-with."""
        rated = self.rated
        if rated is None:
            return
        pause_at, move_at = max(2, self.rounds // 3), max(2, self.rounds // 3) + 1
        move_at = max(move_at, 2 * self.rounds // 3)
        if number == 1:
            rated.seat = 1
            opened = self.rate(
                "POST /api/ratings",
                "/api/ratings",
                {"table": self.table.table_id, "seat": 1, "player": {"card": rated.card}},
                ok=(201,),
            )
            rated.rating, rated.stake, rated.won = opened, 0, 0
            self.result.rated_rounds[opened["id"]] = 0
            self.buy_in(20 * self.info["min_bet_cents"], "cash")
            # The player's own chips too, enough for every round at the table's limits.
            self.buy_in(self.rounds * self.most_lost(), "chips")
            return
        if rated.rating is None:
            return
        path = f"/api/ratings/{rated.rating['id']}"
        if number == pause_at and number <= self.rounds:
            rated.rating = self.rate("POST /api/ratings/<id>/pause", f"{path}/pause", {})
            rated.paused = True
        elif rated.paused and (number == pause_at + 1 or number > self.rounds):
            rated.rating = self.rate("POST /api/ratings/<id>/resume", f"{path}/resume", {})
            rated.paused = False
        path = f"/api/ratings/{rated.rating['id']}"
        if number == move_at and number <= self.rounds:
            seat = self.info["seats"]
            moved = self.rate(
                "POST /api/ratings/<id>/move",
                f"{path}/move",
                {"table": self.table.table_id, "seat": seat},
                ok=(201,),
            )
            rated.rating, rated.seat = moved, seat
            self.result.rated_rounds[moved["id"]] = 0
            # The player carries their chips to the new seat: a chips buy-in there, so that
            # this rating's walk-with less buy-ins is its own result.
            carried, rated.stake = rated.stake + rated.won, 0
            rated.won = 0
            if carried > 0:
                self.buy_in(carried, "chips")
        if number > self.rounds:
            walk_with = max(0, rated.stake + rated.won)
            closed = self.rate(
                "POST /api/ratings/<id>/close", f"{path}/close", {"walk_with_cents": walk_with}
            )
            rated.rating = None
            if closed.get("status") != "closed":
                self.result.problems.append(f"rating #{closed.get('id')} did not close: {closed}")

    def buy_in(self, amount: int, instrument: str) -> None:
        rated = self.rated
        path = f"/api/ratings/{rated.rating['id']}/buy-ins"
        rated.rating = self.rate(
            "POST /api/ratings/<id>/buy-ins",
            path,
            {"amount_cents": amount, "instrument": instrument},
        )
        rated.stake += amount

    def most_lost(self) -> int:
        """The most one seat can lose in a round at this table: Ante, Blind, Play 4x, Trips
        and the progressive at their highest."""
        bank = self.info.get("bank") or {}
        return (
            6 * self.info["max_bet_cents"]
            + self.info["trips_max_cents"]
            + (bank.get("progressive_wager_cents") or 0)
        )

    # -- playing

    def play(self) -> None:
        for number in range(1, self.rounds + 1):
            self.play_round(number)
            if number < self.rounds:
                self.pause(ROUND_PAUSE)
        self.rating_turn(self.rounds + 1)

    def open_round(self) -> tuple[int, object]:
        """Open a round; a closed table is waited for, as a dealer waits for the supervisor."""
        started = None
        while True:
            status, answer = self.send(
                "POST",
                f"/api/tables/{self.table.table_id}/rounds",
                {"key": self.key()},
                label="POST /api/tables/<id>/rounds",
            )
            closed = status == 409 and answer.get("error", {}).get("code") == "table_closed"
            if not closed:
                if started is not None:
                    self.waited(started, "the table is open again")
                return status, answer
            if started is None:
                started = time.monotonic()
                self.say(f"{self.table.name} is closed: the dealer waits for it to open")
            path = f"/api/tables/{self.table.table_id}/"
            while self.expect("GET /api/tables/<id>/", "GET", path).get("status") != "open":
                self.wait_until("the table to open", started)

    def play_round(self, number: int) -> None:
        status, answer = self.open_round()
        if status == 409 and answer.get("error", {}).get("code") == "round_open":
            round_ = answer["round"]  # left at the table by an earlier run: finish it first
            self.result.resumed += 1
        elif status == 201:
            round_ = answer
        else:
            raise Refused.answer("open a round", status, answer)
        self.result.round_ids.append(round_["id"])
        # The supervisor's turn once the round is open (the table is open then), before its
        # bets are locked.
        self.rating_turn(number)
        plan = self.plan(number, round_)
        while round_["stage"] not in FINISHED:
            self.pause(STEP_PAUSE)
            round_ = self.step(round_, plan)
        if round_["stage"] == "void":
            self.result.void += 1
            return
        self.result.settled += 1
        self.count_rated(round_, plan)
        hits = round_["settlement"]["progressive"]["hits"]
        self.result.hits += len(hits)
        for hit in hits:
            if hit.get("state") != "pending" or not hit.get("hit"):
                self.result.problems.append(
                    f"round #{round_['id']}: a hit without its id and state pending: {hit}"
                )
        if plan.rigged_seat is not None and not any(h["seat"] == plan.rigged_seat for h in hits):
            self.result.problems.append(
                f"round #{round_['id']}: seat {plan.rigged_seat} was dealt a "
                f"{self.rigged_hand(round_, plan.rigged_seat)} with the progressive and no hit "
                "was recorded"
            )

    def count_rated(self, round_: dict, plan: "RoundPlan") -> None:
        """A settled round the open rating counts: its bets locked here while the rating
        was open and not paused, the rated seat in its settlement."""
        rated = self.rated
        if rated is None or rated.rating is None or rated.paused or not plan.locked_here:
            return
        net = next(
            (s["net"] for s in round_["settlement"]["seats"] if s["seat"] == rated.seat), None
        )
        if net is not None:
            self.result.rated_rounds[rated.rating["id"]] += 1
            rated.won += net

    @staticmethod
    def rigged_hand(round_: dict, seat: int) -> str:
        hole = next(s["hole"] for s in round_["seats"] if s["seat"] == seat)
        return " ".join(hole + round_["board"][:3])

    def plan(self, number: int, round_: dict) -> RoundPlan:
        """The players' wagers and a shuffled deck; on a rigged turn, a straight flush for
        one progressive seat (its two hole cards and the flop); on a void turn, where the
        dealer will expose a card."""
        info = self.info
        used = set(round_["board"]) | set(round_["dealer"])
        for seat in round_["seats"]:
            used |= set(seat["hole"])
        deck = [card for card in DECK if card not in used]
        self.rng.shuffle(deck)
        plan = RoundPlan(wagers={}, deck=deck)
        if round_["stage"] != "betting" or round_["seats"]:
            return plan  # an earlier run's round: played on as it stands, no rig, no void
        bank = info["bank"]
        progressive = bank["progressive_wager_cents"] if bank and bank["status"] == "open" else 0
        count = self.rng.randint(1, info["seats"])
        seats = set(self.rng.sample(range(1, info["seats"] + 1), count))
        rated = self.rated
        if rated is not None and rated.rating is not None:
            # The rated player plays every round, except the one they sit out.
            seats = seats - {rated.seat} if rated.paused else seats | {rated.seat}
            if not seats:
                seats = {rated.seat % info["seats"] + 1}
        for seat in sorted(seats):
            ante = self.ante()
            plan.wagers[seat] = {
                "ante": ante,
                "blind": ante,
                "trips": self.trips() if self.rng.random() < TRIPS_ODDS else 0,
                "progressive": progressive if self.rng.random() < PROGRESSIVE_ODDS else 0,
            }
        rigged = self.rig_every and number % self.rig_every == 0
        if rigged and progressive:
            seat = self.rng.choice(sorted(plan.wagers))
            plan.wagers[seat]["progressive"] = progressive
            five = self.straight_flush()
            deck[:] = [card for card in deck if card not in five]
            plan.reserved = {seat: five[:2], "board": five[2:]}
            plan.rigged_seat = seat
            self.result.rigged.append(round_["id"])
        elif rigged:
            self.result.rig_skipped += 1
        elif self.void_every and number % self.void_every == 0:
            plan.void_at = self.rng.choice(("preflop", "flop"))
        return plan

    def ante(self) -> int:
        low, high = self.info["min_bet_cents"], self.info["max_bet_cents"]
        if self.rng.random() < 0.8 or high < 100 * math.ceil(low / 100):
            return min(low * self.rng.choice(ANTE_FACTORS), high // low * low)
        return 100 * self.rng.randint(math.ceil(low / 100), high // 100)

    def trips(self) -> int:
        low, high = self.info["trips_min_cents"], self.info["trips_max_cents"]
        return max(low, min(low * self.rng.choice(TRIPS_FACTORS), high))

    def straight_flush(self) -> list[str]:
        """Five cards of one suit in sequence, shuffled: a royal flush half of the time."""
        suit = self.rng.choice(SUITS)
        if self.rng.random() < 0.5:
            ranks = "TJQKA"
        else:
            low = self.rng.randint(0, 8)  # 5-high (A2345) to K-high
            ranks = "A2345" if low == 0 else RANKS[low - 1 : low + 4]
        five = [rank + suit for rank in ranks]
        self.rng.shuffle(five)
        return five

    def deal(self, plan: RoundPlan, place, count: int) -> list[str]:
        reserved = plan.reserved.get(place, [])
        cards = reserved[:count]
        plan.reserved[place] = reserved[count:]
        while len(cards) < count:
            cards.append(plan.deck.pop())
        return cards

    def step(self, round_: dict, plan: RoundPlan) -> dict:
        """The next write the round's state calls for, and the round it answers with."""
        stage = round_["stage"]
        if round_["pending_void"]:
            return self.write(round_, {"kind": "void_approved"}, supervisor=self.supervisor)
        if stage == "betting":
            placed = {s["seat"] for s in round_["seats"]}
            for seat, wagers in plan.wagers.items():
                if seat not in placed:
                    return self.write(round_, {"kind": "wagers_placed", "seat": seat, **wagers})
            plan.locked_here = True
            return self.write(round_, {"kind": "bets_locked"})
        if plan.void_at == stage:
            plan.void_at = None
            exposed = "preflop_card_exposed" if stage == "preflop" else "community_card_exposed"
            return self.write(round_, {"kind": "irregularity_declared", "irregularity": exposed})
        for seat in round_["seats"]:
            if seat["to_act"] and seat["actions"]:
                return self.write(round_, self.decision(seat))
        expected = round_["cards_expected"]
        if expected:
            place = min(expected, key=deal_order)  # the board, the dealer, then seat by seat
            target = int(place) if place.isdigit() else place
            cards = self.deal(plan, target, expected[place])
            return self.write(round_, {"kind": "cards_entered", "place": target, "cards": cards})
        if stage == "showdown":
            preview = self.expect(
                "GET /api/rounds/<id>/settlement", "GET", f"/api/rounds/{round_['id']}/settlement"
            )
            if preview.get("provisional") is not True:
                self.result.problems.append(
                    f"round #{round_['id']}: the settlement before confirmation is not provisional"
                )
            return self.write(round_, {"kind": "settlement_confirmed"})
        raise Refused(f"round #{round_['id']}: no step is possible at {stage}: {round_}")

    def decision(self, seat: dict) -> dict:
        actions = seat["actions"]
        choice = self.rng.choices(actions, [ACTION_WEIGHTS.get(a, 1) for a in actions])[0]
        action, _, multiple = choice.partition(":")
        event = {"kind": "decision", "seat": seat["seat"], "action": action}
        if multiple:
            event["multiple"] = int(multiple)
        return event

    def write(self, round_: dict, event: dict, *, supervisor=None) -> dict:
        body = {"key": self.key(), "expected_seq": round_["seq"], "event": event}
        if supervisor is not None:
            body["supervisor"] = supervisor
        status, answer = self.send(
            "POST", f"/api/rounds/{round_['id']}/events", body, label=event["kind"]
        )
        if status == 200:
            if answer["seq"] != round_["seq"] + 1:
                self.result.problems.append(
                    f"round #{round_['id']}: {event['kind']} took seq {round_['seq']} to "
                    f"{answer['seq']}"
                )
            return answer
        if status == 409 and answer.get("error", {}).get("code") == "stale":
            self.result.stale += 1
            return answer["round"]
        raise Refused.answer(f"round #{round_['id']}: {json.dumps(event)}", status, answer)


def deal_order(place: str) -> tuple[int, int]:
    return (2, int(place)) if place.isdigit() else (0 if place == "board" else 1, 0)


def run_dealers(dealers: list[TableDealer]) -> float:
    """Sign every dealer in, start them together, return the seconds they played for. A
    dealer that fails keeps its problem in its result; the others play on."""
    ready = threading.Barrier(len(dealers) + 1)

    def work(dealer: TableDealer) -> None:
        try:
            try:
                dealer.sign_in()
                if dealer.rated is not None:
                    dealer.pit_sign_in()  # before the start: its time is not the play's
            finally:
                ready.wait()
            dealer.play()
        except Exception as exc:  # this table stops; its problem is reported and fails the run
            dealer.result.problems.append(f"{dealer.table.name}: {type(exc).__name__}: {exc}"[:600])
        finally:
            dealer.http.close()
            dealer.pit.close()

    threads = [threading.Thread(target=work, args=(d,), daemon=True) for d in dealers]
    for thread in threads:
        thread.start()
    ready.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started


# --- figures -------------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    """Nearest rank: the smallest value with at least p % of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


REQUEST_ORDER = (
    "POST /api/tables/<id>/rounds",
    "wagers_placed",
    "bets_locked",
    "decision",
    "cards_entered",
    "irregularity_declared",
    "void_approved",
    "GET /api/rounds/<id>/settlement",
    "settlement_confirmed",
)


def target_ms(label: str) -> int | None:
    if label == "settlement_confirmed":
        return TARGET_SETTLE_MS
    if label.startswith(("GET ", "POST ")):
        return None
    return TARGET_EVENT_MS


def timing_rows(timings: list) -> list[dict]:
    """Per request kind: count, p50/p95/p99 ms and the target, in the order of a round."""
    grouped = defaultdict(list)
    for label, ms in timings:
        grouped[label].append(ms)
    order = [label for label in REQUEST_ORDER if label in grouped]
    order += sorted(label for label in grouped if label not in REQUEST_ORDER)
    return [
        {
            "label": label,
            "count": len(grouped[label]),
            "p50": percentile(grouped[label], 50),
            "p95": percentile(grouped[label], 95),
            "p99": percentile(grouped[label], 99),
            "target": target_ms(label),
        }
        for label in order
    ]


# --- the checks (Django, afterwards) -------------------------------------------------------


@dataclass(frozen=True)
class Check:
    label: str
    ok: bool
    detail: str = ""


def floor_checks(
    round_ids: list[int], table_ids: list[int], *, in_progress_ok: bool = False
) -> list[Check]:
    """The books of these rounds and of the tables' banks: events 1..seq, each round's cached
    state equal to the engine's replay, lines summing to the settlement, every bank
    reconciled. `in_progress_ok`: a round still being dealt is no fault (a live database,
    `manage.py books_verify`), where a simulator run must have finished all of its own."""
    from django.db.models import Sum

    from tables.models import Round, RoundEvent, SettlementLine, Table
    from tables.services.rounds import state_of

    rounds = list(Round.objects.filter(pk__in=round_ids).select_related("table").order_by("pk"))
    checks = [
        Check(
            "every round played is in the database",
            len(rounds) == len(set(round_ids)),
            f"{len(rounds)} of {len(set(round_ids))}",
        )
    ]
    open_ = [r.pk for r in rounds if r.stage not in Round.FINISHED]
    if not in_progress_ok:
        checks.append(
            Check(
                "every round played is settled or void (none in progress)",
                not open_,
                f"in progress: {open_[:10]}" if open_ else f"{len(rounds)} rounds",
            )
        )

    events = defaultdict(list)
    for round_id, seq, key in (
        RoundEvent.objects.filter(round_id__in=round_ids)
        .order_by("round_id", "seq")
        .values_list("round_id", "seq", "key")
    ):
        events[round_id].append((seq, key))
    broken = [
        r.pk
        for r in rounds
        if [seq for seq, _ in events[r.pk]] != list(range(1, r.seq + 1))
        or len({key for _, key in events[r.pk]}) != len(events[r.pk])
    ]
    checks.append(
        Check(
            "events of each round are 1..seq with no gap, no double and no repeated key",
            not broken,
            f"broken: {broken[:10]}"
            if broken
            else f"{sum(len(e) for e in events.values())} events",
        )
    )

    drifted = [r.pk for r in rounds if r.state != state_of(r).to_json()]
    checks.append(
        Check(
            "each round's cached state equals the engine's replay of its events",
            not drifted,
            f"differ: {drifted[:10]}" if drifted else "",
        )
    )

    lines = defaultdict(dict)
    for row in (
        SettlementLine.objects.filter(round_id__in=round_ids, correction__isnull=True)
        .values("round_id", "seat")
        .annotate(net=Sum("net_cents"))
    ):
        lines[row["round_id"]][row["seat"]] = row["net"]
    wrong = []
    for r in rounds:
        if r.stage == Round.Stage.VOID:
            if lines.get(r.pk):
                wrong.append(r.pk)
        elif r.stage == Round.Stage.SETTLED:
            nets = {s["seat"]: s["net"] for s in r.settlement["seats"]}
            booked = {seat: lines[r.pk].get(seat, 0) for seat in nets}
            if booked != nets or set(lines[r.pk]) - set(nets):
                wrong.append(r.pk)
    checks.append(
        Check(
            "settled rounds' lines sum to each seat's net; void rounds have no line",
            not wrong,
            f"wrong: {wrong[:10]}" if wrong else "",
        )
    )

    bank_ids = sorted(
        set(
            Table.objects.filter(pk__in=table_ids, bank__isnull=False).values_list(
                "bank_id", flat=True
            )
        )
        | {r.bank_id for r in rounds if r.bank_id}
    )
    return checks + bank_checks(bank_ids)


def bank_checks(bank_ids: list[int]) -> list[Check]:
    """Each bank reconciles (no alert) and its cached meter equals its ledger."""
    from jackpot.models import Bank
    from jackpot.selectors import ledger_totals
    from jackpot.services import bank_reconcile
    from jackpot.services.readings import RECONCILED_FIELDS

    checks = []
    for bank in Bank.objects.filter(pk__in=bank_ids).order_by("slug"):
        alerts = bank_reconcile(bank_id=bank.pk)
        checks.append(
            Check(
                f"bank {bank.slug}: reconciliation raises no alert",
                not alerts,
                "; ".join(
                    f"{a.field}: ledger {a.ledger_value}, bank {a.cached_value}" for a in alerts
                ),
            )
        )
        bank.refresh_from_db()
        ledger = ledger_totals(bank)
        differ = [name for name in RECONCILED_FIELDS if ledger[name] != getattr(bank, name)]
        checks.append(
            Check(
                f"bank {bank.slug}: meter {bank.meter_cents} equals its ledger",
                ledger["meter_cents"] == bank.meter_cents and not differ,
                f"ledger meter {ledger['meter_cents']}, differ: {differ}" if differ else "",
            )
        )
    return checks


def hits_recorded(round_ids: list[int]) -> int:
    from jackpot.models import Hit
    from tables.services.rounds import round_reference

    return Hit.objects.filter(reference__in=[round_reference(pk) for pk in round_ids]).count()
