"""WebSocket routes, served by ``smashup.asgi``. Apps add their consumers' paths here."""

from django.urls import re_path

from smashup.play.consumers import GameConsumer
from tournaments.consumers import EventConsumer

websocket_urlpatterns: list = [
    re_path(r"^ws/games/(?P<public_id>[A-Za-z0-9_-]{1,24})/$", GameConsumer.as_asgi()),
    re_path(r"^ws/events/(?P<event_id>[0-9]{1,10})/$", EventConsumer.as_asgi()),
]
