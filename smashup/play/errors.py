"""Refused requests of live play: a `PlayError` carries a message for people (`str(err)`) and a
`code` for programs; whoever raises one has changed nothing.
"""

from __future__ import annotations

from smashup.core.errors import Refused


class PlayError(Refused):
    """A refused request of live play (smashup.core.errors.Refused)."""


class GameNotFound(PlayError):
    code = "not_found"


class NotStarted(PlayError):
    code = "not_started"


class GameOver(PlayError):
    code = "game_over"


class StaleChoice(PlayError):
    code = "stale"


class NotYourDecision(PlayError):
    code = "not_your_decision"


class SpectatorChoice(PlayError):
    code = "spectator"


class IllegalMove(PlayError):
    code = "illegal"


class BadRequest(PlayError):
    code = "bad_request"


class SeatError(PlayError):
    code = "seat"


class BadSeatLink(PlayError):
    code = "bad_link"


class GameBroken(PlayError):
    """The stored record no longer replays (or replays to a different state). Never the player's fault."""

    code = "broken"


class UndoRefused(PlayError):
    code = "cannot_undo"


class FactionError(PlayError):
    code = "factions"


class NothingToDo(Exception):
    """Internal: a bot task found that the open decision is not a bot's."""
