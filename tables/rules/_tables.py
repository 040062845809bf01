"""The evaluator's lookup tables, built once in pure Python.

A hand's *strength* is an int: higher beats lower, equal ties. It is
`category << 20` followed by up to five 4-bit rank indexes (0 = deuce .. 12 = ace) in order of
significance (the quads, then the kicker; the trips, then the pair; ...), so hands tie exactly
when the table says they do.

Two tables give every strength with one dict lookup:

- hands without a flush depend only on their ranks: the key is the sum of `5 ** rank` over the
  cards (base 5, since a rank appears at most four times), one entry per multiset of 5, 6 or 7
  ranks (73,775 entries);
- a flush is judged on the 13-bit mask of the ranks of its suit (4,719 entries).

Building them takes a few tenths of a second, so it happens on the first evaluation, not at
import: `python -m tables.rules --help` and the Django app's startup stay fast.
"""

from __future__ import annotations

from itertools import combinations

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT = 0, 1, 2, 3, 4
FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH, ROYAL_FLUSH = 5, 6, 7, 8, 9

ACE = 12
WHEEL = (1 << ACE) | 0b1111  # A-2-3-4-5: the only straight where the ace plays low
RANK_KEY_BITS = 31  # 5 ** 13 < 2 ** 31: the rank key fits below the suit counters
RANK_KEY_MASK = (1 << RANK_KEY_BITS) - 1


def pack(category: int, ranks: list[int] | tuple[int, ...]) -> int:
    value = category
    for rank in ranks:
        value = (value << 4) | rank
    return value << (4 * (5 - len(ranks)))


def _straight_top(mask: int) -> int:
    """The top rank of the best straight in a rank mask, or -1."""
    for top in range(ACE, 3, -1):
        window = 0b11111 << (top - 4)
        if mask & window == window:
            return top
    if mask & WHEEL == WHEEL:
        return 3  # the five plays high: the wheel is the lowest straight
    return -1


def flush_strength(mask: int) -> int:
    """The strength of a flush (or straight flush) made of the ranks in `mask` (5 to 7 bits)."""
    top = _straight_top(mask)
    if top == ACE:
        return pack(ROYAL_FLUSH, (top,))
    if top >= 0:
        return pack(STRAIGHT_FLUSH, (top,))
    ranks = [r for r in range(ACE, -1, -1) if mask >> r & 1][:5]
    return pack(FLUSH, ranks)


def rank_strength(counts: list[int]) -> int:
    """The strength of a hand without a flush, from how many cards of each rank it holds."""
    by_rank = [r for r in range(ACE, -1, -1) if counts[r]]
    quads = [r for r in by_rank if counts[r] == 4]
    trips = [r for r in by_rank if counts[r] == 3]
    pairs = [r for r in by_rank if counts[r] == 2]

    def kickers(used: tuple[int, ...], n: int) -> list[int]:
        return [r for r in by_rank if r not in used][:n]

    if quads:
        return pack(FOUR_OF_A_KIND, [quads[0], *kickers((quads[0],), 1)])
    if trips and (len(trips) > 1 or pairs):
        second = max(trips[1:] + pairs[:1])
        return pack(FULL_HOUSE, (trips[0], second))
    mask = 0
    for r in by_rank:
        mask |= 1 << r
    top = _straight_top(mask)
    if top >= 0:
        return pack(STRAIGHT, (top,))
    if trips:
        return pack(THREE_OF_A_KIND, [trips[0], *kickers((trips[0],), 2)])
    if len(pairs) >= 2:
        high, low = pairs[0], pairs[1]
        return pack(TWO_PAIR, [high, low, *kickers((high, low), 1)])
    if pairs:
        return pack(PAIR, [pairs[0], *kickers((pairs[0],), 3)])
    return pack(HIGH_CARD, by_rank[:5])


def _rank_multisets(size: int, lowest: int = 0) -> list[list[int]]:
    """Every multiset of `size` ranks (each at most 4 times), as non-decreasing lists."""
    if size == 0:
        return [[]]
    found = []
    for rank in range(lowest, ACE + 1):
        for n in range(1, min(4, size) + 1):
            for rest in _rank_multisets(size - n, rank + 1):
                found.append([rank] * n + rest)
    return found


def build_rank_table() -> dict[int, int]:
    table: dict[int, int] = {}
    for size in (5, 6, 7):
        for multiset in _rank_multisets(size):
            counts = [0] * 13
            key = 0
            for rank in multiset:
                counts[rank] += 1
                key += 5**rank
            table[key] = rank_strength(counts)
    return table


def build_flush_table() -> dict[int, int]:
    table: dict[int, int] = {}
    for size in (5, 6, 7):
        for ranks in combinations(range(13), size):
            mask = sum(1 << r for r in ranks)
            table[mask] = flush_strength(mask)
    return table


def build_flush_suit() -> list[int]:
    """Suit counters (3 bits per suit, 4 suits) -> the suit holding five or more cards, or -1."""
    table = []
    for counters in range(1 << 12):
        suit = -1
        for s in range(4):
            if (counters >> (3 * s)) & 0b111 >= 5:
                suit = s
        table.append(suit)
    return table
