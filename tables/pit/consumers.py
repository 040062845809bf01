"""The pit's live channel (`/ws/pit/`): supervisors, managers and auditors, by the session.

Thin: it joins the floor's group (every table's changes), the pit's group (alerts, pit
actions, a table's ratings) and every bank's display feed, then forwards short notices; the page reads what it
shows from the pit's own pages, in its reader's language. Clients only listen.
"""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from casino import live
from jackpot.feed import feed_group
from jackpot.models import Bank
from tables.live import FLOOR_GROUP
from tables.pit.live import PIT_GROUP
from tables.pit.selectors import PIT_READERS

CLOSE_BAD_REQUEST = 4400


def bank_slugs() -> list[str]:
    return list(Bank.objects.order_by("slug").values_list("slug", flat=True))


class PitConsumer(AsyncJsonWebsocketConsumer):
    groups_joined: tuple[str, ...] = ()

    async def connect(self):
        # Accept first: a close code can only be sent on an accepted socket.
        await self.accept()
        staff = await live.staff_or_none(self.scope, *PIT_READERS)
        if staff is None:
            return await self.close(code=live.CLOSE_REFUSED)
        slugs = await database_sync_to_async(bank_slugs)()
        groups = (FLOOR_GROUP, PIT_GROUP, *(feed_group(slug) for slug in slugs))
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined = groups
        # Joined: the page reads everything once more, so nothing committed before is missed.
        await self.send_json({"type": "hello"})

    async def disconnect(self, code):
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        await self.close(code=CLOSE_BAD_REQUEST)

    async def floor_changed(self, event):
        await self.send_json({"type": "table", "table": event["table"]})

    async def pit_changed(self, event):
        await self.send_json({"type": "changed"})

    async def pit_seats(self, event):
        """A rating changed at a table: its page reads the seat map again."""
        await self.send_json({"type": "seats", "table": event["table"]})

    async def pit_alert(self, event):
        await self.send_json({"type": "alert", "alert": event["alert_id"]})

    async def table_message(self, event):  # not joined; a stray message is dropped
        return

    async def feed_message(self, event):
        """A bank's meter, hit or status changed: the page reads the banks again."""
        await self.send_json({"type": "bank"})
