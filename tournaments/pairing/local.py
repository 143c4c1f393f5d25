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

The grouping itself and its swaps' prices are grouping.py's.
"""

from __future__ import annotations

import random
import time

import numpy as np

from tournaments.pairing import kernel
from tournaments.pairing.bounds import min_repeats, pigeonhole_repeats
from tournaments.pairing.context import Context, PairingOptions
from tournaments.pairing.grouping import EPS, Grouping, scan_choice
from tournaments.pairing.layout import Layout


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
# The same with soft short tables, whose proof (fairness and repeats together) rarely finishes
# where the search has not already found the best: a short try (issue 27: 0.05-0.19 s in vain).
SOFT_PROVE_NODES = 5_000
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
    if not ctx.strict:
        # Soft short tables: fairness is traded against repeats, so the fewest of each apart bound
        # the best far below it (and the search would chase that bound in vain): the proof weighs
        # them together, seat by seat, as the search does.
        costs = ([c / w.repeat for c in ctx.short_pen], [c / w.repeat for c in ctx.bye_fair])
        reached = state.hard_total() / w.repeat
        fewest = min_repeats(
            ctx, sizes, byes, upper=reached, node_limit=SOFT_PROVE_NODES, clash=clash, seat_costs=costs
        )
        return None if fewest is None else w.repeat * fewest
    # Repeats plus clashes in repeat units, as the grouping in hand has them: reachable, so an upper bound.
    reached = (state.hard_total() - _fairness(state)) / w.repeat
    # Only groupings that keep the fairness rule (a rule in the strict mode) count.
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
    tabu_until = np.zeros(ctx.n, dtype=np.int64)
    last_best = step = kicks = 0
    while state.evaluations < budget and best > bound + EPS:
        if deadline is not None and time.perf_counter() > deadline:
            break
        step += 1
        trouble = state.troubled()
        if len(trouble) > SAMPLE:
            trouble = rng.sample(trouble, SAMPLE)
        move = (
            state.best_tabu_move(trouble, window, tabu_until, step, current, best, rng) if trouble else None
        )
        if move is not None:
            _, x, y = move
            state.tabu_swap(x, y)
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
    helps. The standings cut starts with a small spread; only the repaired tables need this.
    Each pass prices every player's swaps at once (polish_deltas) and takes them in order, as a
    scan would; where a swap changed a player's group or a group near it, that player and the
    next few are priced again together (REPRICE)."""
    todo = set(range(state.ctx.n)) if players is None else set(players)
    if kernel.COMPILED:
        _polish_one_by_one(state, window, budget, todo)
        return
    while todo and state.evaluations < budget:
        moved: set[int] = set()
        order = sorted(todo)
        priced: dict[int, tuple] = {}  # x -> (deltas, players, begins, index, swaps made before)
        changed: dict[int, int] = {}  # group -> how many swaps were made when the last changed it
        _price(state, [x for x in order if not state.is_bye[state.where[x]]], window, priced, 0)
        made = 0
        for position, x in enumerate(order):
            gx = state.where[x]
            groups = state.near(gx, window)
            found = None
            if state.is_bye[gx]:  # the byes reach everywhere: priced alone
                found = state.best_swap(x, groups)
            else:
                if x not in priced or _stale(changed, priced[x][4], gx, groups):
                    following = order[position : position + REPRICE]
                    _price(
                        state,
                        [p for p in following if not state.is_bye[state.where[p]]],
                        window,
                        priced,
                        made,
                    )
                deltas, ys, begins, i, _ = priced[x]
                lo, hi = begins[i], begins[i + 1]
                state.evaluations += int(hi - lo)
                if hi > lo:
                    k = lo + scan_choice(deltas, lo, hi)
                    found = (float(deltas[k]), int(ys[k]))
            if found is not None and found[0] < -EPS and state.hard_delta(x, found[1]) <= EPS:
                y = found[1]
                gy = state.where[y]
                a = [y if m == x else m for m in state.groups[gx]]
                b = [x if m == y else m for m in state.groups[gy]]
                state.apply(x, y, a, b)
                made += 1
                changed[gx] = changed[gy] = made
                moved.update(state.groups[gx], state.groups[gy])
        todo = moved


REPRICE = 32  # players priced again together when a swap made the prices of one stale


def _polish_one_by_one(state: Grouping, window: int, budget: int, todo: set[int]) -> None:
    """_polish where the prices are compiled loops (kernel.Pricer): each player's swaps priced
    at their turn, which is what the passes above price (a price kept from before is used only
    while no swap changed the tables it reads, so it is the price of the turn), with no arrays
    made for a batch, and each player priced once a pass, not again with the batch of a stale
    neighbour (issue 27: at 4,096 players the polish's batches and its loop were a third of a
    round)."""
    pricer = state._pricer()
    where, near = state.where, state.near
    while todo and state.evaluations < budget:
        moved: set[int] = set()
        for x in sorted(todo):
            gx = where[x]
            delta, y, priced = pricer.best_swap(x, near(gx, window))
            state.evaluations += priced
            if y < 0 or delta >= -EPS or state.hard_delta(x, y) > EPS:
                continue
            gy = where[y]
            a = [y if m == x else m for m in state.groups[gx]]
            b = [x if m == y else m for m in state.groups[gy]]
            state.apply(x, y, a, b)
            moved.update(state.groups[gx], state.groups[gy])
        todo = moved


def _price(state: Grouping, xs: list[int], window: int, priced: dict, made: int) -> None:
    """Price xs's swaps together (polish_deltas), noting how many swaps were made before."""
    if not xs:
        return
    deltas, ys, begins = state.polish_deltas(xs, window)
    for i, x in enumerate(xs):
        priced[x] = (deltas, ys, begins, i, made)


def _stale(changed: dict[int, int], priced_after: int, gx: int, groups) -> bool:
    """Whether a swap made since x was priced changed x's group or a group near it (`changed`:
    each group's last change, counted in swaps made)."""
    if changed.get(gx, 0) > priced_after:
        return True
    return any(changed.get(g, 0) > priced_after for g in groups)
