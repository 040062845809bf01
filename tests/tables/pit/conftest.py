"""The pit's tests play rounds on the felt of the round tests (tests/tables/rounds)."""

from tests.tables.rounds.conftest import felt, progressive, supervisor, table  # noqa: F401
