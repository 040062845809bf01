"""The monthly comp report as one CSV file: the page's figures (comps.report_figures), for the
same people (an auditor who can neither grant nor receive comps), each export audited. One
line per comp, then one per issuer and one for the month with the granted totals; times in
the property's time zone, money in cents."""

import csv
import io

from django.db import transaction

from casino.audit import audit
from tables.ratings import comps

COLUMNS = [
    "line",
    "month",
    "comp",
    "issued_at",
    "gaming_date",
    "rating",
    "player_id",
    "card",
    "alias",
    "table",
    "seat",
    "description",
    "amount_cents",
    "status",
    "issued_by_id",
    "issued_by",
    "decided_by_id",
    "decided_by",
    "decided_at",
    "decision_note",
    "comps",
    "granted_cents",
]


# A typed text opening with one of these is read as a formula by a spreadsheet: it is written
# behind an apostrophe, which the spreadsheet shows as text (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str) -> str:
    return f"'{value}" if value.startswith(FORMULA_STARTS) else value


def _local(prop, at) -> str:
    return "" if at is None else prop.local(at).isoformat(timespec="seconds")


def _comp_line(prop, month: str, comp) -> dict:
    rating, player = comp.rating, comp.rating.player
    return {
        "line": "comp",
        "month": month,
        "comp": comp.pk,
        "issued_at": _local(prop, comp.issued_at),
        "gaming_date": prop.gaming_date(comp.issued_at).isoformat(),
        "rating": rating.pk,
        "player_id": player.pk,
        "card": player.card or "",
        "alias": _text(player.alias),
        "table": rating.table.name,
        "seat": rating.seat,
        "description": _text(comp.description),
        "amount_cents": comp.amount_cents,
        "status": comp.status,
        "issued_by_id": comp.issued_by_id,
        "issued_by": _text(str(comp.issued_by)),
        "decided_by_id": comp.decided_by_id or "",
        "decided_by": _text(str(comp.decided_by)) if comp.decided_by_id else "",
        "decided_at": _local(prop, comp.decided_at),
        "decision_note": _text(comp.decision_note),
    }


def comp_report_csv(*, staff, prop, year: int, month: int) -> str:
    """The month's comp report as CSV text; the export audited (who took which month)."""
    comps.check_reporter(staff)
    report = comps.report_figures(prop, year, month)
    label = f"{year:04d}-{month:02d}"
    lines = [_comp_line(prop, label, comp) for comp in report["comps"]]
    lines += [
        {
            "line": "issuer",
            "month": label,
            "issued_by_id": row["issuer"].pk,
            "issued_by": _text(str(row["issuer"])),
            "comps": row["count"],
            "granted_cents": row["granted_cents"],
        }
        for row in report["issuers"]
    ]
    lines.append(
        {
            "line": "month",
            "month": label,
            "comps": len(report["comps"]),
            "granted_cents": report["granted_cents"],
        }
    )
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, restval="", lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(lines)
    with transaction.atomic():
        audit(
            actor=staff,
            code="ratings.comp_report.exported",
            data={
                "month": label,
                "comps": len(report["comps"]),
                "granted_cents": report["granted_cents"],
            },
        )
    return out.getvalue()
