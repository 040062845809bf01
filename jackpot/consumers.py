"""The display feed's socket: check the token, join the bank's group, send a snapshot, then
forward what the bank announces, with a heartbeat. Displays only listen."""

import asyncio
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from casino import live
from jackpot import display_tokens
from jackpot.display_tokens import SEEN_EVERY_SECONDS
from jackpot.errors import BankNotFound
from jackpot.feed import feed_group, localize, server_time, snapshot
from jackpot.models import Bank

CLOSE_BAD_REQUEST = 4400  # the client sent something: the feed is read-only
CLOSE_REFUSED = live.CLOSE_REFUSED  # missing, unknown or revoked token
CLOSE_NO_BANK = 4404  # unknown bank


def _open(bank_slug: str, raw_token: str | None, channel_name: str, remote: str):
    token = display_tokens.display_authorize(bank_slug=bank_slug, raw_token=raw_token)
    display_tokens.display_connected(token=token, channel_name=channel_name, remote=remote)
    return token


def _snapshot(bank_id: int) -> dict:
    return snapshot(Bank.objects.get(pk=bank_id))


class DisplayFeedConsumer(AsyncJsonWebsocketConsumer):
    token = None

    async def connect(self):
        # Accept first: a close code (4403/4404) can only be sent on an accepted socket.
        await self.accept()
        slug = self.scope["url_route"]["kwargs"]["bank"]
        client = self.scope.get("client") or ("", 0)
        try:
            self.token = await database_sync_to_async(_open)(
                slug, live.scope_token(self.scope), self.channel_name, str(client[0] or "")
            )
        except BankNotFound:
            return await self.close(code=CLOSE_NO_BANK)
        except display_tokens.DisplayRefused:
            return await self.close(code=CLOSE_REFUSED)
        self.slug, self.language, self.last_seq = slug, self.token.language, 0
        # Join before reading the snapshot so nothing committed in between is missed; what
        # arrives meanwhile is delivered after the snapshot and dropped by seq if older.
        await self.channel_layer.group_add(feed_group(slug), self.channel_name)
        await self._send(await database_sync_to_async(_snapshot)(self.token.bank_id))
        self.heartbeat = asyncio.create_task(self._beat())

    async def disconnect(self, code):
        beat = getattr(self, "heartbeat", None)
        if beat is not None:
            beat.cancel()
        if self.token is not None:
            await self.channel_layer.group_discard(feed_group(self.slug), self.channel_name)
            await database_sync_to_async(display_tokens.display_disconnected)(
                token_id=self.token.pk, channel_name=self.channel_name
            )

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        await self.close(code=CLOSE_BAD_REQUEST)

    async def feed_message(self, event):
        if event["seq"] < self.last_seq:
            return  # an older coalesced meter overtaken by a newer message
        self.last_seq = event["seq"]
        await self.send(text_data=event["text"][self.language])

    async def feed_revoked(self, event):
        await self.close(code=CLOSE_REFUSED)

    async def _send(self, payload: dict) -> None:
        self.last_seq = max(self.last_seq, payload["seq"])
        await self.send_json(localize(payload, self.language))

    async def _beat(self) -> None:
        period = getattr(settings, "JACKPOT_FEED_HEARTBEAT_SECONDS", 5)
        seen = time.monotonic()
        while True:
            await asyncio.sleep(period)
            await self.send_json(
                {
                    "type": "heartbeat",
                    "bank": self.slug,
                    "seq": self.last_seq,
                    "server_time": server_time(),
                }
            )
            if time.monotonic() - seen >= SEEN_EVERY_SECONDS:
                seen = time.monotonic()
                await database_sync_to_async(display_tokens.display_seen)(token_id=self.token.pk)
                # RedisChannelLayer forgets a group member after group_expiry (one day by
                # default) while the socket stays open: the screen would get heartbeats but no
                # meter, and never show the fault. Joining again renews the membership.
                await self.channel_layer.group_add(feed_group(self.slug), self.channel_name)
