"""Money is integer cents everywhere; this is the one place that turns it into text, and
text typed in a form back into cents (`parse_cents`).

Pure Python, no locale database: the property's two languages are all the floor needs.
French groups thousands with a narrow no-break space (U+202F) and puts the symbol after,
English puts it before ("1 234,50 €" / "€1,234.50").
"""

import re
from contextvars import ContextVar

from django.utils import translation

#: The most cents any one amount may be: 10 billion in the property's currency. Far beyond any
#: real figure, far below what a BigInteger column holds even after sums of many of them.
MAX_CENTS = 10**12

NARROW_NBSP = "\u202f"
NBSP = "\u00a0"
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "CHF": "CHF", "CAD": "$", "MAD": "MAD"}

# The current property's currency, cached for one request (the middleware resets it).
_request_currency: ContextVar[str | None] = ContextVar("tapis_currency", default=None)


def reset_request_currency() -> None:
    _request_currency.set(None)


def property_currency() -> str:
    cached = _request_currency.get()
    if cached:
        return cached
    from casino.clock import current_property

    prop = current_property()
    currency = prop.currency if prop else "EUR"
    _request_currency.set(currency)
    return currency


def _group(digits: str, separator: str) -> str:
    head = len(digits) % 3 or 3
    parts = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
    return separator.join(parts)


def format_money(cents: int, currency: str, language: str) -> str:
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise TypeError(f"money is integer cents, not {type(cents).__name__}")
    sign = "-" if cents < 0 else ""
    units, rest = divmod(abs(cents), 100)
    symbol = SYMBOLS.get(currency, currency)
    if language.startswith("fr"):
        number = f"{_group(str(units), NARROW_NBSP)},{rest:02d}"
        return f"{sign}{number}{NBSP}{symbol}"
    number = f"{_group(str(units), ',')}.{rest:02d}"
    if len(symbol) > 1:  # a code rather than a sign reads "CHF 1,234.50"
        return f"{sign}{symbol}{NBSP}{number}"
    return f"{sign}{symbol}{number}"


def money(cents: int, currency: str | None = None) -> str:
    """`cents` in the current language and the property's (or the given) currency."""
    return format_money(cents, currency or property_currency(), translation.get_language() or "fr")


_TYPED_SPACES = re.compile(r"[\s\u00a0\u202f'’]")
#: The most digits of whole units an amount typed may have: any more is no amount (and its
#: cents would not fit the database's columns).
MAX_UNIT_DIGITS = 15


def parse_cents(text: str, *, decimals: str = ",.", groups: str = "", currency=None) -> int:
    """Cents from an amount as typed: ASCII digits, spaces anywhere, a currency's symbol or
    code (`currency`'s, or any the house knows), at most two decimals after one of
    `decimals`, thousands grouped by three with one of `groups`. A separator that could be
    either is the decimal one when it comes last with one or two digits after it ("12,5");
    otherwise it groups ("1,000"). ValueError when `text` is not such an amount."""
    cleaned = _TYPED_SPACES.sub("", str(text))
    known = (
        {currency, SYMBOLS.get(currency, currency)} if currency else {*SYMBOLS, *SYMBOLS.values()}
    )
    for symbol in sorted(known, key=len, reverse=True):
        cleaned = cleaned.replace(symbol, "")
    units, fraction, point = cleaned, "", ""
    last = max(cleaned.rfind(c) for c in decimals + groups) if decimals + groups else -1
    if last >= 0 and cleaned[last] in decimals and 1 <= len(cleaned) - last - 1 <= 2:
        units, point, fraction = cleaned[:last], cleaned[last], cleaned[last + 1 :]
    group = {c for c in units if not c.isdigit()}
    if group and (len(group) > 1 or not group <= set(groups) or point in group):
        raise ValueError(text)
    grouped = rf"[0-9]{{1,3}}(?:{re.escape(group.pop())}[0-9]{{3}})+" if group else "[0-9]+"
    if not re.fullmatch(grouped, units) or not re.fullmatch("[0-9]{0,2}", fraction):
        raise ValueError(text)
    digits = units.translate({ord(c): None for c in groups})
    if len(digits.lstrip("0")) > MAX_UNIT_DIGITS:
        raise ValueError(text)
    return int(digits) * 100 + int(fraction.ljust(2, "0"))
