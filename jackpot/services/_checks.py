"""What a service's arguments must look like before any row is read or written.

Every refusal is a JackpotError raised before the transaction: a string where cents belong,
a seat no table has, or an amount no column holds must never reach the database (where it
would be a TypeError, a DataError or an overflow halfway through a hit).
"""

from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from casino.ids import db_id
from casino.money import MAX_CENTS  # noqa: F401 - the jackpot's services import it from here
from jackpot.errors import JackpotError

#: The most seats a table linked to a bank has, so the most progressive wagers one round can
#: lock. The jackpot knows nothing of the game (ARCHITECTURE.md: tables -> jackpot, never
#: back); tests/jackpot/test_bad_input_limits.py holds it equal to the engine's seat count.
MAX_SEATS = 7
MAX_WAGERS_PER_ROUND = MAX_SEATS


def is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def bank_id_checked(bank_id: object) -> int:
    if not is_whole(bank_id) or db_id(bank_id) is None:
        raise JackpotError(
            _("There is no progressive bank #%(id)s.") % {"id": shown(bank_id)},
            code="bank_not_found",
        )
    return bank_id


def text_checked(value: object, *, what: str, max_length: int, code: str) -> str:
    """A text the database keeps in a column of `max_length`: a string, no NUL byte."""
    if not isinstance(value, str) or "\x00" in value or len(value) > max_length:
        raise JackpotError(
            _("%(what)s must be text of at most %(max)s characters, without control characters.")
            % {"what": capfirst(what), "max": max_length},
            code=code,
        )
    return value


def cents_checked(value: object, *, what: str, code: str, minimum: int = 0) -> int:
    if not is_whole(value) or not minimum <= value <= MAX_CENTS:
        raise JackpotError(
            _("%(what)s must be a whole number of cents from %(min)s to %(max)s (got %(value)s).")
            % {"what": capfirst(what), "min": minimum, "max": MAX_CENTS, "value": shown(value)},
            code=code,
        )
    return value


def shown(value: object) -> str:
    """A refused value as the message names it: short, and safe to write whatever was given
    (a huge int has no repr, a deeply nested list overflows one)."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        text = repr(value)
    elif isinstance(value, int):
        text = repr(value) if abs(value) < 10**30 else "a huge number"
    elif isinstance(value, str):
        text = repr(value[:40])
    else:
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."
