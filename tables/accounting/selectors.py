"""What the pit may read of table accounting: each table's variance for a gaming day (the
alerts engineer decides what to raise from it; this app sends nothing)."""

import datetime as dt

from tables.accounting.reports import Period, ReportRow, report


def table_variances(gaming_date: dt.date, *, shift: str = "") -> list[ReportRow]:
    """Each table's row of the gaming day (or shift) report: counted and computed win,
    `variance` (None until the drop is counted) and `alert` (beyond the threshold)."""
    period = Period.of("shift" if shift else "day", gaming_date, shift)
    return report(period, by="table").rows
