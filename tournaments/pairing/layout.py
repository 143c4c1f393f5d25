"""How many tables of which size a round has.

The default cuts N players into T = ceil(N / size) tables as evenly as possible: with tables of four
that is 4T - N tables of three (N = 5 gives 3 + 2, N <= 4 one table of N). Other modes:
- "prefer_small": as many tables of size - 1 as possible (tables of three in a four-player event),
  tables of `size` only to absorb the remainder; never tables of two in a multiplayer event (at
  tables of three it is the same as "even");
- "byes": full tables; a remainder of size - 1 players (3 at tables of 4) still plays at one short
  table, a smaller remainder gets byes (7 players: 4 + 3, no bye; 6 players: 4 and 2 byes).
A "table" of one is always a bye; 1v1 events are table size 2 (an odd player out gets a bye).
`describe` says in words what a layout gives, for the previews on the event form and the dashboard.
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
        if table_size > 2 and left == table_size - 1 and left >= 3:
            return Layout((table_size,) * full + (left,))  # enough for a game: no byes
        return Layout((table_size,) * full, left)
    count = -(-players // table_size)
    if mode == "prefer_small" and table_size - 1 >= 3:
        count = max(count, players // (table_size - 1))
    base, extra = divmod(players, count)
    return Layout(tuple([base + 1] * extra + [base] * (count - extra)))


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def describe(players: int, table_size: int = 4, mode: str = "even") -> str:
    """What a round of `players` gives with this layout, in words: '7 players: 1 table of 4 and 1
    table of 3' ('1 player', not '1 players')."""
    layout = round_layout(players, table_size, mode)
    sizes = sorted(set(layout.tables), reverse=True)
    parts = [f"{_count(layout.tables.count(s), 'table')} of {s}" for s in sizes]
    if layout.byes:
        parts.append(_count(layout.byes, "bye"))
    text = " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 2 else parts) or "no table"
    return f"{_count(players, 'player')}: {text}"
