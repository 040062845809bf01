"""What changed in the chips' books, for whoever sits beside the accounting (the pit's
variance alert). Sent after commit (`casino.live.after_commit`)."""

from django.dispatch import Signal

# A figure of a table's counted win changed: a drop entered or imported, a fill or credit
# approved or voided, a tray count. kwargs: table_id, gaming_date (a date)
counted_win_changed = Signal()
