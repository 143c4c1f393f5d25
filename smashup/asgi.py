"""ASGI entry point (daphne): Django for HTTP, Channels consumers for WebSockets."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smashup.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

# Set up Django (apps, settings) before anything imports models, such as the consumers in routing.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import OriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from smashup.config import origin_allowed  # noqa: E402
from smashup.routing import websocket_urlpatterns  # noqa: E402


class SiteOriginValidator(OriginValidator):
    """Accept a WebSocket only from a page of this site: its Origin against the named hosts and
    CSRF_TRUSTED_ORIGINS (``config.origin_allowed``). Channels' AllowedHostsOriginValidator would let
    any page in when ALLOWED_HOSTS is ``*``; this one honours ``*`` only with DEBUG on. Settings are
    read per handshake, so a changed setting (or a test's) applies at once."""

    def __init__(self, application):
        super().__init__(application, [])

    def valid_origin(self, parsed_origin):
        origin = parsed_origin.geturl() if parsed_origin is not None else None
        return origin_allowed(origin, settings.ALLOWED_HOSTS, settings.CSRF_TRUSTED_ORIGINS, settings.DEBUG)


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SiteOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
