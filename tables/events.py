"""What happened at the tables, for whoever sits above them (the pit's alerts, the reports).

Sent after commit (`casino.live.after_commit`); `tables` never learns who listens.
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
