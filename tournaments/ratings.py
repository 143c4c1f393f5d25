"""Player ratings over multiplayer games: OpenSkill's Bradley-Terry model, plain data in and out.

Pure Python, no Django. A rated game is one confirmed table: its players (present ones only: a
no-show did not play) and their places (scoring.placements; equal VP share a place, which the model
treats as a tie). Rounds are rated in order; the tables of one round have no player in common, so
their order within the round does not matter. Rating the same rounds from the same start gives the
same numbers (the model is deterministic), which is what lets the stored ratings be recomputed from
any round on after a correction (services/rating_store.py).

The model (openskill.models.BradleyTerryFull, with its defaults) compares every pair of players at
a table, a tie counting as a draw between them. OpenSkill's Plackett-Luce model was the first
choice, but it mishandles a tie at a table of 3 or 4: with two players sharing first place, the
third is moved exactly as much as the winners (openskill 6.2: places 1, 1, 3, 4 give mu 25.9, 25.9,
25.9, 22.2), which a game of Smash Up, where equal VP are common, would show every evening.

A player's skill is a normal distribution: `mu` (25 for a newcomer) and the uncertainty `sigma`
(25/3). The number shown is the conservative estimate `mu - 3 sigma` (OpenSkill's "ordinal"): 0 for
a newcomer, rising as results come in and as the uncertainty shrinks, so a lucky first game does
not top the list.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

MODEL = BradleyTerryFull()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma
# Stored with the ratings: another model or other parameters mean every rating is computed again.
MODEL_NAME = (
    f"openskill-bradley-terry-full mu={MODEL.mu:g} sigma={MODEL.sigma:g} "
    f"beta={MODEL.beta:g} tau={MODEL.tau:g}"
)


@dataclass(frozen=True)
class Skill:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def rating(self) -> float:
        """The number shown: the conservative estimate mu - 3 sigma (0 for a newcomer)."""
        return self.mu - 3 * self.sigma


NEWCOMER = Skill()


@dataclass(frozen=True)
class RatedSeat:
    """One player at one rated table: who, their place there, and where it is stored (`ref`)."""

    player: Hashable
    place: int  # 1 = first; equal places are a tie
    ref: Hashable = None  # the caller's handle (a seat id): given back with the result


@dataclass(frozen=True)
class RatedRound:
    """The tables of one round, in the order rounds are rated (`key` sorts them)."""

    key: tuple
    tables: Sequence[Sequence[RatedSeat]]


@dataclass(frozen=True)
class Change:
    """What one table did to one player's skill."""

    round_key: tuple
    player: Hashable
    ref: Hashable
    before: Skill
    after: Skill

    @property
    def delta(self) -> float:
        return self.after.rating - self.before.rating


def rate_table(table: Sequence[RatedSeat], skills: Mapping[Hashable, Skill]) -> dict[Hashable, Skill]:
    """The players' skills after one table (a table of fewer than two players changes nothing)."""
    if len(table) < 2:
        return {}
    players = [seat.player for seat in table]
    if len(set(players)) != len(players):
        raise ValueError(f"a player sits twice at one table: {players}")
    now = [skills.get(p, NEWCOMER) for p in players]
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in now]
    new = MODEL.rate(teams, ranks=[seat.place for seat in table])
    return {p: Skill(team[0].mu, team[0].sigma) for p, team in zip(players, new, strict=True)}


def rate_rounds(
    rounds: Iterable[RatedRound], start: Mapping[Hashable, Skill] | None = None
) -> tuple[dict[Hashable, Skill], list[Change]]:
    """Rate `rounds` in key order from the skills in `start` (anyone else starts as a newcomer).

    Returns the skills after the last round and every change, in the order made."""
    skills = dict(start or {})
    changes: list[Change] = []
    for rnd in sorted(rounds, key=lambda r: r.key):
        seen: set = set()
        for table in rnd.tables:
            present = [seat.player for seat in table]
            if seen.intersection(present):
                raise ValueError(f"round {rnd.key}: a player sits at two tables")
            seen.update(present)
            after = rate_table(table, skills)
            for seat in table:
                if seat.player in after:
                    before = skills.get(seat.player, NEWCOMER)
                    changes.append(Change(rnd.key, seat.player, seat.ref, before, after[seat.player]))
            # The tables of a round share no player, so updating table by table is the same as
            # updating once the round is over.
            skills.update(after)
    return skills, changes


def places_of(vp: Mapping[Hashable, float], absent: Iterable[Hashable] = ()) -> dict[Hashable, int]:
    """Each present player's place by VP (1 = most; equal VP share the better place). No-shows
    (`absent`) are left out: they did not play the game."""
    absent = set(absent)
    order = sorted((v for p, v in vp.items() if p not in absent), reverse=True)
    return {p: order.index(v) + 1 for p, v in vp.items() if p not in absent}


def leaderboard(skills: Mapping[Hashable, Skill]) -> list[tuple[Hashable, Skill]]:
    """Players by the shown rating, best first (ties by mu, then by the player's key as text)."""
    return sorted(skills.items(), key=lambda item: (-item[1].rating, -item[1].mu, str(item[0])))
