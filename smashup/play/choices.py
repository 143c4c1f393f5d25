"""Players' choices::

    submit_choice(game.pk, seat, expected_seq, decision_id, option_ids)

runs in one transaction: a row lock on the game (SELECT ... FOR UPDATE), the sequence check (the
client says which version it answered; anything else is stale), the engine's own checks, the new
``Choice`` row with the state hash after it, the version bump and the finished state. Only after the
commit (``transaction.on_commit``) are the game's channel group told and the bot, if the next
decision is a bot's, scheduled (`commits.committed`). A refused choice raises a ``PlayError`` with a
message for people and a ``code`` for programs, and changes nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.db import transaction
from django.utils import timezone

from smashup.core import params
from smashup.engine import IllegalChoice

from . import timers
from . import undo as undo_rule
from .commits import Outcome, committed, outcome_of, sync_row
from .errors import (
    BadRequest,
    GameNotFound,
    GameOver,
    IllegalMove,
    NothingToDo,
    NotStarted,
    NotYourDecision,
    PlayError,
    SpectatorChoice,
    StaleChoice,
)
from .gamecache import cache, state_key, take_game, undo_snapshots
from .live import CHOICE_FIELDS, live_fields
from .models import Game
from .tables import lock_game, player_names

MAX_OPTIONS = 64  # more option ids than any decision can take: refuse bigger lists unread


def clean_choice(seq, decision, options) -> tuple[int, str, list[str]]:
    """Check the shape of a choice from outside (numbers may come as strings from forms)."""
    try:
        seq = params.whole_number(seq, "seq")
    except params.BadNumber:
        raise BadRequest("'seq' must be the game version you answered (a number).") from None
    if not isinstance(decision, str) or not decision or len(decision) > 32:
        raise BadRequest("'decision' must be the id of the decision you answer.")
    if options is None:
        options = []
    elif isinstance(options, str):
        options = [options]
    if not isinstance(options, list) or not all(isinstance(o, str) and 0 < len(o) <= 64 for o in options):
        raise BadRequest("'options' must be a list of option ids.")
    if len(options) > MAX_OPTIONS:
        raise BadRequest("Too many options in one choice.")
    return seq, decision, options


def submit_choice(
    game_id: int, seat: int | None, expected_seq, decision_id, option_ids, *, by_bot: bool = False
) -> Outcome:
    """Apply one seat's choice, or raise a PlayError and change nothing. See the module doc."""
    expected_seq, decision_id, option_ids = clean_choice(expected_seq, decision_id, option_ids)
    if seat is None:
        raise SpectatorChoice("Spectators watch; only a player at the table can choose.")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadRequest("'seat' must be a seat number.")

    def pick(game, row):
        pending = game.pending
        if pending.seat != seat:
            names = player_names(row)
            raise NotYourDecision(
                f"This decision is {names.get(pending.seat, 'another player')}'s, not yours."
            )
        if decision_id != pending.id:
            raise StaleChoice("That question has already been answered; here is the current one.")
        return seat, decision_id, option_ids

    return apply_choice(game_id, expected_seq, pick, by_bot=by_bot, schedule_bots=True)


def apply_choice(
    game_id: int,
    expected_seq: int,
    pick: Callable,
    *,
    by_bot: bool,
    schedule_bots: bool,
    timed_out: bool = False,
) -> Outcome:
    from .models import Choice

    with transaction.atomic():
        row = lock_game(game_id)
        if row.is_lobby:
            raise NotStarted("The game has not started yet.")
        if row.is_finished:
            raise GameOver("The game is over.")
        if expected_seq != row.version:
            raise StaleChoice(
                f"The game has moved on (you answered move {expected_seq}, it is at move {row.version}); "
                "here is the current state."
            )
        game = take_game(row)
        try:
            seat, decision_id, ids = pick(game, row)
            log_at = len(game.log_lines)
            # A person's choice may be taken back later: note what everyone knew before it, and
            # whose hands a Special window looked at while it was applied.
            before = None
            if not by_bot:
                before = undo_snapshots.get((row.pk, *state_key(row))) or undo_rule.snapshot(game)
            peeked: set = set()
            if before is not None:
                with undo_rule.watching_specials(game) as peeked:
                    game.apply(seat, decision_id, ids)
            else:
                game.apply(seat, decision_id, ids)
        except IllegalChoice as exc:  # the engine guarantees that nothing changed
            cache.put(row.pk, state_key(row), game)
            raise IllegalMove(f"That choice is not allowed: {exc}.") from None
        except (PlayError, NothingToDo):
            cache.put(row.pk, state_key(row), game)
            raise
        # Any other error leaves the engine object half-way: it is dropped, never cached.
        after = None
        if before is not None:
            after = undo_rule.snapshot(game)
            block = undo_rule.block_reason(before, game, seat, peeked=peeked, after=after)
        else:
            block = undo_rule.REASONS["timed_out" if timed_out else "bot"]
        choice = Choice(
            game=row,
            seq=row.version,
            seat=seat,
            decision=decision_id,
            options=list(ids),
            state_hash=game.hashes[-1],
            by_bot=by_bot,
            timed_out=timed_out,
            log_at=log_at,
            deadline=row.deadline if row.deadline_seq == row.version else None,
            undoable=not block,
            undo_block=block[:120],
        )
        row.version += 1
        sync_row(row, game)
        row.undo_seat = seat if not block and row.is_active else None
        timers.arm(row)
        _store_choice(row, choice)
        outcome = outcome_of(row, game)
        live = live_fields(row)
        transaction.on_commit(
            lambda: committed(row.pk, outcome.version, game, outcome, schedule_bots, live, after)
        )
    return outcome


def _store_choice(row: Game, choice) -> None:
    """Insert `choice` and write the row's `CHOICE_FIELDS`, inside the caller's transaction (the row
    is locked). Every choice of every table comes through here, so on PostgreSQL it is one statement
    (the insert in a WITH clause of the update): one round trip, and no ORM query built twice."""
    from django.db import connection

    if connection.vendor != "postgresql":  # SQLite (the embedded default) has no INSERT in WITH
        choice.save(force_insert=True)
        row.save(update_fields=CHOICE_FIELDS)
        return
    from .models import Choice

    now = timezone.now()
    choice.created_at = now  # what auto_now_add and auto_now would set
    row.updated_at = now
    inserted = [f for f in Choice._meta.concrete_fields if not f.primary_key]
    updated = [Game._meta.get_field(name) for name in CHOICE_FIELDS]
    params = [f.get_db_prep_save(getattr(choice, f.attname), connection) for f in inserted]
    params += [f.get_db_prep_save(getattr(row, f.attname), connection) for f in updated]
    params.append(row.pk)
    with connection.cursor() as cursor:
        cursor.execute(_store_choice_sql(), params)
        if cursor.rowcount != 1:
            raise GameNotFound("This game no longer exists.")


@functools.cache
def _store_choice_sql() -> str:
    from django.db import connection

    from .models import Choice

    quote = connection.ops.quote_name
    inserted = [quote(f.column) for f in Choice._meta.concrete_fields if not f.primary_key]
    updated = [quote(Game._meta.get_field(name).column) for name in CHOICE_FIELDS]
    return (
        f"WITH new_choice AS (INSERT INTO {quote(Choice._meta.db_table)} ({', '.join(inserted)}) "
        f"VALUES ({', '.join(['%s'] * len(inserted))})) "
        f"UPDATE {quote(Game._meta.db_table)} SET {', '.join(f'{c} = %s' for c in updated)} "
        f"WHERE {quote(Game._meta.pk.column)} = %s"
    )
