"""Faction statistics: how each faction and each pair of factions does, and how early drafts take them.

Pure Python, no Django: plain data in (confirmed tables, finished drafts), plain data out. The same
functions serve one event, a series and every event (services/records.py gathers the input).

Rulings, so that numbers compare across table sizes:
- Only players who played count: a no-show's seat is left out, and the table is the size of those
  who played (a table of 4 with a no-show is a game of 3).
- A win is a first place. A first place shared by k players counts 1/k of a win for each, so a
  table always hands out exactly one win, and the win rates of a table's players add up to 1.
- The expected win rate is what chance gives: 1/n at a table of n, averaged over the faction's
  games. A faction above it wins more often than its share, whatever the table sizes it met.
- VP share is VP / the table's top VP (0 when nobody scored), as the standings' tie-breaker.
- Pick order: a draft's picks are numbered from 1 (the first pick of the draft); the pick position
  is the pick's place in its draft from 0 % (first) to 100 % (last), which compares drafts of 2, 3
  and 4 players. A faction offered in a draft's pool and never picked there counts in "offered" only.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.scoring import placements


@dataclass(frozen=True)
class SeatResult:
    player: Hashable
    factions: tuple[str, ...]
    vp: float
    no_show: bool = False


@dataclass(frozen=True)
class TableResult:
    seats: Sequence[SeatResult]


@dataclass(frozen=True)
class DraftRecord:
    """A finished draft: its pool {faction: copies}, the picks and bans in the order made."""

    pool: Mapping[str, int]
    picks: Sequence[str]
    bans: Sequence[str] = ()


@dataclass
class Performance:
    """How one faction (or one pair) did: sums, and the rates and averages the pages show."""

    name: str
    games: int = 0
    wins: float = 0.0  # a shared first counts 1/k
    expected_wins: float = 0.0  # the sum of 1/n over its games
    vp: float = 0.0
    vp_share: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def expected_win_rate(self) -> float:
        return self.expected_wins / self.games if self.games else 0.0

    @property
    def average_vp(self) -> float:
        return self.vp / self.games if self.games else 0.0

    @property
    def average_vp_share(self) -> float:
        return self.vp_share / self.games if self.games else 0.0

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "games": self.games,
            "wins": round(self.wins, 4),
            "win_rate": round(self.win_rate, 4),
            "expected_win_rate": round(self.expected_win_rate, 4),
            "average_vp": round(self.average_vp, 4),
            "average_vp_share": round(self.average_vp_share, 4),
        }


@dataclass
class Picks:
    """How drafts took one faction."""

    name: str
    offered: int = 0  # drafts whose pool held it
    picked: int = 0
    first_picks: int = 0
    banned: int = 0
    pick_number_sum: int = 0
    pick_position_sum: float = 0.0

    @property
    def pick_rate(self) -> float:
        """Picks per draft that offered it (above 1 where copies let several players take it)."""
        return self.picked / self.offered if self.offered else 0.0

    @property
    def average_pick(self) -> float | None:
        return self.pick_number_sum / self.picked if self.picked else None

    @property
    def average_position(self) -> float | None:
        """0 = always the first pick of its draft, 1 = always the last."""
        return self.pick_position_sum / self.picked if self.picked else None

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "offered": self.offered,
            "picked": self.picked,
            "pick_rate": round(self.pick_rate, 4),
            "first_picks": self.first_picks,
            "banned": self.banned,
            "average_pick": None if self.average_pick is None else round(self.average_pick, 4),
            "average_position": None if self.average_position is None else round(self.average_position, 4),
        }


@dataclass
class FactionStats:
    tables: int = 0
    seats: int = 0  # players who played (no-shows left out)
    seats_without_factions: int = 0
    drafts: int = 0
    factions: list[Performance] = field(default_factory=list)
    pairs: list[Performance] = field(default_factory=list)
    picks: list[Picks] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "tables": self.tables,
            "seats": self.seats,
            "seats_without_factions": self.seats_without_factions,
            "drafts": self.drafts,
            "factions": [p.as_dict() for p in self.factions],
            "pairs": [p.as_dict() for p in self.pairs],
            "picks": [p.as_dict() for p in self.picks],
        }


def pair_name(factions: Iterable[str]) -> str:
    return " + ".join(sorted(factions))


def _performance_order(p: Performance):
    return (-p.win_rate, -p.games, -p.average_vp, p.name)


def win_shares(table: TableResult) -> dict[Hashable, float]:
    """Each present player's share of the table's one win (a first place shared by k: 1/k each).
    Empty when fewer than two players played: no game."""
    present = [s for s in table.seats if not s.no_show]
    if len(present) < 2:
        return {}
    places = placements({s.player: s.vp for s in present})
    return {p: (1 / (last - first + 1) if first == 1 else 0.0) for p, (first, last) in places.items()}


def faction_stats(tables: Iterable[TableResult], drafts: Iterable[DraftRecord] = ()) -> FactionStats:
    """Win rate, VP and pick order by faction, and win rate and VP by pair of factions."""
    out = FactionStats()
    by_faction: dict[str, Performance] = {}
    by_pair: dict[str, Performance] = {}
    for table in tables:
        wins = win_shares(table)
        if not wins:
            continue  # nobody to play against: no game
        present = [s for s in table.seats if not s.no_show]
        out.tables += 1
        top = max(s.vp for s in present)
        size = len(present)
        for seat in present:
            out.seats += 1
            win = wins[seat.player]
            share = seat.vp / top if top > 0 else 0.0
            factions = sorted(set(seat.factions))
            if not factions:
                out.seats_without_factions += 1
                continue
            targets = [by_faction.setdefault(f, Performance(f)) for f in factions]
            if len(factions) > 1:
                name = pair_name(factions)
                targets.append(by_pair.setdefault(name, Performance(name)))
            for perf in targets:
                perf.games += 1
                perf.wins += win
                perf.expected_wins += 1 / size
                perf.vp += seat.vp
                perf.vp_share += share
    out.factions = sorted(by_faction.values(), key=_performance_order)
    out.pairs = sorted(by_pair.values(), key=_performance_order)
    out.picks, out.drafts = pick_stats(drafts)
    return out


def pick_stats(drafts: Iterable[DraftRecord]) -> tuple[list[Picks], int]:
    """Per faction: how often drafts offered, picked, banned it, and how early it went. Sorted by
    the average pick position (earliest first; factions never picked last, by name)."""
    rows: dict[str, Picks] = {}
    count = 0
    for draft in drafts:
        if not draft.picks:
            continue
        count += 1
        for faction in draft.pool:
            rows.setdefault(faction, Picks(faction)).offered += 1
        for faction in draft.bans:
            rows.setdefault(faction, Picks(faction)).banned += 1
        last = len(draft.picks) - 1
        for i, faction in enumerate(draft.picks):
            row = rows.setdefault(faction, Picks(faction))
            row.picked += 1
            row.first_picks += i == 0
            row.pick_number_sum += i + 1
            row.pick_position_sum += i / last if last else 0.0
    ordered = sorted(
        rows.values(),
        key=lambda r: (r.average_position is None, r.average_position or 0.0, -r.picked, r.name),
    )
    return ordered, count


# ---------------------------------------------------------------------------------- exports -----
FACTION_COLUMNS = ("name", "games", "wins", "win_rate", "expected_win_rate", "average_vp", "average_vp_share")
PICK_COLUMNS = (
    "name", "offered", "picked", "pick_rate", "first_picks", "banned", "average_pick", "average_position",
)  # fmt: skip
CSV_KINDS = ("factions", "pairs", "picks")


def csv_rows(stats: FactionStats, kind: str) -> list[list]:
    """The header and rows of one CSV export ("factions", "pairs" or "picks"), plain values."""
    if kind == "picks":
        columns, items = PICK_COLUMNS, stats.picks
    elif kind in ("factions", "pairs"):
        columns, items = FACTION_COLUMNS, getattr(stats, kind)
    else:
        raise ValueError(f"unknown statistics export {kind!r}; choose from {CSV_KINDS}")
    header = ["pair" if kind == "pairs" else "faction", *columns[1:]]
    rows = []
    for item in items:
        data = item.as_dict()
        rows.append(["" if data[c] is None else data[c] for c in columns])
    return [header, *rows]
