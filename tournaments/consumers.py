"""The event WebSocket, ``ws/events/<event id>/``: read-only live updates for every event page.

On connect the server sends ``{"type": "state", "version": N, "clock": {...}}``; whenever the event
changes (a pairing, a result, a clock action, time called, a draft pick...) the event's group
carries ``{"type": "event.changed", "version": N}`` (after the commit, see services.touch) and each
connection sends its page ``{"type": "changed", "version": N, "clock": {...}}`` with the clock read
from the database. The page counts down from ``clock.deadline`` itself and re-fetches its live
parts when the version moved (static/js/tournaments.js).

Nothing can be changed through this socket: every client message gets
``{"type": "error", "code": "read_only", ...}`` and is otherwise ignored. Changes go through the
pages' POST forms, which check who may make them. An unknown event closes with 4404.
"""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from . import clock as clocks
from .live import group_name
from .models import Event, Round, RoundClock

CLOSE_NOT_FOUND = 4404


class EventConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.event_id = int(self.scope["url_route"]["kwargs"]["event_id"])
        self.group = None
        self.shown = -1
        state = await database_sync_to_async(self._state)()
        if state is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = group_name(self.event_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send("state", state)

    async def disconnect(self, code):
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(
            text_data=json.dumps(
                {
                    "type": "error",
                    "code": "read_only",
                    "message": "This socket only tells pages that the event changed; use the page's buttons.",
                }
            )
        )

    async def event_changed(self, message):
        if message.get("version", 0) <= self.shown:
            return
        state = await database_sync_to_async(self._state)()
        if state is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self._send("changed", state)

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
