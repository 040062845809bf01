"""The felt for round tests: an open table linked to an open progressive bank, its dealer
assigned now, and a driver that plays events through the services as a tablet would."""

import contextlib
import itertools

import pytest

from casino.audit import seal_pending
from casino.roles import Role
from tables import services
from tables.services import rounds
from tests.factories import make_staff
from tests.jackpot.factories import make_bank
from tests.tables.factories import make_table

SUPERVISOR_PIN = "2468"


@pytest.fixture
def progressive(manager):
    return make_bank(manager=manager, slug="uth")


@pytest.fixture
def supervisor(db):
    return make_staff(Role.SUPERVISOR, username="supervisor", pin=SUPERVISOR_PIN)


@pytest.fixture
def table(manager, supervisor, pit, standard_rules, progressive, dealer):
    table = make_table(
        manager, pit=pit, ruleset=standard_rules, name="UTH 1", bank_id=progressive.pk
    )
    services.table_open(table_id=table.pk, supervisor=supervisor)
    services.assignment_create(table_id=table.pk, dealer_id=dealer.pk, supervisor=supervisor)
    table.refresh_from_db()
    return table


class Felt:
    """One tablet: remembers the round's seq and makes a fresh key for every write."""

    _keys = itertools.count(1)

    def __init__(self, table, dealer):
        self.table, self.dealer = table, dealer
        self.round = None

    @property
    def seq(self) -> int:
        return self.round["seq"]

    def key(self) -> str:
        return f"k{next(self._keys)}"

    def open(self) -> dict:
        self.round = rounds.round_open(
            table_id=self.table.pk, dealer=self.dealer, key=self.key()
        ).body
        return self.round

    def step(self, kind: str, *, actor=None, supervisor=None, **fields) -> dict:
        written = rounds.round_event_record(
            round_id=self.round["id"],
            actor=actor or self.dealer,
            key=self.key(),
            expected_seq=self.seq,
            event={"kind": kind, **fields},
            supervisor=supervisor,
        )
        self.round = written.body
        return self.round

    def wagers(self, seat: int, ante: int = 1000, trips: int = 0, progressive: int = 0):
        return self.step(
            "wagers_placed", seat=seat, ante=ante, blind=ante, trips=trips, progressive=progressive
        )

    def cards(self, place, *cards: str):
        return self.step("cards_entered", place=place, cards=list(cards))

    def play_to_showdown(self, seats: dict, *, board, dealer_cards, decisions=None):
        """`seats`: {seat: hole cards}; every seat bets 4x pre-flop unless `decisions` says
        otherwise ({seat: [(action, multiple), ...]} per street in order)."""
        self.step("bets_locked")
        decisions = decisions or {}
        for street in range(3):
            for seat in sorted(seats):
                plan = decisions.get(seat, [("bet", 4)])
                if street < len(plan) and plan[street] is not None:
                    action, multiple = plan[street]
                    fields = {"multiple": multiple} if multiple else {}
                    self.step("decision", seat=seat, action=action, **fields)
            if street == 0:
                self.cards("board", *board[:3])
            elif street == 1:
                self.cards("board", *board[3:])
        self.cards("dealer", *dealer_cards)
        for seat, hole in sorted(seats.items()):
            self.cards(seat, *hole)
        return self.round


@pytest.fixture
def felt(table, dealer):
    return Felt(table, dealer)


def pin_of(staff, pin=SUPERVISOR_PIN) -> dict:
    return {"employee_number": staff.employee_number, "pin": pin}


# --- for the service tests (test_services_*.py) ---------------------------------------------

# The hands of the standard round: neither seat makes the progressive, seat 2 wins, seat 1
# loses to the dealer's queens only if its kings are taken away.
BOARD = ["Kh", "9d", "4c", "2s", "7h"]
DEALER_CARDS = ["Qc", "Qd"]
HOLES = {1: ["Ks", "8d"], 2: ["As", "Ad"]}


def floor_picture(*, but_pin_checks: bool = False) -> dict:
    """Everything a round write may touch. `but_pin_checks`: leave out the audit entries of
    PIN checks, which a refused approval writes on purpose (the lockout counts them)."""
    from casino.models import AuditEntry
    from jackpot.models import Bank, Hit, MeterEntry, PendingContribution
    from tables.models import Correction, IdempotentWrite, Round, RoundEvent, SettlementLine

    seal_pending()  # as after each commit: the entries' order is the chain's
    codes = AuditEntry.objects.order_by("position").values_list("code", flat=True)
    return {
        "rounds": list(
            Round.objects.order_by("pk").values_list(
                "pk", "seq", "stage", "state", "settlement", "settled_at"
            )
        ),
        "events": RoundEvent.objects.count(),
        "lines": SettlementLine.objects.count(),
        "corrections": Correction.objects.count(),
        "writes": IdempotentWrite.objects.count(),
        "audit": [c for c in codes if not (but_pin_checks and c.startswith("casino.pin."))],
        "pending": PendingContribution.objects.count(),
        "entries": MeterEntry.objects.count(),
        "hits": Hit.objects.count(),
        "banks": list(
            Bank.objects.order_by("pk").values_list(
                "pk", "meter_cents", "reserve_cents", "meter_carry_ppm", "ledger_seq", "status"
            )
        ),
    }


@contextlib.contextmanager
def nothing_changes(*, but_pin_checks: bool = False):
    """`with nothing_changes(), pytest.raises(...)`: the refusal wrote nothing at all."""
    before = floor_picture(but_pin_checks=but_pin_checks)
    yield
    assert floor_picture(but_pin_checks=but_pin_checks) == before


SEEN = object()  # expected_seq: the seq the felt last saw


def write(felt, kind: str, *, key, expected_seq=SEEN, actor=None, supervisor=None, **fields):
    """One step with a key of the test's choosing; the Written (with `replayed`)."""
    written = rounds.round_event_record(
        round_id=felt.round["id"],
        actor=actor or felt.dealer,
        key=key,
        expected_seq=felt.seq if expected_seq is SEEN else expected_seq,
        event={"kind": kind, **fields},
        supervisor=supervisor,
    )
    felt.round = written.body
    return written


STAGES = ("betting", "preflop", "flop", "river", "showdown", "settled")


def deal_to(
    felt,
    stage: str,
    *,
    seats=(1, 2),
    progressive: int = 100,
    river: str = "bet",
    cards: bool = True,
) -> dict:
    """Open a round and play the standard hands of `seats` (on the progressive) to `stage`.
    Every seat checks twice so that the river is a stage of its own, then bets 1x (or
    folds: `river="fold"`); at `showdown` every card is in unless `cards=False`."""
    felt.open()
    for seat in seats:
        felt.wagers(seat, ante=1000, trips=1000, progressive=progressive)
    target = STAGES.index(stage)
    if target >= 1:
        felt.step("bets_locked")
    if target >= 2:
        for seat in seats:
            felt.step("decision", seat=seat, action="check")
        felt.cards("board", *BOARD[:3])
    if target >= 3:
        for seat in seats:
            felt.step("decision", seat=seat, action="check")
        felt.cards("board", *BOARD[3:])
    if target >= 4:
        for seat in seats:
            fields = {"multiple": 1} if river == "bet" else {}
            felt.step("decision", seat=seat, action=river, **fields)
        if cards or target >= 5:
            felt.cards("dealer", *DEALER_CARDS)
            for seat in seats:
                felt.cards(seat, *HOLES[seat])
    if target >= 5:
        felt.step("settlement_confirmed")
    assert felt.round["stage"] == stage
    return felt.round


def refuse(felt, kind: str, code: str, *, error=None, but_pin_checks=False, **fields):
    """The step is refused with `code` and changes nothing; the error."""
    from tables.errors import RoundRefused

    with (
        nothing_changes(but_pin_checks=but_pin_checks),
        pytest.raises(error or RoundRefused) as refused,
    ):
        felt.step(kind, **fields)
    assert refused.value.code == code, (kind, fields, refused.value.code, refused.value.message)
    return refused.value


def dealt_table(manager, supervisor, pit, ruleset, dealer, *, name: str, bank=None):
    """Another open table with its dealer assigned now."""
    table = make_table(
        manager, pit=pit, ruleset=ruleset, name=name, bank_id=bank.pk if bank else None
    )
    services.table_open(table_id=table.pk, supervisor=supervisor)
    services.assignment_create(table_id=table.pk, dealer_id=dealer.pk, supervisor=supervisor)
    table.refresh_from_db()
    return table


DEALING_SUPERVISOR_PIN = "1357"


@pytest.fixture
def dealing_supervisor(db):
    """A dealer who is also a supervisor: never the approver of the round they deal."""
    return make_staff(
        Role.DEALER, Role.SUPERVISOR, username="dealing_supervisor", pin=DEALING_SUPERVISOR_PIN
    )


@pytest.fixture
def dual_felt(manager, supervisor, pit, standard_rules, progressive, dealing_supervisor):
    table = dealt_table(
        manager, supervisor, pit, standard_rules, dealing_supervisor, name="UTH 3", bank=progressive
    )
    return Felt(table, dealing_supervisor)


@pytest.fixture
def bankless_felt(manager, supervisor, pit, standard_rules):
    """A table linked to no progressive, with a dealer of its own."""
    dealer = make_staff(Role.DEALER, username="bankless_dealer")
    table = dealt_table(manager, supervisor, pit, standard_rules, dealer, name="UTH 4")
    return Felt(table, dealer)


def play_on(felt) -> dict:
    """Play the round on from where it stands to its settlement: every seat checks while it
    may (then bets 1x), and the standard cards come as they are expected."""
    for _step in range(40):
        round_ = felt.round
        if round_["stage"] == "settled":
            return round_
        to_act = [s for s in round_["seats"] if s["to_act"]]
        if to_act:
            seat = to_act[0]
            if "check" in seat["actions"]:
                felt.step("decision", seat=seat["seat"], action="check")
            else:
                felt.step("decision", seat=seat["seat"], action="bet", multiple=1)
        elif round_["cards_expected"]:
            place, count = next(iter(round_["cards_expected"].items()))
            if place == "board":
                felt.cards("board", *BOARD[len(round_["board"]) :][:count])
            elif place == "dealer":
                felt.cards("dealer", *DEALER_CARDS[len(round_["dealer"]) :])
            else:
                seat = next(s for s in round_["seats"] if str(s["seat"]) == place)
                felt.cards(seat["seat"], *HOLES[seat["seat"]][len(seat["hole"]) :])
        else:
            felt.step("settlement_confirmed")
    raise AssertionError(f"the round does not reach its settlement: {felt.round}")


def bank_totals(bank) -> dict:
    """The bank's running totals as they stand in the database."""
    from jackpot.models import Bank

    return Bank.objects.filter(pk=bank.pk).values(
        "meter_cents",
        "reserve_cents",
        "overflow_cents",
        "meter_carry_ppm",
        "reserve_carry_ppm",
        "contributions_count",
        "wagered_cents",
    )[0]
