"""The accounting's listeners to the tables' signals: a round settled, corrected or voided has
its decisions priced again where its news is told, by a worker after commit (tables.tasks.tell,
which logs a listener's failure and lets the others run), off the dealer's request."""

from django.dispatch import receiver

from tables import events
from tables.accounting.decisions import decisions_price


@receiver(events.round_settled, dispatch_uid="accounting.decisions.round_settled")
def on_round_settled(*, round_id, **kwargs):
    decisions_price(round_id)


@receiver(events.round_corrected, dispatch_uid="accounting.decisions.round_corrected")
def on_round_corrected(*, round_id, **kwargs):
    decisions_price(round_id)


@receiver(events.void_decided, dispatch_uid="accounting.decisions.void_decided")
def on_void_decided(*, round_id, approved, **kwargs):
    if approved:
        decisions_price(round_id)
