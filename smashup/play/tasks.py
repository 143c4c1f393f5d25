"""Celery tasks of live games. This module sits above the rest of `smashup.play`: the modules that
schedule these tasks look them up by name (`commits.PLAY_BOT`, `timers.TURN_TIMEOUT`)."""

from celery import shared_task

from . import bots, hints
from .commits import DELIVER_BOT, PLAY_BOT
from .timers import TURN_TIMEOUT


@shared_task(name=PLAY_BOT, ignore_result=True)
def play_bot(game_id: int, seq: int, undos: int | None = None) -> int:
    """The bot thinks about the decision open at version `seq` (and `undos`) of a game and plays it
    at the table's pace (and, at the instant pace, the bot decisions after it). Does nothing if the
    game has moved on, so duplicates are harmless; a thought whose decision was answered meanwhile
    is dropped (see `bots.run_bots`)."""
    return bots.run_bots(game_id, seq, undos)


@shared_task(name=DELIVER_BOT, ignore_result=True)
def deliver_bot(game_id: int, seq: int, undos: int, seat: int, decision: str, options: list) -> int | None:
    """Play the move a bot chose, at its moment (the table's pace after the move before it); nothing
    if its decision is no longer open. Returns the new version or None."""
    outcome = bots.deliver(game_id, seq, undos, seat, decision, options)
    return outcome.version if outcome is not None else None


@shared_task(name=hints.HINT_TASK, ignore_result=True)
def hint(game_id: int, seat: int, seq: int, undos: int) -> bool:
    """A player asked for a hint on the decision open at (`seq`, `undos`): compute it from that seat's
    view and tell its pages (see `hints.answer`). Returns whether a hint was given."""
    return hints.answer(game_id, seat, seq, undos) is not None


@shared_task(name=TURN_TIMEOUT, ignore_result=True)
def turn_timeout(game_id: int, seq: int, deadline: str) -> int | None:
    """A turn timer ran out: the bot answers for the seat, unless the game moved on or the deadline
    changed since this task was scheduled (see `bots.fire_timer`). Returns the new version or None."""
    outcome = bots.fire_timer(game_id, seq, deadline)
    return outcome.version if outcome is not None else None


@shared_task(name="smashup.play.timer_sweep", ignore_result=True)
def timer_sweep() -> int:
    """Periodic (Celery beat): fire every overdue turn timer whose task was lost."""
    return bots.sweep_timers()


@shared_task(name="smashup.play.bot_sweep", ignore_result=True)
def bot_sweep() -> int:
    """Periodic (Celery beat): play every bot decision whose task was lost."""
    return bots.sweep_bots()
