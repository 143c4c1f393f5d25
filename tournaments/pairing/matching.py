"""Tables of two (1v1 events) by maximum-weight matching with networkx.

Every pair's weight is a constant minus its table cost, and the matching must cover everyone
(maxcardinality), so it is the cheapest perfect pairing. An odd player out is matched to a bye node.
networkx's blossom algorithm is cubic: 100 players take up to about a second, 200 several seconds,
so larger 1v1 rounds go to the local search (PairingOptions.matching_limit).
"""

from __future__ import annotations

from tournaments.pairing.context import Context
from tournaments.pairing.cost import group_cost
from tournaments.pairing.layout import Layout

SCALE = 80  # costs become integers (exactly so for points in quarters and the default weights)


def match_pairs(ctx: Context, layout: Layout) -> list[list[int]]:
    """Tables of two, then the bye group (if the layout has one)."""
    import networkx as nx  # only 1v1 events need it, and it is slow to import

    n = ctx.n
    bye = n
    edges = []
    for a in range(n):
        for b in range(a + 1, n):
            edges.append((a, b, round(group_cost(ctx, [a, b]) * SCALE)))
        if layout.byes:
            edges.append((a, bye, round(ctx.bye_pen[a] * SCALE)))
    top = max(c for _, _, c in edges) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((a, b, top - c) for a, b, c in edges)
    pairs = sorted(sorted(pair) for pair in nx.max_weight_matching(graph, maxcardinality=True))
    tables = sorted((p for p in pairs if bye not in p), key=lambda g: -sum(ctx.points[m] for m in g))
    byes = [p[0] for p in pairs if bye in p]
    return tables + ([byes] if layout.byes else [])
