"""The tables app's errors: each has a stable `code` and a message a supervisor can act on.

Every one is a TablesError, so `except TablesError` catches whatever the tables app raises; a
"not found" is also a casino NotFound (404), an illegal state change also a casino
IllegalTransition (409) and a missing role also a casino RoleRequired (403), for the code that
handles those families across apps.
"""

from casino import errors as casino


class TablesError(casino.CasinoError):
    code = "tables_error"


class NotFound(TablesError, casino.NotFound):
    code = "not_found"
    http_status = 404


class IllegalTransition(TablesError, casino.IllegalTransition):
    code = "illegal_transition"
    http_status = 409


class RoleRequired(TablesError, casino.RoleRequired):
    code = "role_required"
    http_status = 403


class ConfigurationRefused(TablesError):
    """A table, rule set or paytable that the validation (or the rules engine) refuses.

    `errors` maps each field to its messages, so a form can show them where they belong."""

    code = "invalid_configuration"

    def __init__(
        self, message: str, *, errors: dict[str, list[str]] | None = None, code: str | None = None
    ) -> None:
        super().__init__(message, code=code)
        self.errors = errors or {}


class VersionLocked(TablesError):
    """A rule set or paytable version that a round has used is never changed in place."""

    code = "version_locked"
    http_status = 409


class AssignmentRefused(TablesError):
    """A dealer assignment that would overlap another one, or a dealer who cannot deal."""

    code = "assignment_refused"
    http_status = 409


# Rounds at the table (spec/round-api.md): each code is part of the API's contract.


class RoundRefused(TablesError):
    """A step the engine or the table's limits refuse; `code` is the engine's where it spoke,
    `field` the input it names."""

    code = "refused"

    def __init__(self, message: str, *, code: str | None = None, field: str | None = None):
        super().__init__(message, code=code)
        self.field = field

    def as_json(self) -> dict:
        body = super().as_json()
        if self.field:
            body["error"]["field"] = self.field
        return body


class NotThisDealersTable(TablesError):
    code = "not_your_table"
    http_status = 403


class WithRound(TablesError):
    """A refusal that shows the round as it stands (`"round"` beside `"error"`)."""

    def __init__(self, message: str, *, round: dict, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.round = round

    def as_json(self) -> dict:
        return {**super().as_json(), "round": self.round}


class RoundOpen(WithRound):
    """One round at a time per table."""

    code = "round_open"
    http_status = 409


class StaleRound(WithRound):
    """Another write reached the round first: the client sees the round again and retries."""

    code = "stale"
    http_status = 409


class KeyReused(TablesError):
    """An idempotency key sent again with another body."""

    code = "key_reused"
    http_status = 409


class AppendOnly(TablesError):
    """Round events, settlement lines and corrections are written once, never changed."""

    code = "append_only"
    http_status = 409
