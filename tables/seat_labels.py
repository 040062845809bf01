"""Who sits at each seat, as the tablet may show it (a rated player's alias): the app above
that knows (tables.ratings) registers its reader here at start-up, so that the tablet shows it
without `tables` importing what sits above it."""

from collections.abc import Callable

_readers: list[Callable[[int], dict[int, str]]] = []


def register(reader: Callable[[int], dict[int, str]]) -> None:
    if reader not in _readers:
        _readers.append(reader)


def seat_labels(table_id: int) -> dict[int, str]:
    """{seat: label} of a table's seats that have one."""
    labels: dict[int, str] = {}
    for reader in _readers:
        labels.update(reader(table_id))
    return labels
