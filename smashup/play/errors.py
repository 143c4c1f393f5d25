"""Refused requests of live play: a `PlayError` carries a message for people (`str(err)`) and a
`code` for programs; whoever raises one has changed nothing.
"""

from __future__ import annotations


class PlayError(Exception):
    """A refused request. `str(err)` is for people, `err.code` for programs. Nothing was changed."""

    code = "error"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self)


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
