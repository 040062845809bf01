"""The rules engine's errors for people: the message in the active language, and the field.

The engine says every sentence in English from one template per message key, with the path of
the input at fault and the sentence's parameters (`tables.rules.messages`); here the same
templates and the words for its codes (stages, places, bets...) come from the gettext catalogue,
so a French page never wraps English in a French sentence.
"""

from django.utils.translation import gettext, pgettext

from tables.rules.errors import RulesError


def _translate(context: str | None, message: str) -> str:
    return gettext(message) if context is None else pgettext(context, message)


def engine_message(exc: RulesError) -> str:
    """The engine's message in the active Django language."""
    return exc.render(_translate)


def engine_field(exc: RulesError) -> str | None:
    """The path of the input the error names (`seats[2].hole[1]`, `rules.trips_paytable.flush`,
    or a round event's field such as `cards` or `seat`), or None."""
    return exc.path
