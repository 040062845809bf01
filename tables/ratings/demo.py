"""The demo's players: a few carded regulars (and one barred, so the refusal can be seen); a
host who grants comps; and the demo property's comp policy."""

from casino.clock import current_property
from casino.demo import DEMO_PASSWORD
from casino.models import Staff
from casino.roles import Role
from casino.staffing import staff_create
from tables.ratings.models import CompSettings, Player

PLAYERS = [
    ("400123", "Marie D.", Player.ACTIVE),
    ("400124", "Paul V.", Player.ACTIVE),
    ("400125", "Mme Chen", Player.ACTIVE),
    ("400126", "Karim B.", Player.ACTIVE),
    ("400127", "Sophie L.", Player.ACTIVE),
    ("400199", "Blue cap", Player.BARRED),
]
# username, employee number, PIN, first and last name (as casino.demo.DEMO_STAFF).
HOST = ("hote", "6001", "8888", "Hugo", "Hôte")
# The demo's comp policy is sized to a simulated run of a few minutes (a few euros of theo),
# so that `simulate_floor` shows a comp above a supervisor's limit: a real property's limits
# are tens or hundreds of euros (the settings' defaults), for hours of play.
DEMO_COMPS = {"budget_percent": 50, "supervisor_limit_cents": 100, "host_limit_cents": 500}


def load() -> list[Player]:
    """The demo's carded players, its host and its comp policy (again: nothing is added
    twice, and a policy a manager changed is kept)."""
    prop = current_property()
    username, number, pin, first, last = HOST
    if not Staff.objects.filter(username=username).exists():
        staff_create(
            username=username,
            roles=[Role.HOST],
            password=DEMO_PASSWORD,
            pin=pin,
            employee_number=number,
            first_name=first,
            last_name=last,
        )  # created at the console, as casino.demo creates the demo staff
    CompSettings.objects.get_or_create(property=prop, defaults=DEMO_COMPS)
    return [
        Player.objects.get_or_create(
            property=prop, card=card, defaults={"alias": alias, "status": status}
        )[0]
        for card, alias, status in PLAYERS
    ]
