"""One way to change a record's state: its model lists the moves it allows (`ALLOWED`: a state
-> the states it may become), `move` checks one and makes it, and a refusal is one error that
each service words for its readers (the codes and messages the API promises stay theirs).
"""

from django.core.exceptions import FieldDoesNotExist

from casino.errors import IllegalTransition


class TransitionRefused(IllegalTransition):
    """`record` is `was`, a state its model does not let become `to`."""

    def __init__(self, record, *, was, to) -> None:
        super().__init__(f"{type(record).__name__} #{record.pk} is {was}: it cannot become {to}")
        self.record, self.was, self.to = record, was, to


def move(record, to, *, field: str = "state", **stamps) -> list[str]:
    """Move `record` to `to` if its model allows it from where it stands, and set `stamps`
    (who and when, as the model keeps them); returns the fields changed, for
    `save(update_fields=...)`. A state the model derives from its stamps (a property, such as
    a binding's revocation) is made by the stamps alone."""
    was = getattr(record, field)
    if to not in type(record).ALLOWED.get(was, ()):
        raise TransitionRefused(record, was=was, to=to)
    try:
        record._meta.get_field(field)
    except FieldDoesNotExist:
        changed = []
    else:
        setattr(record, field, to)
        changed = [field]
    for name, value in stamps.items():
        setattr(record, name, value)
    assert getattr(record, field) == to, f"{field} is derived from other stamps than {stamps}"
    return [*changed, *stamps]
