"""The top cut after the Swiss rounds: seeded tables, best seed first in seat order (and first pick).

Pure Python, no Django. `ranked` is the final standings order without dropped players.
- Top 4: one final table, seats by rank.
- Top 16: four semifinal tables snake-seeded (1,8,9,16 / 2,7,10,15 / 3,6,11,14 / 4,5,12,13); the four
  winners meet in the final, seated by their original seed.
- Top 8 at tables of 4: two semifinal tables snake-seeded (1,4,5,8 / 2,3,6,7); the first two of each
  table (most VP, a tie to the better seed) meet in the final, seated by their original seed.
- 1v1 events (tables of 2) keep their table size: a bracket, best against worst at every stage
  (re-seeded by the original seeds, as the final is): a top 4 plays two semifinals (1 v 4, 2 v 3),
  a top 8 quarterfinals first (1 v 8, 2 v 7, 3 v 6, 4 v 5), a top 16 a round of 16 before them.
- Events at tables of 3 keep their table size too: a top 3 is one final table, a top 9 three
  snake-seeded semifinal tables (1,6,7 / 2,5,8 / 3,4,9) whose winners meet in the final.
After the final, `final_order` names the winner and the order of everyone (issue 14).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

CUT_SIZES = (3, 4, 8, 9, 16)
TABLE = 4
ONE_V_ONE_CUTS = (4, 8, 16)  # the cut sizes a 1v1 event can play: a bracket down to the final
# The cut sizes each table size can play (a final table, or semifinal tables and a final table).
CUTS_BY_TABLE = {2: (4, 8, 16), 3: (3, 9), 4: (4, 8, 16)}
FINAL = "final"
SEMIFINAL = "semifinal"
# A 1v1 bracket's stages by the players still in (the Round.Stage values).
BRACKET_STAGES = {2: FINAL, 4: SEMIFINAL, 8: "quarterfinal", 16: "eighthfinal"}


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


def first_stage(size: int, table_size: int = TABLE) -> str:
    """The stage the cut starts with: the final when it is one table, else the semifinals (at 1v1,
    the stage of its bracket)."""
    if table_size == 2:
        return BRACKET_STAGES[size]
    return FINAL if cut_tables(size, table_size) == 1 else SEMIFINAL


def top_cut(ranked: Sequence[Hashable], size: int = 4, table_size: int = TABLE) -> list[list[Hashable]]:
    """The first stage of the cut: [final table] for a top 4 (a top 3 at tables of 3), semifinal
    tables for a top 8 or 16 (a top 9 at tables of 3); at `table_size` 2 (1v1), the first stage of
    a bracket: two semifinals for a top 4, four quarterfinals for a top 8, eight tables for a top 16."""
    allowed = CUTS_BY_TABLE.get(table_size, ())
    if size not in allowed:
        what = "a 1v1 event" if table_size == 2 else f"an event at tables of {table_size}"
        choices = ", ".join(map(str, allowed[:-1])) + " or " + str(allowed[-1])
        raise ValueError(f"{what} has a top {choices}, not a top {size}")
    if len(ranked) < size:
        raise ValueError(f"a top {size} needs {size} players; only {len(ranked)} are eligible")
    seeds = list(ranked[:size])
    if table_size == 2:
        return best_against_worst(seeds)
    return snake_tables(seeds, cut_tables(size, table_size))


def best_against_worst(seeds: Sequence[Hashable]) -> list[list[Hashable]]:
    """Tables of 2 from players in seed order: 1 v N, 2 v N-1, ..., the better seed first (first
    player)."""
    return [[seeds[i], seeds[-1 - i]] for i in range(len(seeds) // 2)]


def advancing(table: Sequence[tuple[Hashable, float]], seed: Mapping[Hashable, int], count: int = 1) -> list:
    """The `count` players of a cut table who go through: most VP, a tie to the better seed (the
    lower number in `seed`)."""
    order = sorted(table, key=lambda pv: (-pv[1], seed.get(pv[0], 10**9)))
    return [p for p, _ in order[:count]]


def stage_after(tables: int, table_size: int = TABLE) -> str:
    """The stage that follows a knockout stage of `tables` tables (what `next_stage` pairs)."""
    return BRACKET_STAGES.get(tables, FINAL) if table_size == 2 else FINAL


def next_stage(
    tables: Sequence[Sequence[tuple[Hashable, float]]], ranked: Sequence[Hashable], table_size: int = TABLE
) -> tuple[str, list[list[Hashable]]]:
    """After a knockout stage, given each of its tables as (player, VP): the next stage's name and
    tables. At 1v1 each table's winner goes through and the bracket is seeded again, best against
    worst; at tables of 3 or 4 the stage before the final sends as many of each table as fill the
    final table (one of four tables, two of two), seated by their original seed."""
    seed = {p: i for i, p in enumerate(ranked)}
    if not tables:
        raise ValueError("a knockout stage has tables")
    if any(not t for t in tables):
        raise ValueError("nobody at one of the tables can go through (all of its players left)")
    if table_size == 2:
        winners = [advancing(t, seed)[0] for t in tables]
        stage = BRACKET_STAGES.get(len(winners))
        if stage is None:
            raise ValueError(f"{len(winners)} winners make no bracket stage")
        if stage == FINAL:
            return stage, [final_table(winners, ranked)]
        return stage, best_against_worst(final_table(winners, ranked))
    per_table = advance_per_table(len(tables), table_size)
    through = [p for t in tables for p in advancing(t, seed, per_table)]
    return FINAL, [final_table(through, ranked)]


def advance_per_table(tables: int, table_size: int = TABLE) -> int:
    """How many players of each table of a knockout stage of `tables` tables go through: one at
    1v1; at tables of 3 or 4, as many as fill the final table (one of four tables, two of two)."""
    if table_size == 2:
        return 1
    if not 0 < tables <= table_size or table_size % tables:
        raise ValueError(f"{tables} tables do not fill one final table of {table_size}")
    return table_size // tables


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
    earlier: Sequence[tuple[str, Sequence[Sequence[tuple[Hashable, float]]]]] = (),
) -> list[tuple[int, Hashable, str]]:
    """(place, player, how) for everyone once the final is played. `final` and each semifinal table:
    (player, VP); `ranked`: the Swiss standings; `earlier`: a bracket's stages before the semifinals,
    latest first, as (stage, tables). The final table in VP order, ties to the better seed (the
    winner first); then the semifinal players who did not reach the final, by their place at their
    table (the seconds, then the thirds...), then seed; then those out in each earlier stage alike;
    then everyone else in Swiss order."""
    seed = {p: i for i, p in enumerate(ranked)}

    def by_vp(table):
        return sorted(table, key=lambda pv: (-pv[1], seed.get(pv[0], len(seed))))

    order = [(p, FINAL) for p, _ in by_vp(final)]
    done = {p for p, _ in final}
    for stage, tables in [(SEMIFINAL, semifinals), *earlier]:
        out = [
            (place, seed.get(p, len(seed)), p)
            for table in tables
            for place, (p, _) in enumerate(by_vp(table))
            if p not in done
        ]
        order += [(p, stage) for _, _, p in sorted(out, key=lambda x: x[:2])]
        done |= {p for _, _, p in out}
    order += [(p, "swiss") for p in ranked if p not in done]
    return [(i, p, how) for i, (p, how) in enumerate(order, 1)]
