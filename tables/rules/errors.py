"""The engine's errors. Each carries a stable `code` and a message that says what and where."""


class RulesError(Exception):
    """Base of every error the engine raises."""

    code = "rules_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class CardError(RulesError, ValueError):
    """A card that cannot be parsed, or a card given twice."""

    code = "bad_card"


class InputError(RulesError, ValueError):
    """Input to the engine (a round, a rule set, a paytable) that the rules refuse."""

    code = "bad_input"


class IllegalAction(RulesError):
    """An event the round's state machine refuses at its current stage."""

    code = "illegal_action"
