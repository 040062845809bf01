"""The engine's errors. Each carries a stable `code`, the message `key` of what it says, the
`path` of the input at fault and the `params` of its sentence (see `messages`), so that the
Django layer can say it in the reader's language; `message` is the English text."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

from .messages import Param, Translate, render


class RulesError(Exception):
    """Base of every error the engine raises."""

    code = "rules_error"
    #: Whether the message starts with the path (`seats[1].hole[1]: ...`): input documents
    #: do; a refused round event names the seat or the place in its sentence instead.
    shows_path: ClassVar[bool] = True

    def __init__(
        self, key: str, /, *, code: str | None = None, path: str | None = None, **params: Param
    ) -> None:
        self.key = key
        self.path = path
        self.params: Mapping[str, Param] = MappingProxyType(params)
        if code is not None:
            self.code = code
        self.message = self.render()
        super().__init__(self.message)

    def render(self, translate: Translate | None = None) -> str:
        """The message, in English or through `translate` (see `messages.Translate`)."""
        path = self.path if self.shows_path else None
        return render(self.key, self.params, path, translate=translate)


class CardError(RulesError, ValueError):
    """A card that cannot be parsed, or a card given twice."""

    code = "bad_card"


class InputError(RulesError, ValueError):
    """Input to the engine (a round, a rule set, a paytable) that the rules refuse."""

    code = "bad_input"


class IllegalAction(RulesError):
    """An event the round's state machine refuses at its current stage; `path` is the
    event's field at fault (`seat`, `cards`, `multiple`...)."""

    code = "illegal_action"
    shows_path = False
