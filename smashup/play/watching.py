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
spectators is served after the players of its table; in that group each process is one member per
game (its ``Hub``), whatever the number of watchers it serves.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from collections import Counter
from dataclasses import dataclass

from django.template.loader import render_to_string

from smashup.core import threads

from . import render
from .gamecache import cache as game_cache
from .gamecache import engine_game
from .live import apply_live_fields, watch_group_name
from .lru import LRU
from .models import Game
from .undoing import may_undo

logger = logging.getLogger(__name__)

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
    timed: bool = False  # it shows a turn timer's seconds left, as they were when it was made
    made_at: float = 0.0  # time.monotonic()

    @property
    def state(self) -> tuple[int, int]:
        return (self.undos, self.version)

    def fresh(self) -> bool:
        """Whether it may still be sent: a page counts a turn timer down from the seconds left it
        was sent (the server's clock, not the device's), so an update with a timer is good for
        ``TIMER_FRESH`` seconds only; any other for as long as its state lasts."""
        return not self.timed or time.monotonic() - self.made_at < TIMER_FRESH


GONE = Shown(-1, -1, "", None, "")  # the game no longer exists
TIMER_FRESH = 1.0


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
        if audience.kind == "display":  # with the display's own parts (players, last moves, scoring)
            text = render.render_display(render.display_context(row, game, context))
        elif audience.kind == "hotseat":
            text = render.render_hot_seat(context, list(audience.held))
        else:
            redraw = since is None or since[0] != row.undos
            text = render.render_live(context, log_after=None if redraw else since[1])
            log_total = context["log_total"]
    timed = row.deadline is not None and row.status == Game.Status.ACTIVE
    return Shown(row.undos, row.version, row.status, log_total, text, timed, time.monotonic())


def can_render_alone(audience: Audience, row: Game, undos: int) -> bool:
    """Whether an update can be made from the engine game and the row's ping fields alone: a page's
    log lines of the server's own (turn timers, undos) come from the choice rows."""
    return not row.is_lobby and (audience.kind == "json" or not (row.turn_seconds or undos))


# ---------------------------------------------------------------------------------- sharing -------
class SharedRenders:
    """The updates of the watchers of this event loop's connections (see the module's docstring).
    ``made`` counts the renders actually made, by audience kind (the tests read it)."""

    def __init__(self, size: int = RENDERS_KEPT):
        self.done = LRU(size)  # (pk, undos, version, status, audience, since) -> Shown
        self.pending: dict[tuple, asyncio.Future] = {}
        self.rows = LRU(size)  # game pk -> the last row read of it, for renders from a ping
        self.made: Counter = Counter()

    async def update(
        self,
        pk: int,
        audience: Audience,
        since: tuple | None,
        *,
        state: tuple | None = None,
        fields: dict | None = None,
    ) -> Shown:
        """The update of `audience` for game `pk`: at `state` ((undos, version, status) of a ping)
        when given, rendered from `fields` (the ping's row fields, ``live.live_fields``) and the
        engine game this process holds when it can, else read from the database as the game is now
        (at least as new as `state`). ``GONE`` when the game was deleted."""
        if not audience.appends_log:
            since = None
        if state is not None:
            wanted = (pk, *state, audience, since)
            found = self.done.get(wanted)
            if found is not None and found.fresh():
                return found
            making = self.pending.get(wanted)
            if making is not None:
                return await asyncio.shield(making)
            if fields is not None:
                made = self._from_ping(pk, audience, since, fields, wanted)
                if made is not None:
                    return made
        latest = ("latest", pk, audience, since)
        making = self.pending.get(latest)
        if making is not None:
            shown = await asyncio.shield(making)
            if state is None or shown is GONE or shown.state >= state[:2]:
                return shown
            # A read that began before the change of `state` was committed: read again.
        return await self._share(latest, lambda: self._read(pk, audience, since))

    def _from_ping(self, pk, audience, since, fields, key) -> Shown | None:
        """The fast path after a choice: the process holds the engine game at the ping's version
        (it applied the choice, or caught up already) and a row of the game, brought up to date with
        the ping's fields. On the event loop, with no query; None when it cannot."""
        row = self.rows.get(pk)
        if row is None or not can_render_alone(audience, row, fields["undos"]):
            return None
        state = (fields["undos"], fields["version"])
        game = game_cache.take(pk, state)
        if game is None:
            return None
        try:
            if len(game.choices) != fields["version"]:
                return None
            apply_live_fields(row, fields)
            shown = render_for(audience, row, game, since)
        finally:
            game_cache.put(pk, state, game)
        self.made[audience.kind] += 1
        self.done.put(key, shown)
        return shown

    async def _read(self, pk: int, audience: Audience, since) -> Shown:
        result = await threads.live_play(self._read_and_render)(pk, audience, since)
        if result is None:
            return GONE
        row, shown, rendered = result
        self.rows.put(pk, row)
        if rendered:
            self.made[audience.kind] += 1
            self.done.put((pk, shown.undos, shown.version, shown.status, audience, since), shown)
        return shown

    def _read_and_render(self, pk: int, audience: Audience, since) -> tuple[Game, Shown, bool] | None:
        """On live play's threads: the game as stored now, rendered for `audience` unless that
        update was made already (a crowd connecting reads the row each, renders once). Returns the
        row, the update and whether it was rendered here; None when the game is gone."""
        row = Game.objects.filter(pk=pk).first()
        if row is None:
            return None
        found = self.done.get((pk, row.undos, row.version, row.status, audience, since))
        if found is not None and found.fresh():
            return row, found, False
        if row.is_lobby:
            return row, render_for(audience, row, None, since), True
        with engine_game(row) as game:
            return row, render_for(audience, row, game, since), True

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


class Hub:
    """The watchers of one game in this process, and their one place in the game's watchers' group.

    The hub's channel is the group's only member here, whatever the number of watchers: a ping is
    read and decoded once, not once per connection. On a ping the hub first lets the players of the
    table in this process send theirs (``PLAYERS_FIRST`` seconds at most), then has each audience's
    update rendered once and sends it to the watchers that do not show that state yet, ``CHUNK`` at
    a time, each chunk followed by a pause ``PACE`` times as long as it took (``PACE_MAX`` at most):
    the event loop is free two thirds of the time for the other tables' messages, the sockets'
    writes and live play's threads. Pings that come in while it sends are taken together (the
    newest one), and a newer ping stops the sending of an older update: the watchers not sent it yet
    get the newer one.
    """

    def __init__(self, watchers: Watchers, pk: int):
        self.watchers = watchers
        self.pk = pk
        self.members: set = set()
        self.channel: str | None = None
        self.joined = False
        self.reader: asyncio.Task | None = None
        self.sender: asyncio.Task | None = None
        self.next: dict | None = None  # the newest ping not sent yet
        self.sent = 0  # updates sent (the tests read it)

    async def add(self, consumer) -> bool:
        """Count `consumer` in; join the group if the hub is not in it yet. Returns whether the hub
        is in its group (False while the channel layer cannot be reached: the catch-up tries again)."""
        self.members.add(consumer)
        return await self.join()

    async def join(self) -> bool:
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        if self.joined or layer is None:
            self.joined = True
            return True
        try:
            if self.channel is None:
                self.channel = await layer.new_channel(prefix="watchers.")
                self.reader = asyncio.ensure_future(self._read(layer, self.channel))
            await layer.group_add(watch_group_name(self.pk), self.channel)
        except Exception as exc:  # noqa: BLE001 - Redis unreachable, in any of its forms
            logger.warning("the watchers of game %s could not join their group (%s)", self.pk, exc)
            return False
        self.joined = True
        return True

    async def discard(self, consumer) -> None:
        self.members.discard(consumer)
        if self.members or self.watchers.hubs.get(self.pk) is not self:
            return
        del self.watchers.hubs[self.pk]
        for task in (self.reader, self.sender):
            if task is not None:
                task.cancel()  # the layer drops the reader's channel's subscription
        if self.joined and self.channel is not None:
            from channels.layers import get_channel_layer

            try:
                await get_channel_layer().group_discard(watch_group_name(self.pk), self.channel)
            except Exception:  # noqa: BLE001 - the layer is down: there is no subscription to drop
                logger.debug("could not leave the watchers' group of game %s", self.pk, exc_info=True)

    async def _read(self, layer, channel: str) -> None:
        """Take the pings in; one task sends them, the newest first come when it is free."""
        while True:
            try:
                event = await layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the catch-up covers what is missed meanwhile
                logger.exception("the watchers of game %s could not read their pings", self.pk)
                await asyncio.sleep(1.0)
                continue
            if event.get("type") != "game.changed":
                continue
            if self.next is None or _ping_state(event) >= _ping_state(self.next):
                self.next = event
            if self.sender is None or self.sender.done():
                self.sender = asyncio.ensure_future(self._send_all())

    async def _send_all(self) -> None:
        while self.next is not None:
            event, self.next = self.next, None
            try:
                await self.changed(event)
            except Exception:  # noqa: BLE001 - the hub must outlive any one failure
                logger.exception("the watchers of game %s missed an update", self.pk)

    async def changed(self, event: dict) -> None:
        state = (event.get("undos", 0), event.get("version", 0), event.get("status"))
        await self.watchers.players_done(self.pk, state[:2])
        behind: dict[tuple, list] = {}
        for member in list(self.members):
            if member.shows_at_least(state):
                continue
            behind.setdefault((member.audience, member.watched_since()), []).append(member)
        for (audience, since), members in behind.items():
            try:
                shown = await self.watchers.renders.update(
                    self.pk, audience, since, state=state, fields=event.get("row")
                )
            except Exception:  # noqa: BLE001 - each connection then reads for itself
                logger.exception("rendering game %s for its watchers failed", self.pk)
                for member in members:
                    member.catch_up_soon()
                continue
            for start in range(0, len(members), CHUNK):
                if self.next is not None and shown is not GONE:
                    return  # a newer ping came: the rest get that one instead
                began = time.monotonic()
                for member in members[start : start + CHUNK]:
                    if shown is GONE:
                        await member.game_gone()
                    elif member.audience != audience or member.watched_since() != since:
                        member.catch_up_soon()  # it showed something else meanwhile
                    elif await member.show_shared(shown):
                        self.sent += 1
                # Twice as long with the event loop free (and the GIL for live play's threads): the
                # players of every table come first, the watchers take a third of the time at most.
                await asyncio.sleep(min(PACE * (time.monotonic() - began), PACE_MAX))


CHUNK = 8  # watchers sent an update between two pauses
PACE = 2.0  # a pause lasts this many times as long as sending the chunk before it took
PACE_MAX = 0.02  # seconds a pause between two chunks lasts at most
PLAYERS_FIRST = 0.25  # seconds a hub waits at most for the players of its table in this process


def _ping_state(event: dict) -> tuple[int, int]:
    return (event.get("undos", 0), event.get("version", 0))


class Watchers:
    """What one event loop (one server process) keeps for the connections without a seat: their
    hubs by game, the shared renders, and the players' connections by game (served first)."""

    def __init__(self):
        self.renders = SharedRenders()
        self.hubs: dict[int, Hub] = {}
        self.players: dict[int, weakref.WeakSet] = {}
        self.players_sent: dict[int, asyncio.Event] = {}

    def hub(self, pk: int) -> Hub:
        found = self.hubs.get(pk)
        if found is None:
            found = self.hubs[pk] = Hub(self, pk)
        return found

    def add_player(self, pk: int, consumer) -> None:
        self.players.setdefault(pk, weakref.WeakSet()).add(consumer)

    def discard_player(self, pk: int, consumer) -> None:
        players = self.players.get(pk)
        if players is not None:
            players.discard(consumer)
            if not players:
                del self.players[pk]
                self.players_sent.pop(pk, None)

    def player_sent(self, pk: int) -> None:
        """A player's connection of game `pk` sent an update."""
        event = self.players_sent.get(pk)
        if event is not None:
            event.set()

    async def players_done(self, pk: int, state: tuple) -> None:
        """Until every player's connection of game `pk` in this process shows `state` (undos,
        version) or later, at most ``PLAYERS_FIRST`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PLAYERS_FIRST
        while any(p.shows_before(state) for p in self.players.get(pk, ())):
            left = deadline - loop.time()
            if left <= 0:
                return
            event = self.players_sent.setdefault(pk, asyncio.Event())
            event.clear()
            try:
                await asyncio.wait_for(event.wait(), left)
            except TimeoutError:
                return
        await asyncio.sleep(0)  # and their writes go out first


_by_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def watchers() -> Watchers:
    """The watchers of the running event loop (one per server process)."""
    loop = asyncio.get_running_loop()
    found = _by_loop.get(loop)
    if found is None:
        found = _by_loop[loop] = Watchers()
    return found
