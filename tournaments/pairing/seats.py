"""Seat order within a table: who sits first (and picks first) rotates.

Whoever sat first the fewest times sits first; then each player takes the seat they had least often.
Remaining ties are broken by the round's seeded random generator, so the order is reproducible.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import permutations

import numpy as np

from tournaments.pairing.context import Context

EXHAUSTIVE_UP_TO = 6  # 720 orders; larger tables are seated greedily


def seat_order(ctx: Context, members: list[int], rng: random.Random) -> list[int]:
    shuffled = list(members)
    rng.shuffle(shuffled)

    def cost(order) -> tuple[int, int]:
        return ctx.firsts[order[0]], sum(ctx.seat_counts[p].get(i, 0) for i, p in enumerate(order))

    if len(shuffled) <= EXHAUSTIVE_UP_TO:
        return list(min(permutations(shuffled), key=cost))  # min keeps the first of equals
    return _greedy(ctx, shuffled)


def seat_orders(ctx: Context, groups: list[list[int]], rng: random.Random) -> list[list[int]]:
    """[seat_order(ctx, g, rng) for g in groups], the same orders and calls to rng, with the tables
    of one size seated together as arrays (a large event has a thousand tables)."""
    shuffled = []
    for members in groups:
        order = list(members)
        rng.shuffle(order)
        shuffled.append(order)
    out: list[list[int] | None] = [None] * len(groups)
    sizes: dict[int, list[int]] = {}
    for t, order in enumerate(shuffled):
        if 2 <= len(order) <= EXHAUSTIVE_UP_TO:
            sizes.setdefault(len(order), []).append(t)
        else:  # a seat order of one, or a table seated greedily: seat_order's own way
            out[t] = _greedy(ctx, order) if order else []
    for size, tables in sizes.items():
        members = np.array([shuffled[t] for t in tables], dtype=np.int64)  # (table, position)
        counts = np.array(
            [[[ctx.seat_counts[p].get(i, 0) for i in range(size)] for p in row] for row in members.tolist()],
            dtype=np.int64,
        )  # (table, position in the shuffled order, seat)
        perms = _perms(size)  # (order, seat): which shuffled position takes each seat
        seat_sums = counts[:, perms, np.arange(size)].sum(axis=2)  # (table, order)
        firsts = np.array(ctx.firsts, dtype=np.int64).take(members.take(perms[:, 0], axis=1))
        # min(..., key=(first seats, seat sum)) keeps the first of equals; so does argmin.
        best = np.argmin(firsts * (int(seat_sums.max()) + 1) + seat_sums, axis=1)
        for t, row, k in zip(tables, members, best.tolist(), strict=True):
            out[t] = row.take(perms[k]).tolist()
    return out


@cache
def _perms(size: int) -> np.ndarray:
    return np.array(list(permutations(range(size))), dtype=np.int64)


def _greedy(ctx: Context, shuffled: list[int]) -> list[int]:
    if len(shuffled) <= 1:
        return list(shuffled)
    order = [min(shuffled, key=lambda p: ctx.firsts[p])]
    for seat in range(1, len(shuffled)):
        left = [p for p in shuffled if p not in order]
        order.append(min(left, key=lambda p: ctx.seat_counts[p].get(seat, 0)))
    return order
