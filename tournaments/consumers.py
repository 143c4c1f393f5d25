"""The event WebSocket, ``ws/events/<event id>/``: read-only live updates for every event page.

On connect the server sends ``{"type": "state", "version": N, "clock": {...}}``; whenever the event
changes (a pairing, a result, a clock action, time called, a draft pick...) the event's group
carries ``{"type": "event.changed", "version": N}`` (after the commit, see services.touch) and each
connection sends its page ``{"type": "changed", "version": N, "clock": {...}}`` with the clock read
from the database. The page counts down from ``clock.deadline`` itself and re-fetches its live
parts when the version moved (static/js/tournaments.js).

While the channel layer cannot carry pings (Redis down), the socket still opens, and the page is told
``{"type": "live", "state": "reconnecting"}`` (``"live"`` once pings get through again); meanwhile the
process's watch (``smashup.core.catchup``) compares each event's version, and whether its clock has
something due, with what the page was sent, and sends the page a ``changed`` when it is behind. A
clock past its deadline is applied then as on any read (``clock.catch_up``), so time is called even
before beat's sweep gets through.

Nothing can be changed through this socket: every client message gets
``{"type": "error", "code": "read_only", ...}`` and is otherwise ignored. Changes go through the
pages' POST forms, which check who may make them. An unknown event closes with 4404.

Limits (``smashup.core.limits``, as on game sockets): each session and each address may open so many
sockets per window (game and event sockets count together), and each connection may send
``PLAY_WS_RATE`` messages; over either the client gets ``{"type": "error", "code": "rate_limited"}``
and a connection refused too often is closed with 4029.
"""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone

from smashup.core import catchup, limits

from . import clock as clocks
from .live import group_name
from .models import Event, Round, RoundClock

CLOSE_NOT_FOUND = 4404


class EventConsumer(limits.LimitedSocket, catchup.CatchUp, AsyncWebsocketConsumer):
    async def connect(self):
        self.event_id = int(self.scope["url_route"]["kwargs"]["event_id"])
        self.group = None
        self.shown = -1
        if not await self.admit():
            return
        state = await database_sync_to_async(self._state)()
        if state is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.join_group(group_name(self.event_id))  # may fail while Redis is down
        await self.accept()
        await self._send("state", state)
        await self.live_start(("event", self.event_id))

    async def dispatch(self, message):
        async with self.live_lock:  # one at a time with the catch-up's messages
            await super().dispatch(message)

    async def disconnect(self, code):
        self.live_stop()
        await self.leave_group()

    async def receive(self, text_data=None, bytes_data=None):
        if not await self.within_rate():
            return
        await self.send_error(
            "This socket only tells pages that the event changed; use the page's buttons.", "read_only"
        )

    async def send_error(self, message: str, code: str):
        await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))

    async def event_changed(self, message):
        if message.get("version", 0) <= self.shown:
            return
        state = await database_sync_to_async(self._state)()
        if state is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self._send("changed", state)

    # ------------------------------------------------------------------ catching up (issue 12) --
    def live_behind(self, marker) -> bool:
        """`marker`: (the event's version, whether its clock has a warning or the end due); None
        once the event is gone."""
        if marker is None:
            return True
        version, clock_due = marker
        return version > self.shown or clock_due

    async def live_check(self, message):
        state = await database_sync_to_async(self._state)()
        if state is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if state["version"] > self.shown:
            await self._send("changed", state)

    async def send_live_state(self, state: str):
        await self.send(text_data=json.dumps({"type": "live", "state": state}))

    async def _send(self, kind: str, state: dict):
        self.shown = max(self.shown, state["version"])
        await self.send(text_data=json.dumps({"type": kind, **state}))

    def _state(self) -> dict | None:
        version = Event.objects.filter(pk=self.event_id).values_list("version", flat=True).first()
        if version is None:
            return None
        rnd = Round.objects.filter(event_id=self.event_id).select_related("clock").order_by("-number").first()
        clock = None
        if rnd is not None:
            try:
                clock = clocks.catch_up(rnd.clock)
            except RoundClock.DoesNotExist:
                clock = None
        return {"version": version, "clock": clocks.state(clock)}


def _event_markers(pks: list[int]) -> dict:
    """(version, clock due) of each event, for the catch-up's comparison: two queries for all."""
    now = timezone.now()
    versions = dict(Event.objects.filter(pk__in=pks).values_list("pk", "version"))
    running = RoundClock.objects.filter(
        round__event_id__in=pks, status=RoundClock.Status.RUNNING, deadline__isnull=False
    ).select_related("round")
    due = {c.round.event_id for c in running if clocks.due(c, now)}
    return {pk: (version, pk in due) for pk, version in versions.items()}


catchup.register_kind("event", _event_markers)
