"""The ratings part of `simulate_floor` (tables/simulator.py, which registers nothing above
it: this app registers these at start-up): whom the demo supervisor rates, and after the run
the supervisor's comps on the closed ratings and the checks of both."""

import uuid

from casino.errors import CasinoError
from casino.models import Staff
from tables.ratings import comps, demo
from tables.ratings.models import Comp, Player, Rating
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
    server from the settlement lines) equal the rounds its dealer saw it count; then the
    supervisor's comps on them (sim_comps) and their check."""
    read = {pk: rating_detail(pk) for pk in rated_rounds}
    still_open = [pk for pk, r in read.items() if r is None or r["status"] != "closed"]
    differ = [
        f"#{pk}: {r['hands']} hands, {rated_rounds[pk]} counted"
        for pk, r in read.items()
        if r is not None and r["hands"] != rated_rounds[pk]
    ]
    hands = sum(r["hands"] for r in read.values() if r is not None)
    checks = [
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
    if not still_open:
        try:
            checks.append(sim_comps(sorted(rated_rounds)))
        except CasinoError as refused:  # a service refused the supervisor: a failed check
            checks.append(Check("the supervisor's comps", False, f"{refused.code}: {refused}"))
    return checks


# The demo's second person for a comp above the supervisor's limit: a manager who did not
# issue it (casino.demo: 'directeur' prepares the floor, 'directrice' approves).
DEMO_ISSUER, DEMO_APPROVER = "inspecteur", "directrice"


def sim_comps(rating_ids: list[int]) -> Check:
    """The demo supervisor comps the closed ratings, through the services: on each with a
    budget, a coffee within their limit (granted at once); on the one with the most budget
    left, if that is above their limit, a dinner, which waits, then the demo's second manager
    approves it. The check: each comp is in the month's comp report as it should be."""
    supervisor = Staff.objects.get(username=DEMO_ISSUER)
    ratings = list(Rating.objects.filter(pk__in=rating_ids).select_related("player__property"))
    if not ratings:
        return Check("the supervisor's comps", True, "no rating to comp")
    prop = ratings[0].player.property
    settings = comps.comp_settings_for(prop)
    limit = comps.issuer_limit_cents(supervisor, settings) or 0
    issued, left = [], {}
    for rating in ratings:
        budget = comps.budget_cents(rating, settings) - comps.committed_cents(rating)
        coffee = min(limit, budget // 2)
        if coffee > 0:
            issued.append(
                comps.comp_issue(
                    staff=supervisor, rating_id=rating.pk, amount_cents=coffee, description="Café"
                )
            )
        left[rating.pk] = budget - max(coffee, 0)
    richest = max(left, key=lambda pk: (left[pk], -pk))
    above = None
    if left[richest] > limit:
        above = comps.comp_issue(
            staff=supervisor, rating_id=richest, amount_cents=left[richest], description="Dîner"
        )
        waited = above.status == Comp.AWAITING
        approver = Staff.objects.get(username=DEMO_APPROVER)
        above = comps.comp_approve(staff=approver, comp_id=above.pk, note="")
        issued.append(above)
    else:
        waited = True  # none was above the limit: nothing waited
    day = prop.gaming_date()  # the report's months are made of gaming days
    shown = {c.pk: c for c in comps.report_figures(prop, day.year, day.month)["comps"]}
    wrong = [f"#{c.pk}" for c in issued if c.pk not in shown or shown[c.pk].status != Comp.GRANTED]
    if above is not None and (not waited or shown.get(above.pk, above).decided_by_id is None):
        wrong.append(f"#{above.pk} did not wait for a second person")
    granted = sum(c.amount_cents for c in issued)
    if above is not None:
        detail = (
            f"{len(issued) - 1} within the limit, 1 above it ({above.amount_cents} cents) "
            f"approved by {DEMO_APPROVER}; {granted} cents in all"
        )
    else:
        detail = (
            f"{len(issued)} within the limit ({granted} cents); no rating's budget was above "
            f"the supervisor's limit of {limit} cents: play more rounds (--rounds) to see one "
            "wait for a second person"
        )
    return Check(
        "the supervisor's comps are granted and in the month's comp report",
        not wrong,
        "; ".join(wrong) if wrong else detail,
    )
