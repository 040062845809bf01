"""Theoretical win: each bet's handle times that bet's house edge, the edges asked of the
engine (`tables.rules.paymath`), never worked out here.

The Trips edge and the progressive's return are computed by the engine from the exact 5- and
7-card category counts; the base game's edge (Ante, Blind and Play together, per unit of
Ante) is the exact one of the rule set's computed par sheet (`tables.parsheet`, stored as a
BaseGameSheet) when it has been computed, else a published figure with its sources, shown as
such (a variant with neither has no base-game theoretical: its theoretical covers the side
bets only, and says so, rather than guess).

What it assumes, each stated on the report and in docs/reference/accounting.md:

- the progressive is on the house's book, the basis of the computed win: a losing wager kept
  whole, a fixed tier paid from the tray, a share-of-the-meter hit paid by the meter and off
  the book (wager and payout), the contributions to the meter not taken off (a liability
  reported apart). The meter does not enter it (`paymath.progressive_book`);
- Envy is charged per progressive wager for each *other seat of its round with a progressive
  wager* (only such a seat can trigger it): the lines count those "rivals"
  (`summary.line_sums`), so the charge is exact, not an average;
- the base game is played optimally (the par sheet's strategy): what the players' own
  decisions cost them is the theoretical at the play seen (`tables.accounting.decisions`);
- under `trips_on_fold: "lost"` Trips is priced exactly for a player of the par sheet's
  strategy: each folded hand of three of a kind or better (the sheet counts the folds by the
  final hand's category) loses the Trips it would have won (`trips_lost_on_fold`); a sheet
  computed before the folds were counted leaves Trips priced as staying, and says so;
- a payout unit or a maximum payout: once the par sheet is computed, each seat-round is
  charged exactly for its own Ante and Trips (`SeatPricing`: every final outcome of the
  sheet's strategy paid by the engine's `settle.seat_nets`, rounded and capped), the
  progressive's fixed tiers rounded in its book edge; a player who plays around the cap can
  take back at most what they withhold (`SeatPricing.withheld`). Before, the edges are the
  uncapped ones and `withholding_bound` bounds what they leave out (the report shows the
  range);
- the win's variance takes bets and seats as independent (`win_variance`).
"""

import json
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from math import lcm

from tables.rules import paymath
from tables.rules.cards import RANKS as RANK_LETTERS
from tables.rules.paytables import CATEGORIES, Odds
from tables.rules.ruleset import RuleSet, TripsOnFold, parse_rules


@dataclass(frozen=True)
class Edges:
    """House edges of one rule set version, as fractions of each bet's handle."""

    base: Fraction | None  # per unit of Ante handle: computed, else published
    base_source: str  # the published figure's sources ("" when computed)
    trips: Fraction | None  # computed by the engine
    progressive: Fraction | None  # the house's book edge (paymath.progressive_book)
    envy: Fraction | None  # the Envy the house pays per rival, per unit of progressive handle
    base_computed: bool = False  # `base` is the exact edge of the computed par sheet
    envy_cents: Fraction = Fraction(0)  # the Envy the house pays one wager per rival, in cents
    # Variances of one bet's net result per unit staked squared: the base game's from its
    # computed par sheet (None without one: no published figure is kept), Trips and the
    # progressive (on the house's book) computed by the engine.
    base_variance: Fraction | None = None
    trips_variance: Fraction = Fraction(0)
    progressive_variance: Fraction = Fraction(0)
    # What the edges leave out, said on the report: a payout unit above a cent or a maximum
    # payout (the edges are uncapped and unrounded), Trips lost on a fold (priced as staying).
    uncapped: bool = False
    trips_lost_on_fold: bool = False
    # Trips lost on a fold, priced from the par sheet's folds (else priced as staying).
    trips_fold_priced: bool = False
    # For `withholding_bound`: the payout unit, the cap, what a win pays per unit of Ante
    # (Ante, the largest Play, the Blind) and of Trips, per final hand category.
    payout_unit_cents: int = 1
    max_payout_cents: int | None = None
    base_pays: tuple[tuple[str, Fraction], ...] = ()
    trips_pays: tuple[tuple[str, Fraction], ...] = ()

    def variance_of(self, bet: str) -> Fraction | None:
        return {
            "ante": self.base_variance,
            "trips": self.trips_variance,
            "progressive": self.progressive_variance,
        }.get(bet, Fraction(0))

    def of(self, bet: str) -> Fraction | None:
        return {"ante": self.base, "trips": self.trips, "progressive": self.progressive}.get(bet)


def trips_lost_on_fold(
    trips: paymath.TripsMath, folds: dict[str, int], deals: int
) -> tuple[Fraction, Fraction]:
    """The Trips edge and variance (per unit staked) when a fold loses it: every category's
    hands that the strategy folds (`folds`, out of `deals`) lose the stake instead of being
    paid. Exact for a player of the par sheet's strategy."""
    mean = -trips.house_edge
    second = trips.variance + mean**2
    for line in trips.lines:
        folded = Fraction(folds.get(line.category, 0), deals)
        if line.net > 0 and folded:
            mean -= folded * (line.net + 1)
            second -= folded * (line.net**2 - 1)
    return -mean, second - mean**2


@lru_cache(maxsize=256)
def _edges_of(
    rules_key: str,
    computed_base: Fraction | None,
    computed_variance: Fraction | None,
    folds: tuple[tuple[str, int], ...] | None = None,
    deals: int = 0,
) -> Edges:
    rules = parse_rules(json.loads(rules_key))
    published = None if computed_base is not None else paymath.base_game_edge(rules)
    trips_math = paymath.trips_math(rules.trips_paytable)
    trips_edge, trips_variance = trips_math.house_edge, trips_math.variance
    lost_on_fold = rules.trips_on_fold is TripsOnFold.LOST
    fold_priced = lost_on_fold and folds is not None and deals > 0
    if fold_priced:
        trips_edge, trips_variance = trips_lost_on_fold(trips_math, dict(folds or ()), deals)
    wager = rules.progressive_wager_cents
    # A fixed tier rounded down to the payout unit, as settled (the wager is the rule set's).
    book = paymath.progressive_book(rules.progressive_paytable, wager_cents=wager, rules=rules)
    progressive = book.house_edge
    envy_math = paymath.envy_cost(
        rules.envy, wager_cents=wager, min_wager_cents=rules.envy_min_wager_cents
    )
    base = computed_base if published is None else published.house_edge
    return Edges(
        base=base,
        base_source="" if published is None else "; ".join(published.sources),
        trips=trips_edge,
        progressive=progressive,
        envy=envy_math.cost_per_wager,
        base_computed=computed_base is not None,
        envy_cents=envy_math.cost_per_other_seat_cents,
        base_variance=computed_variance if computed_base is not None else None,
        trips_variance=trips_variance,
        progressive_variance=book.variance_cents / wager**2,
        uncapped=rules.payout_unit_cents > 1 or rules.max_payout_cents is not None,
        trips_lost_on_fold=lost_on_fold,
        trips_fold_priced=fold_priced,
        payout_unit_cents=rules.payout_unit_cents,
        max_payout_cents=rules.max_payout_cents,
        base_pays=tuple(
            (c, 1 + max(*rules.preflop_multiples, 2) + _odds(rules.blind_paytable.get(c)))
            for c in CATEGORIES
        ),
        trips_pays=tuple((c, _odds(rules.trips_paytable.get(c))) for c in CATEGORIES),
    )


def _odds(value) -> Fraction:
    return Fraction(value.n, value.m) if isinstance(value, Odds) else Fraction(0)


def edges(
    rules_json: dict,
    *,
    computed_base: Fraction | None = None,
    computed_variance: Fraction | None = None,
    folds: dict[str, int] | None = None,
    deals: int = 0,
) -> Edges:
    """The edges of a rule set version's engine rules (a version never changes once used);
    `computed_base`, `computed_variance`: the exact base-game edge and variance (per Ante²)
    of its computed par sheet, when there is one; `folds`, `deals`: the sheet's folds by the
    final hand's category out of its deals (what prices Trips lost on a fold)."""
    return _edges_of(
        json.dumps(rules_json, sort_keys=True),
        computed_base,
        computed_variance,
        None if folds is None else tuple(sorted(folds.items())),
        deals,
    )


def withholding_bound(
    e: Edges, handles: dict[str, int], lines: dict[str, int], largest: dict[str, int]
) -> Fraction:
    """An upper bound, in cents, on what the payout unit and the cap withhold in expectation
    beyond the uncapped edges (0 without either), so the house's theoretical lies between the
    theoretical and the theoretical plus this:

    - the payout unit rounds each winning bet down by less than one unit (a 3:2 win may be
      a half cent off a unit, so not unit - 1): at most one unit on each line of Ante,
      Blind, Play and Trips (`lines`);
    - the cap withholds a seat's winnings beyond it: nothing unless the seat's final hand is
      of a category whose largest win (the Ante, the largest Play and the Blind per unit of
      Ante, Trips's odds per unit of Trips) at the largest Ante and Trips staked (`largest`)
      exceeds the cap, and then at most that win: per such category, its 7-card probability
      times that win on the period's Ante and Trips handles."""
    bound = Fraction(0)
    if e.payout_unit_cents > 1:
        paid = sum(lines.get(bet, 0) for bet in ("ante", "blind", "play", "trips"))
        bound += e.payout_unit_cents * paid
    if e.max_payout_cents is not None:
        counts = paymath.seven_card_counts()
        total = sum(counts.values())
        ante, trips = largest.get("ante", 0), largest.get("trips", 0)
        trips_pays = dict(e.trips_pays)
        for category, per_ante in e.base_pays:
            per_trips = trips_pays[category]
            if per_ante * ante + per_trips * trips > e.max_payout_cents:
                bound += Fraction(counts[category], total) * (
                    per_ante * handles.get("ante", 0) + per_trips * handles.get("trips", 0)
                )
    return bound


def win_variance(squares: dict[str, int], e: Edges) -> Fraction | None:
    """The variance of the house's win, in cents², from Σ stake² of each bet: every bet and
    every seat-round taken as independent of the others (a seat's Trips and base game share
    its cards, seats share the board: stated where it is shown). Envy and the stake of a
    Blind or Play (the base game's variance is per Ante, on the Ante's stakes) add none of
    their own. None when the base game has no computed variance."""
    total = Fraction(0)
    for bet, square in squares.items():
        variance = e.variance_of(bet)
        if variance is None:
            if square:
                return None
            continue
        total += variance * square
    return total


def theoretical_fraction(handles: dict[str, int], e: Edges, *, rivals: int = 0) -> Fraction:
    """Σ handle x edge over the bets that have one, minus the Envy expected on the
    progressive wagers (`rivals`: Σ over the progressive wagers of the other seats of the
    same round with a progressive wager).
    Without a published base-game edge the Ante, Blind and Play are left out (`e.base` None:
    the caller says the figure is partial)."""
    total = Fraction(0)
    for bet, handle in handles.items():
        edge = e.of(bet)
        if edge is not None:
            total += handle * edge
    return total - e.envy_cents * rivals


# --- the payout unit and the cap, exactly -------------------------------------------------------


@dataclass(frozen=True)
class SeatPricing:
    """A seat's Ante, Blind, Play and Trips priced for its own wager under a payout unit or a
    cap: every final outcome of the par sheet's optimal strategy is paid by the engine
    (`settle.seat_nets`: the unit's rounding, then the cap on the seat's winnings), weighted
    by its exact probability.

    The sheet gives the base game's outcomes (a win by its category, what the Blind and Trips
    pay on) and the folds by category; a deal the player does not win (tie, loss, fold) pays
    the base game nothing, so only Trips can meet the cap there: it is priced on the final
    hand's category alone, the deals of category c that are not wins being the 7-card hands
    of c less the wins of c (`others`). Trips lost on a fold: the folds by category lose it
    (`folded`), as in `trips_lost_on_fold`."""

    rules: RuleSet
    wins: tuple[tuple[Fraction, int, bool, str], ...]  # (probability, Play multiple, qualifies, c)
    rest: tuple[tuple[Fraction, str, int, bool], ...]  # ties, losses, folds: (p, outcome, m, q)
    base_return: Fraction  # the player's expected net per Ante, uncapped (-the sheet's edge)
    others: tuple[tuple[str, Fraction], ...]  # Trips paid on c in a deal not won
    folded: tuple[tuple[str, Fraction], ...]  # Trips lost on a fold of c

    def _trips_odds(self, category: str) -> Fraction:
        pays = self.rules.trips_paytable.get(category)
        return _odds(pays) if isinstance(pays, Odds) else Fraction(-1)

    @cached_property
    def _weights(self) -> tuple[int, tuple, tuple, tuple, tuple]:
        """The probabilities as integers over one common denominator: a wager is then priced
        in integer arithmetic, one division at the end (Fractions per outcome cost ~50x)."""
        probabilities = [p for p, *_ in self.wins] + [p for p, *_ in self.rest]
        probabilities += [p for _c, p in self.others] + [p for _c, p in self.folded]
        d = lcm(*(p.denominator for p in probabilities)) if probabilities else 1

        def w(p: Fraction) -> int:
            return p.numerator * (d // p.denominator)

        return (
            d,
            tuple((w(p), m, q, c) for p, m, q, c in self.wins),
            tuple((w(p), outcome, m, q) for p, outcome, m, q in self.rest),
            tuple((c, w(p)) for c, p in self.others),
            tuple((c, w(p)) for c, p in self.folded),
        )

    def charge(self, ante: int, trips: int) -> Fraction:
        """The house's expected win, in cents, on a seat's Ante (and Blind) of `ante` and
        Trips of `trips`, every payout rounded down and capped as the engine pays it."""
        from tables.rules.settle import Outcome, seat_nets

        d, wins, rest, others, folded = self._weights
        rules = self.rules

        def net(outcome, *, q=True, category="high_card", a=0, m=0, t=0) -> int:
            return seat_nets(
                rules,
                outcome=outcome,
                qualifies=q,
                category=category,
                ante=a,
                blind=a,
                play=m * a,
                trips=t,
            ).net

        player = 0
        for w, m, q, category in wins:
            player += w * net(Outcome.WIN, q=q, category=category, a=ante, m=m, t=trips)
        for w, outcome, m, q in rest:
            player += w * net(Outcome(outcome), q=q, a=ante, m=m)
        if trips:
            # No base-game winnings in these deals: the seat's winnings are its Trips alone
            # (a loss with no base stake, to the engine).
            for category, w in others:
                player += w * net(Outcome.LOSE, category=category, t=trips)
            for category, w in folded:
                player += w * net(Outcome.FOLD, category=category, t=trips)
        return Fraction(-player, d)

    def uncapped(self, ante: int, trips: int) -> Fraction:
        """The same seat at the uncapped, unrounded edges: what `edges` charges it."""
        trips_return = sum(
            (p * self._trips_odds(c) for p, _m, _q, c in self.wins), Fraction(0)
        ) + sum((p * self._trips_odds(c) for c, p in self.others), Fraction(0))
        trips_return -= sum((p for _c, p in self.folded), Fraction(0))
        return -(ante * self.base_return + trips * trips_return)

    def withheld(self, ante: int, trips: int, *, charge: Fraction | None = None) -> Fraction:
        """What the unit and the cap withhold in expectation from such a seat, beyond the
        uncapped edges' charge (cents, never negative); `charge`: its charge, when known."""
        charge = self.charge(ante, trips) if charge is None else charge
        return charge - self.uncapped(ante, trips)


_RESULTS = {"tie": "tie", "loss": "lose", "fold": "fold"}


def seat_pricing(rules_json: dict, sheet: dict) -> SeatPricing:
    """The pricing of a rule set version from its computed par sheet's JSON (`outcomes`,
    `ordered_deals`, `folds_by_category`, `deck`)."""
    rules = parse_rules(rules_json)
    total = int(sheet["ordered_deals"])
    wins, rest = [], []
    won: dict[str, Fraction] = {}
    base_return = Fraction(0)
    for o in sheet["outcomes"]:
        p = Fraction(int(o["count"]), total)
        num, den = o["net"]["exact"].split("/")
        base_return += p * Fraction(int(num), int(den))
        q = o["dealer"] != "not_qualified"
        if o["result"] == "win":
            wins.append((p, int(o["multiple"]), q, o["category"]))
            won[o["category"]] = won.get(o["category"], Fraction(0)) + p
        else:
            rest.append((p, _RESULTS[o["result"]], int(o["multiple"]), q))
    deck = sheet.get("deck") or {"ranks": RANK_LETTERS, "suits": 4}
    ranks = tuple(sorted(RANK_LETTERS.index(r) + 2 for r in deck["ranks"]))
    sevens = paymath.category_counts(7, ranks, int(deck["suits"]))
    hands = sum(sevens.values())
    folds = sheet.get("folds_by_category")
    lost = rules.trips_on_fold is TripsOnFold.LOST and folds is not None
    others, folded = [], []
    for c in CATEGORIES:
        folded_c = Fraction(int(folds.get(c, 0)), total) if lost else Fraction(0)
        staying = Fraction(sevens[c], hands) - won.get(c, Fraction(0)) - folded_c
        if staying < 0:
            raise ValueError(f"the par sheet's wins of {c} exceed its 7-card hands")
        if staying:
            others.append((c, staying))
        if folded_c:
            folded.append((c, folded_c))
    return SeatPricing(rules, tuple(wins), tuple(rest), base_return, tuple(others), tuple(folded))
