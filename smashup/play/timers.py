"""Turn timers of live games (DESIGN.md section 6).

A table may give each person's decision ``Game.turn_seconds``. The timer is the game row itself:
``deadline`` and ``deadline_seq`` (the version whose open decision it times). Every commit that
leaves a person's decision open sets them (``arm``, inside the commit's transaction), every other
commit clears them; after the commit a Celery task ``turn_timeout(game, seq, deadline)`` is scheduled
for the deadline (``schedule``, an ``eta``).

When the task runs (``bots.fire_timer``) it locks the row and does nothing unless the row still says that same
seq and that same deadline, and the deadline has passed; then the heuristic bot answers for the seat
through the same ``submit_choice`` path as everyone (``bots.bot_move(..., force=True)``), and the
choice is stored as ``timed_out`` (the log says the seat ran out of time). So duplicates, retries, a
task that fires after the player answered, or after an undo and a new answer with a new deadline, all
do nothing, and running it twice applies once. An undo does not restart the clock: the decision it
returns to keeps the deadline it was first given (``arm(keep=...)``), passed or not.

A lost task (a worker restarted while holding its ETA task, a broker outage) is caught by
``bots.sweep_timers``, a periodic task run by Celery beat (``CELERY_BEAT_SCHEDULE``, every 15
seconds) that fires every overdue deadline the same way.

Without a broker (``CELERY_TASK_ALWAYS_EAGER``, a bare ``runserver``) nothing is scheduled: an eager
task would run at once, before its deadline. ``manage.py start`` always runs a worker and beat.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from .models import Game
from .tables import is_bot_seat

logger = logging.getLogger(__name__)

# When time is called in a game, the open decision keeps the time it had left, but at least this much.
TIME_CALLED_GRACE_SECONDS = 10

# The name of the timeout task (`tasks.turn_timeout`, which runs `bots.fire_timer`).
TURN_TIMEOUT = "smashup.play.turn_timeout"


def min_turn_seconds() -> int:
    """The shortest turn timer a table may have (the lobby refuses shorter; tests lower it)."""
    return int(getattr(settings, "PLAY_TURN_SECONDS_MIN", 10))


def max_turn_seconds() -> int:
    return int(getattr(settings, "PLAY_TURN_SECONDS_MAX", 3600))


def arm(row: Game, *, at_least: datetime | None = None, keep: datetime | None = None) -> None:
    """Inside the transaction of a commit that left `row` at its new version: time the open decision
    if it is a person's and the table has a timer, else clear the timer.

    `keep`: the deadline this decision had when it was first asked (an undo returns to it). The
    clock is not restarted: it keeps running from the first asking, and if it has passed already
    the timeout task (scheduled after the commit for that deadline, so at once) lets the bot answer.
    Otherwise play, undo, play, undo would keep one decision open for ever.
    `at_least`: keep this deadline, with a few seconds of grace if it is nearly over (time called)."""
    if (
        row.turn_seconds
        and row.is_active
        and row.pending_seat is not None
        and not is_bot_seat(row, row.pending_seat)
    ):
        deadline = timezone.now() + timedelta(seconds=row.turn_seconds)
        if keep is not None:
            deadline = keep
        elif at_least is not None:
            deadline = max(at_least, timezone.now() + timedelta(seconds=TIME_CALLED_GRACE_SECONDS))
        row.deadline = deadline
        row.deadline_seq = row.version
    else:
        row.deadline = None
        row.deadline_seq = None


def remaining(row: Game) -> float | None:
    """Seconds left on the open decision's timer (never below 0), or None without a timer."""
    if row.deadline is None or row.deadline_seq != row.version or not row.is_active:
        return None
    return max(0.0, (row.deadline - timezone.now()).total_seconds())


def schedule(game_id: int, seq: int, deadline: datetime) -> None:
    """After the commit: schedule the timeout task for the deadline (nothing without a broker)."""
    from smashup.celery import app
    from smashup.core.schedule import send_at

    turn_timeout = app.tasks[TURN_TIMEOUT]

    if app.conf.task_always_eager:
        return
    from smashup.core import queues

    try:
        # A queue of its own (PLAY_TIMER_QUEUE), read by a worker that plays no bot's move.
        send_at(turn_timeout, (game_id, seq, deadline.isoformat()), deadline, queue=queues.queue("timers"))
    except Exception:  # broker down: the beat sweep fires it once the broker is back
        logger.exception("could not schedule the turn timer of game %s at %s", game_id, seq)
