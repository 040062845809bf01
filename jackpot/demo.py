"""The demo floor's progressive bank and display (completed by the jackpot work)."""

from jackpot.models import Bank


def load() -> Bank | None:
    return None


def demo_urls() -> list[tuple[str, str]]:
    return []
