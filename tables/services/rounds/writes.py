"""The writes of every step of a round: its event (sealed into the round's chain on its way
in), the round's new state and the answer kept under the request's key. The caller holds the
round's row lock, which is also the event chain's: the previous event cannot change."""

from tables.models import IdempotentWrite, Round, RoundEvent

# What a step changes on the round's row.
ROUND_FIELDS = ("seq", "state", "stage", "settled_at", "settlement", "settlement_input")


def step_write(round_: Round, event: RoundEvent, kept: IdempotentWrite) -> None:
    """Write the step: `event`, the round's ROUND_FIELDS, the kept answer. The caller holds
    the round's lock, in its transaction."""
    event.save()
    round_.save(update_fields=ROUND_FIELDS)
    kept.save()
