"""Every holding's 7-card rank on a board, and the dealer holdings it beats, ties and loses to.

Ranks come from two lookup tables built once per deck with the rules engine's evaluator:

- without a flush, a 7-card hand depends only on its ranks: a table indexed by the board's
  rank multiset and the holding's two ranks;
- with five or more cards of a suit (possible only when the board has three of it) the hand is
  the best flush or straight flush of that suit, which beats anything else those seven cards
  could make: a table indexed by the suit's 13-bit rank mask.

Engine strengths are replaced by their position among all the strengths the deck can make
(`Ranking.value`), small ints that numpy sorts fast.

Counting (`Counter.count`), batched over boards: the holdings' ranks are sorted once per board
and each holding's position gives how many holdings rank below it and how many tie; the
dealer cannot hold either of the player's cards, so the holdings sharing one of them are
taken off by inclusion-exclusion, from the same sort done on each card's 46 holdings.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import combinations_with_replacement

import numpy as np

from tables.rules.evaluator import category_of, strength

from .deck import Deck

#: The qualifying category (a pair) in the engine's category order.
PAIR = 1


@dataclass(frozen=True)
class Ranking:
    """The deck's lookup tables (see the module's docstring)."""

    deck: Deck
    board_key: np.ndarray  # base-R code of a board's sorted ranks -> row of `nonflush`
    nonflush: np.ndarray  # (rows, R*R) -> value
    flush: np.ndarray  # (2**R,) rank mask in one suit -> value (-1: fewer than five cards)
    categories: np.ndarray  # value -> engine category order (0 high card .. 9 royal flush)
    qualifying: int  # the lowest value of a pair or better

    @classmethod
    def build(cls, deck: Deck) -> Ranking:
        R, S = len(deck.ranks), deck.suits
        multisets = [
            m
            for m in combinations_with_replacement(range(R), 5)
            if max(m.count(r) for r in set(m)) <= S
        ]
        board_key = np.full(R**5, -1, dtype=np.int64)
        for row, board in enumerate(multisets):
            board_key[_code(board, R)] = row
        # A multiset of ranks as the sum of 5 ** rank: seven ranks make one key per hand.
        power = 5 ** np.arange(R, dtype=np.int64)
        board_sums = power[np.array(multisets)].sum(axis=1)
        pair_sums = (power[:, None] + power[None, :]).reshape(-1)
        sums = board_sums[:, None] + pair_sums[None, :]
        unique, inverse = np.unique(sums, return_inverse=True)
        found = np.full(len(unique), -1, dtype=np.int64)
        for i, key in enumerate(unique.tolist()):
            cards: list[int] = []
            for r in range(R):
                key, times = divmod(key, 5)
                # Suits dealt in turn: a rank's cards differ and no suit gets five of seven.
                cards += [deck.ranks[r] * 4 + (len(cards) + j) % S for j in range(times)]
                if times > S:
                    break
            else:
                # Fewer than seven cards: a rank given five times carried into the next digit.
                if len(cards) == 7:
                    found[i] = strength(cards)
        rows = found[inverse.reshape(sums.shape)]
        flush = np.full(1 << R, -1, dtype=np.int64)
        for mask in range(1 << R):
            if 5 <= mask.bit_count() <= 7:  # a board and a holding: seven cards at most
                flush[mask] = strength([deck.ranks[r] * 4 for r in range(R) if mask >> r & 1])
        # Strengths -> their position among all the deck can make.
        every = np.unique(np.concatenate([rows[rows >= 0], flush[flush >= 0]]))
        rows = np.where(rows >= 0, np.searchsorted(every, rows), -1)
        flush = np.where(flush >= 0, np.searchsorted(every, flush), -1)
        categories = np.array([category_of(int(v)).order for v in every], dtype=np.int64)
        qualifying = int(np.searchsorted(categories, PAIR))
        return cls(deck, board_key, rows, flush, categories, qualifying)

    @property
    def values(self) -> int:
        return len(self.categories)

    @cached_property
    def _holding_tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        deck = self.deck
        R, S = len(deck.ranks), deck.suits
        h = deck.holdings
        rank, suit = np.divmod(h, S)
        pair = rank[:, 0] * R + rank[:, 1]
        bits = np.zeros((S, len(h)), dtype=np.int64)
        count = np.zeros((S, len(h)), dtype=np.int64)
        for s in range(S):
            for j in range(2):
                bits[s] |= np.where(suit[:, j] == s, 1 << rank[:, j], 0)
                count[s] += suit[:, j] == s
        return pair, bits, count

    def rank(self, boards: np.ndarray) -> np.ndarray:
        """(k, 5) boards -> (k, H) value of every holding (-1 where it shares a board card)."""
        deck = self.deck
        R, S = len(deck.ranks), deck.suits
        k = len(boards)
        brank, bsuit = np.divmod(boards, S)
        key = np.zeros(k, dtype=np.int64)
        for j in range(5):
            key = key * R + np.sort(brank, axis=1)[:, j]
        pair, hbits, hcount = self._holding_tables
        values = self.nonflush[self.board_key[key][:, None], pair[None, :]]
        # At most one suit has three or more of a board's five cards.
        suit_count = np.stack([(bsuit == s).sum(axis=1) for s in range(S)], axis=1)
        suit = np.argmax(suit_count, axis=1)
        most = suit_count[np.arange(k), suit]
        mask = np.zeros(k, dtype=np.int64)
        for j in range(5):
            mask |= np.where(bsuit[:, j] == suit, 1 << brank[:, j], 0)
        flushed = (most[:, None] + hcount[suit]) >= 5
        flush_values = self.flush[mask[:, None] | hbits[suit]]
        values = np.where(flushed, flush_values, values)
        board_mask = np.bitwise_or.reduce(deck.card_masks[boards], axis=1)
        clash = (board_mask[:, None] & deck.holding_masks[None, :]) != 0
        return np.where(clash, -1, values)


def _code(ranks: tuple[int, ...], R: int) -> int:
    code = 0
    for r in ranks:
        code = code * R + r
    return code


@dataclass(frozen=True)
class Counts:
    """Per board and holding, how the dealer's possible holdings compare (0 where the holding
    shares a board card)."""

    value: np.ndarray  # (k, H) the holding's rank value (-1: not possible)
    win_q: np.ndarray  # the player wins, the dealer qualifies
    win_nq: np.ndarray  # the player wins, the dealer does not qualify
    tie: np.ndarray
    lose_q: np.ndarray
    lose_nq: np.ndarray
    category: np.ndarray  # the player's category (engine order)


class Counter:
    def __init__(self, ranking: Ranking) -> None:
        self.ranking = ranking
        deck = ranking.deck
        self.n = deck.size
        self.H = len(deck.holdings)
        self.a = deck.holdings[:, 0]
        self.b = deck.holdings[:, 1]
        grid = deck.holding_index.copy()
        grid[grid < 0] = 0  # the diagonal: masked in `count`
        self.grid_flat = grid.reshape(-1)
        self.diagonal = np.arange(self.n) * (self.n + 1)
        self.ab = self.a * self.n + self.b  # holding (a, b) in row a of the grid
        self.ba = self.b * self.n + self.a

    def count(self, boards: np.ndarray) -> Counts:
        r = self.ranking
        n = self.n
        values = r.rank(boards).astype(np.int32)
        k = len(boards)
        big = r.values  # above every value: holdings sharing a board card sort last
        v = np.where(values < 0, big, values).astype(np.int32)
        below, upto = _positions(v, 11)
        # Each card's holdings: row c of the grid, the diagonal and board clashes sorted last.
        grid = np.take(v, self.grid_flat, axis=1)  # (k, n * n)
        grid[:, self.diagonal] = big
        row_below, row_upto = _positions(grid.reshape(k * n, n), 6)
        row_below = row_below.reshape(k, n * n)
        row_upto = row_upto.reshape(k, n * n)
        ab, ba = self.ab, self.ba
        less = below - np.take(row_below, ab, axis=1) - np.take(row_below, ba, axis=1)
        # `upto` counts the holding itself once, each of its two rows once more.
        same = upto - np.take(row_upto, ab, axis=1) - np.take(row_upto, ba, axis=1) + 1 - less
        q = r.qualifying
        row_nq = (grid.reshape(k, n, n) < q).sum(axis=2, dtype=np.int32)  # (k, n)
        all_nq = (v < q).sum(axis=1, dtype=np.int32)  # (k,)
        own = v < q
        nq = (
            all_nq[:, None]
            - np.take(row_nq, self.a, axis=1)
            - np.take(row_nq, self.b, axis=1)
            + own
        )
        total = self.ranking.deck.dealer_holdings
        lose = total - less - same
        win_nq = np.where(own, less, nq)
        lose_nq = np.where(own, nq - less - same, 0)
        valid = values >= 0
        zero = np.zeros_like(less)

        def ok(x: np.ndarray) -> np.ndarray:
            return np.where(valid, x, zero)

        category = r.categories[np.where(valid, values, 0)]
        return Counts(
            values,
            ok(less - win_nq),
            ok(win_nq),
            ok(same),
            ok(lose - lose_nq),
            ok(lose_nq),
            np.where(valid, category, 0),
        )


def _positions(v: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """For each row of `v` (int32, below 2**(31 - bits)): how many of the row's entries are
    below each entry, and how many are at most it.

    Each row is sorted with the entries' places in its low bits; runs of equal values
    ("groups", a row's first entry always starting one) then give both counts at once: the
    group's first place and the next group's."""
    rows, width = v.shape
    assert width <= 1 << bits
    keys = np.sort((v << bits) | np.arange(width, dtype=np.int32), axis=1).reshape(-1)
    s = keys >> bits
    starts = np.empty(rows * width, dtype=bool)
    starts[0] = True
    np.not_equal(s[1:], s[:-1], out=starts[1:])
    starts[::width] = True
    group = np.cumsum(starts, dtype=np.int32) - 1
    first = np.flatnonzero(starts).astype(np.int32)
    following = np.empty_like(first)
    following[:-1] = first[1:]
    following[-1] = rows * width
    row_start = np.repeat(np.arange(rows, dtype=np.int32) * width, width)
    place = (keys & ((1 << bits) - 1)) + row_start
    below = np.empty(rows * width, dtype=np.int32)
    upto = np.empty(rows * width, dtype=np.int32)
    below[place] = first[group] - row_start
    upto[place] = following[group] - row_start
    return below.reshape(rows, width), upto.reshape(rows, width)
