"""Reading the progressive: levels, hit history and counters, ledger totals. No writes."""

import datetime as dt

from django.db.models import Count, Exists, F, Max, OuterRef, Q, Sum
from django.utils.translation import gettext_lazy as _

from jackpot.errors import BankNotFound, UnknownLevel
from jackpot.models import (
    Bank,
    DisplayConnection,
    DisplayToken,
    Hit,
    MeterEntry,
    MeterReading,
    PendingContribution,
)

HIT_HISTORY = 25  # NY 9 NYCRR 5320.8(b): the last 25 hits


def bank_get(bank_id: int) -> Bank:
    try:
        return Bank.objects.get(pk=bank_id)
    except (Bank.DoesNotExist, ValueError, TypeError):
        raise BankNotFound(_("There is no progressive bank #%(id)s.") % {"id": bank_id}) from None


def bank_by_slug(slug: str) -> Bank:
    try:
        return Bank.objects.get(slug=slug)
    except Bank.DoesNotExist:
        raise BankNotFound(_("There is no progressive bank %(slug)s.") % {"slug": slug}) from None


def bank_ids() -> list[int]:
    return list(Bank.objects.order_by("pk").values_list("pk", flat=True))


def level_amount_cents(meter_cents: int, percent: int) -> int:
    """A percentage tier pays (and shows) `percent`% of the meter, rounded down to the cent."""
    return meter_cents * percent // 100


def level_amount(bank: Bank, level: str) -> int:
    """What `level` pays from the meter as the bank row stands (lock it first to pay it)."""
    tier = bank.tier(level)
    if tier is None:
        known = ", ".join(t["level"] for t in bank.levels)
        raise UnknownLevel(
            _("%(bank)s has no level %(level)s (its levels: %(known)s).")
            % {"bank": bank.name, "level": level, "known": known}
        )
    return level_amount_cents(bank.meter_cents, tier["percent"])


def levels_now(bank: Bank) -> list[dict]:
    return [
        {**tier, "amount_cents": level_amount_cents(bank.meter_cents, tier["percent"])}
        for tier in bank.levels
    ]


def hit_history(bank: Bank, limit: int = HIT_HISTORY) -> list[Hit]:
    """The latest hits, newest first, in the order they were committed."""
    return list(
        Hit.objects.filter(bank=bank)
        .select_related("recorded_by", "verified_by", "paid_by")
        .order_by("-order")[:limit]
    )


def hit_counters(bank: Bank) -> dict[str, dict]:
    """Per level: how many hits and how much they won (NJ 1.39A(b): hits, wins)."""
    rows = (
        Hit.objects.filter(bank=bank)
        .values("level")
        .annotate(count=Count("pk"), total_cents=Sum("amount_cents"))
        .order_by("level")
    )
    return {r["level"]: {"count": r["count"], "total_cents": r["total_cents"]} for r in rows}


def hits_pending(bank: Bank | None = None):
    qs = Hit.objects.exclude(state=Hit.State.PAID).select_related("bank").order_by("bank", "order")
    return qs.filter(bank=bank) if bank is not None else qs


def ledger_totals(bank: Bank, *, upto_seq: int | None = None) -> dict[str, int]:
    """Every cached total of the bank, recomputed from its ledger (up to `upto_seq`)."""
    entries = MeterEntry.objects.filter(bank=bank)
    if upto_seq is not None:
        entries = entries.filter(seq__lte=upto_seq)
    hit = Q(kind=MeterEntry.Kind.HIT)
    agg = entries.aggregate(
        meter_cents=Sum("meter_delta_cents"),
        reserve_cents=Sum("reserve_delta_cents"),
        overflow_cents=Sum("overflow_delta_cents"),
        meter_carry_ppm=Sum("meter_carry_delta_ppm"),
        reserve_carry_ppm=Sum("reserve_carry_delta_ppm"),
        contributions_count=Sum("wager_count"),
        wagered_cents=Sum(F("wager_count") * F("wager_cents")),
        house_funded_cents=Sum("house_funded_cents"),
        hits_count=Count("pk", filter=hit),
        paid_negative=Sum("meter_delta_cents", filter=hit),
        ledger_seq=Max("seq"),
        entries=Count("pk"),
    )
    totals = {k: (v or 0) for k, v in agg.items()}
    totals["paid_total_cents"] = -totals.pop("paid_negative")
    return totals


def latest_reading(bank: Bank, **filters) -> MeterReading | None:
    return MeterReading.objects.filter(bank=bank, **filters).order_by("-taken_at", "-pk").first()


def pending_count(bank: Bank) -> int:
    """Contributions accepted but not posted to the meter yet (normally 0 or a few)."""
    return PendingContribution.objects.filter(bank=bank, entry__isnull=True).count()


def displays_connected(*, since: dt.datetime):
    """Connection rows of screens really connected: renewed by their socket since `since`."""
    return (
        DisplayConnection.objects.select_related("token", "token__bank")
        .filter(token__revoked_at__isnull=True, last_seen_at__gte=since)
        .order_by("token__bank__slug", "token__name", "connected_at")
    )


def displays_silent(*, older_than: dt.datetime):
    """Screens (active tokens) that had a live socket and have none now: no heartbeat renewed
    their token or one of their connections since `older_than`. The pit's alerts and the
    sweep (jackpot.display_tokens.display_connections_prune) read this."""
    live = DisplayConnection.objects.filter(token=OuterRef("pk"), last_seen_at__gte=older_than)
    return (
        DisplayToken.objects.select_related("bank")
        .filter(revoked_at__isnull=True, last_seen_at__isnull=False, last_seen_at__lt=older_than)
        .exclude(Exists(live))
        .order_by("bank__slug", "name")
    )
