from django.urls import path

from jackpot.consumers import DisplayFeedConsumer

websocket_urlpatterns = [
    path("ws/jackpot/<str:bank>/", DisplayFeedConsumer.as_asgi()),
]
