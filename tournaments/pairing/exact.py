"""Exact search: the cheapest grouping by branch and bound over every grouping (small events).

Each grouping is generated once: the lowest-numbered player left always opens the next group, and
only distinct group kinds are tried for it. With a good first bound (the local search's result) a
dozen players take a few milliseconds to a few tenths of a second.
"""

from __future__ import annotations

from itertools import combinations

from tournaments.pairing.context import Context
from tournaments.pairing.cost import group_cost

EPS = 1e-6


def exact_search(
    ctx: Context, kinds: list[tuple[int, bool]], incumbent: list[list[int]] | None = None
) -> list[list[int]]:
    """`kinds`: (size, is_bye) per group; `incumbent`: a grouping in the same order of kinds."""
    best_cost = float("inf")
    best = None
    if incumbent is not None:
        best = [list(g) for g in incumbent]
        best_cost = sum(group_cost(ctx, g, is_bye) for g, (_, is_bye) in zip(best, kinds, strict=True))
    left_kinds: dict[tuple[int, bool], int] = {}
    for kind in kinds:
        left_kinds[kind] = left_kinds.get(kind, 0) + 1
    chosen: list[tuple[list[int], tuple[int, bool]]] = []

    def walk(left: list[int], cost: float) -> None:
        nonlocal best, best_cost
        if not left:
            if cost < best_cost - EPS:
                best_cost = cost
                # Same order as `kinds` builds it: tables largest first, the byes last.
                best = [g for g, _ in sorted(chosen, key=lambda c: (c[1][1], -c[1][0]))]
            return
        opener, rest = left[0], left[1:]
        for kind in sorted((k for k, count in left_kinds.items() if count), key=lambda k: (k[1], -k[0])):
            size, is_bye = kind
            left_kinds[kind] -= 1
            for others in combinations(rest, size - 1):
                group = [opener, *others]
                c = cost + group_cost(ctx, group, is_bye)
                if c < best_cost - EPS:
                    chosen.append((group, kind))
                    taken = set(others)
                    walk([p for p in rest if p not in taken], c)
                    chosen.pop()
            left_kinds[kind] += 1

    walk(list(range(ctx.n)), 0.0)
    assert best is not None, "no grouping: the kinds do not add up to the players"
    return best
