"""The base game (Ante, Blind, Play) under optimal strategy, exactly, board by board.

Values are kept as integers: in units of 1/D of the Ante (D: the common denominator of the
Blind's odds), summed over the dealer's holdings, the boards and the suit permutations, so the
only division is the last one, into a `Fraction`.

Pass 1, for each board up to suit symmetry (weighted by its class size):
- every holding's counts of dealer holdings it beats, ties and loses to (`hands.Counter`) give
  S (what Ante and Blind return, summed over the dealer's holdings), P (what a Play of one
  Ante returns) and the river's best choice, max(S + P, fold);
- the ten ways of splitting the board into a flop and a turn and river add S + 2P (a Play
  2x) and the river's best into that flop's accumulator (per real flop and holding; the real
  flops are gathered into their classes up to suit symmetry afterwards, the holding carried
  along by the permutation that makes the flop canonical);
- per holding, S and P summed over all boards (what a pre-flop Play returns).
Then the flop's choice (Play 2x against checking to the river) per flop and holding, and the
pre-flop choice per holding (each allowed multiple against checking).

Pass 2 goes over the boards again with the strategy known and sorts every deal into its final
outcome (street and multiple of the Play, win/tie/loss, dealer qualifying or not, the
player's category for the Blind, or fold, by the final hand's category: what a Trips lost on
a fold forfeits). The two results must agree on the return: the
analysis checks it.

Why the symmetry sums are right: a quantity summed over every real board equals the sum over
canonical boards weighted by class size, averaged over the permutations of the holding; for a
flop's accumulator the permutations are those of the flop's stabiliser (see docs/reference/
parsheet.md, "Method").
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from math import comb, lcm

import numpy as np

from tables.rules.paytables import CATEGORIES, Odds
from tables.rules.ruleset import AnteWhenNotQualified, RuleSet

from .deck import Deck
from .hands import Counter, Counts, Ranking
from .sheet import FlopValues, Outcome, ParSheet, PreflopHand

Progress = Callable[[str, int, int], None]

#: Boards per numpy batch: big enough that Python's per-call cost vanishes, small enough to stay
#: well under the memory target.
BATCH = 384
_SUBSETS = np.array(list(combinations(range(5), 3)), dtype=np.int64)


class Payoffs:
    """What each result pays, in units of 1/D of the Ante."""

    def __init__(self, rules: RuleSet) -> None:
        odds: list[Fraction] = []
        for category in CATEGORIES:
            value = rules.blind_paytable.get(category)
            odds.append(Fraction(value.n, value.m) if isinstance(value, Odds) else Fraction(0))
        self.blind = odds
        self.D = lcm(*(f.denominator for f in odds))
        self.blind_units = np.array([int(f * self.D) for f in odds], dtype=np.int64)
        self.multiples = tuple(rules.preflop_multiples)
        # The most one deal can move, in units of 1/D: every sum is bounded by it.
        self.largest = self.D * (2 + max(odds) + max(*self.multiples, 2))
        self.ante_lost_unqualified = (
            rules.ante_when_dealer_not_qualified is AnteWhenNotQualified.PUSH_UNLESS_DEALER_WINS
        )

    def sums(self, c: Counts) -> tuple[np.ndarray, np.ndarray]:
        """S (Ante and Blind) and P (a Play of one Ante), summed over the dealer's holdings."""
        D = self.D
        win = c.win_q + c.win_nq
        lose = c.lose_q + c.lose_nq
        ante = c.win_q - c.lose_q - (c.lose_nq if self.ante_lost_unqualified else 0)
        blind = self.blind_units[c.category] * win - D * lose
        return D * ante + blind, D * (win - lose)


def analyse(rules: RuleSet, deck: Deck | None = None, progress: Progress | None = None) -> ParSheet:
    """The par sheet of `rules` on `deck` (the standard 52 cards by default)."""
    started = time.perf_counter()
    deck = deck or Deck()
    say = progress or (lambda phase, done, total: None)
    say("tables", 0, 1)
    pay = Payoffs(rules)
    counter = Counter(Ranking.build(deck))
    boards, weights = deck.canonical_boards()
    canon_flops, flop_sizes, flop_class, flop_perm = deck.flop_classes
    subset_flops = deck.flop_index[
        boards[:, _SUBSETS[:, 0]], boards[:, _SUBSETS[:, 1]], boards[:, _SUBSETS[:, 2]]
    ]
    H, NF, P = len(deck.holdings), len(canon_flops), len(deck.perms)
    hperm = deck.holding_perms
    N, D = deck.dealer_holdings, pay.D
    fold = -2 * D * N
    # The largest sum kept in numpy's int64 (a holding's pre-flop value, in units of 1/(P*P*D))
    # stays below 2**63 for any odds up to tens of thousands to one.
    if 10 * P * P * (deck.ordered_deals // H) * pay.largest >= 1 << 63:
        raise ValueError("the Blind's odds are too large for an exact analysis in int64")
    say("tables", 1, 1)

    def batches(phase: str):
        total = len(boards)
        for start in range(0, total, BATCH):
            stop = min(start + BATCH, total)
            yield slice(start, stop), counter.count(boards[start:stop])
            say(phase, stop, total)

    # --- pass 1: values --------------------------------------------------------------------
    # Per real flop (not up to symmetry: adding a board's row needs no permutation) and
    # holding: a Play 2x (S + 2P) and the river's best, summed over the canonical boards
    # that contain it, weighted by class size.
    by_flop = np.zeros((len(deck.flops), H, 2), dtype=np.int64)
    sum_s = np.zeros(H, dtype=np.int64)
    sum_p = np.zeros(H, dtype=np.int64)
    deals = ties = 0
    for part, c in batches("values"):
        s, p = pay.sums(c)
        valid = c.value >= 0
        river = np.where(valid, np.maximum(s + p, fold), 0)
        w = weights[part][:, None]
        sum_s += (w * s).sum(axis=0)
        sum_p += (w * p).sum(axis=0)
        deals += int((w * valid).sum()) * N
        ties += int((w * c.tie).sum())
        rows = np.stack([w * (s + 2 * p), w * river], axis=-1)  # (k, H, 2)
        for row, flops in zip(rows, subset_flops[part], strict=True):
            for f in flops:
                by_flop[f] += row
    assert deals == deck.deals, (deals, deck.deals)

    # Up to symmetry: the real flops of a class carried to its canonical flop, then summed
    # over the canonical flop's stabiliser: P times the sums over every real board.
    acc = np.zeros((NF, H, 2), dtype=np.int64)
    for f in range(len(deck.flops)):
        acc[flop_class[f]][hperm[flop_perm[f]]] += by_flop[f]
    del by_flop
    sym = np.zeros_like(acc)
    for f, stab in enumerate(deck.flop_stabilisers):
        for u in stab:
            sym[f] += acc[f][hperm[u]]
    del acc
    flop_bet = sym[:, :, 0]
    flop_check = sym[:, :, 1]
    flop_bets = flop_bet > flop_check  # an equal value checks: the smaller stake
    flop_best = np.maximum(flop_bet, flop_check)
    # Each real flop's choice, per holding, for pass 2.
    real_flop_bets = flop_bets[flop_class[:, None], hperm[flop_perm]]

    # Pre-flop, in units of 1/(P*P*D) Ante summed over every deal of the holding.
    check = (flop_sizes[:, None] * flop_best).sum(axis=0)
    check = check[hperm].sum(axis=0)
    options = [check]
    for m in pay.multiples:
        options.append(10 * P * (sum_s + m * sum_p)[hperm].sum(axis=0))
    options_arr = np.stack(options)  # (1 + len(multiples), H)
    choice = np.zeros(H, dtype=np.int64)  # 0: check; i: the i-th multiple
    best = options_arr[0].copy()
    for i in range(1, len(options)):
        better = options_arr[i] > best  # equal values keep the smaller stake
        choice = np.where(better, i, choice)
        best = np.where(better, options_arr[i], best)
    scale = P * P * D
    value_total = Fraction(int(sum(int(x) for x in best)), scale * deck.ordered_deals)

    # --- pass 2: outcomes under the strategy -----------------------------------------------
    streets = [f"preflop_{m}x" for m in pay.multiples] + ["flop", "river"]
    n_cls = 2 * len(CATEGORIES) + 3
    hist = np.zeros(len(streets) * n_cls + 1, dtype=np.int64)  # the last: folds
    bettor = choice > 0
    river_seen = river_bets = 0
    first_street = np.where(bettor, choice - 1, len(pay.multiples))
    # Per holding, summed over boards: wins by (dealer qualifying or not, category), then
    # ties, losses to a qualifying and to a non-qualifying dealer; for the first street the
    # holding bets on (pre-flop or flop) and for a Play 1x on the river.
    C = len(CATEGORIES)
    wins = np.zeros((2, 2, H * C), dtype=np.int64)  # (path, qualifies/not, holding x category)
    rest = np.zeros((2, 3, H), dtype=np.int64)  # (path, tie/loss q/loss nq, holding)
    cell = np.arange(H) * C
    fold_cats = np.zeros(C, dtype=np.int64)
    for part, c in batches("outcomes"):
        s, p = pay.sums(c)
        valid = c.value >= 0
        river_bet = (s + p > fold) & valid
        nf = real_flop_bets[subset_flops[part]].sum(axis=1)  # (k, H) flops of 10 that bet
        w = weights[part][:, None]
        w_first = w * np.where(bettor, 10, nf)
        w_river = w * np.where(bettor, 0, 10 - nf) * valid
        river_seen += int(w_river.sum())
        river_bets += int((w_river * river_bet).sum())
        folded = w_river * ~river_bet
        hist[-1] += int(folded.sum()) * N
        # The folded hands' final categories (what Trips would have paid on): exact in float64,
        # a batch's bin below BATCH x H x 24 x 10.
        fold_cats += np.bincount(
            c.category.ravel(), weights=folded.ravel(), minlength=len(CATEGORIES)
        ).astype(np.int64)
        index = (cell + c.category).ravel()
        # bincount adds float64 weights: exact, since a bin's sum over a batch (at most
        # BATCH x 24 x 10 x 990) is far below 2**53.
        for path, weight in enumerate((w_first, w_river * river_bet)):
            for q, won in enumerate((c.win_q, c.win_nq)):
                amount = (weight * won).ravel()
                wins[path, q] += np.bincount(index, weights=amount, minlength=H * C).astype(
                    np.int64
                )
            for j, count in enumerate((c.tie, c.lose_q, c.lose_nq)):
                rest[path, j] += (weight * count).sum(axis=0)
    wins_by = wins.reshape(2, 2, H, C)
    for path, street_of in enumerate((first_street, np.full(H, len(streets) - 1))):
        for i in range(len(streets)):
            mine = street_of == i
            base = i * n_cls
            for q in range(2):
                hist[base + q * C : base + (q + 1) * C] += wins_by[path, q][mine].sum(axis=0)
            hist[base + 2 * C : base + 2 * C + 3] += rest[path][:, mine].sum(axis=1)

    # --- the sheet ---------------------------------------------------------------------------
    outcomes: list[Outcome] = []
    for i, street in enumerate(streets):
        m = pay.multiples[i] if i < len(pay.multiples) else (2 if street == "flop" else 1)
        base = i * n_cls
        for q, offset, ante in (("qualifies", 0, 1), ("not_qualified", len(CATEGORIES), 0)):
            for k, category in enumerate(CATEGORIES):
                count = int(hist[base + offset + k])
                if count:
                    net = ante + pay.blind[k] + m
                    outcomes.append(Outcome(street, m, "win", q, category, count, net))
        t = base + 2 * len(CATEGORIES)
        lost_nq = -(2 + m) if pay.ante_lost_unqualified else -(1 + m)
        for result, q, count, net in (
            ("tie", None, hist[t], 0),
            ("loss", "qualifies", hist[t + 1], -(2 + m)),
            ("loss", "not_qualified", hist[t + 2], lost_nq),
        ):
            if count:
                outcomes.append(Outcome(street, m, result, q, None, int(count), Fraction(net)))
    if hist[-1]:
        outcomes.append(Outcome("river", 0, "fold", None, None, int(hist[-1]), Fraction(-2)))
    folds_by_category = {
        category: int(n) * N for category, n in zip(CATEGORIES, fold_cats, strict=True) if n
    }
    assert sum(folds_by_category.values()) == hist[-1], (folds_by_category, hist[-1])
    total = sum(o.count for o in outcomes)
    assert total == deck.ordered_deals, (total, deck.ordered_deals)
    expected = sum((o.count * o.net for o in outcomes), Fraction(0)) / total
    if expected != value_total:
        raise AssertionError(f"the two passes disagree: {expected} != {value_total}")

    # The strategy: pre-flop hands, flop and river situations that bet.
    per_holding = scale * (deck.ordered_deals // H)
    hands: dict[str, PreflopHand] = {}
    for h, (x, y) in enumerate(deck.holdings):
        name = _hand_name(deck, int(x), int(y))
        if name in hands:
            hands[name].combos += 1
            continue
        hands[name] = PreflopHand(
            name,
            combos=1,
            play=0 if choice[h] == 0 else pay.multiples[choice[h] - 1],
            check=Fraction(int(options_arr[0][h]), per_holding),
            bets={
                m: Fraction(int(options_arr[i + 1][h]), per_holding)
                for i, m in enumerate(pay.multiples)
            },
        )
    valid_flop = np.zeros((NF, H), dtype=bool)
    for f, cards in enumerate(canon_flops):
        mask = np.bitwise_or.reduce(deck.card_masks[cards])
        valid_flop[f] = (deck.holding_masks & mask) == 0
    reached = valid_flop & ~bettor[None, :]
    flop_seen = int((flop_sizes[:, None] * reached).sum())
    flop_bet_count = int((flop_sizes[:, None] * (reached & flop_bets)).sum())
    return ParSheet(
        rules=rules,
        deck=deck,
        outcomes=tuple(outcomes),
        ordered_deals=deck.ordered_deals,
        deals=deals,
        ties=ties,
        preflop=tuple(sorted(hands.values(), key=lambda x: x.sort_key(deck))),
        flop_situations=flop_seen,
        flop_bets=flop_bet_count,
        river_situations=river_seen,
        river_bets=river_bets,
        seconds=time.perf_counter() - started,
        folds_by_category=folds_by_category,
        flop_values=FlopValues(sym, P * D * (deck.ordered_deals // H // comb(deck.size - 2, 3))),
    )


def _hand_name(deck: Deck, x: int, y: int) -> str:
    from tables.rules.cards import RANKS

    (rx, sx), (ry, sy) = divmod(x, deck.suits), divmod(y, deck.suits)
    hi, lo = max(rx, ry), min(rx, ry)
    text = RANKS[deck.ranks[hi]] + RANKS[deck.ranks[lo]]
    if hi == lo:
        return text
    return text + ("s" if sx == sy else "o")
