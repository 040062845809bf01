"""Every five-card hand, and every seven-card hand, counted by category through our evaluator.

The expected counts are the classic ones (the project's reference notes recomputed them by brute
force in C). The five-card ranking is also checked against treys, an independent evaluator:
both must order all 2,598,960 hands the same way, ties included.
"""

from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import comb, prod

import pytest

from tables.rules import DECK, Category, category_of, format_card, strength, strength7

FIVE_CARD_COUNTS = {
    Category.ROYAL_FLUSH: 4,
    Category.STRAIGHT_FLUSH: 36,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}

SEVEN_CARD_COUNTS = {
    Category.ROYAL_FLUSH: 4_324,
    Category.STRAIGHT_FLUSH: 37_260,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}


def test_the_expected_counts_cover_every_hand():
    assert sum(FIVE_CARD_COUNTS.values()) == comb(52, 5)
    assert sum(SEVEN_CARD_COUNTS.values()) == comb(52, 7)


@pytest.mark.slow
def test_all_five_card_hands_count_and_rank_exactly_as_treys_does():
    from treys import Card as TreysCard
    from treys import Evaluator

    treys_card = [TreysCard.new(format_card(c)) for c in DECK]
    treys_five = Evaluator().evaluate
    ours_to_treys: dict[int, int] = {}
    by_category: Counter[int] = Counter()
    disagreements = []
    for a, b, c, d, e in combinations(range(52), 5):
        ours = strength((a, b, c, d, e))
        theirs = treys_five(
            [treys_card[a], treys_card[b]], [treys_card[c], treys_card[d], treys_card[e]]
        )
        by_category[ours] += 1
        if ours_to_treys.setdefault(ours, theirs) != theirs and len(disagreements) < 5:
            disagreements.append([format_card(x) for x in (a, b, c, d, e)])

    # One treys rank for each of our values: hands we call tied, treys calls tied too.
    assert disagreements == []
    # Distinct values both ways (7,462 classes) and the same order: treys counts 1 as best.
    assert len(ours_to_treys) == 7_462
    ours_sorted = sorted(ours_to_treys)
    treys_in_our_order = [ours_to_treys[v] for v in ours_sorted]
    assert treys_in_our_order == sorted(set(treys_in_our_order), reverse=True)

    counts = Counter[Category]()
    for value, n in by_category.items():
        counts[category_of(value)] += n
    assert dict(counts) == FIVE_CARD_COUNTS


def _suits_without_flush(multiset: tuple[int, ...]) -> list[int]:
    """Seven cards with these ranks and no five of a suit: each rank takes the least-used suits,
    which keeps every suit within one card of the others."""
    used = [0, 0, 0, 0]
    cards = []
    for rank, n in Counter(multiset).items():
        for suit in sorted(range(4), key=lambda s: used[s])[:n]:
            used[suit] += 1
            cards.append(rank * 4 + suit)
    assert max(used) < 5
    return cards


def _flush_assignments(rank_counts: list[int]) -> int:
    """How many ways to give suits to these ranks put five or more cards in one suit."""
    ranks = [r for r, n in enumerate(rank_counts) if n]
    ways = 0
    for size in range(5, len(ranks) + 1):
        for suited in combinations(ranks, size):
            # The flush suit takes one card of each rank in `suited` and none of the others;
            # the remaining cards of each rank take distinct suits among the other three.
            ways += prod(
                comb(3, rank_counts[r] - 1) if r in suited else comb(3, rank_counts[r])
                for r in ranks
            )
    return 4 * ways  # any of the four suits can be the flush suit; only one at a time


@pytest.mark.slow
def test_all_seven_card_hands_count_exactly_by_category():
    counts = Counter[Category]()
    hands = 0

    # Five or more cards of one suit: every such hand, suit by suit, evaluated one by one.
    for suit in range(4):
        suited = [rank * 4 + suit for rank in range(13)]
        others = [c for c in range(52) if c % 4 != suit]
        for size in (5, 6, 7):
            for flush_cards in combinations(suited, size):
                for rest in combinations(others, 7 - size):
                    counts[category_of(strength7(flush_cards + rest))] += 1
                    hands += 1

    # Fewer than five of any suit: the value depends on the ranks alone, so one hand per
    # multiset of ranks is evaluated and weighted by how many suitings of it have no flush.
    for multiset in combinations_with_replacement(range(13), 7):
        rank_counts = [multiset.count(r) for r in range(13)]
        if max(rank_counts) > 4:
            continue
        suitings = prod(comb(4, n) for n in rank_counts)
        without_flush = suitings - _flush_assignments(rank_counts)
        if without_flush:
            value = strength7(_suits_without_flush(multiset))
            assert category_of(value) < Category.FLUSH or category_of(value) in (
                Category.FULL_HOUSE,
                Category.FOUR_OF_A_KIND,
            )
            counts[category_of(value)] += without_flush
            hands += without_flush

    assert hands == comb(52, 7)
    assert dict(counts) == SEVEN_CARD_COUNTS


@pytest.mark.slow
def test_every_one_of_the_133784560_seven_card_hands_counts_by_category():
    # The brute-force twin of the count above: each hand through the evaluator (about 40 s).
    by_strength = Counter(map(strength7, combinations(range(52), 7)))
    assert len(by_strength) == 4_824  # distinct values a best five of seven can take
    counts = Counter[Category]()
    for value, n in by_strength.items():
        counts[category_of(value)] += n
    assert dict(counts) == SEVEN_CARD_COUNTS
