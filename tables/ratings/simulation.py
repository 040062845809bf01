"""The ratings part of `simulate_floor` (tables/simulator.py, which registers nothing above
it: this app registers these at start-up): whom the demo supervisor rates, and the checks of
their ratings after the run."""

import uuid

from tables.ratings import demo
from tables.ratings.models import Player, Rating
from tables.ratings.selectors import rating_detail
from tables.ratings.services import rating_close
from tables.simulator import Check


def players_to_rate(count: int, supervisor) -> tuple[list[str], list[str]]:
    """The cards of load_demo's active carded players, one per SIM table in card order (added
    if an older demo database lacks them), and what was changed: a rating an interrupted run
    left open for one of them is closed (through the service, by the demo supervisor), so the
    player is rated again from this run's first round."""
    demo.load()
    cards = sorted(
        Player.objects.filter(
            card__in=[card for card, _alias, _status in demo.PLAYERS], status=Player.ACTIVE
        ).values_list("card", flat=True)
    )[:count]
    changed = []
    for rating in Rating.objects.filter(player__card__in=cards, closed_at__isnull=True):
        rating_close(rating_id=rating.pk, staff=supervisor, key=f"sim-{uuid.uuid4().hex}")
        changed.append(f"closed rating #{rating.pk}, left open by an earlier run")
    return cards, changed


def rating_checks(rated_rounds: dict[int, int]) -> list[Check]:
    """Every rating the supervisor opened is closed, and each one's hands (measured by the
    server from the settlement lines) equal the rounds its dealer saw it count."""
    read = {pk: rating_detail(pk) for pk in rated_rounds}
    still_open = [pk for pk, r in read.items() if r is None or r["status"] != "closed"]
    differ = [
        f"#{pk}: {r['hands']} hands, {rated_rounds[pk]} counted"
        for pk, r in read.items()
        if r is not None and r["hands"] != rated_rounds[pk]
    ]
    hands = sum(r["hands"] for r in read.values() if r is not None)
    return [
        Check(
            "every rating opened is closed",
            not still_open,
            f"open: {still_open[:10]}" if still_open else f"{len(read)} ratings",
        ),
        Check(
            "every closed rating's hands equal its counted rounds",
            not differ,
            "; ".join(differ[:10]) if differ else f"{hands} hands",
        ),
    ]
