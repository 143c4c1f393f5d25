"""The tabu step of a small event as plain loops, for the compiled build (issue 27).

`best_small_move` is `Grouping.best_tabu_move` for events of up to MATRIX_UP_TO players (local.py):
the same deltas, the same swaps allowed, the same scan over them in the same order, with the same
calls to the seeded generator, so it chooses the same move and the search makes the same pairings.
The numpy version prices a step in some thirty array operations, each a few microseconds of call
overhead over a few hundred pairs; these loops, compiled by Cython (`manage.py compile_engine`,
smashup/engine/native.py, with the types in kernel.pxd), do the same work in a few microseconds.

As plain Python these loops are far slower than numpy, so local.py calls them only where they run
compiled (COMPILED); the tests run both against the one-by-one scan.

The sums are those of `Grouping._small_deltas`, in its order: what y coming into x's group costs
(repeats, fairness, then the clashes), less what x leaves there, plus the same for x coming into
y's group, less what x and y met. With the default weights every term is a whole number, so any
order would give the same bits; keeping numpy's order keeps them the same for any weights too
(but the clashes, which numpy sums as a matrix product).
"""

import cython
import numpy as np

EPS = 1e-6  # local.EPS: costs reach 1e6 and more; differences below this are float noise

# Whether this module runs compiled (Cython sets it); local.py uses it only then.
COMPILED = cython.compiled


@cython.boundscheck(False)
@cython.wraparound(False)
def best_small_move(
    trouble, where, order, slot_group, near, metg, side, met_cost, held, factions, copies, repeat, clash,
    tabu_until, step, current, best, rng,
):  # fmt: skip
    """(move, evaluations): the move of best_tabu_move, (delta, x, y) or None, and the swaps it
    counts as evaluated (every swap with a nearby player, tabu or not).

    where[p]: p's group; order[s], slot_group[s]: the player and the group of slot s; near[g, s]:
    slot s is in a group near g; metg[p, g]: p's earlier meetings with the players of g; side[p, g]:
    p's fairness cost in g (a short table, a bye); met_cost[x, y]: what x and y at one table cost,
    twice; held[g, f]: how many of g's players hold faction f (None: factions are not checked),
    factions[p]: p's factions, padded with a faction held by nobody (held NEVER)."""
    n = len(order)
    checked = held is not None
    width = factions.shape[1] if checked else 0
    # What each player's leaving their group gives back: leave[p] in _small_deltas.
    leave = np.zeros(n)
    for p in range(n):
        g = where[p]
        value = repeat * metg[p, g] + side[p, g]
        if checked:
            count = 0
            for i in range(width):
                f = factions[p, i]
                count += held[g, f] > copies
            value = value + clash * count
        leave[p] = value
    limit = best - EPS - current  # a tabu swap only for a new best: a delta below this
    evaluations = 0
    found = False
    chosen_delta = lowest = 0.0
    chosen_x = chosen_y = 0
    ties = 0
    for x in trouble:
        gx = where[x]
        x_tabu = tabu_until[x] >= step
        for s in range(n):
            if not near[gx, s]:
                continue
            evaluations += 1
            y = order[s]
            gy = slot_group[s]
            # y into gx where x leaves it, then x into gy where y leaves it.
            into_x = repeat * metg[y, gx] + side[y, gx]
            into_y = repeat * metg[x, gy] + side[x, gy]
            if checked:
                into_x = into_x + clash * _clashes_in(held, factions, width, copies, gx, y, x)
                into_y = into_y + clash * _clashes_in(held, factions, width, copies, gy, x, y)
            delta = (into_x - leave[x]) + (into_y - leave[y])
            delta -= met_cost[x, y]
            if (x_tabu or tabu_until[y] >= step) and delta >= limit:
                continue
            # The scan: the first move is held; a later one lower by more than EPS replaces it, one
            # within EPS of the lowest so far is a tie, which replaces it with probability 1 / ties.
            if not found:
                found = True
                chosen_delta, chosen_x, chosen_y, ties, lowest = delta, x, y, 1, delta
                continue
            if delta <= lowest + EPS:
                if delta < lowest - EPS:
                    chosen_delta, chosen_x, chosen_y, ties = delta, x, y, 1
                else:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        chosen_delta, chosen_x, chosen_y = delta, x, y
            if delta < lowest:
                lowest = delta
    if not found:
        return None, evaluations
    return (float(chosen_delta), int(chosen_x), int(chosen_y)), evaluations


@cython.boundscheck(False)
@cython.wraparound(False)
def _clashes_in(held, factions, width, copies, g, into, out):
    """The clashes counted for `into` coming into group g where `out` leaves it: one per faction
    of `into` that g holds at the copies or more, less one where `out` holds it too and g holds it
    at the copies exactly (out's leaving makes room)."""
    count = 0
    for i in range(width):
        f = factions[into, i]
        at = held[g, f]
        if at >= copies:
            count += 1
            if at == copies:
                for j in range(width):
                    if factions[out, j] == f:
                        count -= 1
                        break
    return count


@cython.boundscheck(False)
@cython.wraparound(False)
def pair_table_costs(
    xs, ys, where, seat, rows, metg, both, repeats, clash_counts, held, factions, copies, points,
    first_pen, short_pen, table_size, repeat, spread, clash, cost_a, cost_b,
):  # fmt: skip
    """For each pair k, the cost of x's table with y in x's place (cost_a[k]) and of y's table
    with x in y's place (cost_b[k]), as `Grouping._pair_deltas` prices them before the byes
    (which it prices again itself): `Grouping._table_costs`'s sums in its order (issue 27: one
    player's swaps with the ~50 players near them were some forty numpy calls, most of the repair
    of 4,096 players with a draft). Each term is the same operation on the same numbers as
    numpy's, so the same bits. One loop with no calls inside (handing the arrays on to a helper
    per pair cost more than the sums).

    A table's cost: its repeats (`count`: the group's, less what the leaver met there, plus what
    the newcomer met there, less what the two met), the spread pair by pair (each seat with those
    after it; a padded seat adds 0.0), the lowest first-seat cost, the short-table costs seat by
    seat, and its clashes (the group's, less one per faction of the leaver held there beyond the
    copies, plus one per faction of the newcomer held there at the copies or more once the leaver
    is gone: Grouping._clash_change).

    rows[g, slot]: group g's players, padded with n (points 0, first_pen inf, short_pen 0);
    seat[p]: p's slot; both[k]: what x and y met; repeats, clash_counts: per group (lists);
    held[g, f]: g's players holding f (None: factions not checked); factions[p]: p's, padded."""
    n = len(where)
    checked = held is not None
    width = factions.shape[1] if checked else 0
    seats = rows.shape[1]
    for k in range(len(xs)):
        for side in range(2):
            if side == 0:
                out = xs[k]
                into = ys[k]
            else:
                out = ys[k]
                into = xs[k]
            g = where[out]
            at = seat[out]
            count = repeats[g]  # read from the list first: the sums below are then C integers
            count = count - metg[out, g] + metg[into, g] - both[k]
            total = 0.0
            lowest = first_pen[n]  # inf, the padding's
            seated = 0
            for i in range(seats):
                p = into if i == at else rows[g, i]
                if p < n:
                    seated += 1
                if first_pen[p] < lowest:
                    lowest = first_pen[p]
                for j in range(i + 1, seats):
                    q = into if j == at else rows[g, j]
                    d = points[p] - points[q]
                    total = total + (d * d if q < n else 0.0)
            cost = repeat * count + spread * total + lowest
            if seated < table_size:
                unfair = 0.0
                for i in range(seats):
                    unfair = unfair + short_pen[into if i == at else rows[g, i]]
                cost = cost + unfair
            if checked:
                clashes = clash_counts[g]
                for i in range(width):
                    clashes -= held[g, factions[out, i]] > copies
                for i in range(width):
                    f = factions[into, i]
                    gone = 0
                    for j in range(width):
                        if factions[out, j] == f:
                            gone = 1
                            break
                    clashes += held[g, f] - gone >= copies
                cost = cost + clash * clashes
            if side == 0:
                cost_a[k] = cost
            else:
                cost_b[k] = cost


@cython.boundscheck(False)
@cython.wraparound(False)
def scan_choice(values, lo, hi):
    """local._scan_choice of values[lo:hi], counted from lo: the first, replaced by each later
    value lower than the one held by more than EPS."""
    held = lo
    for i in range(lo + 1, hi):
        if values[i] < values[held] - EPS:
            held = i
    return held - lo
