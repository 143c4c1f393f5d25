"""The pairing context as numpy arrays, made once per context, for the local search
(grouping.py): who met whom, the fairness costs of each seat, the factions each player holds."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from tournaments.pairing.context import Context


@dataclass
class Arrays:
    """The context as arrays for the local search (metg) and the tabu search (`best_tabu_move`),
    made once per context. Who met whom as a dense matrix only up to DENSE_UP_TO players (at 4,096
    it would take 128 MB); above, as the list of pairs, and the few lookups a step needs come from
    the context's dicts."""

    met: np.ndarray | None  # (n, n): earlier tables shared (None above DENSE_UP_TO players)
    pairs: tuple[np.ndarray, np.ndarray, np.ndarray]  # (a, b, times) for each pair that met, both ways
    side: np.ndarray  # (3, n): the fairness cost of sitting at a full table (0), a short one, a bye
    factions: np.ndarray | None  # (n, k): each player's factions, padded with no_faction
    no_faction: int
    met_cost: np.ndarray | None  # (n, n): what two players sitting together cost, twice (dense only)
    one_hot: np.ndarray | None  # (n, factions): 1.0 where the player holds the faction
    # (n + 1,) each, the last a padding seat that changes no cost: points, first-seat, short-table
    # and bye costs per player (Grouping.swap_deltas prices whole tables from them).
    points: np.ndarray
    first_pen: np.ndarray
    short_pen: np.ndarray
    bye_pen: np.ndarray
    pair_keys: np.ndarray | None = None  # a * n + b of `pairs`, sorted (Grouping._met_pairs)
    pair_times: np.ndarray | None = None
    near: dict = field(default_factory=dict)  # Grouping._near_matrix's, by window and group sizes


DENSE_UP_TO = 512  # players: who met whom as a dense matrix up to this many (2 MB)


def arrays_of(ctx: Context) -> Arrays:
    """The context's arrays, kept on the context (made once, for as long as it has n players)."""
    found = ctx.__dict__.get("_arrays")
    if found is not None and found.side.shape[1] == ctx.n:
        return found
    # Read by iterators, not Python loops (issue 27: at 4,096 players some 50,000 pairs).
    degrees = [len(row) for row in ctx.met]
    total = sum(degrees)
    pairs = (
        np.repeat(np.arange(ctx.n, dtype=np.int64), degrees),
        np.fromiter(itertools.chain.from_iterable(ctx.met), dtype=np.int64, count=total),
        np.fromiter(itertools.chain.from_iterable(map(dict.values, ctx.met)), dtype=np.int64, count=total),
    )
    met = met_cost = None
    if ctx.n <= DENSE_UP_TO:
        met = np.zeros((ctx.n, ctx.n), dtype=np.int64)
        met[pairs[0], pairs[1]] = pairs[2]
        met_cost = 2.0 * ctx.weights.repeat * met  # float64 whatever the weights (kernel.pxd reads doubles)
    side = np.array([[0.0] * ctx.n, ctx.short_pen, ctx.bye_fair], dtype=np.float64)
    factions, one_hot, none = None, None, len(ctx.faction_names)
    if ctx.factions is not None:
        width = max(1, max((len(f) for f in ctx.factions), default=1))
        # Padded rows as one array, not a numpy call per player (issue 27: 8 ms at 4,096).
        padded = [(*held, *(none,) * (width - len(held))) for held in ctx.factions]
        factions = np.array(padded, dtype=np.int64).reshape(ctx.n, width)
        one_hot = np.zeros((ctx.n, none), dtype=np.float64)
        counts = [len(held) for held in ctx.factions]
        held_all = np.fromiter(itertools.chain.from_iterable(ctx.factions), dtype=np.int64, count=sum(counts))
        one_hot[np.repeat(np.arange(ctx.n), counts), held_all] = 1.0
    padded = [
        np.array([*values, pad], dtype=np.float64)
        for values, pad in (
            (ctx.points, 0.0),
            (ctx.first_pen, np.inf),
            (ctx.short_pen, 0.0),
            (ctx.bye_pen, 0.0),
        )
    ]
    found = Arrays(met, pairs, side, factions, none, met_cost, one_hot, *padded)
    ctx.__dict__["_arrays"] = found
    return found
