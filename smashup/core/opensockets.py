"""How many WebSocket connections are open at once, per address and per game (issue 28).

The limits of ``smashup.core.limits`` count NEW connections in a window; a client that opens its
sockets slowly could still hold hundreds open. So every game and event socket also holds a *place*
while it is open, given back when it closes:

- ``ws_open_address``: the sockets open at once from one address (game and event sockets together;
  an IPv6 address by its /64, ``limits.address_key``). Default 200: a venue behind one address,
  each player with a game page and an event page open, fits.
- ``ws_open_game``: the sockets of one game open at once that hold no seat of it (spectators, the
  table display, the table page): a seat holder's own connection is never refused for them.
  Default 500.

``SOCKET_LIMITS`` in the settings overrides either by name (a count); ``RATE_LIMIT_SCALE`` multiplies
them as it does every limit. A connection over a limit is told why (error code ``too_many_open``)
and closed with ``CLOSE_TOO_MANY_OPEN`` (4503); a later one gets in once a place is free.

Each process counts its own open connections exactly, in memory. With Redis as the cache (what
``REDIS_URL`` gives, ``config.caches``), every process also writes its counts to Redis, one field
per process in a hash per (limit, client), each with the time it is good until (``OPEN_SOCKETS_TTL``
seconds, 30): a process rewrites its fields every third of that, and when it dies they go stale and
stop counting, so a killed server gives its places back within that time, with no counter left to
leak. A new connection counts this process's own sockets plus the fresh fields of the others. The
processes read and write without a lock between them, so two connections let in at the same moment
by two processes may go one or two over a limit. While Redis cannot be reached, each process counts
its own sockets only, and logs a warning; after a failure it leaves Redis alone for as long as the
limits do (``limits.cache_paused``), so a hanging Redis costs one connection a timeout, not each.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
import weakref
from collections import Counter

from django.conf import settings

logger = logging.getLogger(__name__)

DEFAULT_LIMITS: dict[str, int] = {"ws_open_address": 200, "ws_open_game": 500}
CLOSE_TOO_MANY_OPEN = 4503  # the close code of a connection refused for the sockets open at once
DEFAULT_TTL = 30.0
FLUSH_DELAY = 0.2  # seconds a closed connection's count may wait to be written (closes come in bursts)

MESSAGES = {
    "ws_open_address": (
        "Too many connections are open from this address ({limit}): close some pages of this site, "
        "then reload."
    ),
    "ws_open_game": "This table has as many spectators as it can take ({limit}): try again later.",
}


def limit(name: str) -> int:
    """The limit `name` (see the module's docstring), from the settings."""
    value = (getattr(settings, "SOCKET_LIMITS", None) or {}).get(name) or DEFAULT_LIMITS[name]
    scale = float(getattr(settings, "RATE_LIMIT_SCALE", 1) or 1)
    return max(1, int(int(value) * scale))


def ttl() -> float:
    return max(1.0, float(getattr(settings, "OPEN_SOCKETS_TTL", DEFAULT_TTL)))


def refusal_message(name: str) -> str:
    return MESSAGES[name].format(limit=limit(name))


# ---------------------------------------------------------------------------------- stores ------
class LocalStore:
    """No other process to hear from (no Redis): this process's counts are all there is."""

    def others(self, key: str, now: float) -> int:
        return 0

    def write(self, counts: dict[str, int], now: float) -> None:
        pass


class RedisStore:
    """The counts of every process, in Redis: a hash per (limit, client), a field per process whose
    value is "<count> <good until>" (seconds since the epoch)."""

    def __init__(self, url: str, prefix: str, token: str):
        import redis
        from django.conf import settings

        # As the cache: half of REDIS_TIMEOUT, so a stalled Redis costs a new socket little, and the
        # limit lets people in while it cannot count (smashup.config.caches).
        timeout = getattr(settings, "REDIS_TIMEOUT", 2.0) / 2
        self.client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        self.prefix = prefix
        self.token = token

    def others(self, key: str, now: float) -> int:
        total = 0
        stale = []
        for field, value in self.client.hgetall(self.prefix + key).items():
            if field.decode() == self.token:
                continue
            count, _, until = value.decode().partition(" ")
            try:
                if float(until) < now:
                    stale.append(field)
                    continue
                total += max(0, int(count))
            except ValueError:
                stale.append(field)
        if stale:  # a process that died (or a garbled field): it no longer counts
            self.client.hdel(self.prefix + key, *stale)
        return total

    def write(self, counts: dict[str, int], now: float) -> None:
        life = ttl()
        pipe = self.client.pipeline(transaction=False)
        for key, count in counts.items():
            if count > 0:
                pipe.hset(self.prefix + key, self.token, f"{count} {now + life:.3f}")
                pipe.expire(self.prefix + key, int(life) + 1)
            else:
                pipe.hdel(self.prefix + key, self.token)
        pipe.execute()


def default_store(token: str):
    """Redis when the cache is Redis (as with ``REDIS_URL``), else this process alone."""
    cache = (getattr(settings, "CACHES", None) or {}).get("default") or {}
    if cache.get("BACKEND") != "django.core.cache.backends.redis.RedisCache":
        return LocalStore()
    location = cache["LOCATION"]
    url = location[0] if isinstance(location, list | tuple) else location
    return RedisStore(url, f"{cache.get('KEY_PREFIX') or 'smashup'}:open-sockets:", token)


# ---------------------------------------------------------------------------------- counting ----
class OpenCounts:
    """This process's open connections by (limit, client), and their places in the shared store.
    ``claim`` runs on a worker thread (it may ask Redis); ``release`` never waits: a thread of its
    own writes the counts that went down, and every third of the TTL all of this process's counts."""

    def __init__(self, store=None, token: str | None = None):
        self.token = token or f"{uuid.uuid4().hex[:12]}.{id(self):x}"
        self._store = store
        self.local: Counter = Counter()
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._dirty: set[str] = set()
        self._wake = threading.Condition(self._lock)
        self._flusher: threading.Thread | None = None

    @property
    def store(self):
        if self._store is None:
            self._store = default_store(self.token)
        return self._store

    @staticmethod
    def key(name: str, who: str) -> str:
        from .limits import _key  # the same key scheme as the other limits (a long client hashed)

        return _key(name, who, 0).rsplit(":", 1)[0]

    def claim(self, holder, name: str, who: str | None, now: float | None = None) -> bool:
        """Take one place of limit `name` for client `who` for `holder` (a connection: its places
        are given back by ``release(holder)``, or when it is garbage); False when none is free. No
        `who` takes no place."""
        if not who:
            return True
        from .limits import cache_paused, pause_cache

        key = self.key(name, who)
        now = time.time() if now is None else now
        others = 0
        if not cache_paused():
            try:
                others = self.store.others(key, now)
            except Exception as exc:  # noqa: BLE001 - the store's errors, whatever they are
                pause_cache()
                logger.warning("open sockets of other processes not counted, Redis is unreachable (%s)", exc)
        with self._lock:
            if self.local[key] + others >= limit(name):
                return False
            self.local[key] += 1
            places = holder.__dict__.get("_open_places")
            if places is None:
                places = holder.__dict__["_open_places"] = []
                weakref.finalize(holder, self._release_keys, places)
            places.append(key)
            self._ensure_flusher()  # which also keeps this process's counts fresh in the store
        self._write([key], now)
        return True

    def release(self, holder) -> None:
        """Give back every place `holder` holds (when its connection closes)."""
        self._release_keys(holder.__dict__.get("_open_places") or [])

    def _release_keys(self, places: list) -> None:
        with self._lock:
            while places:
                key = places.pop()
                self.local[key] -= 1
                if self.local[key] <= 0:
                    del self.local[key]
                self._dirty.add(key)
            self._ensure_flusher()
            self._wake.notify()

    def holding(self, name: str, who: str) -> int:
        """How many places of `name` this process holds for `who` (for the tests)."""
        with self._lock:
            return self.local.get(self.key(name, who), 0)

    def reset(self) -> None:
        """Forget every count of this process (each test starts with none)."""
        with self._lock:
            self._dirty.update(self.local)
            self.local.clear()

    def _write(self, keys, now: float) -> None:
        from .limits import CachePaused, cache_paused, pause_cache

        with self._write_lock:  # a count read and written in order: never an older one last
            with self._lock:
                counts = {key: self.local.get(key, 0) for key in keys}
            try:
                if cache_paused():
                    raise CachePaused
                self.store.write(counts, now)
            except Exception as exc:  # noqa: BLE001 - written again at the next beat
                if not isinstance(exc, CachePaused):
                    pause_cache()
                    logger.warning("open sockets not written, Redis is unreachable (%s)", exc)
                with self._lock:
                    self._dirty.update(keys)

    def _ensure_flusher(self) -> None:
        if self._flusher is None or not self._flusher.is_alive():
            self._flusher = threading.Thread(target=self._flush_forever, name="open-sockets", daemon=True)
            self._flusher.start()

    def _flush_forever(self) -> None:
        beat = time.monotonic()
        while True:
            with self._lock:
                self._wake.wait(timeout=ttl() / 3)
            time.sleep(FLUSH_DELAY)  # the rest of a burst of closes
            with self._lock:
                keys = set(self._dirty)
                self._dirty.clear()
                if time.monotonic() - beat >= ttl() / 3:
                    keys.update(self.local)  # still open: still good
                    beat = time.monotonic()
            if keys:
                self._write(sorted(keys), time.time())


_counts: OpenCounts | None = None
_counts_lock = threading.Lock()


def counts() -> OpenCounts:
    """This process's counts."""
    global _counts
    with _counts_lock:
        if _counts is None:
            _counts = OpenCounts()
        return _counts
