"""Spectators rendered once (issue 28): what the connections without a seat see, made once per server
process for each state of a game and each audience, and handed to all of them.

Every connection without a seat of its own (a spectator's page, a JSON spectator, the table display,
a hot seat device's privacy screen) sees what ``game.view(None)`` shows: nothing private. So its
update is the same text for all the connections of one *audience* (``Audience``: a spectator's page,
JSON, the display, a hot seat screen holding given seats) at one state of the game, and, for a page
that appends new log lines, from the same state it showed before. Rendering it once per connection
cost 250 spectators of one table 1.1 s per update, and slowed every other table of the process.

So each process (each event loop) keeps a ``SharedRenders``: the first connection that needs an
update asks for it and the process renders it (from the engine game it holds, as a player's ping
does, else from the database on live play's threads); the others asking for the same key while it
is being made wait for that very render, and those that come later take it from a small cache. A
connection asking for "the game as it is now" (on connecting, on a refresh or a catch-up) joins a
read of the database already under way for its audience.

Private content never goes through here: an audience is only ever rendered for ``seat=None``, and a
seat holder's connection renders its own view itself (``consumers``). The watchers are in a channel
group of their own (``live.watch_group_name``), pinged after the players' group, so that a crowd of
spectators is served after the players of its table.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections import Counter
from dataclasses import dataclass

from django.template.loader import render_to_string

from smashup.core import threads

from . import render
from .gamecache import cache as game_cache
from .gamecache import engine_game
from .live import apply_live_fields
from .lru import LRU
from .models import Game
from .undoing import may_undo

RENDERS_KEPT = 512  # updates kept per process: a few per audience of each game watched here


@dataclass(frozen=True)
class Audience:
    """Who an update is made for: ``kind`` "page" (a spectator's game page, HTML), "json", "display"
    (the table display) or "hotseat" (a hot seat device's privacy screen, which also needs the seats
    the device holds, ``held``). All of them see the spectator's view."""

    kind: str
    held: tuple[int, ...] = ()

    @property
    def appends_log(self) -> bool:
        """Whether an update depends on the state shown before: a page appends the new log lines."""
        return self.kind == "page"


@dataclass(frozen=True)
class Shown:
    """One update: the state it shows, the number of log lines a page then shows (None when it
    does not track them) and the text to send."""

    undos: int
    version: int
    status: str
    log_total: int | None
    text: str

    @property
    def state(self) -> tuple[int, int]:
        return (self.undos, self.version)


GONE = Shown(-1, -1, "", None, "")  # the game no longer exists


# ---------------------------------------------------------------------------------- rendering -----
def render_for(audience: Audience, row: Game, game, since: tuple | None) -> Shown:
    """The update of `audience` for `row` (whose engine game, at `row.version`, is `game`; None for a
    lobby). `since`: (undos, log lines) the page shows already, None to draw it all."""
    if row.is_lobby:
        if audience.kind == "json":
            text = json.dumps(
                {"type": "state", "version": 0, "status": row.status, "seat": None, "view": None}
            )
        else:
            text = render_to_string(
                "play/_status.html", {"game": row, "status": row.status, "seat": None, "oob": True}
            )
        return Shown(row.undos, row.version, row.status, None, text)
    log_total = None
    if audience.kind == "json":
        head = json.dumps(
            {
                "type": "state",
                "version": row.version,
                "status": row.status,
                "seat": None,
                "undos": row.undos,
                "deadline": row.deadline.isoformat() if row.deadline else None,
                "may_undo": may_undo(row, None),
            }
        )
        view = render.view_json((row.pk, row.undos, row.version), game, None)
        text = f'{head[:-1]}, "view": {view}}}'
    else:
        context = render.board_context(row, game, None)
        if audience.kind == "display":
            text = render.render_display(context)
        elif audience.kind == "hotseat":
            text = render.render_hot_seat(context, list(audience.held))
        else:
            redraw = since is None or since[0] != row.undos
            text = render.render_live(context, log_after=None if redraw else since[1])
            log_total = context["log_total"]
    return Shown(row.undos, row.version, row.status, log_total, text)


def can_render_alone(audience: Audience, row: Game, undos: int) -> bool:
    """Whether an update can be made from the engine game and the row's ping fields alone: a page's
    log lines of the server's own (turn timers, undos) come from the choice rows."""
    return not row.is_lobby and (audience.kind == "json" or not (row.turn_seconds or undos))


# ---------------------------------------------------------------------------------- sharing -------
class SharedRenders:
    """The updates of the watchers of this event loop's connections (see the module's docstring).
    ``renders`` counts the renders actually made, by audience kind (the tests read it)."""

    def __init__(self, size: int = RENDERS_KEPT):
        self.done = LRU(size)  # (pk, undos, version, status, audience, since) -> Shown
        self.pending: dict[tuple, asyncio.Future] = {}
        self.rows = LRU(size)  # game pk -> the last row read of it, for renders from a ping
        self.renders: Counter = Counter()

    async def update(
        self, pk: int, audience: Audience, since: tuple | None, *, ping: dict | None = None
    ) -> Shown:
        """The update of `audience` for game `pk`: at the state of `ping` (a ping's row fields,
        ``live.live_fields``) when given, else as the game is now (at least as new as the ping's
        state, should the database have to be read). ``GONE`` when the game was deleted."""
        if not audience.appends_log:
            since = None
        wanted = None
        if ping is not None:
            wanted = (pk, ping["undos"], ping["version"], ping["status"], audience, since)
            found = self.done.get(wanted)
            if found is not None:
                return found
            making = self.pending.get(wanted)
            if making is not None:
                return await asyncio.shield(making)
            made = self._from_ping(pk, audience, since, ping, wanted)
            if made is not None:
                return made
        latest = ("latest", pk, audience, since)
        making = self.pending.get(latest)
        if making is not None:
            shown = await asyncio.shield(making)
            if ping is None or shown is GONE or shown.state >= (ping["undos"], ping["version"]):
                return shown
            # A read that began before this ping's change was committed: read again.
        return await self._share(latest, lambda: self._read(pk, audience, since))

    def _from_ping(self, pk, audience, since, ping, key) -> Shown | None:
        """The fast path after a choice: the process holds the engine game at the ping's version
        (it applied the choice, or caught up already) and a row of the game, brought up to date with
        the ping's fields. On the event loop, with no query; None when it cannot."""
        row = self.rows.get(pk)
        if row is None or not can_render_alone(audience, row, ping["undos"]):
            return None
        state = (ping["undos"], ping["version"])
        game = game_cache.take(pk, state)
        if game is None:
            return None
        try:
            if len(game.choices) != ping["version"]:
                return None
            apply_live_fields(row, ping)
            shown = render_for(audience, row, game, since)
        finally:
            game_cache.put(pk, state, game)
        self.renders[audience.kind] += 1
        self.done.put(key, shown)
        return shown

    async def _read(self, pk: int, audience: Audience, since) -> Shown:
        result = await threads.live_play(_read_and_render)(pk, audience, since)
        if result is None:
            return GONE
        row, shown = result
        self.renders[audience.kind] += 1
        self.rows.put(pk, row)
        self.done.put((pk, shown.undos, shown.version, shown.status, audience, since), shown)
        return shown

    async def _share(self, key: tuple, make) -> Shown:
        """`make()` once for everyone asking for `key` meanwhile. It runs as a task of its own, so a
        connection that closes while waiting cancels only its own wait."""
        task = asyncio.ensure_future(make())
        self.pending[key] = task

        def finished(done: asyncio.Future) -> None:
            if self.pending.get(key) is done:
                del self.pending[key]
            if not done.cancelled():
                done.exception()  # retrieved: only those waiting, if any, raise it

        task.add_done_callback(finished)
        return await asyncio.shield(task)


def _read_and_render(pk: int, audience: Audience, since) -> tuple[Game, Shown] | None:
    """On live play's threads: the game as stored now, rendered for `audience`."""
    row = Game.objects.filter(pk=pk).first()
    if row is None:
        return None
    if row.is_lobby:
        return row, render_for(audience, row, None, since)
    with engine_game(row) as game:
        return row, render_for(audience, row, game, since)


_by_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def shared() -> SharedRenders:
    """The shared renders of the running event loop (one per server process)."""
    loop = asyncio.get_running_loop()
    found = _by_loop.get(loop)
    if found is None:
        found = _by_loop[loop] = SharedRenders()
    return found
