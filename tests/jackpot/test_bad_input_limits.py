"""The jackpot's own bounds stay the engine's: it may not import the game (tables -> jackpot,
never back), so its copy of the seat count is held equal here."""

from jackpot.services._checks import MAX_SEATS, MAX_WAGERS_PER_ROUND
from tables.rules.settle import SEAT_NUMBERS


def test_the_jackpots_seat_bound_is_the_engines_seat_count():
    assert MAX_SEATS == MAX_WAGERS_PER_ROUND == len(SEAT_NUMBERS) == max(SEAT_NUMBERS)
