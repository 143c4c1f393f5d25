"""Pair a round, explain any pairing, and price a manual swap.

Round 1 is random, seeded from (event seed, round number) so anyone can regenerate and check it.
Later rounds minimise the cost of `cost.py`: exactly for small events, by local search above that,
by maximum-weight matching when tables hold two players.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field

from tournaments.pairing.context import (
    Context,
    PairingOptions,
    PastRound,
    Player,
    build_context,
    standings_order,
)
from tournaments.pairing.cost import ByeReport, TableReport, bye_report, clash_text, table_report
from tournaments.pairing.exact import exact_search
from tournaments.pairing.layout import round_layout
from tournaments.pairing.local import group_kinds, initial_groups, local_search
from tournaments.pairing.matching import match_pairs
from tournaments.pairing.seats import seat_orders


@dataclass(frozen=True)
class Pairing:
    round: int
    method: str  # "random", "exact", "local", "matching" or "manual"
    tables: tuple[TableReport, ...]
    byes: tuple[ByeReport, ...] = ()
    stats: dict = field(default_factory=dict, compare=False)

    @property
    def cost(self) -> float:
        return sum(t.cost for t in self.tables) + sum(b.cost for b in self.byes)

    @property
    def repeats(self) -> int:
        """Repeat meetings: for each pair at a table, the earlier tables they shared."""
        return sum(n for t in self.tables for _, _, n in t.repeats)

    @property
    def clashes(self) -> int:
        """Faction clashes: players at a table beyond the copies of a faction they hold."""
        return sum(len(holders) - copies for t in self.tables for _, holders, copies in t.clashes)

    def seats(self) -> list[list[Hashable]]:
        return [list(t.players) for t in self.tables]

    def bye_players(self) -> list[Hashable]:
        return [b.player for b in self.byes]

    def to_dict(self) -> dict:
        """Plain JSON-ready data (as long as the player ids are)."""
        data = asdict(self)
        data.update(cost=self.cost, repeats=self.repeats, clashes=self.clashes)
        return data

    def lines(self) -> list[str]:
        head = (
            f"Round {self.round} ({self.method}): {len(self.tables)} table{'s' * (len(self.tables) != 1)}, "
            f"{self.repeats} repeat meeting{'s' * (self.repeats != 1)}"
        )
        if self.clashes:
            head += f", {self.clashes} faction clash{'es' * (self.clashes > 1)}"
        out = [head]
        for t in self.tables:
            out += t.lines()
        for b in self.byes:
            out += b.lines()
        return out


def round_rng(seed: Hashable, round_number: int, purpose: str) -> random.Random:
    # str seeds hash with SHA-512 in CPython: the same on every machine and Python version.
    return random.Random(f"{seed}:{round_number}:{purpose}")


def pair_round(
    players: Sequence[Player],
    history: Sequence[PastRound],
    round_number: int,
    seed: Hashable,
    options: PairingOptions | None = None,
) -> Pairing:
    """Tables (seat order) and byes for the next round, each with its cost explained."""
    with collector_paused():
        return _pair_round(players, history, round_number, seed, options or PairingOptions())


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector held off while a round is paired: the search makes and drops
    many objects, so a full collection (some 18 ms at 4,096 players) often fell inside a round
    (issue 27: a round in at most 0.2 s CPU). Nothing of a round's search is cyclic garbage that
    must go sooner; the collector runs as usual once it is back on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _pair_round(players, history, round_number, seed, options: PairingOptions) -> Pairing:
    ordered = standings_order(players, seed, round_number)
    ctx = build_context(ordered, history, options)
    layout = round_layout(ctx.n, options.table_size, options.layout)
    kinds = group_kinds(layout)
    seat_rng = round_rng(seed, round_number, "seats")
    stats: dict = {}
    if round_number == 1 or not any(r.tables for r in history):
        method = "random"
        order = list(range(ctx.n))
        round_rng(seed, round_number, "draw").shuffle(order)
        groups, start = [], 0
        for size, _ in kinds:
            groups.append(order[start : start + size])
            start += size
        tables = [g for g, (_, is_bye) in zip(groups, kinds, strict=True) if not is_bye]
        byes = [p for g, (_, is_bye) in zip(groups, kinds, strict=True) if is_bye for p in g]
        if options.avoid_clubs:
            tables = _apart_by_club(ordered, tables, round_rng(seed, round_number, "clubs"), options)
        return _report(ctx, round_number, method, tables, byes, stats)
    if options.table_size == 2 and ctx.n <= options.matching_limit:
        method = "matching"
        groups = match_pairs(ctx, layout)
    else:
        exact = ctx.n <= options.exact_limit
        rng = round_rng(seed, round_number, "search")
        # For a small event the local search only finds a good first bound for the exact search.
        groups, stats = local_search(
            ctx, initial_groups(ctx, layout), kinds, rng, options, 0 if exact else None
        )
        method = "local"
        if exact:
            method = "exact"
            groups = exact_search(ctx, kinds, incumbent=groups)
    # Every search returns the byes as the last group.
    table_groups, byes = (groups[:-1], sorted(groups[-1])) if layout.byes else (groups, [])
    tables = seat_orders(ctx, table_groups, seat_rng)
    tables.sort(key=min)  # table 1 is the top table: the one of the best-ranked player
    return _report(ctx, round_number, method, tables, byes, stats)


def _apart_by_club(
    ordered: Sequence[Player], tables: list[list[int]], rng: random.Random, options: PairingOptions
) -> list[list[int]]:
    """Round 1 with PairingOptions.avoid_clubs: the random draw's tables, changed by as few swaps
    as the local search needs to part players of one club (two of a club at a table count as a
    repeat would). The byes of the draw stay as drawn (a bye is no place to hide a club-mate), and so
    do the seats: a player swapped in takes the seat of the one swapped out. Seeded, so anyone can
    draw it again with the same clubs."""
    seated = [p for t in tables for p in t]
    clubs = [ordered[p].club.strip().casefold() for p in seated]
    if len({c for c in clubs if c}) == len([c for c in clubs if c]):
        return tables  # nobody shares a club
    sub = build_context([ordered[p] for p in seated], [], options)
    members: dict[str, list[int]] = {}
    for i, club in enumerate(clubs):
        if club:
            members.setdefault(club, []).append(i)
    for group in members.values():
        for i in group:
            for j in group:
                if i != j:
                    sub.met[i][j] = 1  # as if they had met: the search keeps them apart
    # A club with more players than there are tables must share some: the pigeonhole bound sees
    # each club as an earlier table, so the search stops as soon as it reaches the fewest.
    sub.past_tables = [[tuple(g) for g in members.values() if len(g) > 1]]
    local = {p: i for i, p in enumerate(seated)}
    groups = [[local[p] for p in t] for t in tables]
    kinds = [(len(t), False) for t in tables]
    found, _ = local_search(sub, groups, kinds, rng, options)
    return [[seated[i] for i in g] for g in found]


def _report(ctx: Context, round_number: int, method: str, tables, byes, stats) -> Pairing:
    return Pairing(
        round=round_number,
        method=method,
        tables=tuple(table_report(ctx, i, seats) for i, seats in enumerate(tables, 1)),
        byes=tuple(bye_report(ctx, p) for p in byes),
        stats=stats,
    )


def evaluate(
    tables: Sequence[Sequence[Hashable]],
    byes: Sequence[Hashable],
    players: Sequence[Player],
    history: Sequence[PastRound],
    round_number: int = 0,
    seed: Hashable = 0,
    options: PairingOptions | None = None,
) -> Pairing:
    """Explain any arrangement (e.g. one an organizer edited by hand), keeping its seat order."""
    options = options or PairingOptions()
    ordered = standings_order(players, seed, round_number)
    ctx = build_context(ordered, history, options)
    index = ctx.index()
    placed = [pid for t in tables for pid in t] + list(byes)
    unknown = [pid for pid in placed if pid not in index]
    twice = sorted({pid for pid in placed if placed.count(pid) > 1}, key=str)
    missing = [pid for pid in ctx.ids if pid not in set(placed)]
    if unknown or twice or missing:
        raise ValueError(
            f"not a pairing of the active players: unknown {unknown}, twice {twice}, missing {missing}"
        )
    seats = [[index[pid] for pid in t] for t in tables if t]
    return _report(ctx, round_number, "manual", seats, [index[pid] for pid in byes], {})


@dataclass(frozen=True)
class SwapCheck:
    delta: float  # cost after minus cost before: > 0 means the swap makes the round worse
    before: tuple  # reports of the affected tables / byes, before and after
    after: tuple
    pairing: Pairing  # the whole round after the swap
    warnings: tuple[str, ...]


def check_swap(
    pairing: Pairing,
    a: Hashable,
    b: Hashable,
    players: Sequence[Player],
    history: Sequence[PastRound],
    seed: Hashable = 0,
    options: PairingOptions | None = None,
) -> SwapCheck:
    """Price swapping the seats of a and b (either may have a bye), for a live warning in the UI."""
    options = options or PairingOptions()
    tables = pairing.seats()
    byes = pairing.bye_players()
    slots = {pid: (ti, si) for ti, t in enumerate(tables) for si, pid in enumerate(t)}
    slots.update({pid: (None, bi) for bi, pid in enumerate(byes)})
    for pid in (a, b):
        if pid not in slots:
            raise ValueError(f"{pid!r} is not in this pairing")
    for pid, (ti, si) in ((a, slots[b]), (b, slots[a])):
        (byes if ti is None else tables[ti])[si] = pid
    args = (players, history, pairing.round, seed, options)
    old = evaluate(pairing.seats(), pairing.bye_players(), *args)
    new = evaluate(tables, byes, *args)
    touched = {slots[a][0], slots[b][0]}
    before = tuple(_part(old, ti) for ti in sorted(touched, key=str))
    after = tuple(_part(new, ti) for ti in sorted(touched, key=str))
    return SwapCheck(new.cost - old.cost, before, after, new, tuple(_warnings(before, after)))


def _part(pairing: Pairing, table_index: int | None):
    return pairing.byes if table_index is None else pairing.tables[table_index]


def _warnings(before, after) -> list[str]:
    out = []
    for old, new in zip(before, after, strict=True):
        if not isinstance(new, TableReport):  # the byes
            had = {b.player for b in old}
            out += [
                f"Bye: {b.player} gets bye number {b.earlier_byes + 1}"
                for b in new
                if b.earlier_byes and b.player not in had
            ]
            continue
        known = {frozenset((x, y)) for x, y, _ in old.repeats}
        for x, y, n in new.repeats:
            if frozenset((x, y)) not in known:
                out.append(f"Table {new.number}: {x} and {y} met {n} time{'s' * (n > 1)} before")
        clashed = {faction: set(holders) for faction, holders, _ in old.clashes}
        for faction, holders, copies in new.clashes:
            if not set(holders) <= clashed.get(faction, set()):
                out.append(f"Table {new.number}: {clash_text(faction, holders, copies)}")
        for pid, had in new.fairness:
            if pid not in dict(old.fairness):
                out.append(f"Table {new.number}: {pid} gets a short table again (had {had})")
        if new.spread > old.spread:
            out.append(f"Table {new.number}: points spread grows from {old.spread:g} to {new.spread:g}")
    return out
