"""Taking back one's own last choice (the rule of what may be taken back is in `undo`)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from smashup.core import params
from smashup.engine import IllegalChoice

from . import timers
from . import undo as undo_rule
from .commits import Outcome, committed, outcome_of, sync_row
from .errors import BadRequest, GameBroken, GameOver, NotStarted, SpectatorChoice, StaleChoice, UndoRefused
from .gamecache import rebuild
from .models import Game
from .tables import lock_game, player_names


def undo_choice(game_id: int, seat: int | None, expected_seq) -> Outcome:
    """Take back `seat`'s last choice, or raise a PlayError and change nothing.

    `expected_seq` is the version the player sees (as for a choice); the choice taken back is the
    last one of the record (seq `expected_seq - 1`). Allowed only when that choice is this seat's
    own (not the bot's or a timeout's), nobody has chosen since, and it revealed and shuffled
    nothing (see `undo`); the rule is checked again here on the game rebuilt without the choice.
    The choice row is marked as taken back (it stays for the audit) and the version goes back.
    """
    from .models import Choice

    try:
        expected_seq = params.whole_number(expected_seq, "seq")
    except params.BadNumber:
        raise BadRequest("'seq' must be the game version you see (a number).") from None
    if seat is None:
        raise SpectatorChoice("Spectators watch; only a player at the table can take back a choice.")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadRequest("'seat' must be a seat number.")
    with transaction.atomic():
        row = lock_game(game_id)
        if row.is_lobby:
            raise NotStarted("The game has not started yet.")
        if row.is_finished:
            raise GameOver("The game is over; its choices can no longer be taken back.")
        if expected_seq != row.version:
            raise StaleChoice(
                f"The game has moved on (you saw move {expected_seq}, it is at move {row.version}); "
                "nothing was taken back."
            )
        last = row.choices.in_record().filter(seq=row.version - 1).first() if row.version else None
        if last is None:
            raise UndoRefused("There is no choice to take back yet.")
        names = player_names(row)
        if last.is_time_call:
            raise UndoRefused(
                "Time has been called since; the choices before it can no longer be taken back."
            )
        if last.seat != seat:
            raise UndoRefused(
                f"The last choice was {names.get(last.seat, 'another player')}'s; "
                "you can only take back your own last choice, before anyone else chooses."
            )
        if last.by_bot:
            why = "the time ran out and the bot chose for you" if last.timed_out else "the bot made it"
            raise UndoRefused(f"That choice cannot be taken back: {why}.")
        if not last.undoable:
            raise UndoRefused(f"That choice cannot be taken back: {last.undo_block or 'it was not checked'}.")
        # Check the rule again: rebuild the game without the choice and apply it once more, watching
        # whose hands a Special window looks at (the stored verdict is only the button's hint).
        probe = rebuild(row, row.version - 1)
        seen = undo_rule.snapshot(probe)
        try:
            with undo_rule.watching_specials(probe) as peeked:
                probe.apply(last.seat, last.decision, list(last.options))
        except IllegalChoice as exc:
            raise GameBroken(f"Game {row.code} no longer accepts its own last choice: {exc}.") from None
        if probe.digest() != row.state_hash:
            raise GameBroken(f"Game {row.code} rebuilds to a different state than was played.")
        block = undo_rule.block_reason(seen, probe, seat, peeked=peeked)
        if block:
            raise UndoRefused(f"That choice cannot be taken back: {block}.")
        before = rebuild(row, row.version - 1)
        if before.pending is None or before.pending.seat != seat or before.pending.id != last.decision:
            raise GameBroken(f"Game {row.code} rebuilds to a different decision than was answered.")
        now = timezone.now()
        if Choice.objects.filter(pk=last.pk, undone_at__isnull=True).update(undone_at=now) != 1:
            raise StaleChoice("That choice was already taken back.")
        row.version -= 1
        row.undos += 1
        sync_row(row, before)
        previous = row.choices.in_record().filter(seq=row.version - 1).first() if row.version else None
        row.undo_seat = previous.seat if previous is not None and previous.undoable else None
        timers.arm(row, keep=last.deadline)  # the clock it had, not a new one (nor any grace)
        row.save()
        outcome = outcome_of(row, before)
        transaction.on_commit(lambda: committed(row.pk, outcome.version, before, outcome, False))
    return outcome


def may_undo(row: Game, seat: int | None) -> bool:
    """Whether `seat` may take back the last choice now (for the Undo button; `undo_choice` checks)."""
    return seat is not None and row.is_active and row.undo_seat is not None and row.undo_seat == seat


# How far back a seat's own choice is still explained after others chose ("another player has chosen
# since"): at most this many choices of others per player at the table. Further back, the choice was
# made long ago and the note would only be noise.
_SINCE_PER_PLAYER = 1


def undo_note(row: Game, game, seat: int | None) -> dict | None:
    """Why `seat` has no Undo button now, for its page: {"code", "text"} (codes: `undo.REASONS`), or
    None when there is nothing to explain (it may undo, is a spectator, has not chosen lately, or the
    game is not being played). Only the seat that chose sees why its choice cannot be taken back.

    The last choice of the record is this seat's: the reason stored with it (`Choice.undo_block`,
    one query; see `needs_stored_reason`). Otherwise, when this seat's own latest choice came just
    before the others' latest ones (a choice or two of others since, such as a Special window's
    answer), "another player has chosen since"."""
    if seat is None or row is None or getattr(row, "pk", None) is None or not row.is_active:
        return None
    if len(game.choices) != row.version or may_undo(row, seat) or not game.choices:
        return None
    if needs_stored_reason(row, game, seat):
        stored = (
            row.choices.in_record().filter(seq=row.version - 1).values_list("undo_block", flat=True).first()
        )
        code = undo_rule.reason_code(stored or "")
        if not code:
            return None
        return {"code": code, "text": stored if code == "other" else undo_rule.REASONS[code]}
    others = 0
    for entry in reversed(game.choices):
        if entry[0] == seat:
            return {"code": "chosen_since", "text": undo_rule.REASONS["chosen_since"]}
        others += 1
        if others > _SINCE_PER_PLAYER * max(1, len(game.players) - 1):
            return None
    return None


def needs_stored_reason(row: Game, game, seat: int | None) -> bool:
    """Whether `undo_note` reads the database for `seat`: its own choice is the last of the record and
    may not be taken back. A live connection renders without the database only when this is false."""
    return (
        seat is not None
        and row.is_active
        and bool(game.choices)
        and len(game.choices) == row.version
        and game.choices[-1][0] == seat
        and row.undo_seat != seat
    )
