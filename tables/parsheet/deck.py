"""The deck an analysis runs on, and its suit symmetry.

A `Deck` is some ranks of the standard deck in some of its suits: the full 52 cards, or a
reduced deck (fewer ranks, fewer suits) small enough for the tests to enumerate every deal.
Its cards are numbered locally, `rank_index * suits + suit`; `engine_card` gives the rules
engine's card (`rank * 4 + suit`), so hands are ranked by the engine's own rules.

Permuting the suits changes no outcome, so boards and flops are analysed once per class
("canonical": the member with the smallest bitmask) with the size of the class as weight.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import combinations, permutations
from math import comb

import numpy as np

from tables.rules.cards import RANKS


@dataclass(frozen=True)
class Deck:
    """`ranks`: engine rank indexes (0 = deuce .. 12 = ace), ascending; `suits`: how many."""

    ranks: tuple[int, ...] = tuple(range(13))
    suits: int = 4

    def __post_init__(self) -> None:
        if tuple(sorted(set(self.ranks))) != self.ranks or not self.ranks:
            raise ValueError("ranks must be distinct engine rank indexes, ascending")
        if not 0 <= self.ranks[0] or self.ranks[-1] > 12:
            raise ValueError("ranks are 0 (deuce) to 12 (ace)")
        if not 2 <= self.suits <= 4 or self.size < 9:
            raise ValueError("a deck needs 2 to 4 suits and at least 9 cards")

    @property
    def size(self) -> int:
        return len(self.ranks) * self.suits

    @property
    def is_standard(self) -> bool:
        return self.size == 52

    def describe(self) -> str:
        if self.is_standard:
            return "52 cards"
        ranks = "".join(RANKS[r] for r in self.ranks)
        return f"{self.size} cards (ranks {ranks}, {self.suits} suits)"

    def engine_card(self, card: int) -> int:
        rank, suit = divmod(card, self.suits)
        return self.ranks[rank] * 4 + suit

    @property
    def dealer_holdings(self) -> int:
        """The dealer's possible hole cards once the player's two and the board are out."""
        return comb(self.size - 7, 2)

    @property
    def ordered_deals(self) -> int:
        """Deals with the flop told apart from the turn and river: the player's holding, the
        flop, the turn and river, the dealer's holding."""
        n = self.size
        return comb(n, 2) * comb(n - 2, 3) * comb(n - 5, 2) * comb(n - 7, 2)

    @property
    def deals(self) -> int:
        """Deals as usually counted (the board as one set of five): Stephen How's count."""
        return self.ordered_deals // 10

    # --- holdings ---------------------------------------------------------------------------

    @cached_property
    def holdings(self) -> np.ndarray:
        """Every two-card holding, (H, 2), lower card first."""
        return np.array(list(combinations(range(self.size), 2)), dtype=np.int64)

    @cached_property
    def holding_index(self) -> np.ndarray:
        """(n, n) -> the holding's index (symmetric; -1 on the diagonal)."""
        index = np.full((self.size, self.size), -1, dtype=np.int64)
        h = self.holdings
        index[h[:, 0], h[:, 1]] = np.arange(len(h))
        index[h[:, 1], h[:, 0]] = np.arange(len(h))
        return index

    @cached_property
    def card_masks(self) -> np.ndarray:
        return np.left_shift(np.uint64(1), np.arange(self.size, dtype=np.uint64))

    @cached_property
    def holding_masks(self) -> np.ndarray:
        m = self.card_masks
        return m[self.holdings[:, 0]] | m[self.holdings[:, 1]]

    # --- suit permutations -------------------------------------------------------------------

    @cached_property
    def perms(self) -> np.ndarray:
        """Every permutation of the suits, (P, suits); the identity first."""
        return np.array(list(permutations(range(self.suits))), dtype=np.int64)

    @cached_property
    def card_perms(self) -> np.ndarray:
        """(P, n): where each permutation sends each card."""
        cards = np.arange(self.size)
        rank, suit = np.divmod(cards, self.suits)
        return rank[None, :] * self.suits + self.perms[:, suit]

    @cached_property
    def holding_perms(self) -> np.ndarray:
        """(P, H): where each permutation sends each holding."""
        cp = self.card_perms
        h = self.holdings
        return self.holding_index[cp[:, h[:, 0]], cp[:, h[:, 1]]]

    def _suit_masks(self, sets: np.ndarray) -> np.ndarray:
        """(m, k) card sets -> (m, suits) the rank mask of each suit."""
        masks = np.zeros((len(sets), self.suits), dtype=np.int64)
        flat = masks.reshape(-1)
        base = np.arange(len(sets), dtype=np.int64) * self.suits
        for column in sets.T:  # the cards of a set differ: no two land on one bit
            rank, suit = np.divmod(column.astype(np.int64), self.suits)
            flat[base + suit] += np.left_shift(1, rank)
        return masks

    def _classes(
        self, sets: np.ndarray, perms: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]:
        """Card sets (m, k) up to suit symmetry: a set's class is the multiset of its suits'
        rank masks, its canonical member has them in ascending order over suits 0, 1...
        Returns the canonical sets, the class sizes, each set's class and the index (in
        `perms`) of a permutation taking the set to its class's canonical member."""
        masks = self._suit_masks(sets)
        if perms:
            order = np.argsort(masks, axis=1, kind="stable")
            ordered = np.take_along_axis(masks, order, axis=1)
        else:
            ordered = np.sort(masks, axis=1)
        R = len(self.ranks)
        key = np.zeros(len(sets), dtype=np.int64)
        for j in range(self.suits):
            key = (key << R) | ordered[:, j]
        unique, first, inverse, counts = np.unique(
            key, return_index=True, return_inverse=True, return_counts=True
        )
        canon_masks = ordered[first]
        del ordered, masks
        bits = (canon_masks[:, None, :] >> np.arange(R)[None, :, None]) & 1  # (u, R, suits)
        cards = np.nonzero(bits.reshape(len(unique), -1))[1].reshape(len(unique), -1)
        if not perms:
            return cards, counts.astype(np.int64), None, None
        # The suit at position j goes to suit j: perm[order[j]] = j.
        perm = np.empty_like(order)
        np.put_along_axis(perm, order, np.arange(self.suits)[None, :], axis=1)
        code = np.zeros(len(sets), dtype=np.int64)
        for j in range(self.suits):
            code = code * self.suits + perm[:, j]
        lookup = np.zeros(self.suits**self.suits, dtype=np.int64)
        for i, p in enumerate(self.perms):
            lookup[int(np.polyval(p, self.suits))] = i
        return cards, counts.astype(np.int64), inverse.reshape(-1), lookup[code]

    def _set_codes(self, sets: np.ndarray) -> np.ndarray:
        return np.bitwise_or.reduce(self.card_masks[sets], axis=1)

    @cached_property
    def flops(self) -> np.ndarray:
        """Every flop, (C(n,3), 3), in `combinations` order."""
        return np.array(list(combinations(range(self.size), 3)), dtype=np.int64)

    @cached_property
    def flop_index(self) -> np.ndarray:
        """(n, n, n) -> index of the flop (any order of its cards)."""
        index = np.full((self.size,) * 3, -1, dtype=np.int64)
        f = self.flops
        for a, b, c in permutations(range(3)):
            index[f[:, a], f[:, b], f[:, c]] = np.arange(len(f))
        return index

    @cached_property
    def flop_classes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(canonical flops (F, 3), class sizes (F,), class of each flop, the permutation
        taking each flop to its class's canonical flop)."""
        canon, sizes, classes, perm = self._classes(self.flops)
        assert classes is not None and perm is not None
        return canon, sizes, classes, perm

    @cached_property
    def flop_stabilisers(self) -> list[np.ndarray]:
        """For each canonical flop, the permutations that leave it unchanged."""
        canon = self.flop_classes[0]
        codes = np.stack([self._set_codes(cp[canon]) for cp in self.card_perms])
        return [np.nonzero(codes[:, i] == codes[0, i])[0] for i in range(len(canon))]

    def canonical_boards(self) -> tuple[np.ndarray, np.ndarray]:
        """The boards up to suit symmetry, (B, 5) ascending cards, and their class sizes."""
        cards, sizes, _, _ = self._classes(combinations_array(self.size, 5), perms=False)
        return cards, sizes


def combinations_array(n: int, k: int) -> np.ndarray:
    """Every k-subset of range(n), ascending, as rows (in `itertools.combinations` order)."""
    rows = np.arange(n, dtype=np.int8)[:, None]
    for _ in range(k - 1):
        last = rows[:, -1].astype(np.int64)
        children = n - 1 - last
        parent = np.repeat(np.arange(len(rows)), children)
        offset = np.arange(len(parent)) - np.repeat(np.cumsum(children) - children, children)
        rows = np.concatenate(
            [rows[parent], (last[parent] + 1 + offset).astype(np.int8)[:, None]], axis=1
        )
    return rows  # int8: the 2.6 million boards of a full deck stay small
