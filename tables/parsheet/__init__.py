"""The exact par sheet of the base game (Ante, Blind, Play) for any rule set: numpy, no Django.

`analyse(rules, deck=None, progress=None) -> ParSheet`; `python -m tables.parsheet` prints one.
"""

from .analysis import analyse
from .deck import Deck
from .sheet import Outcome, ParSheet, PreflopHand, base_game_key, base_game_rules

__all__ = [
    "Deck",
    "Outcome",
    "ParSheet",
    "PreflopHand",
    "analyse",
    "base_game_key",
    "base_game_rules",
]
