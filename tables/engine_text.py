"""The rules engine's errors for people: the message in the active language, and the field.

The engine says every sentence in English from one template per message key, with the path of
the input at fault and the sentence's parameters (`tables.rules.messages`); here the same
templates and the words for its codes (stages, places, bets...) come from the gettext catalogue,
so a French page never wraps English in a French sentence.

The engine's paths stay stable codes (`rules.trips_paytable.flush`, for the API and the
logs); a person reads them in words instead (`Trips paytable, flush`), and a form that shows
the message on the field a path stands for names only what lies below that field (`flush`), or
nothing.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from django.utils.translation import gettext, pgettext, pgettext_lazy

from casino.money import money
from tables.rules.errors import RulesError
from tables.rules.messages import TERM_CONTEXT, TERMS, render
from tables.rules.paytables import CATEGORIES

# The rules' names are under the gettext context "rule name" ("Trips paytable" as the start of
# a sentence, not as a field label, which the admin capitalises itself), written out in each
# call so that makemessages finds them.

#: Every rule of the engine's rules object (`tables.rules.ruleset.RULE_KEYS`), in the manager's
#: words.
RULE_NAMES = {
    "preflop_multiples": pgettext_lazy("rule name", "Pre-flop Play multiples"),
    "blind_paytable": pgettext_lazy("rule name", "Blind paytable"),
    "trips_paytable": pgettext_lazy("rule name", "Trips paytable"),
    "trips_on_fold": pgettext_lazy("rule name", "Trips when the player folds"),
    "ante_when_dealer_not_qualified": pgettext_lazy(
        "rule name", "Ante when the dealer does not qualify"
    ),
    "progressive_paytable": pgettext_lazy("rule name", "Progressive paytable"),
    "envy": pgettext_lazy("rule name", "Envy bonus paytable"),
    "envy_min_wager_cents": pgettext_lazy("rule name", "Envy minimum wager"),
    "progressive_wager_cents": pgettext_lazy("rule name", "Progressive wager"),
    "payout_unit_cents": pgettext_lazy("rule name", "Payout unit"),
    "max_payout_cents": pgettext_lazy("rule name", "Maximum payout"),
}
_RULES = pgettext_lazy("rule name", "Rules")
_ITEM = pgettext_lazy("rule name", "%(rule)s, value %(number)s")
_LINE = pgettext_lazy("rule name", "%(table)s, %(line)s")

# The paths the engine gives a rules object's faults: `rules`, `rules.<key>`,
# `rules.<key>[<index>]` (a pre-flop multiple), `rules.<key>.<line>` (a paytable's line).
_RULES_PATH = re.compile(
    r"rules(?:\.(?P<key>[^.\[]+)(?:\[(?P<index>[0-9]+)\])?(?:\.(?P<line>.+))?)?", re.ASCII
)
_CATEGORY_SET = frozenset(CATEGORIES)


class RulesPath(NamedTuple):
    """What a path of a rules object points at: the rule, and within it a list item or a
    paytable line (either None)."""

    key: str | None
    index: int | None
    line: str | None


def rules_path(path: str | None) -> RulesPath | None:
    """The parts of an engine path within a rules object, or None for any other path (a
    settlement input's `seats[1].hole[1]`, a round event's `cards`)."""
    found = _RULES_PATH.fullmatch(path or "")
    if found is None:
        return None
    index = found["index"]
    return RulesPath(found["key"], None if index is None else int(index), found["line"])


def _translate(context: str | None, message: str) -> str:
    return gettext(message) if context is None else pgettext(context, message)


def _quoted(text: str) -> str:
    # A key or a line the engine does not know is the operator's own text: shown as typed.
    return f'"{text}"'


def _line_name(line: str) -> str:
    if line in _CATEGORY_SET:
        return pgettext(TERM_CONTEXT, TERMS[line])
    return _quoted(line)


def path_name(path: str | None) -> str | None:
    """The input a path names, in the reader's words and language (`rules.trips_paytable.flush`:
    "Trips paytable, flush"), or None when it is no path of a rules object."""
    parts = rules_path(path)
    if parts is None:
        return None
    if parts.key is None:
        return str(_RULES)
    rule = RULE_NAMES.get(parts.key)
    name = _quoted(parts.key) if rule is None else str(rule)
    if parts.index is not None:
        name = str(_ITEM) % {"rule": name, "number": parts.index + 1}
    if parts.line is not None:
        name = str(_LINE) % {"table": name, "line": _line_name(parts.line)}
    return name


def _name_below(path: str, under: str) -> str | None:
    """What of `path` lies below the path a form field stands for: a paytable line's name, or
    None when the field is all there is to say (the field itself, or an item of its list, whose
    value the message quotes)."""
    rest = path.removeprefix(under)
    if rest.startswith("."):
        return _line_name(rest[1:])
    return None


def engine_message(exc: RulesError, *, under: str | None = None) -> str:
    """The engine's message in the active Django language, naming the input at fault in words
    ("Trips paytable, flush: ..."). `under`: the path of the form field the message is shown on
    (`rules.trips_paytable`): it then names only what lies below it ("flush: ..."), or nothing.
    A path that is no rules object's is shown as the engine gives it."""
    if not exc.shows_path or exc.path is None:
        return exc.render(_translate)
    params = dict(exc.params)
    value = params.get("value")
    rule = engine_rule(exc)
    if rule is not None and rule.endswith("_cents") and isinstance(value, int):
        params["value"] = money(value)  # an amount reads in the property's currency, not cents
    if under is not None and (exc.path == under or exc.path.startswith((f"{under}.", f"{under}["))):
        name = _name_below(exc.path, under)
    else:
        name = path_name(exc.path) or exc.path
    return render(exc.key, params, name, translate=_translate)


def engine_field(exc: RulesError) -> str | None:
    """The path of the input the error names (`seats[2].hole[1]`, `rules.trips_paytable.flush`,
    or a round event's field such as `cards` or `seat`), or None."""
    return exc.path


def engine_rule(exc: RulesError) -> str | None:
    """The rule an error of a rules object is about (`trips_paytable`), or None."""
    parts = rules_path(exc.path)
    return None if parts is None else parts.key
