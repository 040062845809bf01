"""The domain error family: every message is one a dealer or supervisor can act on.

The API returns these as JSON `{"error": {"code": ..., "message": ...}}` with the stable
`code`; views never invent their own error shapes.
"""


class CasinoError(Exception):
    code = "casino_error"
    http_status = 400

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def as_json(self) -> dict:
        return {"error": {"code": self.code, "message": self.message}}

    @property
    def headers(self) -> dict:
        """HTTP headers the answer carries besides its body (a throttle's Retry-After)."""
        return {}


class RoleRequired(CasinoError):
    code = "role_required"
    http_status = 403


class PinLocked(CasinoError):
    code = "pin_locked"
    http_status = 403


class PinRejected(CasinoError):
    code = "pin_rejected"
    http_status = 403


class IllegalTransition(CasinoError):
    code = "illegal_transition"
    http_status = 409


class NotFound(CasinoError):
    code = "not_found"
    http_status = 404


class TwoPeopleRequired(CasinoError):
    """One person cannot be both sides of a two-person rule (casino.duties)."""

    code = "two_people_required"
    http_status = 403


class SecretChangeRequired(CasinoError):
    """A temporary password or PIN, set by an administrator, must be changed before use."""

    code = "secret_change_required"
    http_status = 403


class BodyTooLarge(CasinoError):
    """A request body over DATA_UPLOAD_MAX_MEMORY_SIZE (casino.api_errors refuses most of
    them from their declared length, before anything reads them)."""

    code = "too_large"
    http_status = 413
