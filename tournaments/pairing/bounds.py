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
) -> int | None:
    """The fewest repeat meetings any grouping into `sizes` (plus `byes`) can have, or None if the
    search needs to look at more than `node_limit` groups. `upper`: a count known to be reachable
    (by a fair grouping, with `fair`); it prunes the search. `clash` > 0: count each faction clash
    (cost.clash_excess) as that many repeats, so that the result bounds repeats and clashes together
    (the pairing's own trade-off, Weights.clash / Weights.repeat)."""
    kinds: dict[int, int] = {}
    for s in sizes:
        kinds[s] = kinds.get(s, 0) + 1
    if byes:
        kinds[-byes] = 1  # a negative size marks the byes, which cost nothing
    allowed = _allowed(ctx, kinds, sizes, byes) if fair else None
    best = upper + 1 if upper is not None else sum(len(m) for m in ctx.met) + 1
    nodes = 0
    met = ctx.met

    def walk(left: list[int], cost: int) -> bool:
        nonlocal best, nodes
        if not left:
            best = min(best, cost)
            return True
        # How many of those left each player has met; it picks the most constrained player to open
        # the next group, and bounds the repeats still to come (the degree bound on what is left).
        left_set = set(left)
        met_left = {p: sum(1 for q in met[p] if q in left_set) for p in left}
        tables_left = [k for k, c in kinds.items() if c and k > 0]
        need = min(tables_left) - 1 if tables_left else 0
        short = sorted((max(0, need - (len(left) - 1 - met_left[p])) for p in left), reverse=True)
        sitting_out = byes if kinds.get(-byes) else 0  # the byes, if still open, may take the worst
        if cost + -(-sum(short[sitting_out:]) // 2) >= best:
            return True
        opener = max(left, key=lambda p: (met_left[p], -p))
        rest = [p for p in left if p != opener]
        for kind in sorted((k for k, c in kinds.items() if c), reverse=True):
            if allowed is not None and opener not in allowed[kind]:
                continue
            candidates = rest if allowed is None else [p for p in rest if p in allowed[kind]]
            size = abs(kind)
            kinds[kind] -= 1
            for others in combinations(candidates, size - 1):
                nodes += 1
                if nodes > node_limit:
                    kinds[kind] += 1
                    return False
                extra = 0 if kind < 0 else _repeats([opener, *others], met)
                if clash and kind > 0:
                    extra += clash * clash_excess(ctx, [opener, *others])
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
    return sum(met[a].get(b, 0) for i, a in enumerate(group) for b in group[i + 1 :])
