"""Time called on a game (a tournament round's clock ran out, or its organizer called time)."""

from __future__ import annotations

import logging

from django.db import transaction

from smashup.engine import IllegalChoice
from smashup.engine.game import CALL_TIME

from . import timers
from .commits import Outcome, committed, outcome_of, sync_row
from .gamecache import cache, state_key, take_game
from .models import Game
from .tables import lock_game

logger = logging.getLogger(__name__)


def call_time(game_id: int) -> Outcome | None:
    """Time is called on an active game (a tournament round's clock ran out, or its organizer called
    time). Stored as a ``Choice`` row with no seat and the decision ``CALL_TIME`` (the engine
    record's ``[None, "call_time", []]``), with the state hash after it like any choice; the open
    decision stays open (its turn timer keeps the time it had left) and the version moves on.

    Idempotent: returns None and changes nothing when the game is not active or time is already
    called. What follows (the last turn, most VP wins, a tie playing on) is the engine's rule, see
    ``Game.call_time``."""
    from .models import Choice

    with transaction.atomic():
        row = lock_game(game_id)
        if not row.is_active:
            return None
        game = take_game(row)
        if game.time_called:
            cache.put(row.pk, state_key(row), game)
            return None
        log_at = len(game.log_lines)
        try:
            game.call_time()
        except IllegalChoice:  # over in the engine but not on the row: left alone, never cached
            logger.error("game %s: time could not be called at version %s", row.pk, row.version)
            return None
        timed = row.deadline if row.deadline_seq == row.version else None
        Choice.objects.create(
            game=row,
            seq=row.version,
            seat=None,
            decision=CALL_TIME,
            options=[],
            state_hash=game.hashes[-1],
            log_at=log_at,
            deadline=timed,
            undoable=False,
            undo_block="time was called",
        )
        row.version += 1
        sync_row(row, game)
        row.undo_seat = None  # nothing before a time call can be taken back
        if timed is not None:
            timers.arm(row, at_least=timed)
        else:
            timers.arm(row)
        row.save()
        outcome = outcome_of(row, game)
        transaction.on_commit(lambda: committed(row.pk, outcome.version, game, outcome, True))
    return outcome


def time_called(row: Game) -> bool:
    """Whether time has been called on this game (a row of its record says so)."""
    return row.choices.in_record().filter(seat__isnull=True, decision=CALL_TIME).exists()
