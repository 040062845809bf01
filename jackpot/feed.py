"""What the display feed hears from the services.

Services call `announce_*` inside their transaction while holding the bank row's lock; the
feed sequence number is taken there, so `seq` follows commit order, and the message leaves
only after commit. (The display-feed work owns this module and may refine how it publishes.)
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from jackpot.models import Bank, Hit


def feed_group(slug: str) -> str:
    return f"jackpot.{slug}"


def _next_seq(bank: Bank) -> int:
    bank.feed_seq += 1
    Bank.objects.filter(pk=bank.pk).update(feed_seq=bank.feed_seq)
    return bank.feed_seq


def _send_after_commit(slug: str, payload: dict) -> None:
    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(feed_group(slug), {"type": "feed.message", "payload": payload})

    transaction.on_commit(send)


def announce_meter(bank: Bank) -> None:
    _send_after_commit(bank.slug, {"type": "meter", "bank": bank.slug, "seq": _next_seq(bank)})


def announce_hit(hit: Hit) -> None:
    bank = hit.bank
    _send_after_commit(
        bank.slug,
        {
            "type": "hit",
            "bank": bank.slug,
            "seq": _next_seq(bank),
            "table": hit.table_label,
            "seat": hit.seat,
            "level": hit.level,
            "amount_cents": hit.amount_cents,
            "state": hit.state,
        },
    )


def announce_status(bank: Bank) -> None:
    _send_after_commit(
        bank.slug,
        {
            "type": "status",
            "bank": bank.slug,
            "seq": _next_seq(bank),
            "status": bank.status,
            "reason": bank.status_reason,
        },
    )
