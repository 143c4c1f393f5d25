"""Local search for events too large for the exact search.

1. `initial_groups`: the standings cut, after the byes and the short-table seats went to those who had
   the fewest (among equals, the lowest ranked).
2. Repair: each player in trouble (part of a repeat or a faction clash at their table, or at a short
   table / bye while someone seated elsewhere had fewer) takes the best improving swap, looked for
   among nearby tables in standings order first, then among all tables.
3. Only while repeats, clashes or unfair seats remain above a lower bound: a seeded tabu search on
   them (see `_tabu`), then a polish of the spread that adds none of them. Its budget is a number
   of swap evaluations, so the result depends on the seed alone; `time_limit` is a safety cap for
   slow machines that makes it depend on the machine too.
A grouping is a list of lists of player indices; `kinds[g]` is (size, is_bye) of group g, byes last.
"""

from __future__ import annotations

import random
import time

from tournaments.pairing.bounds import min_repeats, pigeonhole_repeats
from tournaments.pairing.context import Context, PairingOptions
from tournaments.pairing.cost import clash_excess, clashes_at, group_cost
from tournaments.pairing.layout import Layout

EPS = 1e-6  # costs reach 1e6 and more; differences below this are float noise


def group_kinds(layout: Layout) -> list[tuple[int, bool]]:
    kinds = [(size, False) for size in layout.tables]
    return kinds + ([(layout.byes, True)] if layout.byes else [])


def initial_groups(ctx: Context, layout: Layout) -> list[list[int]]:
    """The standings cut, with byes and short seats given out fairly first."""
    left = list(range(ctx.n))
    bye_group: list[int] = []
    if layout.byes:
        # bye_pen already prefers low scores; the index breaks exact ties towards the lowest ranked.
        bye_group = sorted(sorted(left, key=lambda p: (ctx.bye_pen[p], -p))[: layout.byes])
        left = [p for p in left if p not in set(bye_group)]
    short_sizes = [s for s in layout.tables if s < ctx.table_size]
    full_sizes = [s for s in layout.tables if s >= ctx.table_size]
    short = set(sorted(left, key=lambda p: (ctx.short_pen[p], -p))[: sum(short_sizes)])
    groups = []
    for sizes, members in (
        (full_sizes, [p for p in left if p not in short]),
        (short_sizes, [p for p in left if p in short]),
    ):
        start = 0
        for size in sizes:
            groups.append(members[start : start + size])
            start += size
    groups.sort(key=lambda g: sum(ctx.points[m] for m in g) / len(g), reverse=True)
    return groups + ([bye_group] if layout.byes else [])


def hard_bound(ctx: Context, kinds: list[tuple[int, bool]]) -> float:
    """A lower bound of the repeats-and-fairness cost: forced repeats (a player with fewer unmet
    players than table-mates to seat must meet someone again) plus the short seats and byes going to
    those who had the fewest."""
    sizes = [size for size, is_bye in kinds if not is_bye]
    byes = sum(size for size, is_bye in kinds if is_bye)
    forced = 0
    if sizes:
        # met[] only holds active players, so n - 1 - len(met[p]) is how many p has not met yet.
        need = min(sizes) - 1
        per_player = sorted((max(0, need - (ctx.n - 1 - len(m))) for m in ctx.met), reverse=True)
        forced = -(-sum(per_player[byes:]) // 2)
    short_seats = sum(size for size in sizes if size < ctx.table_size)
    fairness = sum(sorted(ctx.short_pen)[:short_seats]) + sum(sorted(ctx.bye_fair)[:byes])
    # The pigeonhole repeats hold for groupings that keep the fairness rule; breaking it costs at
    # least one fairness unit, so they count up to that many repeats.
    w = ctx.weights
    pigeon = min(pigeonhole_repeats(ctx, sizes, byes), int(w.fairness // w.repeat))
    return w.repeat * max(forced, pigeon) + fairness


class Grouping:
    """A grouping being improved: cached costs per group, and where every player sits."""

    def __init__(self, ctx: Context, groups: list[list[int]], kinds: list[tuple[int, bool]]):
        self.ctx = ctx
        self.groups = [list(g) for g in groups]
        self.is_bye = [is_bye for _, is_bye in kinds]
        self.where = [0] * ctx.n
        for gi, g in enumerate(self.groups):
            for p in g:
                self.where[p] = gi
        self.costs = [group_cost(ctx, g, b) for g, b in zip(self.groups, self.is_bye, strict=True)]
        self.clash = [0 if b else clash_excess(ctx, g) for g, b in zip(self.groups, self.is_bye, strict=True)]
        # Per group, how many of its players hold each faction (kept only when factions are checked).
        self.held = [self._held(gi) for gi in range(len(self.groups))]
        self.hard = [self._hard(gi) for gi in range(len(self.groups))]
        # metg[p][g]: how many earlier meetings p has with the players of group g, so that the
        # change of repeats of a swap is four lookups (hard_delta), not a walk over both tables.
        self.metg = [[0] * len(self.groups) for _ in range(ctx.n)]
        for gi, g in enumerate(self.groups):
            for m in g:
                for p, k in ctx.met[m].items():
                    self.metg[p][gi] += k
        self.evaluations = 0
        self._trouble: dict[int, list[int]] = {}
        self._near: dict[tuple[int, int], list[int]] = {}
        self.thresholds()

    def total(self) -> float:
        return sum(self.costs)

    def hard_total(self) -> float:
        return sum(self.hard)

    def _held(self, gi: int) -> dict[int, int]:
        counts: dict[int, int] = {}
        if self.ctx.factions is not None and not self.is_bye[gi]:
            for m in self.groups[gi]:
                for f in self.ctx.factions[m]:
                    counts[f] = counts.get(f, 0) + 1
        return counts

    def _hard(self, gi: int) -> float:
        """Repeats, faction clashes and fairness of one group: what the tabu search tries to bring down."""
        ctx, g = self.ctx, self.groups[gi]
        if self.is_bye[gi]:
            return sum(ctx.bye_fair[p] for p in g)
        repeats = sum(ctx.met[a].get(b, 0) for i, a in enumerate(g) for b in g[i + 1 :])
        unfair = sum(ctx.short_pen[p] for p in g) if len(g) < ctx.table_size else 0.0
        return ctx.weights.repeat * repeats + ctx.weights.clash * self.clash[gi] + unfair

    def swap(self, x: int, y: int) -> None:
        _, a, b = self.swap_delta(x, y)
        self.apply(x, y, a, b)

    def swap_delta(self, x: int, y: int) -> tuple[float, list[int], list[int]]:
        gx, gy = self.where[x], self.where[y]
        a = [y if m == x else m for m in self.groups[gx]]
        b = [x if m == y else m for m in self.groups[gy]]
        self.evaluations += 1
        new = group_cost(self.ctx, a, self.is_bye[gx]) + group_cost(self.ctx, b, self.is_bye[gy])
        return new - self.costs[gx] - self.costs[gy], a, b

    def hard_delta(self, x: int, y: int) -> float:
        """Change of repeats, clashes and fairness if x and y swap (cheaper than swap_delta)."""
        ctx = self.ctx
        self.evaluations += 1
        gx, gy = self.where[x], self.where[y]
        if gx == gy:
            return 0.0
        # y takes x's place in gx and x takes y's in gy (x and y themselves do not count: metg).
        metg_x, metg_y = self.metg[x], self.metg[y]
        both = 2 * ctx.met[x].get(y, 0)
        repeats = metg_y[gx] - metg_x[gx] + metg_x[gy] - metg_y[gy] - both
        delta = ctx.weights.repeat * repeats
        for g, out, into in ((gx, x, y), (gy, y, x)):
            if self.is_bye[g]:
                delta += ctx.bye_fair[into] - ctx.bye_fair[out]
            elif len(self.groups[g]) < ctx.table_size:
                delta += ctx.short_pen[into] - ctx.short_pen[out]
        if ctx.factions is not None:
            # Counted from the groups' faction counts: one player leaves, the other comes in.
            clash, copies = 0, ctx.copies
            for g, out, into in ((gx, x, y), (gy, y, x)):
                if self.is_bye[g]:
                    continue
                held, gone = self.held[g], ctx.factions[out]
                for f in gone:
                    clash -= held[f] > copies
                for f in ctx.factions[into]:
                    clash += held.get(f, 0) - (f in gone) >= copies
            delta += ctx.weights.clash * clash
        return delta

    def hard_deltas(self, x: int, gy: int) -> list[tuple[int, float]]:
        """(y, hard_delta(x, y)) for every y of group gy, in its order: the same numbers (added in
        the same order) in one pass (the tabu search's inner loop)."""
        ctx = self.ctx
        group = self.groups[gy]
        gx = self.where[x]
        if gx == gy:
            return [(y, self.hard_delta(x, y)) for y in group]
        self.evaluations += len(group)
        metg, w = self.metg, ctx.weights.repeat
        met_x = ctx.met[x].get
        row_x = metg[x]
        base = row_x[gy] - row_x[gx]
        # The fairness terms of hard_delta, side by side: into gx comes y (x leaves), into gy x.
        bye_x, bye_y = self.is_bye[gx], self.is_bye[gy]
        side_x = ctx.bye_fair if bye_x else ctx.short_pen if len(self.groups[gx]) < ctx.table_size else None
        side_y = ctx.bye_fair if bye_y else ctx.short_pen if len(group) < ctx.table_size else None
        factions = ctx.factions
        if factions is None and side_x is None and side_y is None:
            return [(y, w * (base + metg[y][gx] - metg[y][gy] - 2 * met_x(y, 0))) for y in group]
        if factions is not None:
            copies, w_clash = ctx.copies, ctx.weights.clash
            held_x, held_y, mine = self.held[gx], self.held[gy], factions[x]
            leaving = -sum(held_x[f] > copies for f in mine) if not bye_x else 0  # x leaves gx
        out = []
        for y in group:
            row = metg[y]
            delta = w * (base + row[gx] - row[gy] - 2 * met_x(y, 0))
            if side_x is not None:
                delta += side_x[y] - side_x[x]
            if side_y is not None:
                delta += side_y[x] - side_y[y]
            if factions is not None:
                clash = 0
                theirs = factions[y]
                if not bye_x:
                    clash = leaving
                    for f in theirs:
                        clash += held_x.get(f, 0) - (f in mine) >= copies
                if not bye_y:
                    for f in theirs:
                        clash -= held_y[f] > copies
                    for f in mine:
                        clash += held_y.get(f, 0) - (f in theirs) >= copies
                delta += w_clash * clash
            out.append((y, delta))
        return out

    def apply(self, x: int, y: int, a: list[int], b: list[int]) -> None:
        gx, gy = self.where[x], self.where[y]
        metg = self.metg
        for p, k in self.ctx.met[y].items():  # y moves from gy to gx
            metg[p][gx] += k
            metg[p][gy] -= k
        for p, k in self.ctx.met[x].items():  # x moves from gx to gy
            metg[p][gx] -= k
            metg[p][gy] += k
        self.groups[gx], self.groups[gy] = a, b
        self.where[x], self.where[y] = gy, gx
        for gi in (gx, gy):
            self._trouble.pop(gi, None)
            self.costs[gi] = group_cost(self.ctx, self.groups[gi], self.is_bye[gi])
            self.clash[gi] = 0 if self.is_bye[gi] else clash_excess(self.ctx, self.groups[gi])
            self.held[gi] = self._held(gi)
            self.hard[gi] = self._hard(gi)

    def thresholds(self) -> None:
        """A short seat (a bye) is only worth moving if someone at a full table (at any table) had
        fewer short tables (byes) than its holder: these minima say how few."""
        ctx = self.ctx
        self._trouble.clear()
        tables = [
            (g, len(g) >= ctx.table_size) for g, b in zip(self.groups, self.is_bye, strict=True) if not b
        ]
        self.full_min = min((ctx.short_pen[p] for g, full in tables if full for p in g), default=0.0)
        self.seated_min = min((ctx.bye_fair[p] for g, _ in tables for p in g), default=0.0)

    def troubled_in(self, gi: int) -> list[int]:
        """The players of group gi in trouble (cached until the group or the thresholds change)."""
        found = self._trouble.get(gi)
        if found is None:
            found = self._trouble[gi] = self._troubled_in(gi)
        return found

    def _troubled_in(self, gi: int) -> list[int]:
        ctx, g = self.ctx, self.groups[gi]
        if self.hard[gi] <= EPS:
            return []
        if self.is_bye[gi]:
            return [p for p in g if ctx.bye_fair[p] > self.seated_min + EPS]
        short = len(g) < ctx.table_size
        clashing = {m for _, holders in clashes_at(ctx, g) for m in holders} if self.clash[gi] else set()
        return [
            p
            for p in g
            if any(ctx.met[p].get(q) for q in g if q != p)
            or (short and ctx.short_pen[p] > self.full_min + EPS)
            or p in clashing
        ]

    def troubled(self) -> list[int]:
        return [p for gi, h in enumerate(self.hard) if h > EPS for p in self.troubled_in(gi)]

    def near(self, gi: int, radius: int) -> range | list[int]:
        """Groups within `radius` places of gi in standings order (the byes reach everywhere)."""
        found = self._near.get((gi, radius))
        if found is None:
            found = self._near[gi, radius] = self._near_groups(gi, radius)
        return found

    def _near_groups(self, gi: int, radius: int) -> list[int]:
        if self.is_bye[gi]:
            return [g for g in range(len(self.groups)) if g != gi]
        out = [g for g in range(max(0, gi - radius), min(len(self.groups), gi + radius + 1)) if g != gi]
        if self.is_bye[-1] and len(self.groups) - 1 not in out:
            out.append(len(self.groups) - 1)
        return out

    def best_swap(self, x: int, groups, allow=lambda y, delta: True):
        best = None
        for gy in groups:
            for y in self.groups[gy]:
                delta, a, b = self.swap_delta(x, y)
                if (best is None or delta < best[0] - EPS) and allow(y, delta):
                    best = (delta, y, a, b)
        return best

    def repair(self, window: int, budget: int) -> None:
        """Best improving swaps for troubled players (nearby first, then anywhere) until none helps."""
        self.thresholds()
        queue = self.troubled()
        queue.reverse()  # pop() then serves the top tables first
        while queue and self.evaluations < budget:
            x = queue.pop()
            gx = self.where[x]
            if x not in self.troubled_in(gx):
                continue
            found = self.best_swap(x, self.near(gx, window))
            if found is None or found[0] >= -EPS:
                found = self.best_swap(x, [g for g in range(len(self.groups)) if g != gx])
            if found is None or found[0] >= -EPS:
                continue
            _, y, a, b = found
            gy = self.where[y]
            self.apply(x, y, a, b)
            queue.extend(p for p in self.troubled_in(gx) + self.troubled_in(gy) if p not in queue)


def local_search(
    ctx: Context,
    groups: list[list[int]],
    kinds: list[tuple[int, bool]],
    rng: random.Random,
    options: PairingOptions,
    budget: int | None = None,
) -> tuple[list[list[int]], dict]:
    """Repair; then, while repeats or unfair seats remain above their lower bound, tabu search and a
    final polish of the standings spread. `budget`: swap evaluations of the tabu search."""
    started = time.perf_counter()
    deadline = started + options.time_limit if options.time_limit is not None else None
    budget = options.max_evaluations if budget is None else budget
    guard = 2_000 * ctx.n + 200_000  # evaluations per repair: a guard against pathological loops
    state = Grouping(ctx, groups, kinds)
    start = [list(g) for g in state.groups]
    state.repair(options.window, guard)
    done = 0
    cheap = hard_bound(ctx, kinds)
    if budget and state.hard_total() > cheap + EPS:
        # First a short tabu search against the cheap bound (degree and pigeonhole: microseconds),
        # which it usually meets; only if it does not, the branch-and-bound proof (a few
        # hundredths of a second, PROVE_NODES), then the search again (below).
        state, done = _tabu(
            state, cheap, rng, state.evaluations + budget, options.window, deadline, patience=QUICK_PATIENCE
        )
        if state.hard_total() > cheap + EPS:
            proven = _proven_bound(ctx, kinds, state)
            bound = max(cheap, proven if proven is not None else 0.0)
            # Full patience where a proof says better exists. Without a proof: no second search
            # where a proof was tried and failed (issue 27: from 13 to 24 players, over 23 sizes x
            # 5 seeds, the second search never improved on the first, for 0.4-0.5 s a round), a
            # shorter one above PROVE_UP_TO players, where it once found a table without repeats.
            patience = PATIENCE if proven is not None else None if ctx.n <= PROVE_UP_TO else FAR_LOOK
            if patience is not None and state.hard_total() > bound + EPS:
                state, more = _tabu(
                    state, bound, rng, state.evaluations + budget, options.window, deadline, patience=patience
                )
                done += more
    # Polish the tables that changed since the standings cut.
    changed = {
        p for old, new in zip(start, state.groups, strict=True) if sorted(old) != sorted(new) for p in new
    }
    _polish(state, options.window, state.evaluations + guard, changed)
    stats = {"steps": done, "evaluations": state.evaluations, "seconds": time.perf_counter() - started}
    return state.groups, stats


PROVE_UP_TO = 24  # players: up to this, try to prove the fewest repeats exactly
PROVE_NODES = 30_000  # groups the proof may look at before giving up (about 0.03 s)
STALL = 300  # tabu steps without a new best before a random kick from the best grouping
PATIENCE = 12  # kicks in a row without a new best before the search gives up
QUICK_PATIENCE = 2  # the same for the first search, against the cheap bound only
FAR_LOOK = 5  # the same for the second search above PROVE_UP_TO players, where no proof is tried
SAMPLE = 24  # troubled players looked at per tabu step, at most


def _proven_bound(ctx: Context, kinds: list[tuple[int, bool]], state: Grouping) -> float | None:
    """For small events, the exact fewest repeats and faction clashes (weighted as the cost weighs
    them; when a short branch and bound proves it), so the tabu search stops as soon as it reaches
    them instead of spending its whole budget. None when not proven."""
    if ctx.n > PROVE_UP_TO:
        return None
    sizes = [size for size, is_bye in kinds if not is_bye]
    byes = sum(size for size, is_bye in kinds if is_bye)
    w = ctx.weights
    clash = w.clash / w.repeat if ctx.factions is not None else 0.0
    # Repeats plus clashes in repeat units, as the grouping in hand has them: reachable, so an upper bound.
    reached = (state.hard_total() - _fairness(state)) / w.repeat
    fewest = min_repeats(ctx, sizes, byes, upper=reached, node_limit=PROVE_NODES, fair=True, clash=clash)
    if fewest is None:
        return None
    short_seats = sum(size for size in sizes if size < ctx.table_size)
    fairness = sum(sorted(ctx.short_pen)[:short_seats]) + sum(sorted(ctx.bye_fair)[:byes])
    return w.repeat * fewest + fairness


def _fairness(state: Grouping) -> float:
    ctx = state.ctx
    total = 0.0
    for g, is_bye in zip(state.groups, state.is_bye, strict=True):
        if is_bye:
            total += sum(ctx.bye_fair[p] for p in g)
        elif len(g) < ctx.table_size:
            total += sum(ctx.short_pen[p] for p in g)
    return total


def _tabu(
    state: Grouping,
    bound: float,
    rng: random.Random,
    budget: int,
    window: int,
    deadline,
    patience: int = PATIENCE,
):
    """Min-conflicts tabu search on repeats, clashes and fairness only (the spread would only bias it; the
    polish restores it): each step makes the best swap of a troubled player, uphill if need be, ties
    broken at random; the players just swapped stay put for a few steps unless moving them gives a
    new best. After STALL steps without progress, restart from the best with a few random swaps; give
    up after PATIENCE such restarts in a row."""
    ctx = state.ctx
    current = best = state.hard_total()
    best_groups = [list(g) for g in state.groups]
    tabu_until = [0] * ctx.n
    last_best = step = kicks = 0
    while state.evaluations < budget and best > bound + EPS:
        if deadline is not None and time.perf_counter() > deadline:
            break
        step += 1
        trouble = state.troubled()
        if len(trouble) > SAMPLE:
            trouble = rng.sample(trouble, SAMPLE)
        move, ties = None, 0
        for x in trouble:
            x_tabu = tabu_until[x] >= step
            for gy in state.near(state.where[x], window):
                for y, delta in state.hard_deltas(x, gy):
                    if x_tabu or tabu_until[y] >= step:
                        if current + delta >= best - EPS:
                            continue
                    if move is None or delta < move[0] - EPS:
                        move, ties = (delta, x, y), 1
                    elif delta <= move[0] + EPS:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            move = (delta, x, y)
        if move is not None:
            _, x, y = move
            state.swap(x, y)
            current = state.hard_total()
            tabu_until[x] = tabu_until[y] = step + 3 + rng.randrange(6)
        if current < best - EPS:
            best, best_groups, last_best, kicks = current, [list(g) for g in state.groups], step, 0
        elif step - last_best > STALL:
            kicks += 1
            if kicks > patience:
                break
            state = _restart(state, best_groups, rng)
            current, last_best = state.hard_total(), step
    evaluations = state.evaluations
    state = Grouping(ctx, best_groups, [(len(g), b) for g, b in zip(best_groups, state.is_bye, strict=True)])
    state.evaluations = evaluations
    return state, step


def _restart(state: Grouping, best_groups: list[list[int]], rng: random.Random, swaps: int = 3) -> Grouping:
    fresh = Grouping(
        state.ctx, best_groups, [(len(g), b) for g, b in zip(best_groups, state.is_bye, strict=True)]
    )
    fresh.evaluations = state.evaluations
    for _ in range(swaps):
        x, y = rng.randrange(state.ctx.n), rng.randrange(state.ctx.n)
        if fresh.where[x] != fresh.where[y]:
            fresh.swap(x, y)
    return fresh


def _polish(state: Grouping, window: int, budget: int, players: set[int] | None = None) -> None:
    """Best improving swaps on the full cost (the spread, mostly) that add no repeats or unfair seats,
    for the given players (default: everyone) and then for whoever those swaps moved, until none
    helps. The standings cut starts with a small spread; only the repaired tables need this."""
    todo = set(range(state.ctx.n)) if players is None else set(players)
    while todo and state.evaluations < budget:
        moved: set[int] = set()
        for x in sorted(todo):
            found = state.best_swap(x, state.near(state.where[x], window))
            if found is not None and found[0] < -EPS and state.hard_delta(x, found[1]) <= EPS:
                _, y, a, b = found
                gx, gy = state.where[x], state.where[y]
                state.apply(x, y, a, b)
                moved.update(state.groups[gx], state.groups[gy])
        todo = moved
