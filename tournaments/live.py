"""Telling open pages that an event changed: a public ping on the event's channel group.

Only ``{"type": "event.changed", "version": N}`` travels through the group; each WebSocket then
reads what it shows (the clock) from the database itself (see consumers.py). Pages without a
WebSocket poll ``live.json`` instead; either way they re-fetch their fragments with htmx.
"""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)


def group_name(event_id: int) -> str:
    return f"tournaments.event.{event_id}"


def notify_event(event_id: int, version: int) -> None:
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(event_id), {"type": "event.changed", "version": version})
    except Exception:  # committed anyway; pages catch up on their next poll
        logger.exception("could not notify event %s of version %s", event_id, version)
