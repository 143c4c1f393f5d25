"""Seat order within a table: who sits first (and picks first) rotates.

Whoever sat first the fewest times sits first; then each player takes the seat they had least often.
Remaining ties are broken by the round's seeded random generator, so the order is reproducible.
"""

from __future__ import annotations

import random
from itertools import permutations

from tournaments.pairing.context import Context

EXHAUSTIVE_UP_TO = 6  # 720 orders; larger tables are seated greedily


def seat_order(ctx: Context, members: list[int], rng: random.Random) -> list[int]:
    shuffled = list(members)
    rng.shuffle(shuffled)

    def cost(order) -> tuple[int, int]:
        return ctx.firsts[order[0]], sum(ctx.seat_counts[p].get(i, 0) for i, p in enumerate(order))

    if len(shuffled) <= EXHAUSTIVE_UP_TO:
        return list(min(permutations(shuffled), key=cost))  # min keeps the first of equals
    order = [min(shuffled, key=lambda p: ctx.firsts[p])]
    for seat in range(1, len(shuffled)):
        left = [p for p in shuffled if p not in order]
        order.append(min(left, key=lambda p: ctx.seat_counts[p].get(seat, 0)))
    return order
