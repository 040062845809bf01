"""What happened in the casino app, for whoever sits above it (the pit's alerts).

Sent after the change is committed (`casino.live.after_commit`), so a receiver never sees a
change that was rolled back; `casino` itself never learns who listens.
"""

from django.dispatch import Signal

# A staff member's PIN (or password) sign-in was locked after too many wrong tries.
# kwargs: staff_id
pin_locked = Signal()
# Sign-in attempts from one source or device were throttled (guessing).
# kwargs: source (an IP address or a device name), attempts
signin_throttled = Signal()
