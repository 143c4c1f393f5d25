"""Standings: total tournament points, then tie-breakers in an order the organizer chooses.

Pure Python, no Django. Input is plain data: who plays, which games were played (the VP of every
player at every table) and who had a bye. Every tie-breaker is "higher is better"; a seeded random
draw settles what the chosen tie-breakers leave tied, so ranks are always 1..N without gaps.

Fairness rules (issue 14), one rule for everyone:
- Byes are neutral in the tie-breakers: VP share, games won and VP are averages per game played, so a
  bye (worth the average seat's points) neither helps nor hurts against a player who played instead.
- Strength of schedule counts every opponent at least `sos_floor` points per round, dropped or not:
  an opponent's weakness (or leaving) moves nobody's SoS below the floor.
- Where the seeded draw decided a place, the row says so (`draw_decided`), so a tie at a top-cut line
  is visible and explained.
- Penalties (tournaments.penalties) are inputs too: VP and game losses change the games they touch
  before anything is counted; a disqualified player is listed below everyone else.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import NamedTuple

from tournaments.penalties import Penalty, apply_penalties, by_player, disqualified
from tournaments.scoring import NORMALISED, average_points, players_ahead, seat_points

# The tie-breakers an organizer can order. The draw is always the last resort and is not listed.
TIEBREAKERS = ("vp_share", "sos", "firsts", "vp")
DEFAULT_TIEBREAKERS = ("vp_share", "sos", "firsts")


class Game(NamedTuple):
    """One finished table: the VP each player ended with. (A named tuple: the standings make one per
    table, 768 at 512 players x 6 rounds: 0.4 -> 0.2 ms against a frozen dataclass.)"""

    round: int
    vp: Mapping[Hashable, float]
    # Players marked as no-shows: 0 VP and placed below everyone present (a loss).
    absent: frozenset = frozenset()


@dataclass(frozen=True)
class StandingsOptions:
    preset: str = NORMALISED
    tiebreakers: Sequence[str] = DEFAULT_TIEBREAKERS
    # Every opponent counts as at least this many points per round in strength of schedule (dropped
    # or not: one rule), so a weak opponent who leaves moves nobody's SoS more than one who stays.
    sos_floor: float = 2.0
    # None: a bye is worth what an average seat at a full table gets (2.5 with either preset).
    bye_points: float | None = None
    table_size: int = 4
    seed: str | int = 0


@dataclass(frozen=True)
class Standing:
    rank: int
    player: Hashable
    points: float
    vp_share: float  # average over games played of VP / the top VP at that table
    sos: float  # opponents' average points per round, each at least the floor
    firsts: int  # games won, shared first places included (ranked as a share of games played)
    vp: float  # total VP (ranked as the average per game played)
    draw: float  # seeded random, the last tie-breaker
    games: int
    byes: int
    dropped: bool
    tiebreaks: tuple[float, ...] = field(default=())  # in the configured order, for pairing
    # The seeded draw, not points or tie-breakers, put this player above or below a neighbour.
    draw_decided: bool = False
    disqualified: bool = False  # listed below everyone else (tournaments.penalties)
    penalties: tuple[Penalty, ...] = ()  # the player's penalties, by round


@dataclass(slots=True)
class _Tally:
    points: float = 0.0
    vp: float = 0.0
    vp_share: float = 0.0
    firsts: int = 0
    byes: int = 0
    tables: list = field(default_factory=list)  # the index of each game played (in `games`)
    games: int = 0  # len(tables), once every game is in


def draw_key(seed: str | int, player: Hashable) -> float:
    """A random number in [0, 1) fixed by the event seed and the player alone (not by input order)."""
    digest = hashlib.sha256(f"{seed}:draw:{player}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def compute_standings(
    players: Iterable[Hashable],
    games: Iterable[Game],
    byes: Iterable[tuple[int, Hashable]] = (),
    dropped: Collection[Hashable] = (),
    options: StandingsOptions = StandingsOptions(),
    penalties: Iterable[Penalty] = (),
) -> list[Standing]:
    """Every player (dropped ones included, flagged) in rank order."""
    for name in options.tiebreakers:
        if name not in TIEBREAKERS:
            raise ValueError(f"unknown tie-breaker {name!r}; choose from {TIEBREAKERS}")
    # A row's values are in TIEBREAKERS' order; these pick the chosen ones, in the chosen order.
    picks = [TIEBREAKERS.index(name) for name in options.tiebreakers]
    nines = (9,) * len(picks)  # round(value, 9) each
    penalties = list(penalties)
    games, out, given = apply_penalties(games, penalties), disqualified(penalties), by_player(penalties)

    tally = {p: _Tally() for p in players}
    _count_games(tally, games, options.preset)
    for t in tally.values():
        t.games = len(t.tables)
    bye_value = options.bye_points
    if bye_value is None:
        bye_value = average_points(options.table_size, options.preset)
    for _round, player in byes:
        tally[player].points += bye_value
        tally[player].byes += 1

    floor = options.sos_floor
    per_round_of = {
        p: max(t.points / (t.games + t.byes) if t.games or t.byes else 0.0, floor) for p, t in tally.items()
    }
    table_sums = [sum(map(per_round_of.__getitem__, game.vp)) for game in games]
    others = [len(game.vp) - 1 for game in games]
    sum_of, others_of, seed = table_sums.__getitem__, others.__getitem__, options.seed
    rows = []
    for p, t in tally.items():
        # Each opponent once per game: every table's players, less the player themselves.
        met = sum(map(sum_of, t.tables)) - t.games * per_round_of[p]
        opponents = sum(map(others_of, t.tables))  # once per opponent per game
        sos = met / opponents if opponents else 0.0
        games = t.games or 1
        values = (t.vp_share / games, sos, t.firsts / games, t.vp / games)  # as TIEBREAKERS
        # Rounded so that float noise (1/3 + 2/3 against 1) never decides a tie.
        tiebreaks = tuple(map(round, map(values.__getitem__, picks), nines))
        # Equal keys: only the draw told these players apart.
        rows.append(((p not in out, round(t.points, 9), tiebreaks), draw_key(seed, p), p, t, values))
    # Highest first: the disqualified last, then points, the tie-breakers in order, the draw.
    rows.sort(key=_key_and_draw, reverse=True)
    last = len(rows) - 1
    return [
        _standing(
            rank=i + 1,
            player=p,
            points=t.points,
            vp_share=values[0],
            sos=values[1],
            firsts=t.firsts,
            vp=t.vp,
            draw=draw,
            games=t.games,
            byes=t.byes,
            dropped=p in dropped,
            tiebreaks=key[2],
            draw_decided=(i > 0 and rows[i - 1][0] == key) or (i < last and rows[i + 1][0] == key),
            disqualified=p in out,
            penalties=given.get(p, ()),
        )
        for i, (key, draw, p, t, values) in enumerate(rows)
    ]


_key_and_draw = itemgetter(0, 1)
_new = object.__new__


def _standing(**fields) -> Standing:
    """`Standing(**fields)`, every field given, four times faster: a frozen dataclass's `__init__`
    sets its 15 fields one `object.__setattr__` at a time (1.2 ms of 512 rows), this fills the new
    instance's `__dict__` at once. The same instance (equality, pickling, immutability after)."""
    standing = _new(Standing)
    standing.__dict__.update(fields)
    return standing


def _count_games(tally: dict, games: Sequence[Game], preset: str) -> None:
    """Every game into its players' tallies: points, VP, VP share, firsts and the tables played.

    The standings' hot loop (3,072 seats at 512 players x 6 rounds), so written flat: no call per
    game but the cached `seat_points`, the order of ties counted inline where nobody was absent."""
    tally_of = tally.__getitem__
    try:
        for index, game in enumerate(games):
            vp, absent = game.vp, game.absent
            scores = [*vp.values()]
            top = max(scores)
            # Ruling (issue 27): a win needs VP, or being the only one who came; where nobody scored,
            # nobody won (the points, shared, still say they tied).
            if absent:
                ahead = players_ahead(vp, absent)  # 0: first place, alone or shared
                present = [score for p, score in vp.items() if p not in absent]
                winnable = len(present) == 1 or max(present, default=0) > 0
            else:
                order = sorted(scores, reverse=True)
                ahead = tuple(map(order.index, scores))  # as scoring.players_ahead
                winnable = top > 0 or len(scores) == 1
            points = seat_points(ahead, preset)  # scoring.table_points, as a tuple in seat order
            if top > 0:
                for t, score, n, earned in zip(map(tally_of, vp), scores, ahead, points, strict=True):
                    t.points += earned
                    t.vp += score
                    t.vp_share += score / top
                    if n == 0 and winnable:
                        t.firsts += 1
                    t.tables.append(index)
            else:  # Ruling: when nobody scored any VP, nobody gets a share (0/0 counts as 0).
                for t, score, n, earned in zip(map(tally_of, vp), scores, ahead, points, strict=True):
                    t.points += earned
                    t.vp += score
                    if n == 0 and winnable:
                        t.firsts += 1
                    t.tables.append(index)
    except KeyError:
        game = next(game for game in games if any(p not in tally for p in game.vp))
        unknown = [p for p in game.vp if p not in tally]
        raise ValueError(f"round {game.round}: unknown players {unknown}") from None
