"""Tournament points for one table: placement from VP, then points by placement.

Pure Python, no Django. A placement is the range of places a player covers: (1, 1) is a clear first,
(1, 2) is a tie for first and second. Tied players share the average of the points of the places they
cover, so a table always hands out the same total whatever the ties.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping
from functools import lru_cache

NORMALISED = "normalised"
FIXED_4321 = "4321"
PRESETS = (NORMALISED, FIXED_4321)

Place = tuple[int, int]


def placements(vp: Mapping[Hashable, float], absent: Collection[Hashable] = ()) -> dict[Hashable, Place]:
    """Places by VP, highest first; players with equal VP share the places they cover.

    `absent`: players marked as no-shows. They place below everyone who played, whatever the VP (a
    loss: a present player with 0 VP still beats them), and share the last places among themselves."""
    ahead = players_ahead(vp, absent)
    return {player: (n + 1, n + ahead.count(n)) for player, n in zip(vp, ahead, strict=True)}


def players_ahead(vp: Mapping[Hashable, float], absent: Collection[Hashable] = ()) -> tuple[int, ...]:
    """How many players placed above each player, in the order of `vp`: a player's first place less
    one. Players who tie share the number, so a placement is (n + 1, n + how many share n); the
    no-shows all have everyone present above them."""
    if not absent:
        order = sorted(vp.values(), reverse=True)
        return tuple([order.index(score) for score in vp.values()])
    order = sorted((score for player, score in vp.items() if player not in absent), reverse=True)
    present = len(order)
    return tuple([present if player in absent else order.index(score) for player, score in vp.items()])


def place_points(size: int, place: int, preset: str = NORMALISED) -> float:
    """Points for one place at a table of `size` players.

    `normalised`: 1 + 3 (n - place) / (n - 1), so first is 4 and last is 1 at every table size and
    every table averages 2.5 (4/3/2/1 at four players, 4/2.5/1 at three, 4/1 at two).
    `4321`: 4 for first, 3, 2, 1, whatever the table size.
    """
    if not 1 <= place <= size:
        raise ValueError(f"place {place} is not at a table of {size}")
    if preset == NORMALISED:
        return 4.0 if size == 1 else 1 + 3 * (size - place) / (size - 1)
    if preset == FIXED_4321:
        return float(max(1, 5 - place))
    raise ValueError(f"unknown scoring preset {preset!r}; choose from {PRESETS}")


@lru_cache(maxsize=1024)
def shared_points(size: int, place: Place, preset: str = NORMALISED) -> float:
    """The average of the points of the places a tie covers (cached: a few dozen distinct values)."""
    first, last = place
    return sum(place_points(size, p, preset) for p in range(first, last + 1)) / (last - first + 1)


def table_points(
    vp: Mapping[Hashable, float], preset: str = NORMALISED, absent: Collection[Hashable] = ()
) -> dict[Hashable, float]:
    """Tournament points of every player at one table, from their VP (`absent`: no-shows, last)."""
    size = len(vp)
    return {player: shared_points(size, place, preset) for player, place in placements(vp, absent).items()}


@lru_cache(maxsize=4096)
def seat_points(ahead: tuple[int, ...], preset: str = NORMALISED) -> tuple[float, ...]:
    """The points of each seat of a table from `players_ahead` (cached: a table of four has 75
    possible orders of ties, so the standings look points up instead of counting places)."""
    size = len(ahead)
    return tuple([shared_points(size, (n + 1, n + ahead.count(n)), preset) for n in ahead])


def average_points(size: int = 4, preset: str = NORMALISED) -> float:
    """What a table of `size` hands out per player; the default value of a bye."""
    return sum(place_points(size, p, preset) for p in range(1, size + 1)) / size


# A standard game ends at the end of a turn once someone has 15 VP; the bases that score in that last
# turn rarely add more than a dozen. Above this, a typing slip (150 for 15) is likelier than a game.
PLAUSIBLE_VP = {"standard": 40, "bigbase": 60}
# The table's top VP this far above everyone else's best: a slip too (the game ends at 15).
PLAUSIBLE_LEAD = 20


def implausible(
    vp: Mapping[Hashable, int], names: Mapping[Hashable, str], mode: str = "standard", absent=()
) -> list[str]:
    """Why a result looks mistyped, in words ([] when it looks like a game): a VP above what a game
    gives (PLAUSIBLE_VP), or a lead far beyond the table's others (PLAUSIBLE_LEAD). A warning to
    confirm before saving, never a refusal: a strange game can be real."""
    warnings = []
    limit = PLAUSIBLE_VP.get(mode, PLAUSIBLE_VP["standard"])
    for player, score in vp.items():
        if score > limit:
            warnings.append(
                f"{names.get(player, player)} has {score} VP: a game rarely gives more than {limit}."
            )
    present = sorted((score, player) for player, score in vp.items() if player not in absent)
    if len(present) >= 2:
        (second, _), (top, leader) = present[-2], present[-1]
        if top - second > PLAUSIBLE_LEAD and top <= limit:
            warnings.append(
                f"{names.get(leader, leader)} has {top} VP, {top - second} more than anyone else at the "
                f"table: a game ends at 15."
            )
    return warnings
