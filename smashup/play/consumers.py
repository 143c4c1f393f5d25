"""The game WebSocket, ``ws/games/<public id>/``: a thin layer over ``services``.

Who is connecting: a seat holder's own resume link (``?token=<services.resume_link_token>``; a seat
link that offers a free seat seats nobody here: it is taken on its page, by a POST), else the seats the
session user or the browser session holds (``?seat=N`` picks among several), else a spectator. A bad
link is refused
with an error and close code 4403; an unknown game with 4404 before the handshake completes; a
``?seat=`` that is not a plain number (ASCII digits, ``params.whole_number``) with an error and 4400.

Every connection joins one of the game's two groups, which only ever carry public pings
(``{"type": "game.changed", "version", "status"}``): a seat holder's connection (and the table page's)
the players' group, pinged first; on a ping it renders ITS OWN seat's view and sends it to itself, so
private content never travels through a group. Every other connection (a spectator, the table
display, a hot seat device's privacy screen) joins the watchers' group and is sent its audience's
update, rendered once per state in this process for all of them (``watching``; issue 28: each
rendering its own page made a crowd of spectators slow every table of the process).

Client -> server (text frames, JSON):

    {"type": "choice", "seq": 12, "decision": "d7", "options": ["m43@1"]}
    {"type": "choice", "seq": 12, "decision": "d7", "decline": "1"}  # choose nothing (when allowed)
    {"type": "undo", "seq": 13}  # take back my last choice (seq: the version I see)
    {"type": "refresh"}  # send me everything again
    {"type": "check"}  # I heard nothing for a while: send what changed, and that you are there
    {"type": "hint", "seq": 12, "decision": "d7"}  # suggest a choice for my open decision

htmx's ws extension sends a form's values this way plus a ``HEADERS`` key (ignored); values may be
strings ("12") and a single option a string rather than a list: both are accepted.

Server -> client, HTML mode (the default; for htmx): out-of-band fragments (``hx-swap-oob``) with the
ids ``play-status`` (carries ``data-version``, ``data-status``, ``data-seat``, ``data-decision``,
``data-deciding``, ``data-deadline``), ``decision``, ``bases``, ``hand``, ``players``, ``log-lines``
(new lines appended), ``play-error`` (``data-code``; emptied after a choice lands) and
``live-state`` (``data-state``: ``live``, or ``reconnecting`` while pings cannot get through; sent
when that changes and in answer to a ``check``). Every card
element carries ``data-card="<id>"``. JSON mode (``?format=json``, for load tests and programs):

    {"type": "state", "version": 12, "status": "active", "seat": 0, "deadline": null,
     "may_undo": false, "undo_note": {"code": "drawn", "text": "..."},
     "view": {...game.view(seat)...}}
    {"type": "ok", "version": 13}  # your choice (or undo) landed
    {"type": "live", "state": "reconnecting"}  # or "live": whether pings get through (see above)
    {"type": "error", "code": "stale", "message": "..."}

A hint (``hints``; a table whose settings allow it): the ask is answered at once with ``hint``
fragment ``data-state="asked"`` (JSON ``{"type": "hint", "state": "asked", "version": 12}``), then,
when a worker has computed it from this seat's view, every connection of the seat and no other gets
``#hint`` with ``data-state="ready"`` (JSON ``{"type": "hint", "state": "ready", "version",
"decision", "options", "labels", "why"}``), unless it shows another version by then. Refusals:
``no_hints``, ``stale``, ``rate_limited`` (``hint_seat``), ``spectator``.

Error codes: malformed, too_large, too_deep (nested deeper than ``wsjson.MAX_DEPTH``, refused before
parsing), unknown_type, bad_request, spectator, stale, not_your_decision, illegal, cannot_undo,
game_over, not_started, rate_limited, too_many_open, not_found, bad_link, broken, server_error.

Limits (``limits``): each connection may send ``PLAY_WS_RATE`` messages (a token bucket); over it a
message is refused (the first of a run gets a ``rate_limited`` error, the rest are dropped), and a
connection refused more times than the limit is closed (code 4029). Each browser session may open
``PLAY_WS_CONNECT_RATE`` connections per window and each address ``ws_connect_address`` (a new
session per seat link does not buy more), none for a while after a flood closed one: a
refused connection gets a ``rate_limited`` error and code 4029 too (``smashup.core.limits``).
Sockets OPEN AT ONCE are limited too (``smashup.core.opensockets``): per address (``ws_open_address``,
game and event sockets together) and, for connections without a seat of the game, per game
(``ws_open_game``); over either the connection gets a ``too_many_open`` error saying which, and
close code 4503. A seat holder's own connection never counts against its game's limit.

``undo_note`` (null, or a code of ``undo.REASONS`` and its words) says why this seat may not take
back its last choice; the HTML mode shows it where the Undo button would be (``data-undo``).

An undo takes the version back: pings and states carry ``undos`` (how many choices were taken back),
and a connection compares (undos, version), redrawing everything (the whole log too) after an undo.

The table page connects with ``?watch=table``: it gets only a small ``#table-ping`` fragment on each
change (claims, draft picks, the start) and refreshes its seats panel then.
"""

from __future__ import annotations

import json
import logging
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from smashup.core import catchup, limits, opensockets, params, threads, wsjson

from . import hints, render, services, watching
from .models import Game

logger = logging.getLogger(__name__)

MAX_MESSAGE = wsjson.MAX_CHARS  # characters of one client message
CLOSE_NOT_FOUND = 4404
CLOSE_BAD_LINK = 4403
CLOSE_FLOOD = limits.CLOSE_FLOOD
CLOSE_BAD_REQUEST = 4400
CLOSE_TOO_MANY_OPEN = opensockets.CLOSE_TOO_MANY_OPEN


def _with_notifications(service, *args):
    """Run a service and hand back its group pings, for the event loop to send: sent from the
    database thread, each would hold that thread (and every query queued behind it) until the
    event loop got round to it."""
    with services.deferred_notifications() as events:
        outcome = service(*args)
    return outcome, events


class GameConsumer(limits.LimitedSocket, catchup.CatchUp, AsyncWebsocketConsumer):
    # A shared screen (set in `connect`): the table display, or a hot seat device's privacy screen.
    display = False
    hot_seat = False
    hot_held: list = []
    audience: watching.Audience | None = None  # what a connection without a seat sees (`watching`)
    hub: watching.Hub | None = None  # a watcher's hub: its place in the watchers' group
    answered = (-1, -1)  # the newest ping a player's connection has handled (`watching.Hub`)
    player_of: int | None = None  # the game whose players' connections this one is counted among

    async def connect(self):
        self.public_id = self.scope["url_route"]["kwargs"]["public_id"]
        query = parse_qs(self.scope.get("query_string", b"").decode("latin1"))
        self.json_mode = query.get("format", [""])[0] == "json"
        watch = query.get("watch", [""])[0]
        self.table_watch = watch == "table"
        # The table display (`watch=display`) and a hot seat device's privacy screen
        # (`watch=hotseat`) are spectators: they get `view(None)` whatever seats the browser holds.
        self.display = watch == "display"
        self.hot_seat = watch == "hotseat"
        self.pings = 0
        link = query.get("token", [""])[0] or None
        try:
            wanted = params.optional_number(query.get("seat", [""])[0], "seat")
        except params.BadNumber as exc:
            await self.accept()
            await self.send_error(exc.message, exc.code)
            await self.close(code=CLOSE_BAD_REQUEST)
            return
        self.game_pk = None
        self.seat = None
        self.group = None
        self.shown_version = -1
        self.shown_undos = -1
        self.shown_status = None
        self.shown_log = None
        self.row = None  # the game row as last read or brought up to date by a ping
        if not await self.admit():
            return
        try:
            self.game_pk, self.seat = await threads.live_play(self._authenticate)(link, wanted)
        except services.GameNotFound:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        except services.BadSeatLink as exc:
            await self.accept()
            await self.send_error(exc.message, exc.code)
            await self.close(code=CLOSE_BAD_LINK)
            return
        if self.seat is None and not self.hot_held:
            # Without a seat of this game: one of its places for spectators (issue 28).
            if not await self.hold_place("ws_open_game", str(self.game_pk)):
                self.game_pk = None
                return
        self.audience = self._audience()
        if self.audience is None:
            if self.seat is not None:
                self.player_of = self.game_pk
                watching.watchers().add_player(self.game_pk, self)
            await self.join_group(services.group_name(self.game_pk))  # may fail while Redis is down
        else:
            self.hub = watching.watchers().hub(self.game_pk)
            await self.join_group(services.watch_group_name(self.game_pk))
        await self.accept()
        await self.push(full=True)
        await self.start_catching_up()

    async def dispatch(self, message):
        """Channels' own dispatch first closes stale database connections, with a hop to its one
        database thread, before EVERY message: each ping of every table would then wait behind
        whatever query that thread runs. Every database call here goes through
        `threads.live_play`, which closes stale connections on its own thread, so the hop is
        skipped."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        async with self.live_lock:  # one at a time with the catch-up's messages (smashup.core.catchup)
            await handler(message)

    async def disconnect(self, code):
        self.live_stop()
        if self.player_of is not None:
            watching.watchers().discard_player(self.player_of, self)
        await self.leave_group()

    # ------------------------------------------------------------------ incoming ----------------
    async def receive(self, text_data=None, bytes_data=None):
        if self.game_pk is None:
            return
        if not await self.within_rate():
            return
        try:
            message = wsjson.read_message(text_data, max_chars=MAX_MESSAGE)
        except wsjson.MessageRefused as exc:
            await self.send_error(exc.message, exc.code)
            return
        message.pop("HEADERS", None)  # htmx's ws extension adds its request headers
        kind = message.get("type")
        if kind == "choice":
            await self.choose(message)
        elif kind == "undo":
            await self.undo(message)
        elif kind == "refresh":
            await self.push(full=True)
        elif kind == "check":
            await self.answer_check()
        elif kind == "hint":
            await self.ask_hint(message)
        else:
            await self.send_error(
                f"Unknown message type {str(kind)[:40]!r}: expected 'choice', 'undo', 'refresh', 'check' "
                "or 'hint'.",
                "unknown_type",
            )

    def in_thread(self, func):
        return threads.live_play(func)  # live play's own threads (smashup.core.threads)

    def flood_closed(self):
        self.game_pk = None  # ignore anything still queued

    async def choose(self, message: dict):
        if self.seat is None:
            await self.send_error("Spectators watch; only a player at the table can choose.", "spectator")
            return
        options = [] if message.get("decline") else message.get("options")
        await self._act(
            services.submit_choice,
            self.game_pk,
            self.seat,
            message.get("seq"),
            message.get("decision"),
            options,
        )

    async def undo(self, message: dict):
        if self.seat is None:
            await self.send_error(
                "Spectators watch; only a player at the table can take back a choice.", "spectator"
            )
            return
        await self._act(services.undo_choice, self.game_pk, self.seat, message.get("seq"))

    async def _act(self, service, *args):
        try:
            outcome, events = await threads.live_play(_with_notifications)(service, *args)
        except services.PlayError as exc:
            await self.send_error(exc.message, exc.code)
            if exc.code in ("stale", "not_your_decision"):
                await self.push(full=False)  # show what the game is really waiting for
            if exc.code == "not_found":
                await self.close(code=CLOSE_NOT_FOUND)
            return
        except Exception:
            logger.exception("%s on game %s failed", service.__name__, self.game_pk)
            await self.send_error("The server could not apply that choice; please try again.", "server_error")
            return
        for group, event in events:
            try:
                await self.channel_layer.group_send(group, event)
            except Exception:  # committed: the clients catch up on their next message or reconnect
                logger.exception("could not notify game %s of version %s", self.game_pk, outcome.version)
        if self.json_mode:
            await self.send(text_data=json.dumps({"type": "ok", "version": outcome.version}))
        else:
            await self.send(text_data=render.render_error("", "ok"))

    # ------------------------------------------------------------------ hints ------------------
    async def ask_hint(self, message: dict):
        try:
            version = await threads.live_play(hints.request)(
                self.game_pk, self.seat, message.get("seq"), message.get("decision")
            )
        except services.PlayError as exc:
            await self.send_error(exc.message, exc.code)
            return
        await self.send(text_data=self._hint_text({"version": version}, "asked"))

    async def game_hint(self, event):
        """A hint is ready at a version (a public ping): this connection shows its own seat's, if
        there is one for the state it shows."""
        if self.game_pk is None or self.seat is None or self.table_watch or self.display or self.hot_seat:
            return
        state = (event.get("undos", 0), event.get("version"))
        if state != (self.shown_undos, self.shown_version):
            return  # answered meanwhile (or not shown yet): the hint is for another state
        hint = await threads.live_play(hints.stored)(self.game_pk, self.seat, *state)
        if hint is not None and (hint["undos"], hint["version"]) == (self.shown_undos, self.shown_version):
            await self.send(text_data=self._hint_text(hint, "ready"))

    def _hint_text(self, hint: dict, state: str) -> str:
        if self.json_mode:
            return json.dumps({"type": "hint", "state": state, **hint})
        return render_to_string("play/_hint.html", {"hint": hint, "state": state, "oob": True})

    # ------------------------------------------------------------------ outgoing ----------------
    async def game_changed(self, event):
        """A public ping from the group: render my own view if I have not shown this version yet."""
        if self.game_pk is None:
            return
        if self.table_watch:
            self.pings += 1
            await self.send(text_data=render.render_table_ping(self.pings, event.get("status", "")))
            return
        seen = (event.get("undos", 0), event.get("version", 0))
        try:
            if seen <= (self.shown_undos, self.shown_version) and event.get("status") == self.shown_status:
                return
            text = self._render_from_ping(event.get("row"))
            if text is not None:
                await self.send(text_data=text)
                return
            await self.push(full=False)
        finally:
            # The watchers of this table in this process wait for its players (`watching.Hub`).
            self.answered = max(self.answered, seen)
            watching.watchers().player_sent(self.game_pk)

    def _render_from_ping(self, fields: dict | None) -> str | None:
        """The fast path of a ping after a choice: when this process holds the engine game at the
        ping's version (it applied the choice, or caught up already), render from it and the row
        read earlier, brought up to date with the ping's fields, without a database query or a
        thread. None when it cannot (no fields, not cached, or a page whose log needs the database):
        the caller reads the row then."""
        row = self.row
        if fields is None or row is None or row.is_lobby:
            return None
        if not self.json_mode and (row.turn_seconds or fields["undos"]):
            return None  # the log's own lines (timeouts, undos) come from the choice rows
        key = (fields["undos"], fields["version"])
        game = services.cache.take(self.game_pk, key)
        if game is None:
            return None
        try:
            if len(game.choices) != fields["version"]:
                return None
            services.apply_live_fields(row, fields)
            if services.needs_stored_reason(row, game, self.seat):
                return None  # why my own last choice cannot be taken back is read from its row
            return self._render_text(row, game, full=False)
        finally:
            services.cache.put(self.game_pk, key, game)

    async def push(self, full: bool):
        if self.table_watch:
            await self.send(text_data=render.render_table_ping(self.pings, ""))
            return
        if self.audience is not None:
            await self._show_watched(full)
            return
        try:
            text = await threads.live_play(self._render)(full)
        except services.PlayError as exc:
            await self.send_error(exc.message, exc.code)
            return
        except Exception:
            logger.exception("rendering game %s for seat %s failed", self.game_pk, self.seat)
            await self.send_error("The server could not show the game; reload the page.", "server_error")
            return
        if text is _GONE:
            # A stale connection: the game was deleted since this socket opened.
            await self.send_error("This game no longer exists.", "not_found")
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if text is not None:
            await self.send(text_data=text)

    # ------------------------------------------------------------------ watchers (issue 28) -----
    def _audience(self) -> watching.Audience | None:
        """What this connection sees if it holds no seat: the same as every other connection of
        its audience (None: a seat's own connection, or the table page's pings)."""
        if self.table_watch or self.seat is not None:
            return None
        if self.json_mode:
            return watching.Audience("json")
        if self.display:
            return watching.Audience("display")
        if self.hot_seat:
            return watching.Audience("hotseat", tuple(sorted(self.hot_held)))
        return watching.Audience("page")

    async def join_group(self, group: str) -> bool:
        """A watcher is in its game's watchers' group through this process's hub of the game."""
        if self.audience is None:
            return await super().join_group(group)
        self.group = group
        self.joined = await self.hub.add(self)
        return self.joined

    async def leave_group(self) -> None:
        if self.audience is None:
            await super().leave_group()
        else:
            await self.hub.discard(self)

    def shows_at_least(self, state: tuple) -> bool:
        """Whether this connection shows the state (undos, version, status) of a ping, or later."""
        showing = (self.shown_undos, self.shown_version)
        return showing > state[:2] or (showing == state[:2] and self.shown_status == state[2])

    def shows_before(self, state: tuple) -> bool:
        """Whether this player's connection has neither shown nor handled (undos, version) yet."""
        if self.game_pk is None:
            return False  # closed (a flood, a deleted game): it handles nothing more
        return max(self.answered, (self.shown_undos, self.shown_version)) < state

    def watched_since(self) -> tuple | None:
        """What a watcher's page shows already, which its next update builds on (the log lines)."""
        if self.audience is None or not self.audience.appends_log or self.shown_log is None:
            return None
        return (self.shown_undos, self.shown_log)

    def catch_up_soon(self) -> None:
        """Have this connection bring itself up to date, on its own turn."""
        catchup.Watch._tell(self, {"type": "live.check", "marker": None})

    async def show_shared(self, shown: watching.Shown, full: bool = False) -> bool:
        """Send a watcher's update unless it shows that state already (`full`: send it all the
        same); never an older state. Returns whether it was sent."""
        if self.game_pk is None:
            return False
        showing = (self.shown_undos, self.shown_version)
        if shown.state < showing or (
            shown.state == showing and shown.status == self.shown_status and not full
        ):
            return False
        self.shown_undos, self.shown_version, self.shown_status = shown.undos, shown.version, shown.status
        self.shown_log = shown.log_total
        await self.send(text_data=shown.text)
        return True

    async def _show_watched(self, full: bool) -> None:
        """Send this watcher its audience's update as the game is now (shared by every watcher of
        this process that asks meanwhile), unless it shows that state already."""
        since = None if full else self.watched_since()
        try:
            shown = await watching.watchers().renders.update(self.game_pk, self.audience, since)
        except services.PlayError as exc:
            await self.send_error(exc.message, exc.code)
            return
        except Exception:
            logger.exception("rendering game %s for its watchers failed", self.game_pk)
            await self.send_error("The server could not show the game; reload the page.", "server_error")
            return
        if shown is watching.GONE:
            await self.game_gone()
            return
        await self.show_shared(shown, full=full)

    async def game_gone(self) -> None:
        """A stale connection: the game was deleted since this socket opened."""
        if self.game_pk is None:
            return
        self.game_pk = None  # nothing more for it
        await self.send_error("This game no longer exists.", "not_found")
        await self.close(code=CLOSE_NOT_FOUND)

    # ------------------------------------------------------------------ catching up (issue 12) --
    # Pings lost while Redis is down, or before the layer has renewed its subscriptions, must not
    # leave the page frozen: the process's watch (smashup.core.catchup) compares the stored version
    # with what this connection showed, on a timer and as soon as the layer is back, and hands a
    # `live.check` here; the page tells whether its updates get through (`live.layer`), and a page
    # that has heard nothing for a while sends {"type": "check"} itself.
    async def start_catching_up(self):
        if self.game_pk is None:
            return
        await self.live_start(("game", self.game_pk))

    def live_behind(self, marker) -> bool:
        """Whether the stored game (`marker`: undos, version, status; None once deleted) differs
        from what this connection shows. The table page's socket only pings, on its own changes."""
        if self.table_watch or self.game_pk is None:
            return False
        if marker is None:
            return True
        undos, version, status = marker
        if self.shown_status == Game.Status.LOBBY:  # a lobby shows its status only
            return status != self.shown_status
        return (undos, version) != (self.shown_undos, self.shown_version) or status != self.shown_status

    async def live_check(self, message):
        if self.game_pk is not None and not self.table_watch:
            await self.push(full=False)

    async def answer_check(self):
        """The page asked (it heard nothing for a while): send what changed, then that the
        connection is alive and whether live updates get through."""
        await self.push(full=False)
        if self.game_pk is not None:
            await self.tell_live_state(force=True)

    async def send_live_state(self, state: str):
        if self.table_watch:
            return  # the table page has no live-state element; it polls its seats panel anyway
        if self.json_mode:
            await self.send(text_data=json.dumps({"type": "live", "state": state}))
        else:
            await self.send(text_data=render.render_live_state(state))

    async def send_error(self, message: str, code: str):
        if self.json_mode:
            await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))
        else:
            await self.send(text_data=render.render_error(message, code))

    # ------------------------------------------------------------------ database side (sync) ----
    def _authenticate(self, link, wanted):
        row = Game.objects.filter(public_id=self.public_id).first()
        if row is None:
            raise services.GameNotFound("There is no game at this address.")
        session = self.scope.get("session")
        try:
            session_seats = session.get("play_seats") if session is not None else None
        except Exception:  # no session store (e.g. a bare client): no session seats
            session_seats = None
        user = self.scope.get("user")
        seat = services.resolve_seat(row, user=user, session_seats=session_seats, link=link, wanted=wanted)
        if self.display or self.hot_seat:
            held = services.held_seats(row, user=user, session_seats=session_seats)
            self.hot_held = held + ([seat] if seat is not None and seat not in held else [])  # a seat's link
            seat = None
        services.kick_bots(row)
        return row.pk, seat

    def _render(self, full: bool):
        row = Game.objects.filter(pk=self.game_pk).first()
        if row is None:
            return _GONE
        if (
            not full
            and (row.undos, row.version) <= (self.shown_undos, self.shown_version)
            and row.status == self.shown_status
        ):
            return None
        if row.is_lobby:
            self.shown_status = row.status
            if self.json_mode:
                return json.dumps(
                    {"type": "state", "version": 0, "status": row.status, "seat": self.seat, "view": None}
                )
            return render_to_string(
                "play/_status.html", {"game": row, "status": row.status, "seat": self.seat, "oob": True}
            )
        with services.engine_game(row) as game:
            return self._render_text(row, game, full)

    def _render_text(self, row: Game, game, full: bool) -> str:
        """This connection's own view of `game` (at `row.version`), as its next message."""
        self.row = row
        if self.json_mode:
            head = json.dumps(
                {
                    "type": "state",
                    "version": row.version,
                    "status": row.status,
                    "seat": self.seat,
                    "undos": row.undos,
                    "deadline": row.deadline.isoformat() if row.deadline else None,
                    "may_undo": services.may_undo(row, self.seat),
                    "undo_note": services.undo_note(row, game, self.seat),
                }
            )
            view = render.view_json((self.game_pk, row.undos, row.version), game, self.seat)
            text = f'{head[:-1]}, "view": {view}}}'
            log_total = None
        else:
            context = render.board_context(row, game, self.seat)
            if self.display or self.hot_seat:
                self.shown_version = row.version
                self.shown_undos = row.undos
                self.shown_status = row.status
                if self.display:
                    return render.render_display(render.display_context(row, game, context))
                return render.render_hot_seat(context, self.hot_held)
            redraw = full or self.shown_log is None or row.undos != self.shown_undos
            log_after = None if redraw else self.shown_log
            text = render.render_live(context, log_after=log_after)
            log_total = context["log_total"]
        self.shown_version = row.version
        self.shown_undos = row.undos
        self.shown_status = row.status
        self.shown_log = log_total
        return text


_GONE = object()


def _game_markers(pks: list[int]) -> dict:
    """(undos, version, status) of each game, for the catch-up's comparison."""
    rows = Game.objects.filter(pk__in=pks).values_list("pk", "undos", "version", "status")
    return {pk: (undos, version, status) for pk, undos, version, status in rows}


catchup.register_kind("game", _game_markers)
