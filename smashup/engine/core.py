"""Plain data types of the engine: errors, decisions, events and the per-card state in play.

Nothing here knows the rules; `game.py` does. Everything is plain Python so that a decision can be
shown to a person, sent over a socket or stored as JSON without conversion.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """'1 card', '2 cards': log lines and prompts read as sentences, never 'card(s)'."""
    return f"{count} {noun if count == 1 else (plural or noun + 's')}"


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalChoice(EngineError):
    """A choice was refused. The game is unchanged when this is raised."""


class ConfigError(EngineError):
    """A game configuration or scenario cannot be built."""


class ReplayMismatch(EngineError):
    """A replayed record drifted from the state hashes stored with it."""


MINION = "minion"
ACTION = "action"
BASE = "base"


@dataclass(slots=True)
class Option:
    """One thing a seat may pick. `id` is stable for the decision; `label` is for people."""

    id: str
    label: str
    card: int | None = None  # card the option is about, if any (a hand card, a minion...)
    base: int | None = None  # base slot uid the option is about, if any
    value: Any = None  # engine-side payload; never shown to other seats

    def public(self) -> dict:
        data = {"id": self.id, "label": self.label}
        if self.card is not None:
            data["card"] = self.card
        if self.base is not None:
            data["base"] = self.base
        return data


@dataclass
class Decision:
    """The one open question of a game.

    A choice is a list of option ids with `min_count <= len <= max_count` (no repeats). Declining is
    choosing nothing, which is legal exactly when `min_count == 0`.
    """

    id: str
    seat: int
    kind: str
    prompt: str
    options: list[Option]
    min_count: int = 1
    max_count: int = 1
    source: int | None = None  # card id that asks, if any

    @property
    def may_decline(self) -> bool:
        return self.min_count == 0

    def option(self, option_id: str) -> Option | None:
        for opt in self.options:
            if opt.id == option_id:
                return opt
        return None

    def public(self) -> dict:
        return {
            "id": self.id,
            "seat": self.seat,
            "kind": self.kind,
            "prompt": self.prompt,
            "options": [o.public() for o in self.options],
            "min": self.min_count,
            "max": self.max_count,
            "may_decline": self.may_decline,
            "source": self.source,
        }


@dataclass
class Event:
    """Something that happened, for abilities that react to it ("after X...")."""

    kind: str
    card: int | None = None
    base: int | None = None  # slot uid where it happened (for a move: the destination)
    player: int | None = None  # who did it, or whose card it was (see each kind)
    data: dict = field(default_factory=dict)


@dataclass
class MinionState:
    """A minion in play: who controls it and what sits on it. Power is never stored."""

    controller: int
    counters: int = 0
    attached: list[int] = field(default_factory=list)
    # Which entry into play this is (a game-wide serial, `Game.enter_play`). A minion that leaves
    # play and is played again is a new card in play (CR "Void Where Prohibited": effects end when
    # their card leaves play), so an ability that chose it earlier no longer finds it
    # (`Ctx.in_play_mark` / `Ctx.still_in_play`). Not part of the state hash: it only tells entries
    # apart, and the zones already say everything the hash needs.
    entered: int = 0


@dataclass
class ActionState:
    """An action attached to a base or a minion."""

    controller: int
    host_kind: str  # "base" or "minion"
    host: int  # slot uid for a base, card id for a minion


@dataclass
class Grant:
    """Permission to play one card: the free minion/action of a turn, or an extra one.

    Extra plays carry their restrictions here so the main decision can list exactly what is legal.
    """

    kind: str  # MINION or ACTION
    free: bool = False
    max_power: int | None = None  # printed power cap (checked in hand)
    base: int | None = None  # only onto this base slot
    source: str = ""  # what granted it, for the log

    def restrictiveness(self) -> int:
        # When several grants fit a play, the most restrictive one is used up, so the player keeps
        # the widest permission (the rules let extra and free cards be played in any order).
        return (0 if self.free else 1) + (self.max_power is not None) + (self.base is not None)


@dataclass
class Lasting:
    """An effect with a deadline ("until the end of the turn", "until the start of your next turn")."""

    kind: str  # e.g. "power", "cancel_base"
    target: int | None  # card id or slot uid
    amount: int = 0
    player: int | None = None  # whose effect it is
    expires: tuple = ("turn_end",)  # ("turn_end",) or ("turn_start", seat)
    source: int | None = None
