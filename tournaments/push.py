"""Web Push (RFC 8030) of a player's notices to their phone, locked or not.

A page that the player allowed to alert subscribes through the browser's push manager with the
site's VAPID public key (``VAPID_PUBLIC_KEY``, settings from the environment: smashup/config.py) and
gives us the subscription: the push service's endpoint and the browser's keys (``p256dh``, ``auth``).
To send, we encrypt the message to those keys (RFC 8291, aes128gcm content coding of RFC 8188, with
the ``http_ece`` library), sign a VAPID token for the push service's origin (RFC 8292, ES256, with
``py_vapid``), and POST it to the endpoint; the service wakes the phone, whose service worker
(templates/tournaments/notices_sw.js) shows the notification.

An endpoint is only ever an address of a known push service (``WEB_PUSH_SERVICES``): otherwise anyone
could make the server POST to an address of their choosing. The answer decides what happens to the
subscription: 201 (or any 2xx) sent; 404 or 410 gone, the caller deletes it; anything else (a 429, a
5xx, a timeout) is logged and the subscription kept.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from enum import Enum
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings

logger = logging.getLogger(__name__)

MAX_ENDPOINT = 2000
SEND_TIMEOUT = 10.0  # seconds for one push service's answer
TOKEN_SECONDS = 12 * 3600  # a VAPID token's life (RFC 8292 allows at most 24 hours)
MAX_PAYLOAD = 3000  # bytes of JSON, under the 4096 of a push message once encrypted


class Result(Enum):
    SENT = "sent"
    GONE = "gone"  # 404/410: the subscription expired or was withdrawn
    FAILED = "failed"


class BadSubscription(ValueError):
    """A subscription that cannot be used: the message says why, for the page."""


@dataclass(frozen=True)
class Keys:
    endpoint: str
    p256dh: str
    auth: str


def enabled() -> bool:
    return bool(getattr(settings, "VAPID_PRIVATE_KEY", None))


def b64url_decode(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def service_allowed(endpoint: str, services: list[str] | None = None) -> bool:
    """Whether `endpoint` is an address of one of the push services allowed (an entry
    ``https://*.example.org`` covers the subdomains of example.org)."""
    if services is None:
        services = getattr(settings, "WEB_PUSH_SERVICES", [])
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return False
    host = (parts.hostname or "").lower()
    if not host or parts.username or parts.password:
        return False
    for service in services:
        allowed = urlsplit(service)
        if allowed.scheme != parts.scheme or (allowed.port or None) != (port or None):
            continue
        pattern = (allowed.hostname or "").lower()
        if pattern.startswith("*."):
            if host.endswith(pattern[1:]) and len(host) > len(pattern) - 1:
                return True
        elif host == pattern:
            return True
    return False


def check_subscription(endpoint: str, p256dh: str, auth: str) -> Keys:
    """The subscription a page sent, checked: an endpoint of an allowed push service, a P-256 public
    key and a 16-byte secret. Raises BadSubscription (its message for the page)."""
    endpoint, p256dh, auth = (str(v or "").strip() for v in (endpoint, p256dh, auth))
    if not endpoint or len(endpoint) > MAX_ENDPOINT:
        raise BadSubscription("The subscription has no endpoint, or one that is too long.")
    if not service_allowed(endpoint):
        raise BadSubscription("This browser's push service is not one this site sends to.")
    try:
        point = b64url_decode(p256dh)
        secret = b64url_decode(auth)
    except (binascii.Error, ValueError):
        raise BadSubscription("The subscription's keys are not base64url.") from None
    if len(secret) != 16:
        raise BadSubscription("The subscription's auth secret must be 16 bytes.")
    try:
        if len(point) != 65:
            raise ValueError
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise BadSubscription("The subscription's p256dh is not a P-256 public key.") from None
    return Keys(endpoint, b64url(point), b64url(secret))


def payload(notice, url: str) -> bytes:
    """What the service worker shows: the notice's title and body, its key (the notification's tag,
    so the open page's own alert of the same moment replaces it rather than doubling it) and the page
    a tap opens."""
    data = {"title": notice.title[:200], "body": notice.body[:1000], "key": notice.key, "url": url}
    return json.dumps(data, ensure_ascii=False).encode()[:MAX_PAYLOAD]


def encrypt(message: bytes, p256dh: str, auth: str) -> bytes:
    """`message` encrypted to a browser's keys: aes128gcm (RFC 8188) with the key derived as RFC 8291
    says, from a fresh ECDH key pair (its public key goes in the header) and a random salt."""
    import http_ece

    sender = ec.generate_private_key(ec.SECP256R1())
    return http_ece.encrypt(
        message,
        salt=os.urandom(16),
        private_key=sender,
        dh=b64url_decode(p256dh),
        auth_secret=b64url_decode(auth),
        version="aes128gcm",
    )


def vapid_authorization(endpoint: str, now: float | None = None) -> str:
    """The ``Authorization`` header for `endpoint` (RFC 8292): ``vapid t=<ES256 JWT>, k=<public key>``,
    the token's audience the push service's origin, its subject ``VAPID_SUBJECT``."""
    from py_vapid import Vapid02

    parts = urlsplit(endpoint)
    audience = f"{parts.scheme}://{parts.netloc.rsplit('@', 1)[-1]}"
    claims = {
        "aud": audience,
        "exp": int((now or time.time()) + TOKEN_SECONDS),
        "sub": settings.VAPID_SUBJECT,
    }
    # Our own check of the subject is in config.web_push_settings (mailto: or https:).
    vapid = Vapid02.from_raw(settings.VAPID_PRIVATE_KEY.encode())
    vapid.conf = {"no-strict": True}
    return vapid.sign(claims)["Authorization"]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A push service answers; it never sends us on (a redirect would take the message elsewhere)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def send(keys: Keys, message: bytes, *, ttl: int, urgency: str = "high", topic: str = "") -> Result:
    """POST one encrypted message to a subscription's push service. Never raises: a failure is
    logged and says FAILED; 404/410 say GONE."""
    if not enabled():
        return Result.FAILED
    if not service_allowed(keys.endpoint):  # the settings may have changed since it was stored
        logger.warning("push endpoint no longer among WEB_PUSH_SERVICES: not sent")
        return Result.FAILED
    try:
        body = encrypt(message, keys.p256dh, keys.auth)
        headers = {
            "Authorization": vapid_authorization(keys.endpoint),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": str(int(ttl)),
            "Urgency": urgency,
        }
        if topic:
            headers["Topic"] = topic
        request = urllib.request.Request(keys.endpoint, data=body, headers=headers, method="POST")
        with _opener.open(request, timeout=SEND_TIMEOUT) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
        exc.close()
    except Exception as exc:  # noqa: BLE001 - a push service that fails must not take anything down
        logger.warning("push to %s failed: %s", urlsplit(keys.endpoint).hostname, exc)
        return Result.FAILED
    if 200 <= status < 300:
        return Result.SENT
    if status in (404, 410):
        return Result.GONE
    logger.warning("push to %s answered %s", urlsplit(keys.endpoint).hostname, status)
    return Result.FAILED


def new_key_pair() -> tuple[str, str]:
    """A fresh VAPID key pair: (private, public), base64url, as VAPID_PRIVATE_KEY and VAPID_PUBLIC_KEY
    take them (manage.py vapid_keys)."""
    from smashup.config import vapid_public_key

    key = ec.generate_private_key(ec.SECP256R1())
    private = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    return private, vapid_public_key(private)
