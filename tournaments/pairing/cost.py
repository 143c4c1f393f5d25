"""What a table costs, and the same cost explained in words an organizer can read.

A table's cost, highest weight first:
- fairness: a short table (fewer than the event's table size) for someone who already had more short
  tables than the players with the fewest; a bye likewise, and byes go to the lowest scores;
- faction clash (only with PairingOptions.faction_copies): for each faction, the players of the
  table holding it beyond the copies a table may share;
- repeats: for each pair at the table, how many earlier tables they already shared;
- spread: the squared points difference of every pair (players at a table should have similar scores);
- first seat: how often whoever sits first has sat first before.
`group_cost` is the hot path of the search; the reports recompute the same numbers with names.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from tournaments.pairing.context import Context


def clash_excess(ctx: Context, members: Sequence[int]) -> int:
    """Players of a table beyond the copies of a faction they hold (0 when factions are not checked)."""
    factions = ctx.factions
    if factions is None:
        return 0
    copies, seen, excess = ctx.copies, {}, 0
    for m in members:
        for f in factions[m]:
            k = seen.get(f, 0) + 1
            seen[f] = k
            excess += k > copies
    return excess


def clashes_at(ctx: Context, members: Sequence[int]) -> list[tuple[int, list[int]]]:
    """(faction, its holders) for each faction held at the table by more players than its copies."""
    if ctx.factions is None:
        return []
    holders: dict[int, list[int]] = {}
    for m in members:
        for f in ctx.factions[m]:
            holders.setdefault(f, []).append(m)
    return [(f, h) for f, h in sorted(holders.items()) if len(h) > ctx.copies]


def group_cost(ctx: Context, members: Sequence[int], is_bye: bool = False) -> float:
    """Cost of one group of player indices: a table (best possible seat order) or the byes."""
    if is_bye:
        return sum(ctx.bye_pen[m] for m in members)
    met, pts = ctx.met, ctx.points
    repeats, spread = 0, 0.0
    for i, a in enumerate(members):
        met_a, pa = met[a], pts[a]
        for b in members[i + 1 :]:
            repeats += met_a.get(b, 0)
            d = pa - pts[b]
            spread += d * d
    w = ctx.weights
    cost = w.repeat * repeats + w.spread * spread + min(ctx.first_pen[m] for m in members)
    if len(members) < ctx.table_size:
        cost += sum(ctx.short_pen[m] for m in members)
    if ctx.factions is not None:
        cost += w.clash * clash_excess(ctx, members)
    return cost


def group_terms(ctx: Context, members: Sequence[int], is_bye: bool = False) -> tuple[float, float, int]:
    """(group_cost, its repeats-clashes-and-fairness part, its faction clashes) in one pass: what the
    local search keeps per group. The cost is group_cost's to the last bit (the same sums in the
    same order)."""
    if is_bye:
        return sum(ctx.bye_pen[m] for m in members), sum(ctx.bye_fair[m] for m in members), 0
    met, pts = ctx.met, ctx.points
    repeats, spread = 0, 0.0
    for i, a in enumerate(members):
        met_a, pa = met[a], pts[a]
        for b in members[i + 1 :]:
            repeats += met_a.get(b, 0)
            d = pa - pts[b]
            spread += d * d
    w = ctx.weights
    cost = w.repeat * repeats + w.spread * spread + min(ctx.first_pen[m] for m in members)
    unfair = 0.0
    if len(members) < ctx.table_size:
        unfair = sum(ctx.short_pen[m] for m in members)
        cost += unfair
    clash = 0
    if ctx.factions is not None:
        clash = clash_excess(ctx, members)
        cost += w.clash * clash
    return cost, w.repeat * repeats + w.clash * clash + unfair, clash


@dataclass(frozen=True)
class TableReport:
    number: int
    players: tuple  # seat order: the first seat first
    points: tuple[float, ...]
    repeats: tuple[tuple[Hashable, Hashable, int], ...]  # (a, b, earlier tables together)
    spread: float  # highest minus lowest points at the table
    short: bool
    fairness: tuple[tuple[Hashable, int], ...]  # at a short table again: (player, earlier short tables)
    first_seat: tuple[Hashable, int]  # (who sits first, earlier first seats)
    cost: float
    # (faction, its holders here, the copies a table may share) where the holders are more.
    clashes: tuple[tuple[str, tuple, int], ...] = ()

    def lines(self) -> list[str]:
        names = ", ".join(map(str, self.players))
        out = [f"Table {self.number} ({len(self.players)} players): {names}"]
        if self.repeats:
            out.append(
                "  repeats: "
                + "; ".join(f"{a} and {b} met {n} time{'s' * (n > 1)} before" for a, b, n in self.repeats)
            )
        else:
            out.append("  repeats: none")
        for faction, holders, copies in self.clashes:
            out.append(f"  faction clash: {clash_text(faction, holders, copies)}")
        out.append(f"  spread: {self.spread:g} points ({' / '.join(f'{p:g}' for p in self.points)})")
        if self.fairness:
            out.append(
                "  fairness: short table again for " + ", ".join(f"{p} (had {n})" for p, n in self.fairness)
            )
        who, times = self.first_seat
        out.append(f"  first seat: {who} (sat first {times} time{'s' * (times != 1)} before)")
        return out


def clash_text(faction: str, holders, copies: int) -> str:
    names = [str(h) for h in holders]
    who = ", ".join(names[:-1]) + " and " + names[-1]
    return (
        f"{who} {'both' if len(names) == 2 else 'all'} hold {faction} "
        f"({copies} cop{'y' if copies == 1 else 'ies'} per table)"
    )


@dataclass(frozen=True)
class ByeReport:
    player: Hashable
    points: float
    earlier_byes: int
    cost: float

    def lines(self) -> list[str]:
        again = f", bye number {self.earlier_byes + 1}" if self.earlier_byes else ""
        return [f"Bye: {self.player} ({self.points:g} points{again})"]


def table_report(ctx: Context, number: int, seats: Sequence[int]) -> TableReport:
    """The explained cost of one table in the given seat order."""
    ids = ctx.ids
    repeats = tuple(
        (ids[a], ids[b], ctx.met[a][b])
        for i, a in enumerate(seats)
        for b in seats[i + 1 :]
        if ctx.met[a].get(b)
    )
    short = len(seats) < ctx.table_size
    least = min(ctx.short) if short and ctx.short else 0  # a walk over everyone: short tables only
    fairness = tuple((ids[m], ctx.short[m]) for m in seats if short and ctx.short[m] > least)
    points = tuple(ctx.points[m] for m in seats)
    w = ctx.weights
    pairs = [(a, b) for i, a in enumerate(seats) for b in seats[i + 1 :]]
    spread_cost = sum((ctx.points[a] - ctx.points[b]) ** 2 for a, b in pairs)
    cost = (
        w.repeat * sum(n for _, _, n in repeats)
        + w.spread * spread_cost
        + ctx.first_pen[seats[0]]
        + (sum(ctx.short_pen[m] for m in seats) if short else 0.0)
        + w.clash * clash_excess(ctx, seats)
    )
    clashes = tuple(
        (ctx.faction_names[f], tuple(ids[m] for m in holders), ctx.copies)
        for f, holders in clashes_at(ctx, seats)
    )
    return TableReport(
        number=number,
        players=tuple(ids[m] for m in seats),
        points=points,
        repeats=repeats,
        spread=max(points) - min(points),
        short=short,
        fairness=fairness,
        first_seat=(ids[seats[0]], ctx.firsts[seats[0]]),
        cost=cost,
        clashes=clashes,
    )


def bye_report(ctx: Context, player: int) -> ByeReport:
    return ByeReport(ctx.ids[player], ctx.points[player], ctx.byes[player], ctx.bye_pen[player])
