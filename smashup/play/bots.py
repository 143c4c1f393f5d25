"""The server's bots, through the same path as a person's choice (`choices.apply_choice`).

After a commit that leaves a bot's decision open, a Celery task ``play_bot(game, seq)`` is scheduled
with a countdown of ``PLAY_BOT_DELAY`` seconds; it does nothing if the game has moved on from ``seq``,
so duplicates, retries and restarts are harmless (the state is in the database, not in a waiting
thread). A turn timer that runs out lets the bot answer for the seat (`fire_timer`). Beat's sweeps
catch what a lost task would have done (`sweep_bots` sends the task again, `sweep_timers` fires).
The tasks go to queues of their own (smashup/core/queues.py): bots of tables with people, bots of
tables without, turn timers.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from smashup.engine.bots import BOTS

from . import timers
from .choices import apply_choice
from .commits import Outcome, bot_delay, bot_overdue_after, celery_eager, schedule_bot
from .errors import GameNotFound, GameOver, NothingToDo, NotStarted, StaleChoice
from .models import Game, Seat
from .tables import config_is_bot_only, is_bot_seat, table_stream

logger = logging.getLogger(__name__)


def bot_move(game_id: int, seq: int, *, force: bool = False, timed_out: bool = False) -> Outcome | None:
    """Let the server's bot answer the decision open at version `seq`, through the same path as a
    person's choice. Does nothing (None) if the game has moved on, is over, or the decision is not
    a bot seat's. `force` lets the bot answer a person's decision (a turn timer running out);
    `timed_out` records it so (the log says so) and schedules the bot seats' answers after it."""

    def pick(game, row):
        pending = game.pending
        if not force and not is_bot_seat(row, pending.seat):
            raise NothingToDo
        kind = row.config["players"][pending.seat].get("bot") or "heuristic"
        # Reproducible from the record; unpredictable without the game's secret (version 2).
        rng = table_stream(row, f"bot:{seq}", legacy=f"{row.seed}:{seq}")
        return pending.seat, pending.id, BOTS[kind](game, rng)

    try:
        return apply_choice(game_id, seq, pick, by_bot=True, schedule_bots=timed_out, timed_out=timed_out)
    except (StaleChoice, GameOver, NotStarted, GameNotFound, NothingToDo):
        return None


def run_bots(game_id: int, seq: int, *, max_moves: int = 100_000) -> int:
    """The body of the bot task: answer bot decisions from version `seq` on. With a delay (and a
    real worker) it makes one move and schedules the next; without, it plays on until a person must
    decide. Returns the number of moves made."""
    moves = 0
    while moves < max_moves:
        outcome = bot_move(game_id, seq)
        if outcome is None:
            break
        moves += 1
        if not outcome.bot_next:
            break
        seq = outcome.version
        if bot_delay() > 0 and not celery_eager():
            schedule_bot(game_id, seq, bot_only=outcome.bot_only)
            break
    return moves


# A bot task the sweep sent again is not sent again for this long: a queue that is merely busy (many
# tables, a bot that thinks for seconds) must not fill up with copies of its own waiting tasks.
BOT_RESEND_SECONDS = 30


def sweep_bots(now: datetime | None = None, limit: int = 500) -> int:
    """Celery beat's safety net for bots, as `sweep_timers` is for turn timers: every bot decision
    open for longer than its delay has its task sent again, at once, to its table's queue, as the
    lost task would have been (at most once per BOT_RESEND_SECONDS for the same decision). The
    sweep plays no move itself: it runs with the turn timers (SWEEP_QUEUE), which must never wait
    for a bot that thinks. A task sent again that meets the first (or another copy) applies the
    move once: the second finds the game moved on. Returns the number of tasks sent."""
    from django.core.cache import cache as shared
    from django.db.models import F

    cutoff = (now or timezone.now()) - bot_overdue_after()
    waiting = list(
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            updated_at__lte=cutoff,
            seats__index=F("pending_seat"),
            seats__kind=Seat.Kind.BOT,
        )
        .order_by("updated_at")
        .values_list("pk", "version", "config")[:limit]
    )
    sent = 0
    for pk, version, config in waiting:
        key = f"play:bot-resent:{pk}:{version}"
        try:
            if not shared.add(key, 1, timeout=BOT_RESEND_SECONDS):
                continue  # sent again a moment ago: its copy is still on its way
        except Exception:  # noqa: BLE001 - no cache: send it all the same (a copy does no harm)
            key = None
        if schedule_bot(pk, version, bot_only=config_is_bot_only(config), at_once=True):
            sent += 1
        elif key is not None:  # not sent (the broker is away): the next sweep tries again
            try:
                shared.delete(key)
            except Exception:  # noqa: BLE001
                pass
    if waiting:
        logger.info("bot sweep: %d game(s) waited on a lost bot task; %d sent again", len(waiting), sent)
    return sent


# ---------------------------------------------------------------------------------- turn timers --
def _parse(deadline) -> datetime | None:
    if isinstance(deadline, datetime):
        return deadline
    try:
        return datetime.fromisoformat(str(deadline))
    except ValueError:
        return None


def fire_timer(game_id: int, seq: int, deadline):
    """The body of the timeout task: if the decision open at version `seq` still has this deadline
    and it has passed, the bot answers it for its seat. Returns the Outcome, or None when there was
    nothing to do (the game moved on, the deadline changed, it is not due yet, the game is over)."""
    when = _parse(deadline)
    if when is None:
        return None
    with transaction.atomic():
        row = Game.objects.select_for_update().filter(pk=game_id).first()
        if row is None or not row.is_active:
            return None
        if row.version != seq or row.deadline_seq != seq or row.deadline is None or row.deadline != when:
            return None  # answered, taken back, or timed again since: this task is stale
        if timezone.now() < row.deadline:
            # Early (clock skew between machines): look again at the deadline.
            transaction.on_commit(lambda: timers.schedule(game_id, seq, when))
            return None
        # The same transaction still holds the row: nothing can land between the check and the move.
        outcome = bot_move(game_id, seq, force=True, timed_out=True)
    if outcome is not None:
        logger.info("game %s: seat timed out at %s, the bot chose", game_id, seq)
    return outcome


def sweep_timers(now: datetime | None = None) -> int:
    """Fire every overdue turn timer (the periodic safety net). Returns how many moves were made."""
    now = now or timezone.now()
    due = list(
        Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now, deadline_seq__isnull=False)
        .order_by("deadline")
        .values_list("pk", "deadline_seq", "deadline")[:500]
    )
    fired = 0
    for pk, seq, deadline in due:
        try:
            if fire_timer(pk, seq, deadline) is not None:
                fired += 1
        except Exception:  # one broken game must not stop the others
            logger.exception("the timer sweep could not fire game %s at %s", pk, seq)
    return fired
