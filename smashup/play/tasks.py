"""Celery tasks of live games."""

from celery import shared_task


@shared_task(name="smashup.play.bot_move", ignore_result=True)
def play_bot(game_id: int, seq: int) -> int:
    """Answer the bot decision open at version `seq` of a game (and, without a delay, the bot
    decisions after it). Does nothing if the game has moved on, so duplicates are harmless."""
    from .services import run_bots

    return run_bots(game_id, seq)


@shared_task(name="smashup.play.turn_timeout", ignore_result=True)
def turn_timeout(game_id: int, seq: int, deadline: str) -> int | None:
    """A turn timer ran out: the bot answers for the seat, unless the game moved on or the deadline
    changed since this task was scheduled (see `timers.fire`). Returns the new version or None."""
    from .timers import fire

    outcome = fire(game_id, seq, deadline)
    return outcome.version if outcome is not None else None


@shared_task(name="smashup.play.timer_sweep", ignore_result=True)
def timer_sweep() -> int:
    """Periodic (Celery beat): fire every overdue turn timer whose task was lost."""
    from .timers import sweep

    return sweep()


@shared_task(name="smashup.play.bot_sweep", ignore_result=True)
def bot_sweep() -> int:
    """Periodic (Celery beat): play every bot decision whose task was lost."""
    from .services import sweep_bots

    return sweep_bots()
