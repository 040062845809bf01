"""What happened at the tables, for whoever sits above them (the pit's alerts, the reports).

A round's news is told by a worker once its change commits (`tell_after_commit`): its
listeners (the pit's alerts, the decisions' pricing, the ratings' summaries) work off the
dealer's request, which pays one hand-over to the broker for all of them. `tables` never
learns who listens.
"""

from django.dispatch import Signal

# kwargs: round_id
round_settled = Signal()
# The dealer declared an irregularity: the round waits for a supervisor. kwargs: round_id
void_requested = Signal()
# kwargs: round_id, approved (bool)
void_decided = Signal()
# kwargs: correction_id, round_id
round_corrected = Signal()
# A correction waits for a second person at the pit. kwargs: round_id
correction_requested = Signal()
# A table is closing: sent inside its closing transaction, the table row locked, so that
# what closes with it (the open ratings above) commits with it or not at all.
# kwargs: table_id, staff
table_closing = Signal()


# What a worker may be asked to tell (tables.tasks.tell): a round's news, by name.
ROUND_NEWS = {
    "round_settled": round_settled,
    "void_requested": void_requested,
    "void_decided": void_decided,
    "round_corrected": round_corrected,
    "correction_requested": correction_requested,
}


def tell_after_commit(news: str, **kwargs) -> None:
    """Have a worker send the signal `news` (one of ROUND_NEWS) once this transaction commits
    (at once outside one). With no broker, the signal is sent in this process: late, not lost."""
    from tables.tasks import tell

    if news not in ROUND_NEWS:
        raise ValueError(f"no round news called {news!r}")
    tell.delay_on_commit(news, kwargs)
