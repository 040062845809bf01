"""A gaming day's ratings as one CSV file (issue 28, item 8): the spec's rating fields
(spec/ratings.md, "The rating"), times in the property's time zone, money in cents. Each
export is audited: it carries theo and results by player."""

import csv
import io

from django.utils import timezone

from casino.audit import audit
from casino.clock import current_property
from casino.roles import Role, require_role
from tables.ratings.selectors import rating_json, ratings_read

EXPORTERS = (Role.MANAGER, Role.HOST, Role.AUDITOR)
WAGERED = ("ante", "blind", "play", "trips", "progressive")
EDGES = ("ante", "trips", "progressive")
COLUMNS = [
    "id",
    "gaming_date",
    "player_id",
    "card",
    "alias",
    "table",
    "seat",
    "status",
    "opened_at",
    "closed_at",
    "closed_reason",
    "previous",
    "seconds_played",
    "paused",
    "hands",
    *(f"wagered_{bet}_cents" for bet in WAGERED),
    "total_wagered_cents",
    "average_ante_cents",
    "player_result_cents",
    *(f"edge_{bet}" for bet in EDGES),
    "theo_cents",
    "decision_cost_cents",
    "buy_ins_cents",
    "cash_in_cents",
    "walk_with_cents",
    "chips_estimated_result_cents",
    "entered_average_ante_cents",
    "opened_by",
    "closed_by",
]


def _local(prop, at) -> str:
    return "" if at is None else prop.local(at).isoformat(timespec="seconds")


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _line(prop, gaming_date, rating, body: dict) -> list[str]:
    staff = {k: (body[k] or {}).get("id") for k in ("opened_by", "closed_by")}
    row = {
        **body,
        "gaming_date": gaming_date.isoformat(),
        "player_id": body["player"]["id"],
        "card": body["player"]["card"],
        "alias": body["player"]["alias"],
        "opened_at": _local(prop, rating.opened_at),
        "closed_at": _local(prop, rating.closed_at),
        **{f"wagered_{bet}_cents": body["wagered"][bet] for bet in WAGERED},
        **{f"edge_{bet}": body["edges"][bet] for bet in EDGES},
        "buy_ins_cents": sum(b["amount_cents"] for b in body["buy_ins"]),
        "entered_average_ante_cents": rating.entered_average_ante_cents,
        **staff,
    }
    return [_cell(row[c]) for c in COLUMNS]


def ratings_day_csv(*, staff, gaming_date) -> tuple[str, int]:
    """The ratings opened on `gaming_date`, in open order, as CSV text; the export audited."""
    require_role(staff, *EXPORTERS)
    prop = current_property()
    start, end = prop.gaming_day_bounds(gaming_date)
    found = (
        ratings_read().filter(opened_at__gte=start, opened_at__lt=end).order_by("opened_at", "pk")
    )
    now = timezone.now()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    count = 0
    for rating in found:
        writer.writerow(_line(prop, gaming_date, rating, rating_json(rating, now=now)))
        count += 1
    audit(
        actor=staff,
        code="ratings.day.exported",
        data={"gaming_date": gaming_date.isoformat(), "ratings": count},
    )
    return out.getvalue(), count
