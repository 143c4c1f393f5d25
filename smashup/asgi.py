"""ASGI entry point (daphne): Django for HTTP, Channels consumers for WebSockets."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smashup.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

# Set up Django (apps, settings) before anything imports models, such as the consumers in routing.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import WebsocketDenier  # noqa: E402
from django.conf import settings  # noqa: E402

from smashup.config import origin_allowed  # noqa: E402
from smashup.core import threads  # noqa: E402
from smashup.routing import websocket_urlpatterns  # noqa: E402


class SiteOriginValidator:
    """Accept a WebSocket only from a page of this site: its Origin (scheme, host and port) must be
    the site the socket was opened on (the request's Host, one of ALLOWED_HOSTS, and its scheme) or
    one of CSRF_TRUSTED_ORIGINS (``config.origin_allowed``). Channels' AllowedHostsOriginValidator
    would let any port and scheme of an allowed host in, and any page when ALLOWED_HOSTS is ``*``.
    Settings are read per handshake, so a changed setting (or a test's) applies at once."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SiteOriginValidator guards WebSocket connections only")
        allowed = origin_allowed(
            _header(scope, b"origin"),
            settings.ALLOWED_HOSTS,
            settings.CSRF_TRUSTED_ORIGINS,
            settings.DEBUG,
            host=_header(scope, b"host"),
            secure=_is_secure(scope),
        )
        if allowed:
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def _is_secure(scope) -> bool:
    """Whether the socket came over TLS: wss, or (behind a proxy) the header that
    SECURE_PROXY_SSL_HEADER names says so, as Django's request.is_secure() reads it for pages."""
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        name, expected = proxy
        name = name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin1")
        value = _header(scope, name)
        return value is not None and value.split(",")[0].strip() == expected
    return False


threads.apply_switch_interval()  # a web server process only (smashup.core.threads)

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SiteOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
