"""The tabu step of a small event, and the pricing of the repair's and the polish's swaps, as
plain loops for the compiled build (issue 27).

`best_small_move` is `Grouping.best_tabu_move` for events of up to MATRIX_UP_TO players (grouping.py):
the same deltas, the same swaps allowed, the same scan over them in the same order, with the same
calls to the seeded generator, so it chooses the same move and the search makes the same pairings.
The numpy version prices a step in some thirty array operations, each a few microseconds of call
overhead over a few hundred pairs; these loops, compiled by Cython (`manage.py compile_engine`,
smashup/engine/native.py, with the types in kernel.pxd), do the same work in a few microseconds.

As plain Python these loops are far slower than numpy, so grouping.py calls them only where they run
compiled (COMPILED); the tests run both against the one-by-one scan.

The sums are those of `Grouping._small_deltas`, in its order: what y coming into x's group costs
(repeats, fairness, then the clashes), less what x leaves there, plus the same for x coming into
y's group, less what x and y met. With the default weights every term is a whole number, so any
order would give the same bits; keeping numpy's order keeps them the same for any weights too
(but the clashes, which numpy sums as a matrix product).

`Pricer` is the repair's and the polish's pricing of swaps on the full cost (Grouping.best_swap,
_pair_deltas) and the counts a swap keeps up where who met whom is kept as pairs (metg, a group's
repeats): at 4,096 players numpy's call overhead per player priced or moved was most of a round.
"""

import cython
import numpy as np

EPS = 1e-6  # grouping.EPS: costs reach 1e6 and more; differences below this are float noise

# Whether this module runs compiled (Cython sets it); grouping.py and local.py use it only then.
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


@cython.cclass
class Pricer:
    """The full-cost change of swaps (Grouping._pair_deltas) and the repair's best swap of one
    player (Grouping.best_swap) as loops over the grouping's arrays, read in place (issue 27: at
    4,096 players the repair's 700 swaps priced as some forty numpy calls each, and the lookups of
    who met whom by searchsorted, were most of a round). Made once per grouping view
    (Grouping._rows_view): the arrays it holds are changed in place by every swap, the lists
    (repeats, clashes, costs per group) too.

    Each new table's cost is `Grouping._table_costs`'s sums in its order (`_table_cost`), so the
    same bits as numpy's; a swap's change is (cost_a + cost_b) - held_x - held_y, as numpy sums
    it; a new bye group's cost is group_cost's own (`bye_cost`, a call back into Python).

    where[p]: p's group; seat[p]: p's slot in rows[g, slot] (padded with n: points 0, first_pen
    inf, short_pen 0); metg[p, g]: p's earlier meetings with g's players; met[x, y] (dense, or
    None: then pair_keys, sorted x * n + y of each pair that met, and pair_times); is_bye[g];
    held[g, f]: g's players holding f (None: factions not checked); factions[p]: p's, padded."""

    def __init__(
        self, where, seat, rows, metg, met, pair_keys, pair_times, repeats, clash_counts, costs, is_bye,
        held, factions, copies, points, first_pen, short_pen, table_size, repeat, spread, clash, bye_cost,
    ):  # fmt: skip
        self.where, self.seat, self.rows, self.metg = where, seat, rows, metg
        self.dense = met is not None
        self.met = met
        self.pair_keys, self.pair_times = pair_keys, pair_times
        self.repeats, self.clash_counts, self.costs, self.is_bye = repeats, clash_counts, costs, is_bye
        self.checked = held is not None
        self.held, self.factions = held, factions
        self.width = factions.shape[1] if self.checked else 0
        self.copies = copies
        self.points, self.first_pen, self.short_pen = points, first_pen, short_pen
        self.n = len(where)
        self.seats = rows.shape[1]
        self.table_size = table_size
        self.repeat, self.spread, self.clash = repeat, spread, clash
        self.bye_cost = bye_cost

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def met_times(self, x, y):
        """How often x and y met before: the dense matrix, or a binary search of the sorted keys."""
        if self.dense:
            return self.met[x, y]
        key = x * self.n + y
        lo = self._lower_bound(key)
        if lo < len(self.pair_keys) and self.pair_keys[lo] == key:
            return self.pair_times[lo]
        return 0

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _first_pair(self, x):
        """Where x's pairs begin in the sorted keys (the first key x * n or above)."""
        return self._lower_bound(x * self.n)

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _lower_bound(self, key):
        """The index of the first of the sorted pair keys that is `key` or above."""
        lo = 0
        hi = len(self.pair_keys)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.pair_keys[mid] < key:
                lo = mid + 1
            else:
                hi = mid
        return lo

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def move_meetings(self, x, y):
        """metg after x (from its group gx to y's, gy) and y (gy to gx) swap, from the sorted
        pairs (who met whom as pairs, not the dense matrix): each player who met y has those
        meetings in gx now, not in gy, and the other way round for x (Grouping._move's loop over
        the dicts of meetings, as C integers; issue 27: 15 ms of the repair and polish of 4,096
        players). Call before `where` changes."""
        gx = self.where[x]
        gy = self.where[y]
        self._shift(y, gx, gy)
        self._shift(x, gy, gx)

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _shift(self, mover, into, out):
        """The meetings with `mover` of everyone who met them move from group `out` to `into`."""
        start = mover * self.n
        for i in range(self._first_pair(mover), len(self.pair_keys)):
            key = self.pair_keys[i]
            if key >= start + self.n:
                break
            times = self.pair_times[i]
            self.metg[key - start, into] += times
            self.metg[key - start, out] -= times

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def group_repeats(self, g):
        """Group g's repeats: half of what its players met of their own (rows and metg as they are)."""
        total = 0
        for i in range(self.seats):
            p = self.rows[g, i]
            if p < self.n:
                total += self.metg[p, g]
        return total // 2

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _table_cost(self, out, into, both):
        """The cost of out's table with `into` in out's place (`both`: what out and into met): its
        repeats (the group's, less what the leaver met there, plus what the newcomer met there,
        less what the two met), the spread pair by pair (each seat with those after it; a padded
        seat adds 0.0), the lowest first-seat cost, the short-table costs seat by seat, and its
        clashes (the group's, less one per faction of the leaver held there beyond the copies,
        plus one per faction of the newcomer held there at the copies or more once the leaver is
        gone: Grouping._clash_change). Not for the byes."""
        n = self.n
        g = self.where[out]
        at = self.seat[out]
        count = self.repeats[g]  # read from the list first: the sums below are then C integers
        count = count - self.metg[out, g] + self.metg[into, g] - both
        total = 0.0
        lowest = self.first_pen[n]  # inf, the padding's
        seated = 0
        for i in range(self.seats):
            p = into if i == at else self.rows[g, i]
            if p < n:
                seated += 1
            if self.first_pen[p] < lowest:
                lowest = self.first_pen[p]
            for j in range(i + 1, self.seats):
                q = into if j == at else self.rows[g, j]
                d = self.points[p] - self.points[q]
                total = total + (d * d if q < n else 0.0)
        cost = self.repeat * count + self.spread * total + lowest
        if seated < self.table_size:
            unfair = 0.0
            for i in range(self.seats):
                unfair = unfair + self.short_pen[into if i == at else self.rows[g, i]]
            cost = cost + unfair
        if self.checked:
            clashes = self.clash_counts[g]
            for i in range(self.width):
                clashes -= self.held[g, self.factions[out, i]] > self.copies
            for i in range(self.width):
                f = self.factions[into, i]
                gone = 0
                for j in range(self.width):
                    if self.factions[out, j] == f:
                        gone = 1
                        break
                clashes += self.held[g, f] - gone >= self.copies
            cost = cost + self.clash * clashes
        return cost

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def delta(self, x, y):
        """swap_delta(x, y)'s change of the full cost (x and y at different groups)."""
        return self._delta(x, y, self.met_times(x, y))

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _delta(self, x, y, both):
        """delta(x, y), given what x and y met."""
        gx = self.where[x]
        gy = self.where[y]
        if self.is_bye[gx]:
            cost_a = self.bye_cost(gx, x, y)
        else:
            cost_a = self._table_cost(x, y, both)
        if self.is_bye[gy]:
            cost_b = self.bye_cost(gy, y, x)
        else:
            cost_b = self._table_cost(y, x, both)
        held_x = self.costs[gx]
        held_y = self.costs[gy]
        return cost_a + cost_b - held_x - held_y

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def pair_deltas(self, xs, ys, out):
        """out[k] = delta(xs[k], ys[k]) for each pair."""
        for k in range(len(xs)):
            out[k] = self.delta(xs[k], ys[k])

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def best_swap(self, x, groups):
        """(delta, y, swaps priced) of Grouping.best_swap: x's swaps with the players of `groups`
        (each group's players in their order) priced one by one, the first kept unless a later
        one is lower by more than EPS; (0.0, -1, 0) where the groups hold nobody."""
        n = self.n
        count = 0
        chosen = -1
        chosen_delta = 0.0
        first = last = 0
        if not self.dense:  # x's pairs, read in place of a search of all pairs for each y
            first = self._first_pair(x)
            last = self._first_pair(x + 1)
        for g in groups:
            for i in range(self.seats):
                y = self.rows[g, i]
                if y >= n:
                    continue
                count += 1
                if self.dense:
                    both = self.met[x, y]
                else:
                    both = 0
                    for k in range(first, last):
                        if self.pair_keys[k] == x * n + y:
                            both = self.pair_times[k]
                            break
                value = self._delta(x, y, both)
                if chosen < 0 or value < chosen_delta - EPS:
                    chosen, chosen_delta = y, value
        return chosen_delta, chosen, count
