"""Telling open pages that a game changed: the channel groups of a game, the public fields a ping
carries, and notifications sent after a commit (or collected for an async caller to send).

A game has two groups: its players' (``group_name``: the seats' own connections, and the table page's
small pings) and its watchers' (``watch_group_name``: every connection without a seat, which this
process serves from one render per state, ``watching``). Each change pings the players' group first,
then the watchers': a crowd of spectators is served after the players of its table.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from django.db import transaction

from .models import Game

logger = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"play.game.{game_id}"


def watch_group_name(game_id: int) -> str:
    return f"play.game.{game_id}.watch"


# The game row's fields that change with every choice. A ping after a choice carries them (they are
# public: the version, whose decision it is, its deadline, who may take back the last choice), so a
# connection whose process holds the engine game at that version renders without reading the row.
LIVE_FIELDS = (
    "version", "undos", "status", "pending_seat", "pending_decision", "winner",
    "deadline", "deadline_seq", "undo_seat",
)  # fmt: skip


# What a choice changes in the game row (`apply_choice` writes only these).
CHOICE_FIELDS = (*LIVE_FIELDS, "state_hash", "finished_at", "updated_at")


def live_fields(row: Game) -> dict:
    fields = {name: getattr(row, name) for name in LIVE_FIELDS}
    fields["deadline"] = row.deadline.isoformat() if row.deadline is not None else None
    return fields


def apply_live_fields(row: Game, fields: dict) -> None:
    """Bring a row read earlier up to date with a ping's `live_fields`."""
    for name in LIVE_FIELDS:
        setattr(row, name, fields[name])
    row.deadline = datetime.fromisoformat(fields["deadline"]) if fields["deadline"] else None


_deferred = threading.local()


@contextmanager
def deferred_notifications() -> Iterator[list]:
    """Within the block, `notify` on this thread only collects its (group, event) pairs in the list
    it yields, for an async caller to send itself (`await layer.group_send(...)`) once the block is
    over: sending from a worker thread would hold that thread until the event loop, busy with other
    tables, gets round to the send."""
    collected: list = []
    outer = getattr(_deferred, "events", None)
    _deferred.events = collected
    try:
        yield collected
    finally:
        _deferred.events = outer


def notify(game_id: int, version: int, status: str, undos: int = 0, live: dict | None = None) -> None:
    """Tell every connection of a game that it changed, its players' group first, then its
    watchers'. Only public data goes to the groups: each seat's connection then renders its own
    view, the watchers share one render per audience (`watching`). (`undos` grows with each choice
    taken back: the version alone would go down then.) `live`: the row's `live_fields` after the
    change."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    event = {"type": "game.changed", "version": version, "status": status}
    if undos:
        event["undos"] = undos
    if live is not None:
        event["row"] = live
    groups = (group_name(game_id), watch_group_name(game_id))
    collecting = getattr(_deferred, "events", None)
    if collecting is not None:
        collecting.extend((group, event) for group in groups)
        return
    layer = get_channel_layer()
    if layer is None:
        return

    async def send() -> None:
        for group in groups:
            await layer.group_send(group, event)

    try:
        async_to_sync(send)()
    except Exception:  # the change is committed; clients catch up on their next message or reconnect
        logger.exception("could not notify game %s of version %s", game_id, version)


def changed_on_commit(row: Game) -> None:
    pk, version, status, undos = row.pk, row.version, row.status, row.undos
    transaction.on_commit(lambda: notify(pk, version, status, undos))
