"""What follows a committed change of a game: the `Outcome` it left, the row's copy of the engine's
state, and, after the commit, the cache, the notification, the bot's task and the turn timer.

Bot tasks are looked up by name (`PLAY_BOT`): the tasks module sits above everything here and imports
it, never the other way round.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from . import timers
from .gamecache import cache, undo_snapshots
from .live import notify
from .models import Game
from .tables import bot_delay, is_bot_only, is_bot_seat, slowest_pace_seconds  # noqa: F401 (bot_delay)

logger = logging.getLogger(__name__)

# The names of the bot tasks (`tasks.play_bot`, `tasks.deliver_bot`), registered when the app is
# ready (`apps.PlayConfig`): the first thinks, the second plays what it chose at the table's pace.
PLAY_BOT = "smashup.play.bot_move"
DELIVER_BOT = "smashup.play.bot_deliver"


def celery_eager() -> bool:
    from smashup.celery import app

    return bool(app.conf.task_always_eager)


@dataclass(frozen=True)
class Outcome:
    """What a committed change left behind (plain data, safe to pass between threads)."""

    game_id: int
    version: int
    status: str
    pending_seat: int | None
    pending_decision: str
    winner: int | None
    bot_next: bool
    deadline: datetime | None = None  # the turn timer of the decision now open, if any
    undos: int = 0
    bot_only: bool = False  # every seat is a bot's: its bot moves go to PLAY_BOT_ONLY_QUEUE


def outcome_of(row: Game, game) -> Outcome:
    return Outcome(
        game_id=row.pk,
        version=row.version,
        status=row.status,
        pending_seat=row.pending_seat,
        pending_decision=row.pending_decision,
        winner=row.winner,
        bot_next=row.is_active and is_bot_seat(row, row.pending_seat),
        deadline=row.deadline if row.deadline_seq == row.version else None,
        undos=row.undos,
        bot_only=is_bot_only(row),
    )


def sync_row(row: Game, game) -> None:
    """Copy what the engine says into the row's denormalised fields."""
    pending = game.pending
    row.pending_seat = pending.seat if pending is not None else None
    row.pending_decision = pending.id if pending is not None else ""
    row.state_hash = game.hashes[-1] if game.hashes else game.digest()
    if pending is None:
        row.status = Game.Status.FINISHED
        row.winner = game.winner
        row.finished_at = timezone.now()


def committed(
    pk: int,
    version: int,
    game,
    outcome: Outcome,
    schedule_bots: bool,
    live: dict | None = None,
    undo_snapshot=None,
) -> None:
    """After a commit (never before): cache the new state, tell the clients, wake the bot, start
    the turn timer; tell other apps when the game has just finished (`signals.game_finished`)."""
    finished = outcome.status == Game.Status.FINISHED
    final = ([p.vp for p in game.players], game.winner, list(game.shared_winners)) if finished else None
    if undo_snapshot is not None:
        undo_snapshots.put((pk, outcome.undos, version), undo_snapshot)
    cache.put(pk, (outcome.undos, version), game)
    notify(pk, version, outcome.status, undos=outcome.undos, live=live)
    if schedule_bots and outcome.bot_next:
        schedule_bot(pk, version, undos=outcome.undos, bot_only=outcome.bot_only)
    if outcome.deadline is not None:
        timers.schedule(pk, version, outcome.deadline)
    if final is not None:
        send_finished(pk, *final)


def send_finished(pk: int, vp: list[int], winner: int | None, shared_winners: list[int]) -> None:
    from .signals import game_finished

    for receiver, result in game_finished.send_robust(
        sender=Game, game_id=pk, vp=vp, winner=winner, shared_winners=shared_winners
    ):
        if isinstance(result, Exception):  # the game is over and stored; the receiver's sweep retries
            logger.error("game_finished receiver %r failed for game %s", receiver, pk, exc_info=result)


def bot_queue(bot_only: bool) -> str:
    """The queue of a table's bot moves: tables with people first (PLAY_BOT_QUEUE, a worker pool of
    their own), tables of bots only apart (PLAY_BOT_ONLY_QUEUE), so they never delay a person."""
    from smashup.core import queues

    return queues.queue("bots_only" if bot_only else "bots")


def schedule_bot(
    game_id: int, seq: int, *, undos: int | None = None, bot_only: bool = False, at_once: bool = True
) -> bool:
    """Send the bot task for the decision open at (game, seq) (and `undos`, when known: a decision
    at the same version after an undo is another one), on its table's queue (`bot_queue`). It is
    sent at once: the bot thinks meanwhile, and its move is played at the table's pace after the
    move before it (`bots.run_bots`). Returns whether it was sent. (`at_once` is always so now.)"""
    from smashup.celery import app
    from smashup.core.schedule import send_at

    play_bot = app.tasks[PLAY_BOT]
    args = (game_id, seq) if undos is None else (game_id, seq, undos)
    try:
        return send_at(play_bot, args, timezone.now(), queue=bot_queue(bot_only))
    except Exception:  # broker down: beat's bot sweep (or the next page load) plays it once it is back
        logger.exception("could not schedule the bot for game %s at %s", game_id, seq)
        return False


def schedule_delivery(
    game_id: int, seq: int, undos: int, choice: list, when: datetime, bot_only: bool
) -> bool:
    """Send the move a bot chose (`choice`: seat, decision id, option ids) to be played at `when`,
    the table's pace after the move before it. A lost delivery is played again by the sweep."""
    from smashup.celery import app
    from smashup.core.schedule import send_at

    deliver = app.tasks[DELIVER_BOT]
    try:
        return send_at(deliver, (game_id, seq, undos, *choice), when, queue=bot_queue(bot_only))
    except Exception:
        logger.exception("could not send the bot's move for game %s at %s", game_id, seq)
        return False


# A bot's decision open this much longer than the slowest pace has lost its task (a worker killed while
# it held it, a broker outage when it was sent): `kick_bots` and `sweep_bots` play it then.
BOT_LATE_SECONDS = 2


def bot_overdue_after() -> timedelta:
    return timedelta(seconds=slowest_pace_seconds() + BOT_LATE_SECONDS)


def kick_bots(row: Game) -> bool:
    """If a bot's decision has been open for a while (a lost task, a restarted worker), schedule
    the bot again. Duplicates are harmless. Returns whether a task was scheduled."""
    if not row.is_active or not is_bot_seat(row, row.pending_seat):
        return False
    if row.updated_at and timezone.now() - row.updated_at < bot_overdue_after():
        return False
    schedule_bot(row.pk, row.version, undos=row.undos, bot_only=is_bot_only(row))
    return True
