"""How much one client may do: plain code, so consumers and views stay thin and the rules are tested
without sockets (issue 12, "Limits that cannot be walked around").

Who a client is
    Its browser session when it has one, and ALWAYS its address too: each GET of a seat link makes a
    new session, so a limit per session alone is walked around by fetching a page. The address is
    ``REMOTE_ADDR`` (a socket's ``scope["client"]``); ``X-Forwarded-For`` is read only when that
    address is one of ``TRUSTED_PROXIES`` (``client_address``), never by default, since anyone can
    write the header. An IPv6 address counts by its /64 network, which one subscriber usually holds
    whole.

The limits, each ``(count, seconds)``, by name (``DEFAULT_RATES``; the ``RATE_LIMITS`` setting
overrides any of them, ``RATE_LIMIT_SCALE`` multiplies every count: the one knob the load test and
the browser tests raise):

- ``ws_message``: messages of one WebSocket connection, a token bucket (``MessageBudget``); the
  setting ``PLAY_WS_RATE`` when it is set. Over it a message is refused; the refusals add up over the
  connection's life and too many close it.
- ``ws_connect_session`` (``PLAY_WS_CONNECT_RATE``, else as ``ws_message``) and
  ``ws_connect_address``: new WebSocket connections (game and event sockets alike) of one session
  and of one address, in a sliding window (``connection_allowed``). Closing a connection does not
  give its place back, and a client just closed for flooding gets none for a window.
- ``play_post_session``, ``play_post_address``: the HTTP choice and undo fallback of the game page.
- Logins (``smashup/core/accounts.py`` says why): ``login_address`` (failed logins of an address),
  ``login_pair`` (failed logins of one user name from one address, or from one browser that logged
  into it before): over either, a 429 for that address (or pair). ``login_username`` (failed logins of
  one user name from browsers it does not know, from anywhere) locks nothing: over it, such browsers
  must confirm a login by a link mailed to the account.
- ``account_signup_address``, ``password_reset_address``: account sign-ups and password resets asked
  from one address; ``account_mail_email``: mails of either kind (and login links) to one e-mail
  address, over which nothing is sent and the page says the same as ever.
- ``signup_address``: sign-ups to events by people without an account.
- ``hint_seat``: hints asked by one seat of one game (``smashup.play.hints``), whatever its devices.
- ``live_tables_session``, ``live_tables_account``, ``live_tables_address``: tables waiting for
  players or in play (``smashup.play.quotas``; counted in the database, the seconds being how long
  a table with nothing happening in it still counts).

Counts live in Django's default cache: Redis whenever REDIS_URL is set (``config.caches``), so every
server process sees the same counts; per process only in a bare development setup without Redis.
When the cache cannot be reached, every limit lets the client through and logs a warning: a site
that keeps working through a Redis outage matters more than counting for a few seconds. After a
failure the limits leave the cache alone for ``CACHE_PAUSE`` seconds (``cache_paused``): a Redis that
hangs costs one request a timeout, not every request several (a new game socket asks the cache and the
open-socket counts five times; at 1 s each it outlasted daphne's 5 s to accept and was dropped).
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import logging
import math
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.html import format_html

logger = logging.getLogger(__name__)

KEY_PREFIX = "limits"

DEFAULT_RATES: dict[str, tuple[int, float]] = {
    "ws_message": (40, 10.0),
    "ws_connect_address": (300, 60.0),
    "play_post_session": (40, 10.0),
    "play_post_address": (300, 60.0),
    "login_address": (30, 300.0),
    "login_pair": (5, 900.0),
    "login_username": (20, 900.0),
    "account_signup_address": (5, 3600.0),
    "password_reset_address": (5, 3600.0),
    "account_mail_email": (3, 3600.0),
    "signup_address": (10, 3600.0),
    "hint_seat": (6, 60.0),
}
DEFAULT_RATE = DEFAULT_RATES["ws_message"]
# Live tables (issue 28; smashup.play.quotas): at most this many tables waiting for players or in play
# per browser session, account and address, a table counting while something happened in it within
# the seconds. Counted in the database (the tables themselves), not in the cache.
DEFAULT_RATES.update(
    live_tables_session=(3, 3600.0),
    live_tables_account=(5, 3600.0),
    live_tables_address=(10, 3600.0),
)


def rate(name: str) -> tuple[int, float]:
    """The limit `name` as (count, seconds), from the settings (see the module's docstring)."""
    value = None
    if name == "ws_message":
        value = getattr(settings, "PLAY_WS_RATE", None)
    elif name == "ws_connect_session":
        value = getattr(settings, "PLAY_WS_CONNECT_RATE", None)
        if value is None:
            return rate("ws_message")
    if value is None:
        value = (getattr(settings, "RATE_LIMITS", None) or {}).get(name) or DEFAULT_RATES[name]
    count, seconds = value
    scale = float(getattr(settings, "RATE_LIMIT_SCALE", 1) or 1)
    return max(1, int(int(count) * scale)), max(0.001, float(seconds))


def message_rate() -> tuple[int, float]:
    return rate("ws_message")


def connect_rate() -> tuple[int, float]:
    return rate("ws_connect_session")


CACHE_PAUSE = 5.0  # seconds the limits leave an unreachable cache alone before they try it again
_paused_until = 0.0


def cache_paused() -> bool:
    """Whether the cache failed within the last ``CACHE_PAUSE`` seconds (the limits then count
    nothing and let clients in, as when it fails)."""
    return time.monotonic() < _paused_until


def pause_cache() -> None:
    global _paused_until
    _paused_until = time.monotonic() + CACHE_PAUSE


def resume_cache() -> None:
    """Try the cache at the next count (the tests: each starts with a reachable cache)."""
    global _paused_until
    _paused_until = 0.0


class CachePaused(Exception):
    """The cache failed a moment ago: not asked (``cache_paused``)."""


def _unreachable(what: str, exc: Exception) -> None:
    if not isinstance(exc, CachePaused):
        pause_cache()
        logger.warning("%s not counted, the cache is unreachable (%s: %s)", what, type(exc).__name__, exc)


# ---------------------------------------------------------------------------------- who ---------
@functools.lru_cache(maxsize=16)
def _networks(entries: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def _trusted(address: str, proxies) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(proxies)))


def client_address(remote: str | None, forwarded: str | None = None, proxies=None) -> str | None:
    """The client's address: `remote` (the peer of the TCP connection), unless that peer is one of
    the trusted proxies (`proxies`, default ``settings.TRUSTED_PROXIES``, addresses or networks);
    then `forwarded` (an ``X-Forwarded-For`` value, each proxy appending the address it saw) is read
    from the right, skipping trusted proxies, and the first other address is the client. None when
    there is no address at all."""
    proxies = getattr(settings, "TRUSTED_PROXIES", ()) if proxies is None else proxies
    address = (remote or "").strip() or None
    if address is None or not forwarded or not proxies or not _trusted(address, proxies):
        return address
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, proxies):
            return hop[:64]  # a trusted proxy wrote it; cut a silly value short all the same
        address = hop
    return address  # every hop is one of ours: the leftmost is as far as anyone can tell


def address_key(address: str | None) -> str | None:
    """The key an address counts under: IPv4 as it is, IPv6 by its /64 network."""
    if not address:
        return None
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


def _header(scope, name: bytes) -> str | None:
    values = [v.decode("latin1") for k, v in scope.get("headers", []) if k == name]
    return ",".join(values) if values else None


def scope_address(scope) -> str | None:
    """The address of a WebSocket client (an ASGI scope)."""
    client = scope.get("client") or ()
    return address_key(client_address(client[0] if client else None, _header(scope, b"x-forwarded-for")))


def request_address(request) -> str | None:
    """The address of an HTTP client (a Django request)."""
    meta = request.META
    return address_key(client_address(meta.get("REMOTE_ADDR"), meta.get("HTTP_X_FORWARDED_FOR")))


def _session_key(session) -> str | None:
    if session is None:
        return None
    try:
        return session.session_key or None
    except Exception:  # noqa: BLE001 - no session store behind it: no session to count
        return None


def client_key(scope) -> str:
    """Who a connection comes from, for marking a flood: its browser session, else its address."""
    key = _session_key(scope.get("session"))
    if key:
        return f"session:{key}"
    address = scope_address(scope)
    return f"ip:{address}" if address else "ip:unknown"


# ---------------------------------------------------------------------------------- counting ----
def _windows(window: float, now: float) -> tuple[int, float]:
    index = int(now // window)
    return index, (now - index * window) / window  # this window's number, how far into it (0..1)


def _key(name: str, who: str, index: int) -> str:
    if len(who) > 80 or not who.isprintable() or " " in who:
        who = hashlib.sha256(who.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"{KEY_PREFIX}:{name}:{who}:{index}"


def _estimate(name: str, who: str, now: float, add: bool) -> tuple[float, int]:
    """This window's count (after adding one when `add`) plus the part of the last one still in
    reach: a sliding window from two counters. Returns it with the limit."""
    limit, window = rate(name)
    if cache_paused():
        raise CachePaused
    index, into = _windows(window, now)
    key = _key(name, who, index)
    if add:
        timeout = int(2 * window) + 1  # the next window still reads this one
        cache.add(key, 0, timeout=timeout)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=timeout)
            count = 1
    else:
        count = cache.get(key) or 0
    previous = cache.get(_key(name, who, index - 1)) or 0
    return count + previous * (1.0 - into), limit


def hit(name: str, who: str | None, now: float | None = None) -> bool:
    """Count one more of limit `name` for `who`; False when that goes over the limit. Every try
    counts, refused ones too, so a client that keeps trying stays refused. No `who` (no session, no
    address) and an unreachable cache let it through."""
    if not who:
        return True
    try:
        estimate, limit = _estimate(name, who, time.time() if now is None else now, add=True)
    except Exception as exc:  # noqa: BLE001 - the cache backend's errors, whatever the backend
        _unreachable(f"limit {name}", exc)
        return True
    return estimate <= limit


def reached(name: str, who: str | None, now: float | None = None) -> bool:
    """Whether `who` has used up limit `name` already, counting nothing (for limits that count
    only failures, such as failed logins)."""
    if not who:
        return False
    try:
        estimate, limit = _estimate(name, who, time.time() if now is None else now, add=False)
    except Exception as exc:  # noqa: BLE001
        _unreachable(f"limit {name}", exc)
        return False
    return estimate >= limit


def record(name: str, who: str | None, now: float | None = None) -> None:
    """Count one more of `name` for `who` without a decision (a failed login)."""
    hit(name, who, now)


# ---------------------------------------------------------------------------------- sockets -----
class MessageBudget:
    """A token bucket: `limit` tokens, refilled at `limit` per `window` seconds; a message takes one.
    `refused` counts every message refused over the connection's life and is never reset: a client
    that keeps sending faster than the budget, even a little faster, reaches `limit` refusals."""

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


def connection_allowed(scope, now: float | None = None) -> bool:
    """Count one new WebSocket connection (`scope`: its ASGI scope) against its session's limit
    and its address's; False when either is over, or the client was just closed for flooding.
    A client without a session counts by its address only (a venue's spectators share one). While
    the cache cannot be reached the connection is let in (and a warning logged)."""
    try:
        if cache_paused():
            raise CachePaused
        if cache.get(f"{KEY_PREFIX}:flood:{client_key(scope)}"):
            return False
    except Exception as exc:  # noqa: BLE001
        _unreachable("connection limit", exc)
        return True
    by_session = hit("ws_connect_session", _session_key(scope.get("session")), now)
    by_address = hit("ws_connect_address", scope_address(scope), now)
    return by_session and by_address


def mark_flooding(who: str) -> None:
    """`who` (a ``client_key``) had a connection closed for flooding: refuse its new connections for
    a window."""
    _, window = connect_rate()
    try:
        if cache_paused():
            raise CachePaused
        cache.set(f"{KEY_PREFIX}:flood:{who}", True, timeout=max(1, int(window)))
    except Exception as exc:  # noqa: BLE001 - the flooding connection is closed anyway
        if not isinstance(exc, CachePaused):
            pause_cache()
        logger.warning(
            "could not mark %s as flooding, the cache is unreachable (%s)", who, type(exc).__name__
        )


def too_many_connections_message() -> str:
    return (
        f"Too many connections from this browser or address: wait {connect_rate()[1]:g} seconds, then reload."
    )


CLOSE_FLOOD = 4029  # the close code of a connection refused or closed by a limit


class LimitedSocket:
    """The limits of a WebSocket consumer (game and event sockets alike): ``await self.admit()``
    first in ``connect`` (False: refused, told why and closed), ``await self.within_rate()`` first in
    ``receive`` (False: drop the message). The consumer has ``send_error(message, code)``, and may
    override ``flood_closed`` to stop work for a connection closed for flooding."""

    def in_thread(self, func):
        """`func` as a coroutine function on the consumer's database thread(s)."""
        from channels.db import database_sync_to_async

        return database_sync_to_async(func)

    async def admit(self) -> bool:
        self.budget = MessageBudget(*message_rate())
        self.warned = False
        self.flooded = False
        self.client = client_key(self.scope)
        if await self.in_thread(connection_allowed)(self.scope):
            return await self.hold_place("ws_open_address", scope_address(self.scope))
        await self.accept()
        await self.send_error(too_many_connections_message(), "rate_limited")
        await self.close(code=CLOSE_FLOOD)
        return False

    async def hold_place(self, name: str, who: str | None) -> bool:
        """Hold one of the places of `who` in limit `name` of the sockets open at once while this
        connection is open (``smashup.core.opensockets``). Over it: told why, closed with
        ``CLOSE_TOO_MANY_OPEN``, every place it held given back, and False."""
        from . import opensockets

        places = opensockets.counts()
        if await self.in_thread(places.claim)(self, name, who):
            return True
        places.release(self)
        await self.accept()
        await self.send_error(opensockets.refusal_message(name), "too_many_open")
        await self.close(code=opensockets.CLOSE_TOO_MANY_OPEN)
        return False

    async def websocket_disconnect(self, message):
        """Closed: give back the places this connection held, then the consumer's own handling."""
        from . import opensockets

        opensockets.counts().release(self)
        await super().websocket_disconnect(message)

    async def within_rate(self) -> bool:
        """The connection's message budget (`MessageBudget`). Over it, the first refused message of
        a run gets an error and the rest are dropped; the refusals add up over the connection's life
        (an accepted message does not clear them), and too many close it."""
        if self.flooded:
            return False
        if self.budget.take():
            self.warned = False  # only the warning starts again, never the count
            return True
        if self.budget.exhausted:
            self.flooded = True
            await self.send_error("Too many messages: this connection is closed.", "rate_limited")
            await self.close(code=CLOSE_FLOOD)
            self.flood_closed()
            await self.in_thread(mark_flooding)(self.client)
        elif not self.warned:
            self.warned = True
            await self.send_error(
                f"Too many messages: at most {self.budget.limit} every {self.budget.window:g} seconds. "
                "This one was ignored; slow down.",
                "rate_limited",
            )
        return False

    def flood_closed(self) -> None:
        """Called once the connection was closed for flooding."""


# ---------------------------------------------------------------------------------- pages -------
def wait_text(seconds: float) -> str:
    if seconds >= 120:
        return f"{math.ceil(seconds / 60)} minutes"
    return f"{math.ceil(seconds)} seconds"


def refusal(request, message: str, seconds: float, fragment: Callable[[str], str] | None = None):
    """The answer to a refused request: HTTP 429 with `message` and a Retry-After header; a small
    fragment for htmx (`fragment(message)` if given), a page otherwise."""
    if getattr(request, "htmx", False):
        body = fragment(message) if fragment else format_html('<p class="alert" role="alert">{}</p>', message)
        response = HttpResponse(body, status=429)
    else:
        response = render(request, "message.html", {"title": "Slow down", "message": message}, status=429)
    response["Retry-After"] = str(max(1, math.ceil(seconds)))
    return response


def request_keys(request, name: str) -> list[tuple[str, str | None]]:
    """The counters an HTTP request of limit family `name` goes to: ``<name>_session`` (its session,
    if it has one) and ``<name>_address``, for those of them that are limits."""
    keys = []
    if f"{name}_session" in DEFAULT_RATES:
        keys.append((f"{name}_session", _session_key(getattr(request, "session", None))))
    if f"{name}_address" in DEFAULT_RATES:
        keys.append((f"{name}_address", request_address(request)))
    return keys


def throttle(
    name: str,
    message: str,
    *,
    applies: Callable | None = None,
    fragment: Callable[[str], str] | None = None,
):
    """A view decorator: each request (for which `applies(request)` holds, if given) counts against
    the limits ``<name>_session`` and ``<name>_address``; over either, the view does not run and the
    client gets a 429 (``refusal``) saying `message` and how long to wait."""

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if applies is None or applies(request):
                over = [limit for limit, who in request_keys(request, name) if not hit(limit, who)]
                if over:
                    seconds = max(rate(limit)[1] for limit in over)
                    text = f"{message} Please wait {wait_text(seconds)} and try again."
                    return refusal(request, text, seconds, fragment)
            return view(request, *args, **kwargs)

        return wrapper

    return decorate
