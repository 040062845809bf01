"""The felt for round tests: an open table linked to an open progressive bank, its dealer
assigned now, and a driver that plays events through the services as a tablet would."""

import itertools

import pytest

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
