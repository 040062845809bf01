"""A brute force of the base game on a small deck, written apart from `tables.parsheet`.

Every deal is enumerated: each player holding, each flop, each turn and river, each dealer
holding. Hands are ranked by the rules engine's `strength7` on every 7 cards; the dealer's
holdings are compared one by one (a holdings x holdings matrix per board, pairs sharing a card
masked out). The optimal decisions come from plain backward recursion: the river's choice per
(holding, board), the flop's per (holding, flop) from the sum over its turns and rivers, the
pre-flop's per holding from the sum over its flops. No suit symmetry, no inclusion-exclusion,
no lookup tables: what the analysis does cleverly is done here the long way.

Money is in Fractions of the Ante, the decisions compared on exact values; an equal value
takes the smaller stake (check rather than bet, fold rather than bet, the smaller multiple),
as the analysis does.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import gcd

import numpy as np

from tables.rules.cards import RANKS
from tables.rules.evaluator import category_of, strength7
from tables.rules.paytables import CATEGORIES, Odds
from tables.rules.ruleset import AnteWhenNotQualified, RuleSet


@dataclass
class BruteSheet:
    house_edge: Fraction
    outcomes: Counter  # (street, multiple, result, dealer, category) -> deals
    preflop: dict[str, tuple[int, Fraction, dict[int, Fraction]]]  # hand -> (play, check, bets)
    deals: int
    ties: int
    flop_situations: int
    flop_bets: int
    river_situations: int
    river_bets: int
    flop_values: dict  # (hole x, hole y, flop cards) -> (Play 2x, check) per Ante
    folds_by_category: dict  # the player's final category -> folded deals


@lru_cache(maxsize=4)
def _deal_tables(ranks: tuple[int, ...], suits: int) -> tuple:
    """What does not depend on the rules: every hand's strength and, per (holding, board),
    the dealer holdings beaten, tied and lost to, by the dealer qualifying or not."""
    cards = [r * 4 + s for r in ranks for s in range(suits)]
    n = len(cards)
    holdings = list(combinations(range(n), 2))
    boards = list(combinations(range(n), 5))
    H, B = len(holdings), len(boards)

    # strength[h, b] of every holding on every board (-1 where they share a card).
    strength = np.full((H, B), -1, dtype=np.int64)
    for j, board in enumerate(boards):
        used = set(board)
        for i, (x, y) in enumerate(holdings):
            if x not in used and y not in used:
                strength[i, j] = strength7([cards[x], cards[y], *(cards[c] for c in board)])
    disjoint = np.array([[not (set(p) & set(q)) for q in holdings] for p in holdings], dtype=bool)
    pair = min(int(v) for v in np.unique(strength[strength >= 0]) if category_of(int(v)).order >= 1)

    table = {k: np.zeros((H, B), dtype=np.int64) for k in KEYS}
    for j in range(B):
        s = strength[:, j]
        live = s >= 0
        ok = disjoint & live[:, None] & live[None, :]
        qual = (s >= pair)[None, :]
        beats = s[:, None] > s[None, :]
        loses = s[:, None] < s[None, :]
        table["win_q"][:, j] = (ok & beats & qual).sum(axis=1)
        table["win_nq"][:, j] = (ok & beats & ~qual).sum(axis=1)
        table["tie"][:, j] = (ok & (s[:, None] == s[None, :])).sum(axis=1)
        table["lose_q"][:, j] = (ok & loses & qual).sum(axis=1)
        table["lose_nq"][:, j] = (ok & loses & ~qual).sum(axis=1)
    return n, holdings, boards, strength, table


KEYS = ("win_q", "win_nq", "tie", "lose_q", "lose_nq")


def brute_force(rules: RuleSet, ranks: tuple[int, ...], suits: int) -> BruteSheet:
    n, holdings, boards, strength, table = _deal_tables(ranks, suits)
    H, B = len(holdings), len(boards)
    keys = KEYS
    board_of = {sum(1 << c for c in b): i for i, b in enumerate(boards)}
    blind = []
    for category in CATEGORIES:
        v = rules.blind_paytable.get(category)
        blind.append(Fraction(v.n, v.m) if isinstance(v, Odds) else Fraction(0))
    strict = rules.ante_when_dealer_not_qualified is AnteWhenNotQualified.PUSH_UNLESS_DEALER_WINS

    dealer_n = (n - 7) * (n - 8) // 2

    def net(result: str, qualifies: bool, category: int, m: int) -> Fraction:
        if result == "win":
            return (1 if qualifies else 0) + blind[category] + m
        if result == "tie":
            return Fraction(0)
        if result == "fold":
            return Fraction(-2)
        return Fraction(-(2 + m) if qualifies or strict else -(1 + m))

    # What a Play of m Antes returns on (holding, board), summed over the dealer's holdings,
    # in units of 1/D of the Ante (D: the Blind odds' common denominator).
    D = 1
    for f in blind:
        D = D * f.denominator // gcd(D, f.denominator)
    category = np.vectorize(lambda v: category_of(int(v)).order if v >= 0 else 0)(strength)

    def value(m: int) -> np.ndarray:
        total = np.zeros((H, B), dtype=np.int64)
        for key in keys:
            result = key.split("_")[0]
            qualifies = key.endswith("_q")
            if result == "win":
                pays = np.array([int(((1 if qualifies else 0) + f + m) * D) for f in blind])
                total = total + table[key] * pays[category]
            else:
                total = total + table[key] * int(net(result, qualifies, 0, m) * D)
        return total

    multiples = sorted(rules.preflop_multiples)
    values = {m: value(m) for m in {1, 2, *multiples}}
    fold = -2 * dealer_n * D

    # The (flop, turn-river) splits of the cards left (positions among them).
    splits = []
    for flop in combinations(range(n - 2), 3):
        after = [c for c in range(n - 2) if c not in flop]
        splits.append([flop + tr for tr in combinations(after, 2)])
    splits_arr = np.array(splits)  # (flops, turn-rivers, 5) positions among the cards left

    outcomes: Counter = Counter()

    def record(h: int, where: np.ndarray, street: str, m: int) -> None:
        """Every deal of holding h on the boards `where` (repeats count) ends on `street`."""
        cats = category[h, where]
        for key in keys:
            counts = table[key][h, where]
            result = {"win": "win", "tie": "tie", "lose": "loss"}[key.split("_")[0]]
            dealer = (
                None
                if result == "tie"
                else ("qualifies" if key.endswith("_q") else "not_qualified")
            )
            if result == "win":
                for c in np.unique(cats):
                    total = int(counts[cats == c].sum())
                    if total:
                        outcomes[(street, m, "win", dealer, CATEGORIES[c])] += total
            elif int(counts.sum()):
                outcomes[(street, m, result, dealer, None)] += int(counts.sum())

    preflop: dict[str, tuple[int, Fraction, dict[int, Fraction]]] = {}
    total_value = Fraction(0)
    flop_situations = flop_bets = river_situations = river_bets = 0
    flop_values: dict[tuple[int, ...], tuple[Fraction, Fraction]] = {}
    folds_by_category: Counter = Counter()
    flop_positions = list(combinations(range(n - 2), 3))  # the order of `splits`
    for h, (x, y) in enumerate(holdings):
        rest = [c for c in range(n) if c not in (x, y)]
        card_bits = np.array([1 << c for c in rest], dtype=object)
        keys_arr = card_bits[splits_arr].sum(axis=2)
        where = np.vectorize(board_of.__getitem__)(keys_arr)  # (flops, turn-rivers) boards
        # The river: Play 1x or fold, on each board.
        bet1 = values[1][h, where]
        river_bet = bet1 > fold  # equal: fold (the smaller stake)
        checked = np.maximum(bet1, fold).sum(axis=1)
        # The flop: Play 2x, or check and take the river's choice.
        bet2 = values[2][h, where].sum(axis=1)
        flop_bet = bet2 > checked
        per_flop = where.shape[1] * dealer_n * D
        for i, positions in enumerate(flop_positions):
            flop = tuple(rest[p] for p in positions)
            flop_values[(x, y, flop)] = (
                Fraction(int(bet2[i]), per_flop),
                Fraction(int(checked[i]), per_flop),
            )
        check_value = int(np.maximum(bet2, checked).sum())
        # Pre-flop: a Play of each allowed multiple, or check.
        bets = {m: int(values[m][h, where].sum()) for m in multiples}
        play, best = 0, check_value
        for m in multiples:
            if bets[m] > best:
                play, best = m, bets[m]
        total_value += best
        per = where.size * dealer_n * D
        preflop[_name(ranks, suits, x, y)] = (
            play,
            Fraction(check_value, per),
            {m: Fraction(v, per) for m, v in bets.items()},
        )
        if play:
            record(h, where.ravel(), f"preflop_{play}x", play)
            continue
        flop_situations += len(flop_bet)
        flop_bets += int(flop_bet.sum())
        record(h, where[flop_bet].ravel(), "flop", 2)
        later = where[~flop_bet]
        bets_then = river_bet[~flop_bet]
        river_situations += later.size
        river_bets += int(bets_then.sum())
        record(h, later[bets_then], "river", 1)
        folds = int((~bets_then).sum()) * dealer_n
        if folds:
            outcomes[("river", 0, "fold", None, None)] += folds
        for c in category[h, later[~bets_then]].ravel():
            folds_by_category[CATEGORIES[c]] += dealer_n
    total_value = Fraction(total_value, D)
    deals = sum(int(table[k].sum()) for k in keys)
    ordered = sum(outcomes.values())
    return BruteSheet(
        house_edge=-total_value / ordered,
        outcomes=outcomes,
        preflop=preflop,
        deals=deals,
        ties=int(table["tie"].sum()),
        flop_situations=flop_situations,
        flop_bets=flop_bets,
        river_situations=river_situations,
        river_bets=river_bets,
        flop_values=flop_values,
        folds_by_category=dict(folds_by_category),
    )


def _name(ranks: tuple[int, ...], suits: int, x: int, y: int) -> str:
    (rx, sx), (ry, sy) = divmod(x, suits), divmod(y, suits)
    hi, lo = ranks[max(rx, ry)], ranks[min(rx, ry)]
    if hi == lo:
        return RANKS[hi] * 2
    return RANKS[hi] + RANKS[lo] + ("s" if sx == sy else "o")
