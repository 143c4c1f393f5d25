"""An organizer's hand on a paired round, around the pairing: moving one player to another table,
priced and explained as a swap is; pairing one table again with the players of the tables not
started (repair_table); and the numbers of the tables when some players keep a table of their own
(an accessible seat). Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace

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


@dataclass(frozen=True)
class Repairing:
    """A table paired again (`repair_table`): the round's tables after it, in the order given (a
    table the re-pairing did not touch keeps its list, seat order and all), and what changed."""

    tables: list[list[Hashable]]
    changed: tuple[int, ...]  # indices of the tables whose players changed
    moved: tuple[tuple[Hashable, int, int], ...]  # (player, index of their table before, after)
    check: SwapCheck  # the cost before and after, the changed tables' reports and the warnings


def repair_table(
    tables: Sequence[Sequence[Hashable]],
    byes: Sequence[Hashable],
    index: int,
    players: Sequence[Player],
    history: Sequence[PastRound],
    round_number: int,
    seed: Hashable = 0,
    options: PairingOptions | None = None,
    free: Sequence[int] | None = None,
    numbers: Sequence[int] | None = None,
) -> Repairing:
    """Pair the table at `index` again: its players are paired anew with the players of the other
    tables in `free` (default: every table; the tables whose game has not started), as the pairing
    pairs a round, with one more wish: the players of that table do not sit together again (each
    pair of them weighs as a rematch would). The search starts from the round as it is and moves
    only whom it must (pairing.grouping's repair swaps the players in trouble, the tabu search only
    if repeats remain above their bound), so the other tables change as little as the table
    needs. The sizes of the tables stay; a player who moves takes the seat of the one they
    replace; a changed table's seat order is drawn again as the pairing seats a table (seats.py).
    Seeded from the round and the table, so a preview and the change agree. Byes stay.

    Raises ValueError when no other table is free (alone, a table could only change seats)."""
    from tournaments.pairing.context import build_context, standings_order
    from tournaments.pairing.local import local_search
    from tournaments.pairing.rounds import round_rng
    from tournaments.pairing.seats import seat_order

    options = options or PairingOptions()
    numbers = list(numbers) if numbers is not None else list(range(1, len(tables) + 1))
    free = sorted(set(range(len(tables)) if free is None else free) | {index})
    if not 0 <= index < len(tables):
        raise ValueError("there is no such table")
    if len(free) < 2:
        raise ValueError(f"no other table can change: table {numbers[index]} alone could only change seats")
    ordered = standings_order(players, seed, round_number)
    everyone = build_context(ordered, history, options)
    least = (min(everyone.short, default=0), min(everyone.byes, default=0))
    members = {p for i in free for p in tables[i]}
    sub_players = [p for p in ordered if p.id in members]
    sub = build_context(sub_players, history, options, least=least)
    local = sub.index()
    target = [local[p] for p in tables[index]]
    for a in target:  # the table's own players, as if they had met once more
        for b in target:
            if a != b:
                sub.met[a][b] = sub.met[a].get(b, 0) + 1
    groups = [[local[p] for p in tables[i]] for i in free]
    kinds = [(len(g), False) for g in groups]
    rng = round_rng(seed, round_number, f"repair:{numbers[index]}")
    found, _ = local_search(sub, groups, kinds, rng, options)
    found = _fewer_moves(sub, groups, found)
    seat_rng = round_rng(seed, round_number, f"repair-seats:{numbers[index]}")
    full_index = everyone.index()
    after = [list(t) for t in tables]
    changed = []
    for i, old, new in zip(free, groups, found, strict=True):
        if sorted(old) == sorted(new):
            continue
        changed.append(i)
        seated = seat_order(everyone, [full_index[sub.ids[m]] for m in new], seat_rng)
        after[i] = [everyone.ids[m] for m in seated]
    where_before = {p: i for i, t in enumerate(tables) for p in t}
    where_after = {p: i for i, t in enumerate(after) for p in t}
    moved = tuple(
        (p, where_before[p], where_after[p])
        for i in changed
        for p in after[i]
        if where_before[p] != where_after[p]
    )
    args = (players, history, round_number, seed, options)
    old_pairing = evaluate(tables, byes, *args)
    new_pairing = evaluate(after, byes, *args)
    before = tuple(_numbered(old_pairing.tables[i], numbers[i]) for i in changed)
    reports = tuple(_numbered(new_pairing.tables[i], numbers[i]) for i in changed)
    check = SwapCheck(
        new_pairing.cost - old_pairing.cost,
        before,
        reports,
        new_pairing,
        tuple(move_warnings(before, reports, options.table_size)),
    )
    return Repairing(after, tuple(changed), moved, check)


def _fewer_moves(ctx, before: list[list[int]], after: list[list[int]]) -> list[list[int]]:
    """Send players back to the table they had wherever that costs no repeat, clash or fairness
    (the search also evens out the standings spread, which is not worth moving more people in a
    room): swaps that bring someone home and move fewer players in all, best first, until none."""
    from tournaments.pairing.cost import group_terms

    home = {p: i for i, g in enumerate(before) for p in g}
    groups = [list(g) for g in after]
    terms = [group_terms(ctx, g) for g in groups]
    while True:
        best = None
        for g, group in enumerate(groups):
            for p in group:
                h = home[p]
                if h == g:
                    continue
                for q in groups[h]:
                    fewer = 1 + (home[q] == g) - (home[q] == h)
                    if fewer <= 0:
                        continue
                    a = [q if m == p else m for m in group]
                    b = [p if m == q else m for m in groups[h]]
                    ta, tb = group_terms(ctx, a), group_terms(ctx, b)
                    hard = ta[1] + tb[1] - terms[g][1] - terms[h][1]
                    if hard > 1e-6:
                        continue
                    key = (hard, -fewer, ta[0] + tb[0] - terms[g][0] - terms[h][0])
                    if best is None or key < best[0]:
                        best = (key, g, h, a, b, ta, tb)
        if best is None:
            return groups
        _, g, h, a, b, ta, tb = best
        groups[g], groups[h], terms[g], terms[h] = a, b, ta, tb
