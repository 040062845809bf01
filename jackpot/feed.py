"""What the display feed hears from the services, and what it says (spec/signage-feed.md).

Services call `announce_*` inside their transaction while holding the bank row's lock: the
feed sequence number is taken there, so `seq` follows commit order and survives restarts
(it lives on the bank row). Nothing leaves before commit.

`hit` and `status` messages are sent as they were committed. A `meter` change queues, after
commit, one `publish_meter`, which reads the bank's committed row: the last publish after a
change carries the committed value, and a display drops a message older than one it applied
(`seq`), so a burst of publishes never shows an older meter.

Sending from sync code and after commit is casino.live's.
"""

import datetime as dt
import json

from celery import shared_task

from casino import live
from jackpot.models import Bank, Hit
from jackpot.selectors import level_amount_cents

RECENT_HITS = 5
LANGUAGES = ("fr", "en")  # a display speaks one of these (DisplayToken.language)


def feed_group(slug: str) -> str:
    return f"jackpot.{slug}"


def server_time(at: dt.datetime | None = None) -> str:
    at = at or dt.datetime.now(dt.UTC)
    return at.astimezone(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def bank_levels(bank: Bank) -> list[dict]:
    """Levels with both labels; `localize` picks one per display language."""
    return [
        {
            "level": lvl["level"],
            "label_fr": lvl.get("label_fr") or lvl["level"],
            "label_en": lvl.get("label_en") or lvl["level"],
            "amount_cents": level_amount_cents(bank.meter_cents, lvl.get("percent", 100)),
        }
        for lvl in bank.levels
    ]


def localize(payload: dict, language: str) -> dict:
    """The public message: each level gets the one `label`, and the bank its one `name`, in
    the display's language."""
    english = language == "en"
    out = dict(payload)
    if "name_en" in out:
        name_en = out.pop("name_en")
        if english:
            out["name"] = name_en
    if "levels" in out:
        key = "label_en" if english else "label_fr"
        out["levels"] = [
            {"level": lvl["level"], "label": lvl[key], "amount_cents": lvl["amount_cents"]}
            for lvl in out["levels"]
        ]
    return out


def hit_fields(hit: Hit) -> dict:
    return {
        "table": hit.table_label,
        "seat": hit.seat,
        "level": hit.level,
        "amount_cents": hit.amount_cents,
        "state": hit.state,
    }


def snapshot(bank: Bank) -> dict:
    """The first message on a socket and the body of the HTTP feed (before `localize`)."""
    from casino.clock import current_property

    prop = current_property()
    hits = Hit.objects.filter(bank=bank).order_by("-order")[:RECENT_HITS]
    return {
        "type": "snapshot",
        "bank": bank.slug,
        "name": bank.name,
        "name_en": bank.name_in("en"),  # localize keeps the one of the display's language
        "currency": prop.currency if prop else "EUR",
        "seq": bank.feed_seq,
        "status": bank.status,
        "levels": bank_levels(bank),
        "recent_hits": [{**hit_fields(h), "recorded_at": server_time(h.recorded_at)} for h in hits],
        "server_time": server_time(),
    }


def meter_message(bank: Bank) -> dict:
    return {"type": "meter", "bank": bank.slug, "seq": bank.feed_seq, "levels": bank_levels(bank)}


# --- sending -------------------------------------------------------------------------------


def group_event(payload: dict) -> dict:
    """The message as the group carries it: serialised once per display language here, so
    that each of hundreds of sockets only forwards a ready string."""
    event = {
        "type": "feed.message",
        "seq": payload["seq"],
        "text": {lang: json.dumps(localize(payload, lang)) for lang in LANGUAGES},
    }
    if payload["type"] == "status":
        event["status"] = payload["status"]  # the socket's heartbeat compares it when catching up
    return event


def send_to_group(slug: str, payload: dict) -> None:
    """Send a feed message to the bank's displays; works from any sync code."""
    live.group_send(feed_group(slug), group_event(payload))


def _next_seq(bank: Bank, save: bool) -> int:
    bank.feed_seq += 1
    if save:
        Bank.objects.filter(pk=bank.pk).update(feed_seq=bank.feed_seq)
    return bank.feed_seq


# Each announce_* takes the bank's next feed seq. `save=False`: the caller, which holds the
# bank's lock, saves `feed_seq` with the bank's totals (services._base.save_totals) in the
# same transaction: one UPDATE of the row instead of two.


def announce_meter(bank: Bank, *, save: bool = True) -> None:
    """The meter changed in this transaction; displays hear the committed value after commit."""
    _next_seq(bank, save)
    slug = bank.slug
    live.after_commit(lambda: request_meter_publish(slug))


def announce_hit(hit: Hit, *, save: bool = True) -> None:
    """A hit was recorded, verified or paid in this transaction."""
    bank = hit.bank
    payload = {"type": "hit", "bank": bank.slug, "seq": _next_seq(bank, save), **hit_fields(hit)}
    live.after_commit(lambda: send_to_group(bank.slug, payload))


def announce_status(bank: Bank, *, save: bool = True) -> None:
    """The bank opened or closed in this transaction."""
    payload = {
        "type": "status",
        "bank": bank.slug,
        "seq": _next_seq(bank, save),
        "status": bank.status,
        "reason": bank.status_reason,
    }
    live.after_commit(lambda: send_to_group(bank.slug, payload))


# --- meter publishing ----------------------------------------------------------------------


def request_meter_publish(slug: str) -> None:
    """After a commit that changed the meter: queue a publish of the committed value. With the
    broker down, this process publishes itself (casino.celery.Task)."""
    publish_meter.delay_on_commit(slug)


@shared_task(name="jackpot.feed.publish_meter", ignore_result=True)
def publish_meter(slug: str) -> None:
    """Send the bank's committed meter to its displays."""
    bank = Bank.objects.filter(slug=slug).first()
    if bank is not None:
        send_to_group(slug, meter_message(bank))
