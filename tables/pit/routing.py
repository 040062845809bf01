from django.urls import path

from tables.pit.consumers import PitConsumer

websocket_urlpatterns = [
    path("ws/pit/", PitConsumer.as_asgi()),
]
