"""What happened to ratings, for whoever sits above them (the pit)."""

from django.dispatch import Signal

# A rating opened, changed or closed at a table (after commit). kwargs: table_id
rating_changed = Signal()
# A rating was refused to a barred or self-excluded player (nothing written: sent as the
# refusal is answered). kwargs: player_id, table_id, seat, staff_id
excluded_player_refused = Signal()
# A cash buy-in was recorded (after commit): the anti-money-laundering check runs on the
# player's gaming day. kwargs: player_id, table_id, at
cash_in_recorded = Signal()
