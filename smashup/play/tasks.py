"""Celery tasks of live games."""

from celery import shared_task


@shared_task(name="smashup.play.bot_move", ignore_result=True)
def play_bot(game_id: int, seq: int) -> int:
    """Answer the bot decision open at version `seq` of a game (and, without a delay, the bot
    decisions after it). Does nothing if the game has moved on, so duplicates are harmless."""
    from .services import run_bots

    return run_bots(game_id, seq)
