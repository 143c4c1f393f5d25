"""The hint button: a player asks what to choose now, and only their own seat's pages get the answer.

    request(game.pk, seat, seq, decision)   # from the socket's {"type": "hint", ...}; checks, counts
    answer(game.pk, seat, seq, undos)       # the Celery task's body, on the bots' queue

A hint is offered at a table whose settings say so (`tables.hints_on`: the lobby's casual tables; a
tournament's table never asks for it), to a seat holder whose decision is open. Each ask is counted
per seat (`limits`, "hint_seat"). The answer is computed in a Celery worker on the bots' queue, never
in the web server, from the asking seat's own view only (`smashup.advice`: the expert bot's search
over games re-dealt from that seat's view, for the table's thinking time, when the expert is
installed; else the quick advice read from the seat's view); it is kept in the cache
under the game, seat and version for a while, and the game's group gets a public ping
(``game.hint`` with the version, nothing else) on which each connection of that seat, and no other,
finds it and shows it. A hint for a decision that has been answered meanwhile is dropped: by the
task (before and after thinking, and while the expert thinks: its cancel check reads the row) and by
the connection (which shows only the version it shows).
"""

from __future__ import annotations

import logging
import random

from django.core.cache import cache

from smashup.advice import advise, expert_advice
from smashup.botregistry import BOTS, DEFAULT_THINK_SECONDS, Budget, Cancelled
from smashup.core import limits

from .errors import GameNotFound, GameOver, NotStarted, PlayError, SpectatorChoice, StaleChoice
from .gamecache import engine_game
from .models import Game
from .tables import hints_on, is_bot_seat, table_stream, think_seconds

logger = logging.getLogger(__name__)

# The name of the hint task (`tasks.hint`): looked up by name, as the bot tasks are.
HINT_TASK = "smashup.play.hint"
# How long a hint waits in the cache for its seat's connections.
KEEP_SECONDS = 300
# The bot whose search gives hints, when installed (smashup.botregistry.BOTS).
EXPERT = "expert"


class HintRefused(PlayError):
    code = "no_hints"


def offer(row: Game, seat: int | None) -> bool:
    """Whether a page of `seat` shows the hint button."""
    return seat is not None and row.is_active and hints_on(row.config) and not is_bot_seat(row, seat)


def key(game_id: int, seat: int, undos: int, version: int) -> str:
    return f"play:hint:{game_id}:{seat}:{undos}:{version}"


def request(game_id: int, seat: int | None, seq, decision) -> int:
    """Ask for a hint for `seat`'s decision `decision` open at version `seq`: the task is sent to the
    bots' queue. Returns the version. A PlayError (nothing sent, nothing counted but the ask) for a
    spectator, a table without hints, a decision that is not this seat's or not open any more, too
    many asks."""
    from smashup.core.params import BadNumber, whole_number

    if seat is None:
        raise SpectatorChoice("Spectators watch; hints are for the players.")
    try:
        seq = whole_number(seq, "seq")
    except BadNumber:
        raise PlayError("'seq' must be the game version you see (a number).", "bad_request") from None
    if not isinstance(decision, str) or not decision or len(decision) > 32:
        raise PlayError("'decision' must be the id of your open decision.", "bad_request")
    row = Game.objects.filter(pk=game_id).first()
    if row is None:
        raise GameNotFound("This game no longer exists.")
    if not hints_on(row.config):
        raise HintRefused("This table plays without hints.")
    if row.is_lobby:
        raise NotStarted("The game has not started yet.")
    if row.is_finished:
        raise GameOver("The game is over.")
    if row.version != seq or row.pending_seat != seat or row.pending_decision != decision:
        raise StaleChoice("That decision is not open any more: a hint is for the one you have now.")
    if not limits.hit("hint_seat", f"{game_id}:{seat}"):
        count, seconds = limits.rate("hint_seat")
        raise PlayError(
            f"That is {count} hints in {seconds:g} seconds, the most a seat may ask; try again in a moment.",
            "rate_limited",
        )
    if stored(game_id, seat, row.undos, seq) is not None:
        _ping(game_id, seq, row.undos)  # asked again (another device of the seat): show it again
    else:
        _send(game_id, seat, seq, row.undos)
    return seq


def _send(game_id: int, seat: int, seq: int, undos: int) -> None:
    from smashup.celery import app
    from smashup.core import queues

    try:
        app.tasks[HINT_TASK].apply_async((game_id, seat, seq, undos), queue=queues.queue("bots"))
    except Exception:
        logger.exception("could not send the hint task of game %s", game_id)
        raise PlayError("No hint can be asked just now; try again in a moment.", "server_error") from None


def _still_open(game_id: int, seat: int, seq: int, undos: int) -> bool:
    found = Game.objects.filter(pk=game_id).values_list("version", "undos", "status", "pending_seat").first()
    return found == (seq, undos, Game.Status.ACTIVE, seat)


def hint_for(game, seat: int, rng=None, budget: Budget | None = None):
    """The advice for `seat`'s open decision in `game`, from that seat's view alone: the expert's
    search within `budget` (None: the default thinking time) with `rng`, when the expert is
    installed, else the quick advice. Returns (advice, the seat's view); Cancelled may escape."""
    pending = game.pending
    if pending is None or pending.seat != seat:
        return None, None
    view = game.view(seat)
    if EXPERT in BOTS:
        rng = rng if rng is not None else random.Random(f"hint:{seat}:{len(game.choices)}")
        return expert_advice(game, seat, rng, budget or Budget(seconds=DEFAULT_THINK_SECONDS)), view
    # The declared intent ("harm"/"help") is what the card says it does, public like the prompt.
    return advise(view, pending.intent), view


def answer(game_id: int, seat: int, seq: int, undos: int) -> dict | None:
    """The task's body: compute the hint, keep it for the seat's connections and ping the game's
    group. None (nothing kept, nothing sent) when the decision was answered before or meanwhile."""
    from .bots import cancel_check

    row = Game.objects.filter(pk=game_id).first()
    if row is None or not _still_open(game_id, seat, seq, undos):
        return None
    # The search thinks for the table's thinking time and drops its thought when the decision is
    # answered meanwhile; its random stream is the table's own (reproducible from the record).
    budget = Budget(seconds=think_seconds(row.config), cancelled=cancel_check(game_id, seq, undos))
    rng = table_stream(row, f"hint:{seat}:{seq}:{undos}", legacy=f"{row.seed}:hint:{seat}:{seq}:{undos}")
    try:
        with engine_game(row) as game:
            advice, view = hint_for(game, seat, rng, budget)
    except Cancelled:
        logger.info("game %s: the hint at %s was dropped (answered while it was computed)", game_id, seq)
        return None
    if advice is None:
        return None
    labels = {o["id"]: o["label"] for o in view["pending"]["options"]}
    hint = {
        "version": seq,
        "undos": undos,
        "decision": view["pending"]["id"],
        "options": list(advice.options),
        "labels": [labels[o] for o in advice.options if o in labels],
        "why": advice.why,
    }
    if not _still_open(game_id, seat, seq, undos):
        return None  # answered while it thought: dropped
    cache.set(key(game_id, seat, undos, seq), hint, KEEP_SECONDS)
    _ping(game_id, seq, undos)
    return hint


def stored(game_id: int, seat: int | None, undos: int, version: int) -> dict | None:
    """The hint kept for `seat` at this state, if any (what a connection of that seat shows)."""
    if seat is None:
        return None
    try:
        return cache.get(key(game_id, seat, undos, version))
    except Exception:  # noqa: BLE001 - no cache: no hint, the player may ask again
        logger.warning("the hint of game %s could not be read", game_id)
        return None


def _ping(game_id: int, version: int, undos: int) -> None:
    """Tell the game's connections that a hint is ready at this version (public: which seat asked is
    not said; each connection looks for its own seat's)."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from .live import group_name

    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group_name(game_id), {"type": "game.hint", "version": version, "undos": undos}
        )
    except Exception:  # the hint stays kept: asking again shows it
        logger.exception("could not tell game %s that a hint is ready", game_id)
