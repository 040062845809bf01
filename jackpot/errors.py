"""The progressive's errors: each says what is wrong and what the floor can do about it.

Every one is raised before anything is written, so "clear error, nothing changed" holds.
Every one is a JackpotError, so `except JackpotError` catches them all; a "not found" is
also a casino NotFound (404), an illegal state change also a casino IllegalTransition (409),
a missing role also a casino RoleRequired (403). `code` is stable; `params` holds the values
the message names, for a client that words it itself.
"""

from casino import errors as casino
from casino.errors import CasinoError, IllegalTransition, NotFound


class JackpotError(CasinoError):
    code = "jackpot_error"

    def __init__(self, message: str, *, code: str | None = None, params: dict | None = None):
        super().__init__(message, code=code)
        self.params = params or {}


class RoleRequired(JackpotError, casino.RoleRequired):
    """The person acting lacks the role the service needs (`params["roles"]`: any of them)."""

    code = "role_required"
    http_status = 403


class BankNotFound(JackpotError, NotFound):
    code = "bank_not_found"


class BankClosed(JackpotError):
    code = "bank_closed"
    http_status = 409


class WrongContributionAmount(JackpotError):
    code = "wrong_contribution_amount"


class ContributionConflict(JackpotError):
    """The same round key was sent again with different wagers."""

    code = "contribution_conflict"
    http_status = 409


class ContributionNotFound(JackpotError, NotFound):
    code = "contribution_not_found"


class AlreadyReversed(JackpotError):
    code = "already_reversed"
    http_status = 409


class UnknownLevel(JackpotError):
    code = "unknown_level"


class HitAmountMismatch(JackpotError):
    code = "hit_amount_mismatch"
    http_status = 409


class HitNotFound(JackpotError, NotFound):
    code = "hit_not_found"


class HitIllegalTransition(JackpotError, IllegalTransition):
    """A hit asked to move to a state its present state does not lead to."""

    code = "hit_illegal_transition"


class HitAlreadyVerified(HitIllegalTransition):
    code = "hit_already_verified"


class HitNotVerified(HitIllegalTransition):
    code = "hit_not_verified"


class HitAlreadyPaid(HitIllegalTransition):
    code = "hit_already_paid"


class TwoPeopleRequired(JackpotError):
    """A second person must confirm what the first one did (request/approve, record/verify)."""

    code = "two_people_required"
    http_status = 403


class InvalidParameters(JackpotError):
    code = "invalid_parameters"


class ParameterChangeNotFound(JackpotError, NotFound):
    code = "parameter_change_not_found"


class ParameterChangePending(JackpotError):
    code = "parameter_change_pending"
    http_status = 409


class ParameterChangeClosed(JackpotError, IllegalTransition):
    """The change was already approved, applied or rejected."""

    code = "parameter_change_closed"


class BankStatusUnchanged(JackpotError, IllegalTransition):
    """Opening an open bank, closing a closed one."""

    code = "bank_status_unchanged"


class InvalidAdjustment(JackpotError):
    code = "invalid_adjustment"


class AdjustmentNotFound(JackpotError, NotFound):
    code = "adjustment_not_found"


class AdjustmentClosed(JackpotError, IllegalTransition):
    """The adjustment was already approved or rejected."""

    code = "adjustment_closed"


# The display feed: a screen whose credential or bank is wrong.


class DisplayRefused(JackpotError):
    """Missing, unknown or revoked token, or a token for another bank."""

    code = "display_token_refused"
    http_status = 403


class DisplayTokenInvalid(JackpotError):
    code = "display_token_invalid"
    http_status = 400


class DisplayTokenNotFound(JackpotError, NotFound):
    code = "display_token_not_found"
