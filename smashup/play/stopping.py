"""A staff member ends a table before its end (issue 28: the admin's "End the selected games").

What ending means here: the table stops where it is. Its record (config, seed, the choices made) is
kept whole and unchanged, so it still replays move by move to the state it was stopped in; the row
is finished without a winner (``Game.stopped_at`` and ``stopped_by`` say who ended it and when); no
bot, turn timer or sweep acts on it any more (they all act only on active games); open pages are told
at once and show "the site's staff ended this game". A game that had started tells the other apps it
finished (``signals.game_finished``, with the VP it had): a tournament table records them as its
result, which its organizers can correct, as after any game played in the app.

Why not call time (``timecall.call_time``)? Time called still plays the turn in progress, and a tie
plays on: a table of bots would go on for a while, and a table waiting for a person without a timer
would never end.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from .commits import send_finished
from .errors import PlayError
from .gamecache import engine_game
from .live import notify
from .models import Game
from .tables import lock_game

logger = logging.getLogger(__name__)


def end_game(game_id: int, *, by=None) -> bool:
    """End a table that waits for players or is in play, as a staff member `by` (a user, or None).
    Returns False, changing nothing, when it is over already."""
    with transaction.atomic():
        row = lock_game(game_id)
        if row.is_finished:
            return False
        started = row.is_active
        now = timezone.now()
        row.status = Game.Status.FINISHED
        row.finished_at = row.stopped_at = now
        row.stopped_by = by if by is not None and getattr(by, "pk", None) else None
        row.winner = None
        row.deadline = row.deadline_seq = None  # no timer runs out on a game that is over
        row.undo_seat = None
        row.save()
        pk, version, undos = row.pk, row.version, row.undos
        final = None
        if started:
            try:
                with engine_game(row) as game:  # the VP it had, for a tournament's result
                    final = [p.vp for p in game.players]
            except PlayError:  # a record that no longer replays can still be ended
                logger.exception("game %s: ended without its VP", pk)
        transaction.on_commit(lambda: notify(pk, version, Game.Status.FINISHED, undos=undos))
        if final is not None:
            transaction.on_commit(lambda: send_finished(pk, final, None, []))
    logger.info("game %s ended by staff (%s) at version %s", pk, getattr(by, "pk", None), version)
    return True
