"""Lower bounds on the repeat meetings of a round, to tell avoidable repeats from forced ones.

- `degree_bound`: a player who has met almost everyone must meet someone again: at a table of k
  they need k - 1 table-mates, so fewer than k - 1 unmet players force repeats. Cheap, valid, weak.
- `min_repeats`: the exact minimum by branch and bound over groupings, counting repeats only (the
  degree bound of the players left prunes it). Exact when it finishes within its node limit, None
  otherwise: quick up to about 20 players, often too slow beyond 24 when repeats are forced.
  With `fair=True` it only looks at groupings that keep the fairness rule (short tables and byes
  to those who had the fewest), which the pairing puts above repeats: that is the minimum the
  pairing can actually reach.
"""

from __future__ import annotations

from itertools import combinations

from tournaments.pairing.context import Context
from tournaments.pairing.cost import clash_excess


def degree_bound(ctx: Context, sizes: list[int], byes: int = 0) -> int:
    if not sizes:
        return 0
    need = min(sizes) - 1
    # met[] only holds active players, so n - 1 - len(met[p]) is how many p has not met yet.
    forced = sorted((max(0, need - (ctx.n - 1 - len(m))) for m in ctx.met), reverse=True)
    # Players with a bye meet nobody; assume the byes go to those who would be forced the most.
    return -(-sum(forced[byes:]) // 2)


def _spread_pairs(members: int, tables: int) -> int:
    """The fewest pairs sharing a table when `members` people sit at `tables` tables (spread evenly)."""
    if members < 2 or tables <= 0:
        return 0
    base, extra = divmod(members, tables)
    return extra * (base + 1) * base // 2 + (tables - extra) * base * (base - 1) // 2


def pigeonhole_repeats(ctx: Context, sizes: list[int], byes: int = 0, exact_up_to: int = 64) -> int:
    """Repeats any grouping that keeps the fairness rule must have, by pigeonhole: players who sat at
    one earlier table all met; the rule sends some of them to the short tables and some to the full
    ones, and spread over too few tables some meet again. E.g. 17 players at tables of 4, 4, 3, 3, 3
    after a round of the same: the 8 who sat at full tables take 8 of the 9 short seats (4 of one
    table over 3 short tables: a repeat each) and 8 of the 9 others the full seats (3 of one table
    over 2 full tables: a repeat each, for two of those tables at least): 4 repeats are forced.
    Microseconds, where `min_repeats` may need seconds to prove the same.

    Each earlier round counts apart (its tables split the players; a pair that met twice counts twice,
    as the cost does). Players the rule lets sit either way are placed as best for the bound, with
    exactly the free short seats taken (a small knapsack up to `exact_up_to` players; above it each
    table's best case alone, a weaker bound)."""
    if not sizes or not ctx.past_tables:
        return 0
    places = fair_places(ctx, sizes, byes)
    everyone = set(range(ctx.n))
    must_short, must_full = everyone - places["full"], everyone - places["short"]
    either = places["short"] & places["full"]
    if byes:
        # Whoever may get a bye may sit nowhere: left out of the counts (a weaker bound, still valid),
        # and the seats are then not counted exactly.
        out = places["bye"]
        must_short, must_full, either = must_short - out, must_full - out, either - out
    short_tables = sum(1 for s in sizes if s < ctx.table_size)
    full_tables = len(sizes) - short_tables
    extra = sum(s for s in sizes if s < ctx.table_size) - len(
        must_short
    )  # short seats the either-players take
    total = 0
    each_alone = ctx.n > exact_up_to or extra < 0 or byes  # each table's best case alone (below)
    # A table of no more players than there are tables of each kind can spread them one to a
    # table whichever way they sit: nothing forced (issue 27: at 4,096 players, 5 ms a round to
    # count every earlier table's cases and find 0).
    room = min((t for t in (short_tables, full_tables) if t > 0), default=0)
    for tables in ctx.past_tables:
        if each_alone and max(map(len, tables), default=0) <= room:
            continue
        options = []  # per earlier table: pairs forced for x = 0..e of its either-players sitting short
        seated = set()
        for table in tables:
            seated.update(table)
            ms = sum(1 for p in table if p in must_short)
            mf = sum(1 for p in table if p in must_full)
            e = sum(1 for p in table if p in either)
            options.append(
                [
                    _spread_pairs(ms + x, short_tables) + _spread_pairs(mf + e - x, full_tables)
                    for x in range(e + 1)
                ]
            )
        free = len(either - seated)  # either-players outside this round's tables take any leftover seats
        if each_alone:
            total += sum(min(o) for o in options)
            continue
        # best[k]: fewest pairs with k short seats taken by the either-players of these tables.
        best = [0] + [None] * extra
        for o in options:
            new = [None] * (extra + 1)
            for k, v in enumerate(best):
                if v is None:
                    continue
                for x, pairs in enumerate(o):
                    if k + x <= extra and (new[k + x] is None or v + pairs < new[k + x]):
                        new[k + x] = v + pairs
            best = new
        reachable = [v for k, v in enumerate(best) if v is not None and k >= extra - free]
        total += min(reachable) if reachable else 0
    return total


def fair_places(ctx: Context, sizes: list[int], byes: int) -> dict[str, set[int]]:
    """Who may sit where under the fairness rule: with S short seats, the S players with the fewest
    short tables take them, so those below the S-th count must, and those above it must not (likewise
    for byes). Players at the threshold count may go either way."""
    short_seats = sum(s for s in sizes if s < ctx.table_size)
    everyone = set(range(ctx.n))

    def split(counts: list[int], seats: int) -> tuple[set[int], set[int]]:
        if seats == 0:
            return set(), everyone
        if seats >= ctx.n:
            return everyone, set()
        threshold = sorted(counts)[seats - 1]
        return {p for p in everyone if counts[p] <= threshold}, {
            p for p in everyone if counts[p] >= threshold
        }

    short, full = split(ctx.short, short_seats)
    bye, seated = split(ctx.byes, byes)
    return {"short": short, "full": full, "bye": bye, "seated": seated}


def min_repeats(
    ctx: Context,
    sizes: list[int],
    byes: int = 0,
    upper: int | None = None,
    node_limit: int = 500_000,
    fair: bool = False,
    clash: float = 0.0,
    seat_costs: tuple[list[float], list[float]] | None = None,
) -> int | float | None:
    """The fewest repeat meetings any grouping into `sizes` (plus `byes`) can have, or None if the
    search needs to look at more than `node_limit` groups. `upper`: a count known to be reachable
    (by a fair grouping, with `fair`); it prunes the search. `clash` > 0: count each faction clash
    (cost.clash_excess) as that many repeats, so that the result bounds repeats and clashes together
    (the pairing's own trade-off, Weights.clash / Weights.repeat). `seat_costs`: (per player, what a
    short table costs them; what a bye costs them), in repeats: the result is then the fewest of
    everything the search weighs (the soft short tables, where fairness is traded against repeats
    and a bound of each apart says little)."""
    kinds: dict[int, int] = {}
    for s in sizes:
        kinds[s] = kinds.get(s, 0) + 1
    if byes:
        kinds[-byes] = 1  # a negative size marks the byes, which cost nothing
    allowed = _allowed(ctx, kinds, sizes, byes) if fair else None
    best = upper + 1 if upper is not None else sum(len(m) for m in ctx.met) + 1
    nodes = 0
    met = ctx.met
    # Who each player met, as bits: how many of those left a player met is one AND and a popcount.
    met_bits = [sum(1 << q for q in m) for m in met]
    rows = [[m.get(q, 0) for q in range(ctx.n)] for m in met]  # met counts as lists (hot loops)

    def walk(left: list[int], cost: int) -> bool:
        nonlocal best, nodes
        if not left:
            best = min(best, cost)
            return True
        # How many of those left each player has met; it picks the most constrained player to open
        # the next group, and bounds the repeats still to come (the degree bound on what is left).
        left_bits = 0
        for p in left:
            left_bits |= 1 << p
        counts = [(met_bits[p] & left_bits).bit_count() for p in left]
        tables_left = [k for k, c in kinds.items() if c and k > 0]
        need = min(tables_left) - 1 if tables_left else 0
        # A player who met more than `over` of those left lacks table-mates they have not met.
        over = len(left) - 1 - need
        short = [m - over for m in counts if m > over]
        sitting_out = byes if kinds.get(-byes) else 0  # the byes, if still open, may take the worst
        if sitting_out and short:
            short.sort(reverse=True)
            short = short[sitting_out:]
        if cost + -(-sum(short) // 2) >= best:
            return True
        # The most constrained player opens the next group (`left` is in ascending order: the
        # first of equals is the lowest numbered).
        opener = left[counts.index(max(counts))]
        rest = [p for p in left if p != opener]
        for kind in sorted((k for k, c in kinds.items() if c), reverse=True):
            if allowed is not None and opener not in allowed[kind]:
                continue
            candidates = rest if allowed is None else [p for p in rest if p in allowed[kind]]
            size = abs(kind)
            kinds[kind] -= 1
            # Each group of `size` is a node, in itertools.combinations' order; a group whose
            # first members alone already cost too much is counted with all its completions
            # (none can cost less: repeats and clashes only grow with members) and skipped.
            room = lambda: best - cost  # noqa: E731 (read when asked: `best` falls as groups are tried)
            for others, partial in _groups(opener, candidates, size - 1, rows if kind > 0 else None, room):
                if others is None:  # `partial` groups skipped
                    nodes += partial
                    if nodes > node_limit:
                        kinds[kind] += 1
                        return False
                    continue
                nodes += 1
                if nodes > node_limit:
                    kinds[kind] += 1
                    return False
                extra = partial
                if clash and kind > 0:
                    extra += clash * clash_excess(ctx, [opener, *others])
                if seat_costs is not None and (kind < 0 or kind < ctx.table_size):
                    paid = seat_costs[1] if kind < 0 else seat_costs[0]
                    extra += paid[opener] + sum(paid[p] for p in others)
                if cost + extra < best:
                    taken = set(others)
                    if not walk([p for p in rest if p not in taken], cost + extra):
                        kinds[kind] += 1
                        return False
                    if best == 0:
                        kinds[kind] += 1
                        return True
            kinds[kind] += 1
        return True

    def _groups(opener: int, candidates: list[int], count: int, rows, room):
        """(the other members, their repeats with the opener and each other) of every group the
        opener can open, in combinations order; with `rows` (a table), a prefix whose repeats
        reach `room` (as of when it is reached: `best` only falls) comes as (None, how many
        groups it begins). Without `rows` (the byes): every group, at no cost."""
        if rows is None:
            for others in combinations(candidates, count):
                yield others, 0
            return
        mine = rows[opener]
        size = len(candidates)
        if count == 1:
            for a in candidates:
                yield (a,), mine[a]
            return
        if count == 2:
            for i, a in enumerate(candidates):
                row_a, base = rows[a], mine[a]
                if base >= room():
                    yield None, size - 1 - i
                    continue
                for b in candidates[i + 1 :]:
                    yield (a, b), base + mine[b] + row_a[b]
            return
        if count == 3:
            for i, a in enumerate(candidates):
                row_a, r1 = rows[a], mine[a]
                if r1 >= room():
                    k = size - 1 - i
                    yield None, k * (k - 1) // 2
                    continue
                for j in range(i + 1, size):
                    b = candidates[j]
                    row_b, r2 = rows[b], r1 + mine[b] + row_a[b]
                    if r2 >= room():
                        yield None, size - 1 - j
                        continue
                    for c in candidates[j + 1 :]:
                        yield (a, b, c), r2 + mine[c] + row_a[c] + row_b[c]
            return
        for others in combinations(candidates, count):
            yield others, _repeats([opener, *others], met)

    finished = walk(list(range(ctx.n)), 0)
    if not finished:
        return None
    return best if upper is None or best <= upper else upper


def _allowed(ctx: Context, kinds: dict[int, int], sizes: list[int], byes: int) -> dict[int, set[int]]:
    places = fair_places(ctx, sizes, byes)
    allowed = {}
    for kind in kinds:
        if kind < 0:
            allowed[kind] = places["bye"]
        else:
            allowed[kind] = places["seated"] & (places["short"] if kind < ctx.table_size else places["full"])
    return allowed


def _repeats(group: list[int], met: list[dict[int, int]]) -> int:
    total = 0
    for i, a in enumerate(group):
        met_a = met[a]
        for b in group[i + 1 :]:
            total += met_a.get(b, 0)
    return total
