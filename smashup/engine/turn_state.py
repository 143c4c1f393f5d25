"""What a turn remembers: the extra plays granted, the talents used, the plays made, and the
per-turn flags of "once per turn" abilities (CR "Turn Order": the Play Cards phase allows one
minion and one action; every extra play is a grant that a play may use; WWWT "Talent": once on
each of your turns).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .core import ACTION, MINION, Grant, PlayRecord


@dataclass(slots=True)
class TurnState:
    seat: int
    grants: list[Grant] = field(default_factory=list)
    talents_used: set = field(default_factory=set)
    flags: dict = field(default_factory=dict)  # per-turn memory of card abilities ("once per turn")
    plays: list[PlayRecord] = field(default_factory=list)  # every card played this turn, in order
    # The plays of this turn that another grant fitted too, and the grant each uses (grant
    # matching, plays.py); digest 3 reads it.
    spent: list = field(default_factory=list, metadata={"since": []})

    @property
    def minions_played(self) -> int:
        """Minions this turn's player played in its Play Cards phase."""
        return sum(1 for p in self.plays
                   if p.kind == MINION and p.seat == self.seat and p.phase == "play")

    @property
    def actions_played(self) -> int:
        return sum(1 for p in self.plays
                   if p.kind == ACTION and p.seat == self.seat and p.phase == "play")
