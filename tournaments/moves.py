"""An organizer's hand on a paired round, around the pairing (tournaments.pairing is not changed):
moving one player to another table, priced and explained as a swap is, and the numbers of the tables
when some players keep a table of their own (an accessible seat). Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace

from tournaments.pairing import PairingOptions, PastRound, Player, SwapCheck, evaluate
from tournaments.pairing.cost import TableReport, clash_text

MIN_TABLE = 2  # a game of Smash Up has at least two players


def check_move(
    tables: Sequence[Sequence[Hashable]],
    byes: Sequence[Hashable],
    player: Hashable,
    to_table: int,
    players: Sequence[Player],
    history: Sequence[PastRound],
    round_number: int,
    seed: Hashable = 0,
    options: PairingOptions | None = None,
    numbers: Sequence[int] | None = None,
) -> SwapCheck:
    """Price moving `player` from their table to the table at index `to_table` of `tables` (seat
    order; the player takes the last seat there). `numbers`: the tables' numbers as the room knows
    them (default 1, 2, ...), used in the warnings. Raises ValueError for a move that cannot be:
    the player has no table, the table is theirs, full, or the move leaves a table of one."""
    options = options or PairingOptions()
    numbers = list(numbers) if numbers is not None else list(range(1, len(tables) + 1))
    if len(numbers) != len(tables):
        raise ValueError("one number per table")
    if not 0 <= to_table < len(tables):
        raise ValueError("there is no such table")
    source = next((i for i, t in enumerate(tables) if player in t), None)
    if source is None:
        raise ValueError(f"{player} has no table in this round" + (" (a bye)" if player in byes else ""))
    if source == to_table:
        raise ValueError(f"{player} already sits at table {numbers[to_table]}")
    if len(tables[to_table]) >= options.table_size:
        raise ValueError(f"table {numbers[to_table]} is full ({options.table_size} players)")
    if len(tables[source]) - 1 < MIN_TABLE:
        raise ValueError(
            f"table {numbers[source]} would keep only {len(tables[source]) - 1} player: a game needs two"
        )
    moved = [list(t) for t in tables]
    moved[source].remove(player)
    moved[to_table].append(player)
    args = (players, history, round_number, seed, options)
    old = evaluate(tables, byes, *args)
    new = evaluate(moved, byes, *args)
    touched = sorted((source, to_table))
    before = tuple(_numbered(old.tables[i], numbers[i]) for i in touched)
    after = tuple(_numbered(new.tables[i], numbers[i]) for i in touched)
    return SwapCheck(
        new.cost - old.cost, before, after, new, tuple(move_warnings(before, after, options.table_size))
    )


def _numbered(report: TableReport, number: int) -> TableReport:
    return replace(report, number=number)


def move_warnings(
    before: Sequence[TableReport], after: Sequence[TableReport], table_size: int = 4
) -> list[str]:
    """What a move makes worse at the tables it touches, in words (new repeat meetings, faction
    clashes, a player at a short table again, a wider spread of points, a table two players short)."""
    out = []
    for old, new in zip(before, after, strict=True):
        known = {frozenset((x, y)) for x, y, _ in old.repeats}
        for x, y, n in new.repeats:
            if frozenset((x, y)) not in known:
                out.append(f"Table {new.number}: {x} and {y} met {n} time{'s' * (n > 1)} before")
        clashed = {faction: set(holders) for faction, holders, _ in old.clashes}
        for faction, holders, copies in new.clashes:
            if not set(holders) <= clashed.get(faction, set()):
                out.append(f"Table {new.number}: {clash_text(faction, holders, copies)}")
        had_short = dict(old.fairness)
        for pid, had in new.fairness:
            if pid not in had_short:
                out.append(f"Table {new.number}: {pid} gets a short table again (had {had})")
        if new.spread > old.spread:
            out.append(f"Table {new.number}: points spread grows from {old.spread:g} to {new.spread:g}")
        if len(new.players) < len(old.players) and len(new.players) < table_size - 1:
            out.append(f"Table {new.number}: only {len(new.players)} players left")
    return out


def number_tables(
    tables: Sequence[Sequence[Hashable]], fixed: Mapping[Hashable, int]
) -> tuple[list[int], list[str]]:
    """The numbers of a round's `tables` (in the pairing's order, table 1 first) when some players
    keep a table (`fixed`: player -> number, an accessible seat): a table with such a player gets
    their number, the others the lowest numbers left, in order. So a kept table keeps its place in
    the room even where the round has fewer tables than its number. Two players who keep different
    tables and are paired together: the table takes the lower number; the notes say so."""
    numbers: list[int | None] = [None] * len(tables)
    notes = []
    taken: set[int] = set()
    for index, table in enumerate(tables):
        kept = sorted((fixed[p], str(p)) for p in table if p in fixed)
        if not kept:
            continue
        number, who = kept[0]
        numbers[index] = number
        taken.add(number)
        for other_number, other in kept[1:]:
            notes.append(
                f"{who} and {other} keep tables {number} and {other_number} and play together: "
                f"they sit at table {number}."
            )
    free = (n for n in range(1, len(tables) + len(taken) + 1) if n not in taken)
    for index in range(len(tables)):
        if numbers[index] is None:
            numbers[index] = next(free)
    return numbers, notes  # type: ignore[return-value]
