"""ASGI entry point (daphne): Django for HTTP, Channels consumers for WebSockets."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smashup.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

# Set up Django (apps, settings) before anything imports models, such as the consumers in routing.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from smashup.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
