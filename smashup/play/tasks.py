"""Celery tasks of live games. This module sits above the rest of `smashup.play`: the modules that
schedule these tasks look them up by name (`commits.PLAY_BOT`, `timers.TURN_TIMEOUT`)."""

from celery import shared_task

from . import bots
from .commits import PLAY_BOT
from .timers import TURN_TIMEOUT


@shared_task(name=PLAY_BOT, ignore_result=True)
def play_bot(game_id: int, seq: int) -> int:
    """Answer the bot decision open at version `seq` of a game (and, without a delay, the bot
    decisions after it). Does nothing if the game has moved on, so duplicates are harmless."""
    return bots.run_bots(game_id, seq)


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
