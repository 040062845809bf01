"""Every websocket route of the project, gathered from the apps."""

from jackpot.routing import websocket_urlpatterns as jackpot_ws
from tables.pit.routing import websocket_urlpatterns as pit_ws
from tables.routing import websocket_urlpatterns as tables_ws

websocket_urlpatterns = [*jackpot_ws, *tables_ws, *pit_ws]
