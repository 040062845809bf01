"""The tables app's errors: each has a stable `code` and a message a supervisor can act on."""

from casino.errors import CasinoError, IllegalTransition, NotFound, RoleRequired

__all__ = [
    "AssignmentRefused",
    "ConfigurationRefused",
    "IllegalTransition",
    "NotFound",
    "RoleRequired",
    "TablesError",
    "VersionLocked",
]


class TablesError(CasinoError):
    code = "tables_error"


class ConfigurationRefused(TablesError):
    """A table, rule set or paytable that the validation (or the rules engine) refuses.

    `errors` maps each field to its messages, so a form can show them where they belong."""

    code = "invalid_configuration"

    def __init__(self, message: str, *, errors: dict[str, list[str]] | None = None) -> None:
        super().__init__(message)
        self.errors = errors or {}


class VersionLocked(TablesError):
    """A rule set or paytable version that a round has used is never changed in place."""

    code = "version_locked"
    http_status = 409


class AssignmentRefused(TablesError):
    """A dealer assignment that would overlap another one, or a dealer who cannot deal."""

    code = "assignment_refused"
    http_status = 409
