"""Random player-against-dealer duels judged by our evaluator and by treys must agree."""

import random

import pytest

from tables.rules import DECK, category_of, evaluate, format_card, strength, strength7


def treys_category(treys, rank: int) -> str:
    """treys names its classes "Royal Flush" ... "High Card"; ours are royal_flush ..."""
    return treys.class_to_string(treys.get_rank_class(rank)).lower().replace(" ", "_")


def outcome(player: int, dealer: int) -> str:
    return "win" if player > dealer else "tie" if player == dealer else "lose"


@pytest.mark.slow
def test_200000_random_duels_agree_with_treys_on_category_and_outcome_and_best_five():
    from treys import Card as TreysCard
    from treys import Evaluator

    treys = Evaluator()
    treys_card = [TreysCard.new(format_card(c)) for c in DECK]
    rng = random.Random(20261129)
    deck = list(range(52))
    outcomes = {"win": 0, "tie": 0, "lose": 0}
    disagreements = []
    for _ in range(200_000):
        cards = rng.sample(deck, 9)
        board, player_hole, dealer_hole = cards[:5], cards[5:7], cards[7:]
        ours_player = strength7(player_hole + board)
        ours_dealer = strength7(dealer_hole + board)
        t_board = [treys_card[c] for c in board]
        theirs_player = treys.evaluate([treys_card[c] for c in player_hole], t_board)
        theirs_dealer = treys.evaluate([treys_card[c] for c in dealer_hole], t_board)
        ours = outcome(ours_player, ours_dealer)
        outcomes[ours] += 1
        player = evaluate(DECK[c] for c in player_hole + board)
        # treys counts 1 as the best hand: the lower rank wins.
        agree = (
            ours == outcome(-theirs_player, -theirs_dealer)
            and player.category == treys_category(treys, theirs_player)
            and category_of(ours_dealer) == treys_category(treys, theirs_dealer)
            # The five cards shown are the player's own and worth the whole hand.
            and player.strength == ours_player == strength(player.best5)
            and set(player.best5) <= set(player_hole + board)
        )
        if not agree and len(disagreements) < 5:
            disagreements.append([format_card(c) for c in cards])
    assert disagreements == []
    # Ties are rare but present (the board plays, or equal pairs and kickers).
    assert all(n > 0 for n in outcomes.values())
