"""Penalties a judge gives, as the standings count them. Pure Python, no Django.

Four kinds, the usual ladder of card-game tournaments:
- a warning: on the record and shown, the points do not change;
- a VP loss: the player's VP at their table of that round go down (never below 0) and the table is
  scored again by the event's scoring, so their place (and their table-mates' places) follow the
  new VP, as if the game had ended that way;
- a game loss: that table's result is a loss for the player. Ruling: it is scored as a no-show is
  (services.mark_no_show): 0 VP, placed below everyone else at the table; the others keep their VP
  and are placed among themselves;
- a disqualification: the player leaves the event (the services drop them) and, ruling, forfeits
  their place: listed below every other player, marked. Their games stay played for their
  opponents (strength of schedule, the tables they shared).

VP and game losses touch one game, the player's table of `round`; a penalty for a game the
standings do not hold (not confirmed yet, a bye) changes nothing until there is one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

WARNING = "warning"
VP_LOSS = "vp_loss"
GAME_LOSS = "game_loss"
DISQUALIFICATION = "disqualification"
KINDS = (WARNING, VP_LOSS, GAME_LOSS, DISQUALIFICATION)
# The kinds that change a game's result, and so need the round of that game.
GAME_KINDS = (VP_LOSS, GAME_LOSS)


@dataclass(frozen=True)
class Penalty:
    player: Hashable
    kind: str
    round: int | None = None  # the round of the game it touches (VP and game losses), or given in
    vp: int = 0  # VP lost (VP_LOSS only)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown penalty {self.kind!r}; choose from {KINDS}")
        if self.kind in GAME_KINDS and self.round is None:
            raise ValueError(f"a {self.kind} names the round of the game it touches")
        if self.kind == VP_LOSS and not (isinstance(self.vp, int) and self.vp > 0):
            raise ValueError("a VP loss takes away at least 1 VP")

    @property
    def text(self) -> str:
        """The penalty in a few words, as the standings show it."""
        where = f" in round {self.round}" if self.round is not None else ""
        if self.kind == VP_LOSS:
            return f"−{self.vp} VP{where}"
        if self.kind == GAME_LOSS:
            return f"game loss{where}"
        if self.kind == DISQUALIFICATION:
            return "disqualified"
        return f"warning{where}"


def apply_penalties(games: Iterable, penalties: Iterable[Penalty]) -> list:
    """`games` (tournaments.standings.Game) as the standings count them after the VP losses and game
    losses of `penalties`. A game nobody was penalised in is passed on as it is."""
    lost: dict[tuple[int, Hashable], int] = defaultdict(int)
    forfeited: set[tuple[int, Hashable]] = set()
    for p in penalties:
        if p.kind == VP_LOSS:
            lost[(p.round, p.player)] += p.vp
        elif p.kind == GAME_LOSS:
            forfeited.add((p.round, p.player))
    if not lost and not forfeited:
        return list(games)
    out = []
    for game in games:
        hit = [p for p in game.vp if (game.round, p) in lost or (game.round, p) in forfeited]
        if not hit:
            out.append(game)
            continue
        vp = dict(game.vp)
        absent = set(game.absent)
        for p in hit:
            if (game.round, p) in forfeited:
                vp[p] = 0
                absent.add(p)
            else:
                vp[p] = max(0, vp[p] - lost[(game.round, p)])
        out.append(game._replace(vp=vp, absent=frozenset(absent)))
    return out


def disqualified(penalties: Iterable[Penalty]) -> set:
    return {p.player for p in penalties if p.kind == DISQUALIFICATION}


def by_player(penalties: Iterable[Penalty]) -> dict[Hashable, tuple[Penalty, ...]]:
    """Each player's penalties, by round (those without a round last), in the order given."""
    grouped: dict[Hashable, list[Penalty]] = defaultdict(list)
    for p in penalties:
        grouped[p.player].append(p)
    return {
        player: tuple(sorted(given, key=lambda p: (p.round is None, p.round or 0)))
        for player, given in grouped.items()
    }


def summary(given: Sequence[Penalty]) -> list[str]:
    """A player's penalties in words for the standings: disqualified first, warnings counted."""
    texts = []
    if any(p.kind == DISQUALIFICATION for p in given):
        texts.append("disqualified")
    texts += [p.text for p in given if p.kind in GAME_KINDS]
    warnings = sum(1 for p in given if p.kind == WARNING)
    if warnings:
        texts.append(f"{warnings} warning{'s' * (warnings != 1)}")
    return texts
