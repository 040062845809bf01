"""What the tables services share: validation into ConfigurationRefused, locked reads, the role
check, each raising the tables app's own errors."""

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from casino import errors as casino
from casino import roles
from tables.errors import ConfigurationRefused, NotFound, RoleRequired


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()  # "leave as it is", so that None can mean "clear" (no bank, no cap)


def require_role(staff, *allowed: str) -> None:
    """The casino's role check, refusing with the tables app's RoleRequired."""
    try:
        roles.require_role(staff, *allowed)
    except casino.RoleRequired as exc:
        raise RoleRequired(exc.message) from None


def refused(exc: ValidationError) -> ConfigurationRefused:
    errors = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
    text = "; ".join(
        f"{field}: {msg}" if field != "__all__" else msg
        for field, msgs in errors.items()
        for msg in msgs
    )
    return ConfigurationRefused(text, errors=errors)


def validate(obj, *, exclude: list[str] | None = None) -> None:
    try:
        obj.full_clean(exclude=exclude)
    except ValidationError as exc:
        raise refused(exc) from exc


def get_locked(model, pk):
    """The row, locked until commit. FOR NO KEY UPDATE (every lock in the project is): it
    still excludes every other writer of the row, but not the foreign-key checks PostgreSQL
    makes at COMMIT for rows that only point at it. A plain FOR UPDATE made such a commit
    wait for us while we waited for the audit chain's lock it held (when every writer took
    that lock): a deadlock, seen with 20 tables opening their first rounds at once."""
    try:
        return model.objects.select_for_update(no_key=True).get(pk=pk)
    except model.DoesNotExist:
        raise NotFound(
            _("There is no %(what)s #%(id)s.") % {"what": model._meta.verbose_name, "id": pk}
        ) from None


def values(obj, fields) -> dict:
    return {f: getattr(obj, f) for f in fields}
