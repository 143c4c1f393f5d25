"""How much a game WebSocket client may send, and how often it may connect. Plain code, so the consumer
stays thin and the rules are tested without sockets.

Messages, per connection: a token bucket (``MessageBudget``). A connection may send ``PLAY_WS_RATE``
= (N, S) messages in a burst and N every S seconds after that; a message over the budget is refused.
The count of refused messages never goes down (an accepted message does not clear it): a client that
keeps sending faster than the budget, even just a little faster, reaches N refusals and is closed.

Connections, per client (the browser session when there is one, else the IP address): a sliding
window counter in Django's cache (``connection_allowed``), so closing a connection and opening a new
one does not buy a fresh budget. A client may open ``PLAY_WS_CONNECT_RATE`` = (N, S) connections in
S seconds, and none for S seconds after one of its connections was closed for flooding. Without that
setting it is ``PLAY_WS_RATE``: a new connection counts like one more message, and there is one knob
to raise for load tests (whose thousands of clients all come from the loopback address).

The cache is Django's default one: Redis whenever REDIS_URL is set (``config.caches``), so every
server process sees the same counts; per process only in a bare development setup without Redis.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)

DEFAULT_RATE = (40, 10.0)
KEY_PREFIX = "play:ws"


def message_rate() -> tuple[int, float]:
    count, seconds = getattr(settings, "PLAY_WS_RATE", DEFAULT_RATE)
    return max(1, int(count)), max(0.001, float(seconds))


def connect_rate() -> tuple[int, float]:
    value = getattr(settings, "PLAY_WS_CONNECT_RATE", None)
    if value is None:
        return message_rate()
    count, seconds = value
    return max(1, int(count)), max(0.001, float(seconds))


class MessageBudget:
    """A token bucket: `limit` tokens, refilled at `limit` per `window` seconds; a message takes one.
    `refused` counts every message refused over the connection's life and is never reset."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self.tokens = float(limit)
        self.stamp = clock()
        self.refused = 0

    def take(self) -> bool:
        """Spend one token for a message; False (and one more refusal) when there is none."""
        now = self.clock()
        self.tokens = min(float(self.limit), self.tokens + (now - self.stamp) * self.limit / self.window)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False

    @property
    def exhausted(self) -> bool:
        """Whether the connection has been refused more than `limit` times: it is closed then."""
        return self.refused > self.limit


def client_key(scope) -> str:
    """Who a connection comes from, for the connection limit: its browser session, else its address."""
    session = scope.get("session")
    key = None
    if session is not None:
        try:
            key = session.session_key
        except Exception:  # no session store behind it: fall back to the address
            key = None
    if key:
        return f"session:{key}"
    client = scope.get("client") or ()
    return f"ip:{client[0]}" if client else "ip:unknown"


def _windows(window: float, now: float) -> tuple[int, float]:
    index = int(now // window)
    return index, (now - index * window) / window  # this window's number, how far into it (0..1)


def connection_allowed(who: str, now: float | None = None) -> bool:
    """Count one new connection of `who`; False when it goes over the limit or `who` was just closed
    for flooding. A sliding window: this window's count plus the part of the last one still in reach.
    While the cache (Redis) cannot be reached the connection is let in: a table that keeps working
    through an outage matters more than counting for a few seconds (issue 12)."""
    try:
        return _count_connection(who, now)
    except Exception as exc:  # noqa: BLE001 - the cache backend's errors, whatever the backend
        logger.warning(
            "connection limit not counted, the cache is unreachable (%s: %s)", type(exc).__name__, exc
        )
        return True


def _count_connection(who: str, now: float | None) -> bool:
    limit, window = connect_rate()
    if cache.get(f"{KEY_PREFIX}:flood:{who}"):
        return False
    now = time.time() if now is None else now
    index, into = _windows(window, now)
    key = f"{KEY_PREFIX}:conn:{who}:{index}"
    timeout = int(2 * window) + 1  # the next window still reads this one
    cache.add(key, 0, timeout=timeout)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=timeout)
        count = 1
    previous = cache.get(f"{KEY_PREFIX}:conn:{who}:{index - 1}") or 0
    return count + previous * (1.0 - into) <= limit


def mark_flooding(who: str) -> None:
    """`who` had a connection closed for flooding: refuse its new connections for a while."""
    _, window = connect_rate()
    try:
        cache.set(f"{KEY_PREFIX}:flood:{who}", True, timeout=max(1, int(window)))
    except Exception as exc:  # noqa: BLE001 - the flooding connection is closed anyway
        logger.warning(
            "could not mark %s as flooding, the cache is unreachable (%s)", who, type(exc).__name__
        )
