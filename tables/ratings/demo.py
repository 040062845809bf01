"""The demo's players: a few carded regulars (and one barred, so the refusal can be seen)."""

from casino.clock import current_property
from tables.ratings.models import Player

PLAYERS = [
    ("400123", "Marie D.", Player.ACTIVE),
    ("400124", "Paul V.", Player.ACTIVE),
    ("400125", "Mme Chen", Player.ACTIVE),
    ("400126", "Karim B.", Player.ACTIVE),
    ("400127", "Sophie L.", Player.ACTIVE),
    ("400199", "Blue cap", Player.BARRED),
]


def load() -> list[Player]:
    """The demo's carded players (again: nothing is added twice)."""
    prop = current_property()
    return [
        Player.objects.get_or_create(
            property=prop, card=card, defaults={"alias": alias, "status": status}
        )[0]
        for card, alias, status in PLAYERS
    ]
