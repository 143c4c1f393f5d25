"""The top cut after the Swiss rounds: seeded tables, best seed first in seat order (and first pick).

Pure Python, no Django. `ranked` is the final standings order without dropped players.
- Top 4: one final table, seats by rank.
- Top 16: four semifinal tables snake-seeded (1,8,9,16 / 2,7,10,15 / 3,6,11,14 / 4,5,12,13); the four
  winners meet in the final, seated by their original seed.
- 1v1 events (tables of 2) keep their table size: a top 4 plays two semifinals (1 v 4, 2 v 3) and
  the two winners meet in the final. A top 16 would need two more rounds of knockout before the
  semifinals; it is refused (the event's settings check says so).
- Events at tables of 3 keep their table size too: a top 3 is one final table, a top 9 three
  snake-seeded semifinal tables (1,6,7 / 2,5,8 / 3,4,9) whose winners meet in the final.
After the final, `final_order` names the winner and the order of everyone (issue 14).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

CUT_SIZES = (3, 4, 9, 16)
TABLE = 4
ONE_V_ONE_CUTS = (4,)  # the cut sizes a 1v1 event can play: semifinals, then the final
# The cut sizes each table size can play (a final table, or semifinal tables and a final table).
CUTS_BY_TABLE = {2: (4,), 3: (3, 9), 4: (4, 16)}


def cut_tables(size: int, table_size: int = TABLE) -> int:
    """How many tables the first stage of a top `size` has."""
    return size // 2 if table_size == 2 else size // table_size


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
    """The first stage of the cut: [final table] for a top 4 (a top 3 at tables of 3), semifinal
    tables for a top 16 (a top 9 at tables of 3); at `table_size` 2 (1v1), two semifinals for a top 4."""
    allowed = CUTS_BY_TABLE.get(table_size, ())
    if size not in allowed:
        what = "a 1v1 event" if table_size == 2 else f"an event at tables of {table_size}"
        raise ValueError(f"{what} has a top {' or '.join(map(str, allowed))}, not a top {size}")
    if len(ranked) < size:
        raise ValueError(f"a top {size} needs {size} players; only {len(ranked)} are eligible")
    seeds = list(ranked[:size])
    if table_size == 2:
        # Best against worst: 1 v 4 and 2 v 3, the better seed first (first player).
        return [[seeds[i], seeds[-1 - i]] for i in range(size // 2)]
    return snake_tables(seeds, cut_tables(size, table_size))


def final_table(winners: Sequence[Hashable], ranked: Sequence[Hashable]) -> list[Hashable]:
    """The semifinal winners, seated (and drafting) by their original seed."""
    seed = {p: i for i, p in enumerate(ranked)}
    missing = [w for w in winners if w not in seed]
    if missing or len(set(winners)) != len(winners):
        raise ValueError(f"winners must be distinct seeded players; unknown: {missing}")
    return sorted(winners, key=seed.__getitem__)


def final_order(
    final: Sequence[tuple[Hashable, float]],
    semifinals: Sequence[Sequence[tuple[Hashable, float]]],
    ranked: Sequence[Hashable],
) -> list[tuple[int, Hashable, str]]:
    """(place, player, how) for everyone once the final is played. `final` and each semifinal table:
    (player, VP); `ranked`: the Swiss standings. The final table in VP order, ties to the better seed
    (the winner first); then the semifinal players who did not reach the final, by their place at
    their table (the seconds, then the thirds...), then seed; then everyone else in Swiss order."""
    seed = {p: i for i, p in enumerate(ranked)}

    def by_vp(table):
        return sorted(table, key=lambda pv: (-pv[1], seed.get(pv[0], len(seed))))

    order = [(p, "final") for p, _ in by_vp(final)]
    done = {p for p, _ in final}
    losers = [
        (place, seed.get(p, len(seed)), p)
        for table in semifinals
        for place, (p, _) in enumerate(by_vp(table))
        if p not in done
    ]
    order += [(p, "semifinal") for _, _, p in sorted(losers, key=lambda x: x[:2])]
    done |= {p for _, _, p in losers}
    order += [(p, "swiss") for p in ranked if p not in done]
    return [(i, p, how) for i, (p, how) in enumerate(order, 1)]
