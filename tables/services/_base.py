"""What the tables services share: validation into ConfigurationRefused, locked reads."""

from typing import Any

from django.core.exceptions import ValidationError

from tables.errors import ConfigurationRefused, NotFound


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()  # "leave as it is", so that None can mean "clear" (no bank, no cap)


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


def get_locked(model, pk, what: str):
    try:
        return model.objects.select_for_update().get(pk=pk)
    except model.DoesNotExist:
        raise NotFound(f"no {what} #{pk}") from None


def values(obj, fields) -> dict:
    return {f: getattr(obj, f) for f in fields}
