"""What happened to the progressive, for whoever sits above it (the pit's alerts).

Sent after commit (`casino.live.after_commit`); `jackpot` never learns who listens.
"""

from django.dispatch import Signal

# kwargs: hit_id
hit_recorded = Signal()
# A reconciliation found the meter and its ledger apart. kwargs: alert_id
reconciliation_alert_raised = Signal()
# A display that was connected has had no live socket for a while. kwargs: token_id
display_link_lost = Signal()
