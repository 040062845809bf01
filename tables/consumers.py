"""The table's live channel (spec/round-api.md, "Live updates"): staff only, by the session;
a dealer watches only the table they deal now. On connect, the table's current round first
(the one in progress, else the last one), then the table; after that every committed change.
Clients only listen."""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from casino import live
from casino.roles import Role
from tables import selectors
from tables.live import table_group

CLOSE_BAD_REQUEST = 4400
CLOSE_NO_TABLE = 4404
WATCHERS = (Role.DEALER, Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR)


class TableConsumer(AsyncJsonWebsocketConsumer):
    joined = False

    async def connect(self):
        # Accept first: a close code can only be sent on an accepted socket.
        await self.accept()
        staff = await live.staff_or_none(self.scope, *WATCHERS)
        if staff is None:
            return await self.close(code=live.CLOSE_REFUSED)
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
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

    async def disconnect(self, code):
        if self.joined:
            await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        await self.close(code=CLOSE_BAD_REQUEST)

    async def table_message(self, event):
        await self.send_json(event["payload"])
