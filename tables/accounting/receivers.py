"""The accounting's listeners to the tables' signals (sent after commit): a round settled,
corrected or voided has its decisions priced again by a worker, off the dealer's request."""

import logging

from django.dispatch import receiver

from tables import events
from tables.accounting import tasks

log = logging.getLogger(__name__)


def _price(round_id) -> None:
    try:
        tasks.price_round_decisions.delay_on_commit(round_id)
    except Exception:  # the round is settled whatever happens here: log, never raise
        log.exception("pricing the decisions of round %s failed", round_id)


@receiver(events.round_settled, dispatch_uid="accounting.decisions.round_settled")
def on_round_settled(*, round_id, **kwargs):
    _price(round_id)


@receiver(events.round_corrected, dispatch_uid="accounting.decisions.round_corrected")
def on_round_corrected(*, round_id, **kwargs):
    _price(round_id)


@receiver(events.void_decided, dispatch_uid="accounting.decisions.void_decided")
def on_void_decided(*, round_id, approved, **kwargs):
    if approved:
        _price(round_id)
