"""The table's live channel (spec/round-api.md, "Live updates"): staff only, by the session;
a dealer watches only the table they deal now. On connect, the table's current round first
(the one in progress, else the last one), then the table, then its seats' labels (a rated
seat's alias), then (at a table with a bank) the bank's meter; after that every committed change, and what the bank's display feed says
(`meter`, `hit`, `status`, as jackpot.feed words them, in the socket's language). Clients
only listen."""

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from casino import live
from casino.ids import db_id
from casino.roles import Role
from jackpot.feed import LANGUAGES, feed_group, localize, meter_message
from jackpot.models import Bank
from tables import selectors
from tables.live import seats_message, table_group

CLOSE_BAD_REQUEST = 4400
CLOSE_NO_TABLE = 4404
WATCHERS = (Role.DEALER, Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR)


def socket_language(scope, staff) -> str:
    """The language of the page that opened the socket (`?language=`), else the staff
    member's, else French: the meter's level labels are sent in it."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    for language in (*query.get("language", ()), staff.language):
        if language in LANGUAGES:
            return language
    return LANGUAGES[0]


def bank_meter(slug: str) -> dict | None:
    """The bank's meter now, as the feed's `meter` message (both labels; `localize` picks)."""
    bank = Bank.objects.filter(slug=slug).first()
    return None if bank is None else meter_message(bank)


class TableConsumer(AsyncJsonWebsocketConsumer):
    joined = False
    bank = None  # the slug of the table's progressive bank, whose feed the socket forwards
    meter_seq = 0

    async def connect(self):
        # Accept first: a close code can only be sent on an accepted socket.
        await self.accept()
        staff = await live.staff_or_none(self.scope, *WATCHERS)
        if staff is None:
            return await self.close(code=live.CLOSE_REFUSED)
        self.table_id = db_id(self.scope["url_route"]["kwargs"]["table_id"])
        if self.table_id is None:  # <int:...> takes any length of digits
            return await self.close(code=CLOSE_NO_TABLE)
        opening = await database_sync_to_async(selectors.table_watch)(staff, self.table_id)
        if opening is None:
            return await self.close(code=CLOSE_NO_TABLE)
        if opening is False:
            return await self.close(code=live.CLOSE_REFUSED)
        # Join before reading the snapshot so nothing committed in between is missed; an
        # older round message arriving after it is recognised by its seq.
        await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        self.joined = True
        table, round_ = await database_sync_to_async(selectors.table_watch_snapshot)(self.table_id)
        await self.send_json({"type": "round", "round": round_})
        await self.send_json({"type": "table", "table": table})
        # A tablet that connects or comes back after a rating opened or closed shows the
        # aliases now, not at the next rating write.
        await self.send_json(await database_sync_to_async(seats_message)(self.table_id))
        if table is not None and table["bank"] is not None:
            await self.follow_bank(table["bank"]["slug"], socket_language(self.scope, staff))

    async def follow_bank(self, slug: str, language: str):
        """Join the bank's feed (before reading its meter, as the displays do), then send it."""
        self.bank, self.language = slug, language
        await self.channel_layer.group_add(feed_group(slug), self.channel_name)
        meter = await database_sync_to_async(bank_meter)(slug)
        if meter is not None:
            self.meter_seq = meter["seq"]
            await self.send_json(localize(meter, language))

    async def disconnect(self, code):
        if self.joined:
            await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)
        if self.bank is not None:
            await self.channel_layer.group_discard(feed_group(self.bank), self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        await self.close(code=CLOSE_BAD_REQUEST)

    async def table_message(self, event):
        await self.send_json(event["payload"])

    async def feed_message(self, event):
        """The bank's feed: a ready string per language; an older meter is dropped."""
        if event["seq"] < self.meter_seq:
            return
        self.meter_seq = event["seq"]
        await self.send(text_data=event["text"][self.language])
