"""A grouping being improved by the local search (local.py): tables as lists of player indices,
their costs kept per table, and the prices of swaps between tables.

Speed (issue 27): a tabu step prices all its candidate swaps at once as numpy arrays
(`Grouping.best_tabu_move`) and picks among equals with the same calls to the seeded generator as a
scan of the swaps one by one, so the pairings are those of the scan, bit for bit; the tabu search's
own swaps update only the counts it reads (`tabu_swap`). Up to MATRIX_UP_TO players a step's cost is
the number of numpy calls, not their size: it prices every pair from scratch in a few whole-matrix
operations (`_small_deltas`) and its swaps keep only the counts (metg, the factions held). Where
the project's compiled build is there (`manage.py compile_engine`), that step is kernel.py's loops
instead: the same moves and generator calls, about four times faster than numpy's thirty calls.
Compiled, the repair's and the polish's swaps are priced by kernel.Pricer's loops too, one player
at a time (numpy prices the polish's players in batches, to spread its calls' overhead).
"""

from __future__ import annotations

import functools

import numpy as np

from tournaments.pairing import kernel
from tournaments.pairing.arrays import arrays_of
from tournaments.pairing.context import Context
from tournaments.pairing.cost import clashes_at, group_cost, group_terms

EPS = 1e-6  # costs reach 1e6 and more; differences below this are float noise
NEVER = -(10**9)  # the faction count of "no faction": never over the copies
WHOLE_ROUND = 128  # players: up to this, a tabu step prices swaps with everyone (then masks by `near`)
MATRIX_UP_TO = 64  # players: up to this, a tabu step prices every pair as whole matrices (_small_deltas)


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
        terms = [group_terms(ctx, g, b) for g, b in zip(self.groups, self.is_bye, strict=True)]
        self.costs = [cost for cost, _, _ in terms]
        self.hard = [hard for _, hard, _ in terms]
        self.clash = [clash for _, _, clash in terms]
        self.sizes = (tuple(len(g) for g in self.groups), tuple(self.is_bye))
        arrays = arrays_of(ctx)
        self.arrays = arrays
        # metg[p, g]: how many earlier meetings p has with the players of group g, so that the
        # change of repeats of a swap is four lookups (hard_delta), not a walk over both tables.
        self.where_np = np.array(self.where, dtype=np.int64)
        pa, pb, pk = arrays.pairs
        count = len(self.groups)
        # A count per (player, group), as bincount over flat cells (np.add.at is slower), each
        # cell repeated once per meeting so that the counts come as integers (issue 27: weighted
        # counts came as floats, and their conversion was a pass over n x groups cells).
        cells = np.repeat(pa * count + self.where_np.take(pb), pk)  # a cell once per meeting
        self.metg = np.bincount(cells, minlength=ctx.n * count).reshape(ctx.n, count)
        # Repeats per group (tabu_swap keeps them): half of what its players met of their own.
        own = np.bincount(
            self.where_np, weights=self.metg[np.arange(ctx.n), self.where_np], minlength=len(self.groups)
        )
        self.repeats = [0 if b else int(own[gi]) // 2 for gi, b in enumerate(self.is_bye)]
        self.held_np = None
        if arrays.factions is not None:
            # Per group, how many of its players hold each faction (none counted at the byes).
            seated = np.flatnonzero(~np.array(self.is_bye).take(self.where_np))
            held_by = arrays.factions.take(seated, axis=0)  # (seated players, their factions)
            width = arrays.no_faction + 1
            cells = (self.where_np.take(seated)[:, None] * width + held_by).ravel()
            self.held_np = np.bincount(cells, minlength=len(self.groups) * width).reshape(-1, width)
            self.held_np[:, arrays.no_faction] = NEVER
        self.enter = None  # the tabu search's view (_tabu_view), made when it first needs it
        self.viewed = False  # whether the tabu search's view is made (_tabu_view)
        self._slots_near: tuple = (None, None)  # (window, _near_slots's matrix)
        # A small event's tabu step prices swaps from metg and the factions held as whole matrices
        # (_small_deltas), with no per-group costs to keep up (enter, leave) at each swap.
        self.small = arrays.met_cost is not None and ctx.n <= MATRIX_UP_TO
        self.rows = None  # every group's players as a matrix (_rows_view), made when first needed
        self.pricer = None  # kernel.Pricer over the rows (_pricer), made when first needed
        self.evaluations = 0
        self._trouble: dict[int, list[int]] = {}
        self._all_trouble: list[int] | None = None  # troubled(), until a group or the thresholds change
        self._near: dict[tuple[int, int], list[int]] = {}
        self.thresholds()

    def total(self) -> float:
        return sum(self.costs)

    def hard_total(self) -> float:
        return sum(self.hard)

    def swap(self, x: int, y: int) -> None:
        _, a, b, terms = self.swap_delta(x, y)
        self.apply(x, y, a, b, terms)

    def swap_delta(self, x: int, y: int) -> tuple[float, list[int], list[int], None]:
        """(change of the full cost, x's group after the swap, y's group after, None: the groups'
        terms, which `apply` works out for the one swap made of the many priced)."""
        gx, gy = self.where[x], self.where[y]
        a = [y if m == x else m for m in self.groups[gx]]
        b = [x if m == y else m for m in self.groups[gy]]
        self.evaluations += 1
        new = group_cost(self.ctx, a, self.is_bye[gx]) + group_cost(self.ctx, b, self.is_bye[gy])
        return new - self.costs[gx] - self.costs[gy], a, b, None

    def hard_delta(self, x: int, y: int) -> float:
        """Change of repeats, clashes and fairness if x and y swap (cheaper than swap_delta)."""
        ctx = self.ctx
        self.evaluations += 1
        gx, gy = self.where[x], self.where[y]
        if gx == gy:
            return 0.0
        # y takes x's place in gx and x takes y's in gy (x and y themselves do not count: metg).
        metg = self.metg
        both = 2 * ctx.met[x].get(y, 0)
        repeats = int(metg[y, gx] - metg[x, gx] + metg[x, gy] - metg[y, gy]) - both
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
                held, gone = self.held_np[g], ctx.factions[out]
                for f in gone:
                    clash -= held[f] > copies
                for f in ctx.factions[into]:
                    clash += held[f] - (f in gone) >= copies
            delta += ctx.weights.clash * clash
        return delta

    def _tabu_view(self) -> None:
        """The tabu search's view, as arrays (best_tabu_move): every player in group order (a
        group's players stay in their slots: a swap exchanges two slots), each slot's group, each
        group's kind (0 a full table, 1 a short one, 2 the byes), and enter[p, g]: what sitting in
        group g costs p in repeats and fairness. Made once, then kept by every swap. A small event
        keeps no enter (_small_deltas works it out at each step), only the fairness part by group."""
        ctx = self.ctx
        self.viewed = True
        self.rows = None  # the repair's view: made again if asked (the tabu search does not read it)
        self.pricer = None  # it reads the rows
        self.order = np.array([p for g in self.groups for p in g], dtype=np.int64)
        self.slot = np.empty(ctx.n, dtype=np.int64)
        self.slot[self.order] = np.arange(ctx.n)
        self.slot_group = np.array([gi for gi, g in enumerate(self.groups) for _ in g], dtype=np.int64)
        self.kind = np.array(
            [
                2 if b else 1 if len(g) < ctx.table_size else 0
                for g, b in zip(self.groups, self.is_bye, strict=True)
            ],
            dtype=np.int64,
        )
        side = self.arrays.side.T.take(self.kind, axis=1)
        if self.small:
            self.side_kind = side
            if self.held_np is not None:  # per faction, what it costs its holders
                self.clash_column = np.ascontiguousarray(ctx.weights.clash * self.arrays.one_hot.T)
            return
        self.enter = ctx.weights.repeat * self.metg + side
        self.leave = self.enter
        if self.held_np is not None:
            # Faction clashes, as hard_delta counts them: p coming into g clashes on each faction g
            # holds at the copies or more (clash_in), p leaving g ends one on each faction g holds
            # over the copies (clash_out); a faction both swapped players hold is best_tabu_move's.
            held, copies = self.held_np[:, :-1], ctx.copies
            base, one_hot = self.enter, ctx.weights.clash * self.arrays.one_hot
            self.enter = base + one_hot @ (held >= copies).T
            self.leave = base + one_hot @ (held > copies).T
            self.clash_column = np.ascontiguousarray(one_hot.T)  # per faction, what it costs its holders

    def _pair_costs(self, xs, ys) -> np.ndarray:
        """(x, y): what x and y sitting together cost, twice (the dense matrix, or the dicts)."""
        if self.arrays.met_cost is not None:
            return self.arrays.met_cost.take(xs, axis=0).take(ys, axis=1)
        out = np.zeros((len(xs), len(ys)))
        column = {int(y): c for c, y in enumerate(ys.tolist())}
        cost = 2 * self.ctx.weights.repeat
        for r, x in enumerate(xs.tolist()):
            for q, times in self.ctx.met[x].items():
                c = column.get(q)
                if c is not None:
                    out[r, c] = cost * times
        return out

    def best_tabu_move(self, trouble, window, tabu_until, step, current, best, rng):
        """The tabu search's step (see `_tabu`): of every swap of a player in `trouble` with a
        player of a group near theirs (`near`, in that order: the groups in standings order, each
        group's players in their order), the one that lowers repeats, clashes and fairness the
        most, a swap of a tabu player only if it gives a new best. Ties are broken as a scan in
        that order would (each tie replaces the move held with probability 1 / ties so far), with
        the same calls to `rng`, so the search is the same as one that tries the swaps one by one;
        the deltas are hard_delta's, all at once as arrays. Returns (delta, x, y) or None."""
        if not self.viewed:
            self._tabu_view()
        if self.small and kernel.COMPILED:  # the same step as plain compiled loops (kernel.py)
            move, evaluations = kernel.best_small_move(
                trouble, self.where_np, self.order, self.slot_group, self._near_bytes(window), self.metg,
                self.side_kind, self.arrays.met_cost, self.held_np, self.arrays.factions, self.ctx.copies,
                self.ctx.weights.repeat, self.ctx.weights.clash, tabu_until, step, current, best, rng,
            )  # fmt: skip
            self.evaluations += evaluations
            return move
        xs = np.array(trouble, dtype=np.int64)
        gx = self.where_np.take(xs)
        if self.small:  # every slot, in slot order (`near` by slot), every pair priced from scratch
            ys = self.order
            near = self._near_slots(window).take(gx, axis=0)
            delta = self._small_deltas().take(xs, axis=0).take(ys, axis=1)
        else:
            near_groups = self._near_matrix(window)
            if len(self.order) <= WHOLE_ROUND:
                ys, gy = self.order, self.slot_group
            else:  # only the slots of groups near some x (a large event has hundreds of tables)
                slots = np.flatnonzero(near_groups.take(gx, axis=0).any(axis=0).take(self.slot_group))
                ys, gy = self.order.take(slots), self.slot_group.take(slots)
            near = near_groups.take(gx, axis=0).take(gy, axis=1)
            # y takes x's place in gx, x takes y's in gy: hard_delta's repeats and fairness, as the
            # cost of sitting in a group (`enter`) where one comes in, less where one leaves, less
            # the pair's own meetings.
            delta = self._tabu_deltas(xs, gx, ys, gy)
        self.evaluations += int(np.count_nonzero(near))
        # A tabu player moves only for a new best.
        held_back = tabu_until >= step
        tabu = held_back.take(xs)[:, None] | held_back.take(ys)
        tabu &= delta >= best - EPS - current
        where = (near > tabu).ravel().nonzero()[0]
        if not where.size:
            return None
        values = delta.take(where)
        # The scan: a value below the move held (by EPS) replaces it, a value equal to it is a tie;
        # the first is held (ties 1), the move held before value i is the lowest of those before it.
        lowest = np.minimum.accumulate(values)
        later = values[1:]
        events = (later <= lowest[:-1] + EPS).nonzero()[0]  # value events[k] + 1
        chosen, ties = 0, 1
        randrange = rng.randrange
        for k, value, held in zip(events.tolist(), later.take(events).tolist(), lowest.take(events).tolist(),
                                  strict=True):  # fmt: skip
            if value < held - EPS:
                chosen, ties = k + 1, 1
            else:
                ties += 1
                if randrange(ties) == 0:
                    chosen = k + 1
        row, col = divmod(int(where[chosen]), len(ys))
        return float(values[chosen]), int(xs[row]), int(ys[col])

    def _small_deltas(self) -> np.ndarray:
        """hard_delta of every pair of players [x, y], as whole matrices (a small event: from
        scratch is a few operations, where keeping `enter` and `leave` up at each swap was more).
        half[x, y]: x's half of the change, y coming into g_x where x leaves it (enter[y, g_x] less
        leave[x, g_x], less a clash a faction both hold at the copies in g_x no longer makes); the
        change is half[x, y] + half[y, x] less what x and y met. leave[x, g_x] is enter[x, g_x]
        less x's own share of those clashes, shared[x, x]. All whole numbers (weights times
        counts): the order of the sums changes no bit."""
        where = self.where_np
        # Without the clashes (added per faction below); float64 even where the weights are ints.
        enter = float(self.ctx.weights.repeat) * self.metg
        enter += self.side_kind
        half = enter.take(where, axis=1).T  # [x, y]: enter[y, g_x]
        if self.held_np is not None:
            # y clashes coming into g_x on each faction g_x holds at the copies or more, less one
            # x holds at the copies there (x leaving ends it): per x, a weight per faction of y.
            held, copies = self.held_np.take(where, axis=0)[:, :-1], self.ctx.copies
            clashing = (held >= copies) - self.arrays.one_hot * (held == copies)
            half = half + clashing @ self.clash_column
        half -= half.diagonal().copy()[:, None]  # [x, x]: leave[x, g_x]
        whole = half + half.T
        whole -= self.arrays.met_cost
        return whole

    def _tabu_deltas(self, xs, gx, ys, gy) -> np.ndarray:
        """hard_delta of each x (in group gx) with each y (in gy), as arrays."""
        enter_x, enter_y = self.enter.take(xs, axis=0), self.enter.take(ys, axis=0)
        delta = enter_y.take(gx, axis=1).T + enter_x.take(gy, axis=1)
        delta -= self.leave[xs, gx][:, None]
        delta -= self.leave[ys, gy]
        delta -= self._pair_costs(xs, ys)
        if self.held_np is not None:
            # A faction both hold, at the copies in x's group or y's: neither the clash counted
            # coming in nor one ended going out (all whole numbers, so the order of sums is free).
            at_copies = self.held_np[:, :-1] == self.ctx.copies
            mine, theirs = self.arrays.one_hot.take(xs, axis=0), self.arrays.one_hot.take(ys, axis=0)
            shared = (mine * at_copies.take(gx, axis=0)) @ theirs.T
            shared += mine @ (theirs * at_copies.take(gy, axis=0)).T
            delta -= self.ctx.weights.clash * shared
        return delta

    def _near_slots(self, window: int) -> np.ndarray:
        """near[g, slot]: the group of the slot is near group g (made once per size, kept at hand)."""
        if self._slots_near[0] != window:
            key = (window, self.sizes, "slots")
            found = self.arrays.near.get(key)
            if found is None:
                found = self.arrays.near[key] = self._near_matrix(window).take(self.slot_group, axis=1)
            self._slots_near = (window, found)
        return self._slots_near[1]

    def _near_bytes(self, window: int) -> np.ndarray:
        """_near_slots as bytes (0 or 1): what the compiled step reads (made once per size)."""
        key = (window, self.sizes, "bytes")
        found = self.arrays.near.get(key)
        if found is None:
            found = self.arrays.near[key] = self._near_slots(window).view(np.uint8)
        return found

    def _near_matrix(self, window: int) -> np.ndarray:
        """near[g, h]: group h is near group g (`near`), as a boolean matrix (made once per size)."""
        key = (window, self.sizes)
        cache = self.arrays.near
        found = cache.get(key)
        if found is None:
            count = len(self.groups)
            found = np.zeros((count, count), dtype=bool)
            for g in range(count):
                found[g, self.near(g, window)] = True
            cache[key] = found
        return found

    def tabu_swap(self, x: int, y: int) -> None:
        """The swap of the tabu search: as `swap`, but only the repeats, clashes and fairness of the
        two groups follow it (counted from what is kept: metg, the factions held); their full costs
        are left behind (None), as the search never reads them (it hands back a Grouping made
        anew)."""
        ctx, w, metg = self.ctx, self.ctx.weights, self.metg
        gx, gy = self.where[x], self.where[y]
        self.evaluations += 1  # as swap_delta counts it
        a = [y if m == x else m for m in self.groups[gx]]
        b = [x if m == y else m for m in self.groups[gy]]
        both = ctx.met[x].get(y, 0)
        # y comes into gx where x leaves, x into gy where y leaves (hard_delta's counts).
        into_gx = self.repeats[gx] + metg.item(y, gx) - metg.item(x, gx) - both
        into_gy = self.repeats[gy] + metg.item(x, gy) - metg.item(y, gy) - both
        self._move(x, y, a, b)
        for gi, g, repeats in ((gx, a, into_gx), (gy, b, into_gy)):
            self._trouble.pop(gi, None)
            self._all_trouble = None
            self.costs[gi] = None
            if self.is_bye[gi]:
                self.hard[gi] = sum(ctx.bye_fair[m] for m in g)
                continue
            self.repeats[gi] = repeats
            unfair = sum(ctx.short_pen[m] for m in g) if len(g) < ctx.table_size else 0.0
            self.hard[gi] = w.repeat * repeats + w.clash * self.clash[gi] + unfair  # clash: _move_factions

    def apply(self, x: int, y: int, a: list[int], b: list[int], terms: tuple | None = None) -> None:
        """Make the swap of x and y; `a`, `b`: their groups after it, `terms`: their group_terms
        (from swap_delta; computed again without)."""
        gx, gy = self.where[x], self.where[y]
        self._move(x, y, a, b)
        if terms is None:
            terms = group_terms(self.ctx, a, self.is_bye[gx]), group_terms(self.ctx, b, self.is_bye[gy])
        for gi, (cost, hard, clash) in zip((gx, gy), terms, strict=True):
            self._trouble.pop(gi, None)
            self._all_trouble = None
            self.costs[gi], self.hard[gi], self.clash[gi] = cost, hard, clash
            if not self.is_bye[gi]:
                if self.pricer is not None:  # the same count as a compiled loop
                    self.repeats[gi] = self.pricer.group_repeats(gi)
                else:
                    self.repeats[gi] = int(self.metg[self.groups[gi], gi].sum()) // 2

    def _move(self, x: int, y: int, a: list[int], b: list[int]) -> None:
        """x and y change places; `a`, `b`: x's group and y's group after it."""
        gx, gy = self.where[x], self.where[y]
        met, w = self.arrays.met, self.ctx.weights.repeat
        views = (
            ()
            if self.enter is None
            else (self.enter,)
            if self.leave is self.enter
            else (self.enter, self.leave)
        )
        if met is not None:
            # y moves from gy to gx, x from gx to gy (columns changed in place: `a[:, g] += c`
            # would also write the column back)
            change = met[:, y] - met[:, x]
            into, out = self.metg[:, gx], self.metg[:, gy]
            into += change
            out -= change
            if views:
                change = w * change
                for view in views:
                    into, out = view[:, gx], view[:, gy]
                    into += change
                    out -= change
        elif not views and self.pricer is not None:  # the same, as compiled loops
            self.pricer.move_meetings(x, y)
        else:  # a large event: only those who met x or y change
            for mover, sign in ((y, 1), (x, -1)):
                for p, times in self.ctx.met[mover].items():
                    self.metg[p, gx] += sign * times
                    self.metg[p, gy] -= sign * times
                    for view in views:
                        view[p, gx] += sign * w * times
                        view[p, gy] -= sign * w * times
        self.groups[gx], self.groups[gy] = a, b
        if self.rows is not None:
            sx, sy = self.seat[x], self.seat[y]
            self.rows[gx, sx], self.rows[gy, sy] = y, x
            self.seat[x], self.seat[y] = sy, sx
        self.where[x], self.where[y] = gy, gx
        self.where_np[x], self.where_np[y] = gy, gx
        if self.viewed:
            sx, sy = self.slot[x], self.slot[y]
            self.order[sx], self.order[sy] = y, x
            self.slot[x], self.slot[y] = sy, sx
        if self.held_np is not None:
            self._move_factions(x, y, gx, gy)

    def _move_factions(self, x: int, y: int, gx: int, gy: int) -> None:
        """The groups' faction counts and clashes follow x (gx to gy) and y (gy to gx); so do the
        tabu search's clash costs (_tabu_view), only where a count crosses the copies."""
        held, copies, track = self.held_np, self.ctx.copies, self.enter is not None
        if not (track or self.is_bye[gx] or self.is_bye[gy]):  # the tabu search of a small event
            clash_x = clash_y = 0
            for f in self.ctx.factions[x]:
                before = held.item(gx, f)
                held[gx, f] = before - 1
                clash_x -= before > copies
                before = held.item(gy, f)
                held[gy, f] = before + 1
                clash_y += before >= copies
            for f in self.ctx.factions[y]:
                before = held.item(gy, f)
                held[gy, f] = before - 1
                clash_y -= before > copies
                before = held.item(gx, f)
                held[gx, f] = before + 1
                clash_x += before >= copies
            self.clash[gx] += clash_x
            self.clash[gy] += clash_y
            return
        for player, out, into in ((x, gx, gy), (y, gy, gx)):
            for f in self.ctx.factions[player]:
                if not self.is_bye[out]:
                    before = int(held[out, f])
                    held[out, f] = before - 1
                    self.clash[out] -= before > copies
                    if track and before == copies:  # no clash any more coming in
                        self.enter[:, out] -= self.clash_column[f]
                    elif track and before == copies + 1:  # none ended going out
                        self.leave[:, out] -= self.clash_column[f]
                if not self.is_bye[into]:
                    before = int(held[into, f])
                    held[into, f] = before + 1
                    self.clash[into] += before >= copies
                    if track and before == copies - 1:
                        self.enter[:, into] += self.clash_column[f]
                    elif track and before == copies:
                        self.leave[:, into] += self.clash_column[f]

    def thresholds(self) -> None:
        """A short seat (a bye) is only worth moving if someone at a full table (at any table) had
        fewer short tables (byes) than its holder: these minima say how few."""
        ctx = self.ctx
        self._trouble.clear()
        self._all_trouble = None
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
        # metg[p, gi] counts p's earlier meetings with the players of gi (p itself counts none).
        metg = self.metg
        met_here = [metg.item(p, gi) for p in g] if self.repeats[gi] else (0,) * len(g)
        return [
            p
            for p, met in zip(g, met_here, strict=True)
            if met or (short and ctx.short_pen[p] > self.full_min + EPS) or p in clashing
        ]

    def troubled(self) -> list[int]:
        if self._all_trouble is None:
            self._all_trouble = [p for gi, h in enumerate(self.hard) if h > EPS for p in self.troubled_in(gi)]
        return list(self._all_trouble)

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

    def best_swap(self, x: int, groups):
        """The best swap of x with a player of `groups` on the full cost, as a scan of them in
        order would choose it (the first, replaced only by one lower by more than EPS): (delta, y,
        x's group after, y's group after, None), or None. Priced all at once (`swap_deltas`)."""
        if kernel.COMPILED:  # the same scan as compiled loops, with no arrays made (kernel.Pricer)
            delta, y, priced = self._pricer().best_swap(x, groups)
            self.evaluations += priced
            if y < 0:
                return None
        else:
            found = self.swap_deltas(x, groups)
            if found is None:
                return None
            deltas, ys = found
            i = scan_choice(deltas)
            delta, y = float(deltas[i]), int(ys[i])
        a = [y if m == x else m for m in self.groups[self.where[x]]]
        b = [x if m == y else m for m in self.groups[self.where[y]]]
        return delta, y, a, b, None

    def _rows_view(self) -> None:
        """Every group's players as one matrix (rows[g, slot]; n pads a group smaller than the
        largest) and each player's slot in it, kept by every swap (_move): what swap_deltas reads."""
        width = max(len(g) for g in self.groups)
        self.rows = np.full((len(self.groups), width), self.ctx.n, dtype=np.int64)
        self.seat = np.zeros(self.ctx.n, dtype=np.int64)
        for gi, g in enumerate(self.groups):
            self.rows[gi, : len(g)] = g
            self.seat[g] = np.arange(len(g))
        self.bye_np = np.array(self.is_bye, dtype=bool)
        self.pricer = None  # kernel.Pricer reads these rows: made anew with them

    def _pricer(self):
        """kernel.Pricer over this grouping's arrays (made once per rows view)."""
        if self.rows is None:
            self._rows_view()
        if self.pricer is None:
            ctx, arrays, w = self.ctx, self.arrays, self.ctx.weights
            checked = self.held_np is not None
            keys, times = (None, None) if arrays.met is not None else self._pair_index()
            self.pricer = kernel.Pricer(
                self.where_np, self.seat, self.rows, self.metg, arrays.met, keys, times, self.repeats,
                self.clash, self.costs, self.bye_np.view(np.uint8), self.held_np, arrays.factions,
                ctx.copies if checked else 0, arrays.points, arrays.first_pen, arrays.short_pen,
                ctx.table_size, w.repeat, w.spread, w.clash, self._bye_cost,
            )  # fmt: skip
        return self.pricer

    def _bye_cost(self, g: int, out: int, into: int) -> float:
        """group_cost of the byes g with `into` in out's place (its own sum: Python's, as there)."""
        row = self.rows[g].copy()
        row[self.seat[out]] = into
        return group_cost(self.ctx, row[row < self.ctx.n].tolist(), True)

    def swap_deltas(self, x: int, groups) -> tuple[np.ndarray, np.ndarray] | None:
        """(swap_delta of x with each player of `groups`, those players), in the order of a scan:
        the groups in the order given, each group's players in their order. None: no player."""
        if self.rows is None:
            self._rows_view()
        rows = self.rows.take(np.fromiter(groups, dtype=np.int64), axis=0)
        ys = rows[rows < self.ctx.n]
        if not len(ys):
            return None
        self.evaluations += len(ys)
        return self._pair_deltas(np.full(len(ys), x, dtype=np.int64), ys), ys

    def _pair_deltas(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """swap_delta(x, y) for each pair (x and y at different groups), the same numbers to the
        last bit: each new group's cost is group_cost's sums in group_cost's order (the repeats,
        whole numbers, from metg; the byes by group_cost itself), less the groups' costs as
        swap_delta subtracts them."""
        if kernel.COMPILED:  # the same sums as plain compiled loops (kernel.Pricer)
            deltas = np.empty(len(xs))
            self._pricer().pair_deltas(xs, ys, deltas)
            return deltas
        ctx, n, metg = self.ctx, self.ctx.n, self.metg
        gx, gy = self.where_np.take(xs), self.where_np.take(ys)
        pair = np.arange(len(xs))
        # x's group with y in x's place, and y's group with x in y's place.
        a, b = self.rows.take(gx, axis=0), self.rows.take(gy, axis=0)
        a[pair, self.seat.take(xs)] = ys
        b[pair, self.seat.take(ys)] = xs
        if self.arrays.met is not None:
            both = self.arrays.met[xs, ys]
        else:
            both = self._met_pairs(xs, ys)
        repeats = _per_group(self.repeats, gx, gy)
        clashes = (None, None)
        if self.held_np is not None:
            clashes = _per_group(self.clash, gx, gy)
            clashes = (
                clashes[0] + self._clash_change(gx, xs, ys),
                clashes[1] + self._clash_change(gy, ys, xs),
            )
        cost_a = self._table_costs(a, repeats[0] - metg[xs, gx] + metg[ys, gx] - both, clashes[0])
        cost_b = self._table_costs(b, repeats[1] - metg[ys, gy] + metg[xs, gy] - both, clashes[1])
        for cost, new, g in ((cost_a, a, gx), (cost_b, b, gy)):
            # The byes: Python's own sum, as group_cost's (Python 3.12 sums floats compensated).
            for k in np.flatnonzero(self.bye_np.take(g)).tolist():
                cost[k] = group_cost(ctx, new[k][new[k] < n].tolist(), True)
        held = _per_group(self.costs, gx, gy)
        return cost_a + cost_b - held[0] - held[1]

    def polish_deltas(self, xs: list[int], window: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """swap_deltas of each x (at a table) with the players of `near(gx, window)`, all at once:
        (the deltas one x after another, the players priced, where each x's begin). Counts no
        evaluations (the polish counts those it uses)."""
        if self.rows is None:
            self._rows_view()
        count = len(self.groups)
        gx = self.where_np.take(np.array(xs, dtype=np.int64))
        # near(): the tables within `window` places, then the byes where they are not among them.
        groups = gx[:, None] + np.arange(-window, window + 1)
        inside = (groups >= 0) & (groups < count) & (groups != gx[:, None])
        if self.is_bye[-1]:
            far = gx + window < count - 1
            groups = np.hstack([groups, np.full((len(xs), 1), count - 1)])
            inside = np.hstack([inside, far[:, None]])
        players = self.rows.take(np.where(inside, groups, 0), axis=0)  # (x, group, slot)
        priced = inside[:, :, None] & (players < self.ctx.n)
        which, _, _ = np.nonzero(priced)
        ys = players[priced]
        xs_np = np.array(xs, dtype=np.int64).take(which)
        begins = np.concatenate(([0], np.cumsum(priced.sum(axis=(1, 2)))))
        return self._pair_deltas(xs_np, ys), ys, begins

    def _met_pairs(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """met[x][y] for each pair, from the pairs that met (sorted by x * n + y) where the dense
        matrix is not kept."""
        keys, times = self._pair_index()
        if not len(keys):
            return np.zeros(len(xs), dtype=np.int64)
        wanted = xs * self.ctx.n + ys
        at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
        return np.where(keys.take(at) == wanted, times.take(at), 0)

    def _pair_index(self) -> tuple[np.ndarray, np.ndarray]:
        """(x * n + y of each pair that met, sorted; how often they met), made once per context."""
        arrays = self.arrays
        if arrays.pair_keys is None:
            a, b, times = arrays.pairs
            keys = a * self.ctx.n + b
            order = np.argsort(keys, kind="stable")
            arrays.pair_keys, arrays.pair_times = keys.take(order), times.take(order)
        return arrays.pair_keys, arrays.pair_times

    def _clash_change(self, groups: np.ndarray, outs: np.ndarray, ins: np.ndarray) -> np.ndarray:
        """For each k, the change of the faction clashes of group groups[k] (clash_excess) when
        outs[k] leaves it and ins[k] comes in, from the group's faction counts (hard_delta's count,
        as arrays): one fewer per faction of the leaver held there beyond the copies, one more per
        faction of the newcomer held there at the copies or more once the leaver is gone (the
        padding "no faction" is held NEVER times: never counted)."""
        factions, copies, held = self.arrays.factions, self.ctx.copies, self.held_np
        rows = groups * held.shape[1]  # held[g, f] read flat: held.ravel()[g * width + f]
        flat = held.ravel()
        gone = [factions[:, j].take(outs) for j in range(factions.shape[1])]  # a column per faction held
        change = np.zeros(len(groups), dtype=np.int64)
        for f in gone:
            change -= flat.take(rows + f) > copies
        for j in range(factions.shape[1]):
            f = factions[:, j].take(ins)
            also_gone = f == gone[0]
            for other in gone[1:]:
                also_gone |= f == other
            change += flat.take(rows + f) - also_gone >= copies
        return change

    def _table_costs(self, rows: np.ndarray, repeats: np.ndarray, clashes: np.ndarray | None) -> np.ndarray:
        """group_cost of each row's table (`repeats`: its repeats; `clashes`: its faction clashes,
        None where factions are not checked), with its operations in its
        order: the spread pair by pair (a padded seat adds 0.0, which changes no sum; a running
        sum along the pairs adds them one after another, as group_cost does), the short-table
        costs seat by seat (whole numbers, so Python's sum of them is the same)."""
        ctx, arrays, w = self.ctx, self.arrays, self.ctx.weights
        points = arrays.points.take(rows)
        seated = rows < ctx.n
        width = rows.shape[1]
        if 1 < width and len(rows) <= PAIRS_AT_ONCE:
            first, second = _pairs(width)
            d = points.take(first, axis=1) - points.take(second, axis=1)
            squares = np.where(seated.take(second, axis=1), d * d, 0.0)
            spread = np.add.accumulate(squares, axis=1)[:, -1]
        else:  # many rows: pair by pair (a running sum along a row's pairs is slow at thousands)
            spread = np.zeros(len(rows))
            for i in range(width):
                for j in range(i + 1, width):
                    d = points[:, i] - points[:, j]
                    spread += np.where(seated[:, j], d * d, 0.0)
        cost = w.repeat * repeats + w.spread * spread + arrays.first_pen.take(rows).min(axis=1)
        short = seated.sum(axis=1) < ctx.table_size
        if short.any():
            pen = arrays.short_pen.take(rows)
            unfair = np.zeros(len(rows))
            for i in range(width):
                unfair += pen[:, i]
            cost = np.where(short, cost + unfair, cost)
        if clashes is not None:
            cost = cost + w.clash * clashes
        return cost

    def repair(self, window: int, budget: int) -> None:
        """Best improving swaps for troubled players (nearby first, then anywhere) until none helps."""
        self.thresholds()
        queue = self.troubled()
        queue.reverse()  # pop() then serves the top tables first
        queued = set(queue)  # who is in the queue (issue 27: looked up in the list, 10 ms at 4,096)
        while queue and self.evaluations < budget:
            x = queue.pop()
            queued.discard(x)
            gx = self.where[x]
            if x not in self.troubled_in(gx):
                continue
            found = self.best_swap(x, self.near(gx, window))
            if found is None or found[0] >= -EPS:
                found = self.best_swap(x, [g for g in range(len(self.groups)) if g != gx])
            if found is None or found[0] >= -EPS:
                continue
            _, y, a, b, terms = found
            gy = self.where[y]
            self.apply(x, y, a, b, terms)
            for p in self.troubled_in(gx) + self.troubled_in(gy):
                if p not in queued:
                    queued.add(p)
                    queue.append(p)


PAIRS_AT_ONCE = 128  # tables priced together: up to this many, all their pairs' squares at once


@functools.cache
def _pairs(width: int) -> tuple[np.ndarray, np.ndarray]:
    """The seat pairs of a table of `width`, in group_cost's order (each seat with those after it)."""
    return np.triu_indices(width, 1)


def _per_group(values: list, *groups: np.ndarray) -> list[np.ndarray]:
    """values[g] for each array of group indices (all values as an array when many are read)."""
    if sum(len(g) for g in groups) > len(values) // 4:
        whole = np.array(values)
        return [whole.take(g) for g in groups]
    return [np.array([values[i] for i in g.tolist()]) for g in groups]


def scan_choice(values: np.ndarray, lo: int = 0, hi: int | None = None) -> int:
    """The index in values[lo:hi] a scan of it keeps: the first, replaced by each later one lower
    than the one held by more than EPS."""
    values = values[lo:hi]
    i = 0
    while True:
        lower = np.flatnonzero(values[i + 1 :] < values[i] - EPS)
        if not lower.size:
            return i
        i += 1 + int(lower[0])
