"""The demo floor's tables (completed by the tables configuration work)."""


def load(*, pit, bank) -> None:
    return None
