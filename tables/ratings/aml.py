"""Anti-money-laundering thresholds, as a pure function of plain values: a player's cash in
(and winnings) per gaming day against the property's thresholds. The buy-ins of the ratings
feed it; nothing here reads the database."""

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field

IDENTITY = "identity"  # France: identity recorded above the threshold per session
TRANSACTION_LOG = "transaction_log"  # US: the multiple-transaction log
TRANSACTION_REPORT = "transaction_report"  # US: the currency transaction report
# Crossing these needs the player's identity on file (a CTR names the patron; an MTL entry
# may describe an unknown one instead).
NEEDS_IDENTITY = frozenset({IDENTITY, TRANSACTION_REPORT})


@dataclass(frozen=True)
class Thresholds:
    """Cents in the property's currency; None: that threshold does not apply."""

    identity_cents: int | None = None
    transaction_log_cents: int | None = None
    transaction_report_cents: int | None = None

    @classmethod
    def of(cls, settings) -> "Thresholds":
        """From a ComplianceSettings (or anything with its three fields)."""
        return cls(
            identity_cents=settings.identity_threshold_cents,
            transaction_log_cents=settings.transaction_log_threshold_cents,
            transaction_report_cents=settings.transaction_report_threshold_cents,
        )


@dataclass(frozen=True)
class GamingDayCheck:
    gaming_date: dt.date
    cash_in_cents: int
    winnings_cents: int
    crossed: tuple[str, ...] = field(default=())
    identity_required: bool = False
    identity_missing: bool = False


def _above(amount: int, threshold: int | None) -> bool:
    # "above": the threshold itself does not cross it.
    return threshold is not None and amount > threshold


def thresholds_crossed(
    cash_ins: Iterable[tuple[int, dt.datetime]],
    *,
    prop,
    thresholds: Thresholds,
    identity_on_file: bool,
    winnings: Iterable[tuple[int, dt.datetime]] = (),
) -> list[GamingDayCheck]:
    """One check per gaming day with cash in or winnings, oldest first: the thresholds its
    totals cross and whether identity is required and missing. `prop` gives the gaming day of
    each instant (its local start hour: a day is 23 or 25 hours long when the clocks change).
    The French threshold counts cash in and winnings apart (an exchange, or a win, above it);
    the US ones count cash in."""
    days: dict[dt.date, list[int]] = {}
    for amount, at in cash_ins:
        days.setdefault(prop.gaming_date(at), [0, 0])[0] += amount
    for amount, at in winnings:
        days.setdefault(prop.gaming_date(at), [0, 0])[1] += amount
    checks = []
    for day in sorted(days):
        cash_in, won = days[day]
        crossed = []
        if _above(cash_in, thresholds.identity_cents) or _above(won, thresholds.identity_cents):
            crossed.append(IDENTITY)
        if _above(cash_in, thresholds.transaction_log_cents):
            crossed.append(TRANSACTION_LOG)
        if _above(cash_in, thresholds.transaction_report_cents):
            crossed.append(TRANSACTION_REPORT)
        required = bool(NEEDS_IDENTITY.intersection(crossed))
        checks.append(
            GamingDayCheck(
                gaming_date=day,
                cash_in_cents=cash_in,
                winnings_cents=won,
                crossed=tuple(crossed),
                identity_required=required,
                identity_missing=required and not identity_on_file,
            )
        )
    return checks
