"""A rating's figures against the settlement lines, over random play: rounds at two tables
with random wagers on the rated seat or not, pauses, resumes, moves and voids. The test keeps
its own account of which rounds each rating of the chain counts (the seat it sat at, open and
not paused when the bets were locked) and adds up their lines itself; theo is recomputed by
hand from the rating's own edge strings."""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from casino.roles import Role
from tables.ratings.selectors import rating_detail
from tests.factories import make_staff
from tests.tables.ratings.conftest import do, rate, seat_lines
from tests.tables.rounds.conftest import Felt, dealt_table, pin_of, play_on

EDGED = {"ante": "ante", "trips": "trips", "progressive": "progressive"}

wager = st.fixed_dictionaries(
    {
        "ante": st.sampled_from([1000, 2000, 5000]),
        "trips": st.sampled_from([0, 1000]),
        "progressive": st.sampled_from([0, 100]),
    }
)
step = st.one_of(
    st.tuples(
        st.just("round"),
        st.integers(0, 1),
        st.dictionaries(st.sampled_from([1, 2]), wager, min_size=1, max_size=2),
        st.booleans(),  # voided
    ),
    st.tuples(st.just("pause")),
    st.tuples(st.just("resume")),
    st.tuples(st.just("move"), st.integers(0, 1), st.sampled_from([1, 2])),
)


@pytest.fixture
def two_felts(felt, manager, supervisor, pit, standard_rules, progressive):
    other_dealer = make_staff(Role.DEALER, username="dealer_two")
    other = dealt_table(
        manager, supervisor, pit, standard_rules, other_dealer, name="UTH 8", bank=progressive
    )
    return [felt, Felt(other, other_dealer)]


def _play(felt, wagers, voided, supervisor) -> int:
    felt.open()
    for seat, w in sorted(wagers.items()):
        felt.wagers(seat, **w)
    felt.step("bets_locked")
    if voided:
        felt.step("irregularity_declared", irregularity="community_card_exposed")
        felt.step("void_approved", supervisor=pin_of(supervisor))
    else:
        play_on(felt)
    return felt.round["id"]


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@example(
    steps=[
        ("pause",),
        (
            "round",
            0,
            {
                1: {"ante": 1000, "trips": 1000, "progressive": 100},
                2: {"ante": 1000, "trips": 1000, "progressive": 100},
            },
            False,
        ),
        ("resume",),
        ("round", 0, {1: {"ante": 1000, "trips": 1000, "progressive": 100}}, False),
        ("round", 0, {1: {"ante": 1000, "trips": 1000, "progressive": 100}}, True),
        ("move", 1, 2),
        ("round", 0, {1: {"ante": 1000, "trips": 1000, "progressive": 100}}, False),
        ("round", 1, {2: {"ante": 2000, "trips": 0, "progressive": 0}}, False),
    ],
    start=(0, 1),
)
@given(
    steps=st.lists(step, max_size=6), start=st.tuples(st.integers(0, 1), st.sampled_from([1, 2]))
)
def test_figures_are_the_counted_rounds_lines(two_felts, supervisor, steps, start):
    where = start  # (table index, seat) of the open rating
    rating = rate(supervisor, two_felts[where[0]].table, where[1], anonymous="hypothesis")
    chain = [(rating, where, [])]  # (rating, place, counted round ids)
    paused = False
    for s in steps:
        if s[0] == "round":
            _kind, index, wagers, voided = s
            round_id = _play(two_felts[index], wagers, voided, supervisor)
            if index == where[0] and where[1] in wagers and not paused and not voided:
                chain[-1][2].append(round_id)
        elif s[0] == "pause" and not paused:
            do("pause", supervisor, chain[-1][0])
            paused = True
        elif s[0] == "resume" and paused:
            do("resume", supervisor, chain[-1][0])
            paused = False
        elif s[0] == "move" and (s[1], s[2]) != where:
            where = (s[1], s[2])
            moved = do(
                "move", supervisor, chain[-1][0], table=two_felts[where[0]].table.pk, seat=where[1]
            )
            chain.append((moved, where, []))
            paused = False  # the next rating starts open
    do("close", supervisor, chain[-1][0])
    for body, (_table, seat), counted in chain:
        got = rating_detail(body["id"])
        want = seat_lines(counted, seat)
        assert got["hands"] == len(counted)
        for bet in ("ante", "blind", "play", "trips", "progressive"):
            assert got["wagered"][bet] == want["stakes"].get(bet, 0), bet
        assert got["player_result_cents"] == want["net"]
        theo = sum(
            (
                want["stakes"].get(bet, 0) * Fraction(Decimal(got["edges"][edge]))
                for bet, edge in EDGED.items()
                if got["edges"][edge] is not None
            ),
            Fraction(0),
        )
        assert got["theo_cents"] == round(theo)
        hands = len(counted)
        assert got["average_ante_cents"] == (
            round(Fraction(want["stakes"].get("ante", 0), hands)) if hands else 0
        )
    # the chain is linked
    assert [rating_detail(b["id"])["previous"] for b, *_ in chain[1:]] == [
        b["id"] for b, *_ in chain[:-1]
    ]
