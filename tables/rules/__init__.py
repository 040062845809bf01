"""The Ultimate Texas Hold'em rules engine: standard library only, immutable values, no I/O."""

from .cards import (
    DECK,
    NOTATIONS,
    Card,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    read_card,
)
from .errors import CardError, IllegalAction, InputError, RulesError
from .evaluator import Category, HandValue, category_of, evaluate, strength, strength7
from .machine import apply, new_round, replay
from .ruleset import RuleSet, parse_rules
from .settle import settle, settle_json

__all__ = [
    "DECK",
    "NOTATIONS",
    "Card",
    "CardError",
    "Category",
    "HandValue",
    "IllegalAction",
    "InputError",
    "RuleSet",
    "RulesError",
    "apply",
    "category_of",
    "evaluate",
    "format_card",
    "format_cards",
    "parse_card",
    "parse_cards",
    "parse_rules",
    "read_card",
    "new_round",
    "replay",
    "settle",
    "settle_json",
    "strength",
    "strength7",
]
