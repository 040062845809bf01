"""The demo's carded players rated over `demo_month`'s past days (issue 28 item 10).

The accounting's seeder (tables.accounting.seed) plays each day with players sitting at seats
and tells this module the day's sittings; the demo supervisor "rates" some of them: a rating
from just before the sitting's first lock to just after its last settlement, a pause over each
stretch the player sat out, a move when the player's next sitting starts at another table a
few rounds later, buy-ins (the first at the open, more when the chips run short, the chips
carried on a move) and the walk-with at the close. Only the rows a supervisor would have
written are made; the figures (hands, stakes, result, theo, time) are those figures.py
measures from the seeded rounds' lines, as for live ones, kept in the summaries the reports
read. Like the rest of the seeded history it has no audit entries: it is demo data, not a
record of what anybody did.
"""

import dataclasses

from tables.ratings import demo, summaries
from tables.ratings.models import BuyIn, Player, Rating, RatingPause

# Of the demo's days, the share each regular comes (in card order).
VISIT_ODDS = (0.9, 0.7, 0.5, 0.4, 0.3)
MOVE_ODDS = 0.3  # a rated player moves, when a sitting at another table starts soon after
MOVE_ROUNDS = 4
BUY_IN_ANTES = 25  # the first buy-in: this many Antes, in whole tens
INSTRUMENTS = ((BuyIn.CASH, 0.7), (BuyIn.CHIPS, 0.2), (BuyIn.MARKER, 0.1))


def _after(round_):
    """An instant after the round's settlement and before the table's next round opens (the
    seed settles a round at 0.8 of its step)."""
    return round_.settled_at + (round_.settled_at - round_.opened_at) / 8


def _until_settled(sitting):
    """The sitting as a rating sees it: up to its last settled round (a void one after it is
    nobody's to count, and a rating closes after a settlement); None if none settled."""
    settled = [r for r in sitting.played if r.settled_at is not None]
    if not settled:
        return None
    last = settled[-1].number
    kept = len([r for r in sitting.played if r.number <= last])
    return dataclasses.replace(
        sitting,
        played=sitting.played[:kept],
        stakes=sitting.stakes[:kept],
        nets=sitting.nets[:kept],
        sat_out=[gap for gap in sitting.sat_out if gap[-1].number < last],
    )


def _next_at(sittings, first, taken):
    """A sitting at another table starting within MOVE_ROUNDS rounds of `first`'s last, at a
    seat where nobody (no passer-by) played in between: the player's move."""
    last = first.played[-1].number
    for s in sittings:
        start = s.played[0].number
        if (
            id(s) in taken
            or s.passer_by
            or s.table_id == first.table_id
            or not last < start <= last + MOVE_ROUNDS
        ):
            continue
        between = [
            o
            for o in sittings
            if o.table_id == s.table_id
            and o.seat == s.seat
            and any(last < r.number < start for r in o.played)
        ]
        if not between:
            return s
    return None


def _choose(sittings, players, rng) -> list[tuple[Player, list]]:
    """Who is rated where: each regular, on the days they come, over one sitting (and the
    next at another table when they move), never two at once."""
    free = [s for s in sittings if not s.passer_by]
    rng.shuffle(free)
    taken, chosen = set(), []
    for player, odds in zip(players, VISIT_ODDS, strict=False):
        if rng.random() >= odds:
            continue
        untaken = [s for s in free if id(s) not in taken]
        if not untaken:
            break
        chain = [untaken[0]]
        if rng.random() < MOVE_ODDS:  # a sitting followed by one at another table, if any
            for first in untaken:
                following = _next_at(sittings, first, taken | {id(first)})
                if following is not None:
                    chain = [first, following]
                    break
        taken.update(id(s) for s in chain)
        chosen.append((player, chain))
    return chosen


def _instrument(rng) -> str:
    return rng.choices([i for i, _w in INSTRUMENTS], [w for _i, w in INSTRUMENTS])[0]


def rate_sittings(sittings, *, supervisor, rng) -> dict[str, int]:
    """Rate some of a seeded day's sittings (registered with tables.accounting.seed)."""
    cards = [card for card, _alias, status in demo.PLAYERS if status == Player.ACTIVE]
    found = {p.card: p for p in Player.objects.filter(card__in=cards, status=Player.ACTIVE)}
    if len(found) < len(cards):
        found = {p.card: p for p in demo.load() if p.status == Player.ACTIVE}
    players = [found[c] for c in cards]
    trimmed = [_until_settled(s) for s in sittings]
    chosen = _choose([s for s in trimmed if s is not None], players, rng)
    if not chosen:
        return {}
    ratings, pauses, buy_ins, moves = [], [], [], 0
    for player, chain in chosen:
        stack, bought = 0, []
        previous = None
        for i, s in enumerate(chain):
            opened = s.played[0].opened_at if previous is None else previous.closed_at
            moving = i < len(chain) - 1
            rating = Rating(
                player=player,
                table_id=s.table_id,
                seat=s.seat,
                opened_at=opened,
                opened_by=supervisor,
                # A move closes this rating and opens the next at the same instant, before
                # the next table's following round opens.
                closed_at=_after(s.played[-1]),
                closed_by=supervisor,
                closed_reason=Rating.MOVED if moving else Rating.CLOSED,
                previous=previous,
            )
            # Saved one by one: a move's next rating points at the one before it.
            rating.save()
            ratings.append(rating)
            moves += bool(previous)
            if previous is not None and stack > 0:
                # The chips carried from the table before, recorded as a chips buy-in here:
                # each rating's chips-estimated result is then its own.
                bought.append(
                    BuyIn(
                        rating=rating,
                        amount_cents=stack,
                        instrument=BuyIn.CHIPS,
                        at=opened,
                        by=supervisor,
                    )
                )
            for gap in s.sat_out:
                # From the first round sat out opening to the next played round's opening.
                back = next(r for r in s.played if r.number > gap[-1].number)
                pauses.append(
                    RatingPause(
                        rating=rating,
                        started_at=gap[0].opened_at,
                        started_by=supervisor,
                        ended_at=back.opened_at,
                        ended_by=supervisor,
                    )
                )
            for round_, stake, net in zip(s.played, s.stakes, s.nets, strict=True):
                if stack < stake:  # the chips run short: the player buys in again
                    amount = max(s.ante_cents * BUY_IN_ANTES // 1000 * 1000 + 1000, stake)
                    instrument = _instrument(rng)
                    bought.append(
                        BuyIn(
                            rating=rating,
                            amount_cents=amount,
                            instrument=instrument,
                            at=round_.opened_at,
                            by=supervisor,
                        )
                    )
                    stack += amount
                stack += net
            previous = rating
        # The chips the player leaves with: what the rounds left of what they bought.
        last = ratings[-1]
        last.walk_with_cents = stack
        last.save(update_fields=["walk_with_cents"])
        buy_ins.extend(bought)
    RatingPause.objects.bulk_create(pauses)
    BuyIn.objects.bulk_create(buy_ins)
    for player, chain in chosen:
        Player.objects.filter(pk=player.pk).update(last_visit_at=chain[0].played[0].opened_at)
    summaries.refresh(ratings)
    return {
        "ratings": len(ratings),
        "moves": moves,
        "pauses": len(pauses),
        "buy_ins": len(buy_ins),
    }
