"""WebSocket routes, served by ``smashup.asgi``. Apps add their consumers' paths here."""

websocket_urlpatterns: list = []
