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
# A supervisor opened a rating (or a move's next one) or corrected its times (after
# commit): repeated for one player, a signal. kwargs: rating_id, staff_id
rating_adjusted = Signal()
# A rating's open or close time was corrected after the fact (after commit). kwargs:
# correction_id
rating_time_corrected = Signal()
# A rating closed with the chips the player walked with (after commit). kwargs: rating_id
rating_closed_with_walk = Signal()
