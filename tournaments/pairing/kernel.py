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
