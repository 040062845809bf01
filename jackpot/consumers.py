"""The display feed's socket: check the token, join the bank's group, record the screen,
send a snapshot, then forward what the bank announces, with a heartbeat. Displays only listen.
`_last_sweep` (per process) stays: it prunes dead servers' screens where no beat runs (embedded).

The heartbeat also reads the database, so that the feed stays true whatever the channel
layer lost (the in-memory layer never hears another process; Redis may drop a message): a
token revoked elsewhere closes the socket at the next beat, and a socket still behind the
bank's committed `seq` one beat after it saw it is caught up from the committed row. Each
socket makes its own read, one query per beat.
"""

import asyncio
import logging
import re
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from casino import live
from jackpot import display_tokens
from jackpot.display_tokens import (
    FEED_SUBPROTOCOL,
    SEEN_EVERY_SECONDS,
    TOKEN_SUBPROTOCOL_PREFIX,
    cookie_name,
)
from jackpot.errors import BankNotFound
from jackpot.feed import feed_group, localize, meter_message, server_time, snapshot
from jackpot.models import Bank

logger = logging.getLogger(__name__)

# A bank's code as its column stores it (a SlugField): anything else names no bank.
_SLUG = re.compile(r"[-a-zA-Z0-9_]+")
_SLUG_LENGTH = Bank._meta.get_field("slug").max_length

CLOSE_BAD_REQUEST = 4400  # the client sent something: the feed is read-only
CLOSE_REFUSED = live.CLOSE_REFUSED  # missing, unknown or revoked token
CLOSE_NO_BANK = 4404  # unknown bank
CLOSE_TRY_AGAIN = 1013  # the channel layer is unreachable: reconnect later
# How often a web process sweeps connection rows left by dead servers. Celery beat does it
# too in production; this keeps the embedded profile (no beat) and a dead beat covered.
SWEEP_EVERY_SECONDS = 15
_last_sweep = 0.0
# RedisChannelLayer forgets a group member after group_expiry (one day by default) while the
# socket stays open: the screen would get heartbeats but no meter. Joining again renews it.
REJOIN_EVERY_SECONDS = 60
# How long a closing socket waits for the channel layer to take it out of its group.
LAYER_SECONDS = 2


def display_credential(scope, bank_slug: str) -> str | None:
    """A screen's token: the subprotocol, the page's cookie, else `?token=` or the header."""
    for offered in scope.get("subprotocols") or []:
        if offered.startswith(TOKEN_SUBPROTOCOL_PREFIX):
            return offered[len(TOKEN_SUBPROTOCOL_PREFIX) :] or None
    cookie = (scope.get("cookies") or {}).get(cookie_name(bank_slug))
    return cookie or live.scope_token(scope)


def _could_be_a_bank(slug: object) -> bool:
    return isinstance(slug, str) and len(slug) <= _SLUG_LENGTH and _SLUG.fullmatch(slug) is not None


def _snapshot(bank_id: int) -> dict:
    return snapshot(Bank.objects.get(pk=bank_id))


def _meter(bank_id: int) -> dict:
    bank = Bank.objects.get(pk=bank_id)
    return {"meter": meter_message(bank), "status": bank.status, "reason": bank.status_reason}


class DisplayFeedConsumer(AsyncJsonWebsocketConsumer):
    token = None
    recorded = False  # the connection row exists (so disconnect removes it)

    async def connect(self):
        # Accept first: a close code (4403/4404) can only be sent on an accepted socket. A
        # client that offered subprotocols must get one back, and never its token.
        offered = self.scope.get("subprotocols") or []
        await self.accept(subprotocol=FEED_SUBPROTOCOL if FEED_SUBPROTOCOL in offered else None)
        slug = self.scope["url_route"]["kwargs"]["bank"]
        if not _could_be_a_bank(slug):
            # "demo%00" or 10,000 characters: no bank has that code, and asking the database
            # would end in a DataError (PostgreSQL refuses NUL bytes) instead of a close.
            return await self.close(code=CLOSE_NO_BANK)
        try:
            self.token = await database_sync_to_async(display_tokens.display_authorize)(
                bank_slug=slug, raw_token=display_credential(self.scope, slug)
            )
        except BankNotFound:
            return await self.close(code=CLOSE_NO_BANK)
        except display_tokens.DisplayRefused:
            return await self.close(code=CLOSE_REFUSED)
        self.slug, self.language, self.last_seq = slug, self.token.language, 0
        # Join before reading the snapshot so nothing committed in between is missed; what
        # arrives meanwhile is delivered after the snapshot and dropped by seq if older.
        try:
            await self.channel_layer.group_add(feed_group(slug), self.channel_name)
        except Exception:
            # Redis down: a screen that would hear nothing is not connected; it retries.
            logger.warning("display %s could not join its feed", self.token.pk, exc_info=True)
            self.token = None
            return await self.close(code=CLOSE_TRY_AGAIN)
        client = self.scope.get("client") or ("", 0)
        self.remote = str(client[0] or "")
        await database_sync_to_async(display_tokens.display_connected)(
            token=self.token, channel_name=self.channel_name, remote=self.remote
        )
        self.recorded = True
        snap = await database_sync_to_async(_snapshot)(self.token.bank_id)
        self.status = snap["status"]
        await self._send(snap)
        self.heartbeat = asyncio.create_task(self._beat())

    async def __call__(self, scope, receive, send):
        """The socket's whole life. However it ends, its row and its place in the process's
        watch end with it: a channel layer that fails (Redis stopped) ends the consumer with
        an exception and no `disconnect`, and the watch went on renewing the dead socket's
        row, so that the reconnected screens were listed twice (issue 23)."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._forget()

    async def disconnect(self, code):
        await self._forget()

    async def _forget(self) -> None:
        """Stop the heartbeat, drop the socket from the watch, delete its row, then leave the
        group if the layer answers (it forgets a silent member after its group expiry)."""
        beat = getattr(self, "heartbeat", None)
        if beat is not None:
            beat.cancel()
        channel_name = getattr(self, "channel_name", None)
        token, self.token = self.token, None
        if self.recorded:
            self.recorded = False
            await database_sync_to_async(display_tokens.display_disconnected)(
                token_id=token.pk, channel_name=channel_name
            )
        if token is not None:
            try:
                await asyncio.wait_for(
                    self.channel_layer.group_discard(feed_group(self.slug), channel_name),
                    timeout=LAYER_SECONDS,
                )
            except Exception:
                logger.info("display %s left its feed without the channel layer", token.pk)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        await self.close(code=CLOSE_BAD_REQUEST)

    async def feed_message(self, event):
        if event["seq"] < self.last_seq:
            return  # an older meter overtaken by a newer message
        self.last_seq = event["seq"]
        if event.get("status"):
            self.status = event["status"]
        await self.send(text_data=event["text"][self.language])

    async def feed_revoked(self, event):
        await self.close(code=CLOSE_REFUSED)

    async def _send(self, payload: dict) -> None:
        self.last_seq = max(self.last_seq, payload["seq"])
        await self.send_json(localize(payload, self.language))

    async def _beat(self) -> None:
        period = getattr(settings, "JACKPOT_FEED_HEARTBEAT_SECONDS", 5)
        rejoined = renewed = time.monotonic()
        behind = None  # a committed seq this socket had not received at the previous beat
        while True:
            await asyncio.sleep(period)
            renew = time.monotonic() - renewed >= SEEN_EVERY_SECONDS
            check = await database_sync_to_async(display_tokens.display_heartbeat)(
                connections={self.channel_name: (self.token.pk, self.remote)}, refresh=renew
            )
            if renew:
                renewed = time.monotonic()
            if self.token.pk in check.revoked:
                await self.close(code=CLOSE_REFUSED)
                return
            committed = check.feed_seqs.get(self.token.bank_id, self.last_seq)
            if committed > self.last_seq:
                if behind is not None and self.last_seq < behind:
                    # A beat ago this was already committed and it still has not come: lost.
                    await self._catch_up(committed)
                    behind = None
                else:
                    behind = committed  # maybe still on its way: give it one beat
            else:
                behind = None
            await self.send_json(
                {
                    "type": "heartbeat",
                    "bank": self.slug,
                    "seq": max(committed, self.last_seq),
                    "server_time": server_time(),
                }
            )
            if time.monotonic() - rejoined >= REJOIN_EVERY_SECONDS:
                rejoined = time.monotonic()
                await self.channel_layer.group_add(feed_group(self.slug), self.channel_name)
            await _sweep_now_and_then()

    async def _catch_up(self, committed: int) -> None:
        """Send the committed state as the messages it would have had: the status if it
        changed, then the meter, under the bank's current `seq`."""
        state = await database_sync_to_async(_meter)(self.token.bank_id)
        meter = state["meter"]
        if state["status"] != self.status:
            self.status = state["status"]
            status = {
                "type": "status",
                "bank": self.slug,
                "seq": meter["seq"],
                "status": state["status"],
                "reason": state["reason"],
            }
            await self._send(status)
        await self._send(meter)


async def _sweep_now_and_then() -> None:
    global _last_sweep
    if time.monotonic() - _last_sweep < SWEEP_EVERY_SECONDS:
        return
    _last_sweep = time.monotonic()
    try:
        await database_sync_to_async(display_tokens.display_connections_prune)()
    except Exception:
        logger.warning("display connections sweep failed", exc_info=True)
