"""The top cut after the Swiss rounds: seeded tables, best seed first in seat order (and first pick).

Pure Python, no Django. `ranked` is the final standings order without dropped players.
- Top 4: one final table, seats by rank.
- Top 16: four semifinal tables snake-seeded (1,8,9,16 / 2,7,10,15 / 3,6,11,14 / 4,5,12,13); the four
  winners meet in the final, seated by their original seed.
- 1v1 events (tables of 2) keep their table size: a top 4 plays two semifinals (1 v 4, 2 v 3) and
  the two winners meet in the final. A top 16 would need two more rounds of knockout before the
  semifinals; it is refused (the event's settings check says so).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

CUT_SIZES = (4, 16)
TABLE = 4
ONE_V_ONE_CUTS = (4,)  # the cut sizes a 1v1 event can play: semifinals, then the final


def snake_tables(ranked: Sequence[Hashable], tables: int) -> list[list[Hashable]]:
    """Deal seeds into `tables` tables: forward on the first row, backward on the next, and so on."""
    result = [[] for _ in range(tables)]
    for row_start in range(0, len(ranked), tables):
        row = list(ranked[row_start : row_start + tables])
        order = range(len(row)) if (row_start // tables) % 2 == 0 else reversed(range(len(row)))
        for table, player in zip(order, row, strict=True):
            result[table].append(player)
    return result


def top_cut(ranked: Sequence[Hashable], size: int = 4, table_size: int = TABLE) -> list[list[Hashable]]:
    """The first stage of the cut: [final table] for a top 4, four semifinal tables for a top 16;
    at `table_size` 2 (1v1), two semifinals for a top 4."""
    if size not in CUT_SIZES:
        raise ValueError(f"a top cut has {' or '.join(map(str, CUT_SIZES))} players, not {size}")
    if table_size == 2 and size not in ONE_V_ONE_CUTS:
        raise ValueError(f"a 1v1 event has a top {' or '.join(map(str, ONE_V_ONE_CUTS))}, not a top {size}")
    if len(ranked) < size:
        raise ValueError(f"a top {size} needs {size} players; only {len(ranked)} are eligible")
    seeds = list(ranked[:size])
    if table_size == 2:
        # Best against worst: 1 v 4 and 2 v 3, the better seed first (first player).
        return [[seeds[i], seeds[-1 - i]] for i in range(size // 2)]
    return snake_tables(seeds, size // TABLE)


def final_table(winners: Sequence[Hashable], ranked: Sequence[Hashable]) -> list[Hashable]:
    """The semifinal winners, seated (and drafting) by their original seed."""
    seed = {p: i for i, p in enumerate(ranked)}
    missing = [w for w in winners if w not in seed]
    if missing or len(set(winners)) != len(winners):
        raise ValueError(f"winners must be distinct seeded players; unknown: {missing}")
    return sorted(winners, key=seed.__getitem__)
