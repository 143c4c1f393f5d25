"""Starting a table once every seat is filled (and drafted or picked): the engine game is set up and
the row becomes active.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from smashup import draft as kiq
from smashup.botregistry import engine_bot
from smashup.engine import ConfigError, new_game

from . import timers
from .commits import committed, outcome_of, sync_row
from .errors import PlayError
from .models import Game, Seat
from .tables import (
    SeatSpec,
    draw_factions,
    factions_available,
    table_settings,
    table_stream,
    with_table_settings,
)


def maybe_start(row: Game) -> bool:
    """Inside a transaction holding the row: start the game if every seat is filled."""
    seats = list(row.seats.order_by("index"))
    if not row.is_lobby or not seats or not all(s.filled for s in seats):
        return False
    if row.draft is not None and not kiq.is_done(kiq.DraftState.from_dict(row.draft)):
        return False  # the faction draft at the table is not over yet
    if row.player_picks:
        if any(not s.is_bot and len(s.factions) != 2 for s in seats):
            return False  # someone seated has not picked yet
        _draw_bot_factions(row, seats)
    config = dict(row.config)
    players = [dict(p) for p in config["players"]]
    for seat, player in zip(seats, players, strict=True):
        # A reserved seat keeps the name it was given (a user's own claim clears guest_name).
        player["name"] = seat.guest_name or seat.display_name
        player["bot"] = engine_bot(seat.bot or "heuristic") if seat.is_bot else None
        player["factions"] = list(seat.factions)
    config["players"] = players
    try:
        game = new_game(config, row.engine_seed, track_hashes=True, rng_version=row.rng_version,
                        resolution=row.resolution)
    except ConfigError as exc:
        raise PlayError(f"The game cannot start: {exc}", "config") from exc
    row.config = with_table_settings(game.config, table_settings(config))  # the engine keeps only its own
    row.status = Game.Status.ACTIVE
    row.version = 0
    row.started_at = timezone.now()
    sync_row(row, game)
    row.undo_seat = None
    timers.arm(row)
    row.save()
    outcome = outcome_of(row, game)
    transaction.on_commit(lambda: committed(outcome.game_id, 0, game, outcome, schedule_bots=True))
    return True


def _draw_bot_factions(row: Game, seats: list[Seat]) -> None:
    """At the start of a table where each player picks: random factions for the bot seats (drawn
    from the seed, so the record still says everything), avoiding the people's picks while there are
    enough factions to go round."""
    if all(s.factions for s in seats if s.is_bot):
        return
    specs = [SeatSpec(s.kind, list(s.factions) if s.factions else [None, None]) for s in seats]
    rng = table_stream(row, "lobby:bot-factions", legacy=f"factions:{row.seed}:bots")
    pairs = draw_factions(specs, rng, factions_available())
    for seat, pair in zip(seats, pairs, strict=True):
        if seat.is_bot and not seat.factions:
            seat.factions = pair
            seat.save(update_fields=["factions"])
