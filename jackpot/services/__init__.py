"""Every change to the progressive goes through one of these functions.

Each checks the role and the legality first, then locks the bank row, writes the ledger and
the audit log in one transaction, and tells the display feed only after commit. A
contribution is the exception to the lock: it is queued without one, then posted to the ledger
in batches (services.posting). Each works standalone or inside the caller's transaction (the
tables layer settles a round, its contributions and its hits in one).
"""

from jackpot.services.adjustments import adjustment_approve, adjustment_reject, adjustment_request
from jackpot.services.banks import bank_close, bank_create, bank_open, bank_seed
from jackpot.services.hits import hit_pay, hit_record, hit_verify
from jackpot.services.ledger import bank_contribute, bank_reverse, split_contribution
from jackpot.services.parameters import (
    parameter_change_approve,
    parameter_change_reject,
    parameter_change_request,
    validate_parameters,
)
from jackpot.services.posting import bank_lock_and_post, bank_post_pending
from jackpot.services.readings import (
    alert_resolve,
    bank_reconcile,
    banks_reconcile,
    meter_reading_take,
    readings_take_at_shift_change,
    readings_take_periodic,
)

__all__ = [
    "alert_resolve",
    "adjustment_approve",
    "adjustment_reject",
    "adjustment_request",
    "bank_close",
    "bank_contribute",
    "bank_create",
    "bank_lock_and_post",
    "bank_open",
    "bank_post_pending",
    "bank_reconcile",
    "bank_reverse",
    "bank_seed",
    "banks_reconcile",
    "hit_pay",
    "hit_record",
    "hit_verify",
    "meter_reading_take",
    "parameter_change_approve",
    "parameter_change_reject",
    "parameter_change_request",
    "readings_take_at_shift_change",
    "readings_take_periodic",
    "split_contribution",
    "validate_parameters",
]
