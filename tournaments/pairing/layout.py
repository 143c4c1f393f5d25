"""How many tables of which size a round has.

The default cuts N players into T = ceil(N / size) tables as evenly as possible: with tables of four
that is 4T - N tables of three (N = 5 gives 3 + 2, N <= 4 one table of N). Other modes:
- "prefer_small": as many tables of size - 1 as possible (tables of three in a four-player event),
  tables of `size` only to absorb the remainder;
- "byes": only full tables; whoever is left over gets a bye.
A "table" of one is always a bye; 1v1 events are table size 2 (an odd player out gets a bye).
"""

from __future__ import annotations

from dataclasses import dataclass

MODES = ("even", "prefer_small", "byes")


@dataclass(frozen=True)
class Layout:
    tables: tuple[int, ...]  # sizes, largest first
    byes: int = 0

    @property
    def seats(self) -> int:
        return sum(self.tables)


def round_layout(players: int, table_size: int = 4, mode: str = "even") -> Layout:
    if table_size < 2:
        raise ValueError("tables hold at least two players")
    if mode not in MODES:
        raise ValueError(f"unknown layout mode {mode!r}; choose from {MODES}")
    if players < 2:
        return Layout((), players)
    if mode == "byes" or table_size == 2:
        full, left = divmod(players, table_size)
        if full == 0:  # too few for a full table: they still play, at one short table
            return Layout((players,))
        return Layout((table_size,) * full, left)
    count = -(-players // table_size)
    if mode == "prefer_small":
        count = max(count, players // (table_size - 1))
    base, extra = divmod(players, count)
    return Layout(tuple([base + 1] * extra + [base] * (count - extra)))
