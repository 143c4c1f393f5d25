"""The server's bots, through the same path as a person's choice (`choices.apply_choice`).

After a commit that leaves a bot's decision open, a Celery task ``play_bot(game, seq, undos)`` is sent
at once, on its table's bot queue (smashup/core/queues.py). It thinks (`think`) outside any lock, on
the engine game of that version, with the bot the seat plays (`tables.table_bot`, a name of
smashup.botregistry.BOTS) and a `Budget` whose cancel check reads the row: when the decision is
answered elsewhere meanwhile (time called, a staff member ended the game, another copy of the task),
the thought is dropped and nothing is written. The move is then played at the table's pace
(`tables.pace_seconds`): that long after the move before it, thinking time included (a bot that
thought 0.8 s at a 1.2 s pace waits 0.4 s more), by a second task (`deliver`) sent for that moment,
or at once when it is due. Each step checks the version, so duplicates, retries and restarts are
harmless (the state is in the database, not in a waiting thread). A turn timer that runs out lets
the quick heuristic bot answer for the seat under the row lock (`fire_timer`, `bot_move`). Beat's
sweeps catch what a lost task would have done (`sweep_bots` sends the task again, `sweep_timers`
fires).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from smashup.botregistry import BOTS, Budget, Cancelled

from . import timers
from .choices import apply_choice
from .commits import Outcome, bot_overdue_after, celery_eager, schedule_bot, schedule_delivery
from .errors import GameNotFound, GameOver, NothingToDo, NotStarted, StaleChoice
from .gamecache import engine_game
from .models import Game, Seat
from .tables import config_is_bot_only, is_bot_seat, pace_seconds, table_bot, table_stream, think_seconds

logger = logging.getLogger(__name__)

# The bot that answers when a seat's own is not installed (a record made where "expert" existed).
FALLBACK_BOT = "heuristic"
# The bot that searches for its thinking time (never under the row lock: `bot_move`).
SEARCHING_BOT = "expert"
# How often, at most, a thinking bot's cancel check reads the row.
CANCEL_POLL_SECONDS = 0.1


def _bot_of(row: Game, seat: int):
    name = table_bot(row, seat)
    bot = BOTS.get(name)
    if bot is None:
        logger.warning(
            "game %s seat %s: no bot %r here; the %s bot answers", row.pk, seat, name, FALLBACK_BOT
        )
        bot = BOTS[FALLBACK_BOT]
    return bot


def _bot_rng(row: Game, seq: int):
    # Reproducible from the record; unpredictable without the game's secret (version 2).
    return table_stream(row, f"bot:{seq}", legacy=f"{row.seed}:{seq}")


def bot_move(game_id: int, seq: int, *, force: bool = False, timed_out: bool = False) -> Outcome | None:
    """Let a bot answer the decision open at version `seq` now, choosing under the row lock, through
    the same path as a person's choice: the turn timer's way (`force`: the heuristic bot answers a
    person's decision that ran out of time; `timed_out` records it so and schedules the bot seats'
    answers after it). Without `force` the seat's own bot answers, if it is a bot seat. Does nothing
    (None) if the game has moved on or is over. Bot seats' moves in play go through `run_bots`."""

    def pick(game, row):
        pending = game.pending
        if not force and not is_bot_seat(row, pending.seat):
            raise NothingToDo
        bot = (
            BOTS[FALLBACK_BOT] if force and not is_bot_seat(row, pending.seat) else _bot_of(row, pending.seat)
        )
        if bot is BOTS.get(SEARCHING_BOT):
            # Under the row lock nobody may wait for a search: the quick bot answers instead.
            bot = BOTS[FALLBACK_BOT]
        return pending.seat, pending.id, bot(game, pending.seat, _bot_rng(row, seq), Budget())

    try:
        return apply_choice(game_id, seq, pick, by_bot=True, schedule_bots=timed_out, timed_out=timed_out)
    except (StaleChoice, GameOver, NotStarted, GameNotFound, NothingToDo):
        return None


# ---------------------------------------------------------------------------------- thinking ----
@dataclass(frozen=True)
class Thought:
    """A bot's move for the decision open at (`seq`, `undos`), to be played at `due`."""

    seq: int
    undos: int
    seat: int
    decision: str
    options: list
    due: datetime
    pace: float
    bot_only: bool

    @property
    def choice(self) -> tuple:
        return (self.seat, self.decision, list(self.options))


def decision_open(game_id: int, seq: int, undos: int) -> bool:
    """Whether the game is still active at (`seq`, `undos`): the decision a bot thinks about has not
    been answered elsewhere (one small query)."""
    found = Game.objects.filter(pk=game_id).values_list("version", "undos", "status").first()
    return found == (seq, undos, Game.Status.ACTIVE)


def cancel_check(game_id: int, seq: int, undos: int, every: float = CANCEL_POLL_SECONDS):
    """A `Budget.cancelled` for the decision at (`seq`, `undos`): it reads the row at most once per
    `every` seconds, and once it has seen the decision gone it says so for good."""
    state = {"at": None, "gone": False}

    def cancelled() -> bool:
        now = time.monotonic()
        if not state["gone"] and (state["at"] is None or now - state["at"] >= every):
            state["at"] = now
            state["gone"] = not decision_open(game_id, seq, undos)
        return state["gone"]

    return cancelled


def think(game_id: int, seq: int, undos: int | None = None) -> Thought | None:
    """The seat's bot chooses its answer to the decision open at version `seq` (and `undos`; None:
    whatever is open at `seq` now), outside any lock. None, with nothing written anywhere, when
    there is nothing to answer or the decision was answered elsewhere while it thought."""
    row = Game.objects.filter(pk=game_id).first()
    if row is None or not row.is_active or row.version != seq or (undos is not None and row.undos != undos):
        return None
    seat = row.pending_seat
    if not is_bot_seat(row, seat):
        return None
    undos = row.undos
    bot = _bot_of(row, seat)
    budget = Budget(seconds=think_seconds(row.config), cancelled=cancel_check(game_id, seq, undos))
    try:
        with engine_game(row) as game:
            pending = game.pending
            if pending is None or pending.seat != seat:
                return None
            options = bot(game, seat, _bot_rng(row, seq), budget)
            decision = pending.id
        budget.check()  # answered elsewhere while it thought: drop the thought
    except Cancelled:
        logger.info("game %s: the bot's thought at %s was dropped (answered elsewhere)", game_id, seq)
        return None
    pace = pace_seconds(row.config)
    return Thought(
        seq=seq,
        undos=undos,
        seat=seat,
        decision=decision,
        options=list(options),
        due=row.updated_at + timedelta(seconds=pace),
        pace=pace,
        bot_only=config_is_bot_only(row.config),
    )


def deliver(
    game_id: int, seq: int, undos: int, seat: int, decision: str, options: list, *, schedule_bots: bool = True
) -> Outcome | None:
    """Play a bot's move chosen for the decision open at (`seq`, `undos`). Does nothing (None) when
    that decision is no longer open (answered, taken back, the game over or gone)."""

    def pick(game, row):
        pending = game.pending
        if row.undos != undos or pending.seat != seat or pending.id != decision:
            raise StaleChoice("The bot's decision was answered elsewhere.")
        if not is_bot_seat(row, seat):
            raise NothingToDo
        return seat, decision, list(options)

    try:
        return apply_choice(game_id, seq, pick, by_bot=True, schedule_bots=schedule_bots)
    except (StaleChoice, GameOver, NotStarted, GameNotFound, NothingToDo):
        return None


def run_bots(game_id: int, seq: int, undos: int | None = None, *, max_moves: int = 100_000) -> int:
    """The body of the bot task: think about the bot decision open at (`seq`, `undos`) and play it at
    the table's pace: now when it is due (it thought for as long as the pace, or the pace is
    instant), else through a delivery task sent for its moment. At the instant pace, or with Celery
    run inline (tests), it plays on until a person must decide; otherwise the commit sends the next
    bot's task. Returns the number of moves made here."""
    moves = 0
    while moves < max_moves:
        thought = think(game_id, seq, undos)
        if thought is None:
            break
        inline = celery_eager()
        if not inline and timezone.now() < thought.due:
            schedule_delivery(game_id, seq, thought.undos, thought.choice, thought.due, thought.bot_only)
            break
        play_on = inline or thought.pace <= 0
        outcome = deliver(game_id, seq, thought.undos, *thought.choice, schedule_bots=not play_on)
        if outcome is None:
            break
        moves += 1
        if not (play_on and outcome.bot_next):
            break
        seq, undos = outcome.version, outcome.undos
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
        .values_list("pk", "version", "undos", "config")[:limit]
    )
    sent = 0
    for pk, version, undos, config in waiting:
        key = f"play:bot-resent:{pk}:{version}"
        try:
            if not shared.add(key, 1, timeout=BOT_RESEND_SECONDS):
                continue  # sent again a moment ago: its copy is still on its way
        except Exception:  # noqa: BLE001 - no cache: send it all the same (a copy does no harm)
            key = None
        if schedule_bot(pk, version, undos=undos, bot_only=config_is_bot_only(config)):
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
