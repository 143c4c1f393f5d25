"""Open pages catch up by themselves when the channel layer's pings are lost (issue 12).

Live pages learn of a change from a ping on a channel-layer group, sent after the commit. While Redis
is down, or between its return and the layer's renewed subscriptions, those pings are lost: the
change is stored, but nobody is told, and a table would stay frozen until a reload. So each server
process keeps one ``Watch`` (per event loop) over its open connections:

- **A timer.** Every ``LIVE_CHECK_SECONDS`` (10) it reads the version of every game and event that
  has a connection in this process, in one query per kind, and hands each connection whose page
  shows another version a ``live.check`` message: the connection renders its own view then, as on a
  ping. While the layer is down, and for ``LIVE_RECOVERY_SECONDS`` (10) after it comes back, it
  checks every second instead.
- **The layer's health.** Every second it publishes a tiny message to a group nobody joins: when that
  fails the layer is down, and when it works again the layer is back. Each connection is told both
  (``live.layer``), so its page can say "reconnecting" and "live"; connections that could not join
  their group while the layer was down (``joined`` false) try again then (``live.join``), and the
  versions are checked at once.

A connection's own messages and the watch's are handled one at a time (its ``dispatch`` holds
``live_lock``), so a check never interleaves with a ping or a choice.

A consumer takes part by having ``live_key`` ((kind, pk)), ``live_behind(marker)``, a ``joined`` flag,
``live_lock`` and handlers for ``live.check`` / ``live.layer`` / ``live.join``; ``KINDS`` maps each kind
to a function that reads the markers (what the page's freshness is compared on) of many rows at once.
The page itself asks after a quiet while too (static/js/play.js, tournaments.js).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable

from channels.db import database_sync_to_async
from django.conf import settings

logger = logging.getLogger(__name__)

HEALTH_GROUP = "smashup.health"  # nobody joins it: publishing to it only says whether Redis answers
TICK = 1.0
PROBE_TIMEOUT = 2.0

# kind -> function(list of pks) -> {pk: marker}. Filled by the apps (play, tournaments).
KINDS: dict[str, Callable[[list[int]], dict]] = {}


def register_kind(kind: str, read_markers: Callable[[list[int]], dict]) -> None:
    KINDS[kind] = read_markers


def check_seconds() -> float:
    return float(getattr(settings, "LIVE_CHECK_SECONDS", 10.0))


def recovery_seconds() -> float:
    return float(getattr(settings, "LIVE_RECOVERY_SECONDS", 10.0))


def page_quiet_seconds() -> float:
    """After this long without a message, a live page asks its socket whether anything changed."""
    return float(getattr(settings, "LIVE_PAGE_QUIET_SECONDS", 30.0))


class Watch:
    """The open connections of one event loop, and the task that keeps them up to date."""

    def __init__(self):
        self.members: dict[tuple, set] = {}
        self.layer_up = True
        self.fast_until = 0.0
        self.next_check = 0.0
        self.task: asyncio.Task | None = None

    # ------------------------------------------------------------------ membership --------------
    def add(self, consumer) -> None:
        self.members.setdefault(consumer.live_key, set()).add(consumer)
        if self.task is None or self.task.done():
            self.next_check = time.monotonic() + check_seconds()
            self.task = asyncio.ensure_future(self._run())

    def discard(self, consumer) -> None:
        group = self.members.get(consumer.live_key)
        if group is not None:
            group.discard(consumer)
            if not group:
                del self.members[consumer.live_key]

    def consumers(self) -> list:
        return [c for group in self.members.values() for c in group]

    # ------------------------------------------------------------------ the loop ----------------
    async def _run(self) -> None:
        while self.members:
            await asyncio.sleep(TICK)
            try:
                await self.tick()
            except Exception:  # the watch must outlive any one failure
                logger.exception("live catch-up tick failed")

    async def tick(self) -> None:
        now = time.monotonic()
        up = await self.probe()
        if up != self.layer_up:
            self.layer_up = up
            if up:
                logger.info(
                    "channel layer reachable again: catching up %d connection(s)", len(self.consumers())
                )
                self.fast_until = now + recovery_seconds()
            else:
                logger.warning("channel layer unreachable: open pages are kept up to date from the database")
            self.next_check = now
            self._tell_all({"type": "live.layer", "up": up})
        if up:
            for consumer in self.consumers():
                if not consumer.joined:
                    self._tell(consumer, {"type": "live.join"})
        if now >= self.next_check:
            fast = not up or now < self.fast_until
            self.next_check = now + (TICK if fast else check_seconds())
            await self.check()

    async def probe(self) -> bool:
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        if layer is None:
            return True
        try:
            await asyncio.wait_for(layer.group_send(HEALTH_GROUP, {"type": "live.health"}), PROBE_TIMEOUT)
        except Exception:  # noqa: BLE001 - any failure means the pings do not get through
            return False
        return True

    async def check(self) -> int:
        """Read the markers of every watched row; tell each connection that is behind. Returns how
        many were told."""
        by_kind: dict[str, list[int]] = {}
        for kind, pk in list(self.members):
            by_kind.setdefault(kind, []).append(pk)
        told = 0
        for kind, pks in by_kind.items():
            read = KINDS.get(kind)
            if read is None:
                continue
            markers = await database_sync_to_async(read)(pks)
            for pk in pks:
                marker = markers.get(pk)
                for consumer in list(self.members.get((kind, pk), ())):
                    if consumer.live_behind(marker):
                        self._tell(consumer, {"type": "live.check", "marker": marker})
                        told += 1
        return told

    def _tell_all(self, message: dict) -> None:
        for consumer in self.consumers():
            self._tell(consumer, message)

    @staticmethod
    def _tell(consumer, message: dict) -> None:
        """Hand `message` to the consumer, unless one of its kind is still waiting there (a slow
        render, a join that hangs): they would only pile up behind it."""
        pending = consumer.__dict__.setdefault("_live_pending", set())
        if message["type"] in pending:
            return
        pending.add(message["type"])
        asyncio.ensure_future(_deliver(consumer, message, pending))


async def _deliver(consumer, message: dict, pending: set) -> None:
    try:
        await consumer.dispatch(message)
    except Exception:  # a connection closing meanwhile, a render that failed: its own problem
        logger.debug("could not deliver %s to a connection", message.get("type"), exc_info=True)
    finally:
        pending.discard(message["type"])


_watches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def watch() -> Watch:
    """The watch of the running event loop."""
    loop = asyncio.get_running_loop()
    found = _watches.get(loop)
    if found is None:
        found = _watches[loop] = Watch()
    return found


class CatchUp:
    """What a consumer needs to take part in the watch (mix it into an AsyncWebsocketConsumer).

    The consumer sets ``live_key`` by awaiting ``live_start(key)`` once its socket is accepted,
    implements ``live_behind(marker)``, the ``live_check`` handler and ``send_live_state(state)``
    (how its page is told "live" or "reconnecting"), joins its group with ``join_group`` and leaves
    it with ``leave_group``, calls ``live_stop()`` on disconnect, and handles every message under
    ``live_lock`` in its ``dispatch``."""

    live_key: tuple | None = None
    group: str | None = None
    joined = True
    live_said = "live"  # what the page was last told; a page that opens a socket shows "live"

    @property
    def live_lock(self) -> asyncio.Lock:
        lock = self.__dict__.get("_live_lock")
        if lock is None:
            lock = self.__dict__["_live_lock"] = asyncio.Lock()
        return lock

    async def join_group(self, group: str) -> bool:
        """Join the group of pings; while the layer is down that fails, and the watch tries again
        once it is back. Returns whether the connection is in its group."""
        self.group = group
        try:
            await self.channel_layer.group_add(group, self.channel_name)
        except Exception as exc:  # noqa: BLE001 - Redis unreachable, in any of its forms
            if self.joined:
                logger.warning("could not join %s (%s: %s); will try again", group, type(exc).__name__, exc)
            self.joined = False
        else:
            self.joined = True
        return self.joined

    async def leave_group(self) -> None:
        if self.group is None:
            return
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        except Exception:  # noqa: BLE001 - the layer is down: there is no subscription to drop
            logger.debug("could not leave %s", self.group, exc_info=True)

    async def live_start(self, key: tuple) -> None:
        """Join the watch (once the socket is accepted); a page whose updates cannot get through
        right now (the group not joined, or the layer known to be down) is told so at once."""
        self.live_key = key
        watch().add(self)
        if self.live_state() != "live":
            await self.tell_live_state(force=True)

    def live_stop(self) -> None:
        if self.live_key is not None:
            watch().discard(self)
            self.live_key = None

    def live_state(self) -> str:
        return "live" if self.joined and watch().layer_up else "reconnecting"

    async def tell_live_state(self, force: bool = False) -> None:
        """Tell the page whether its live updates get through, when that changed (or `force`)."""
        state = self.live_state()
        if force or state != self.live_said:
            self.live_said = state
            await self.send_live_state(state)

    # ------------------------------------------------------------------ handlers ----------------
    async def live_layer(self, message: dict) -> None:
        """The watch found the layer down, or back."""
        if self.live_key is not None:
            await self.tell_live_state()

    async def live_join(self, message: dict) -> None:
        """The layer is back: join the group this connection could not join, then catch up."""
        if self.live_key is None or self.joined or self.group is None:
            return
        if await self.join_group(self.group):
            await self.tell_live_state()
            await self.live_check({"type": "live.check", "marker": None})
