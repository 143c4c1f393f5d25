"""Series (league) points across a set of events: points per final placing, added up.

Pure Python, no Django. Input: each counted event's final places {player: place} (1 = winner; the
top cut's order where there was one, else the Swiss standings: services/leagues.py reads them) and
the series' rule. Output: the series standings.

Rulings:
- A place within the rule's list earns its points; every place beyond it earns the participation
  points (0 unless the organizer sets them), so playing never costs points.
- With "best of N", a player's N best events (by points) count; the others are listed, not counted.
- Order: counted points, then countback (more first places, then more second places, ...), then
  more events played. Players equal on all of these share a rank (listed by name); there is no
  draw, since a league's prize is usually shared on a tie.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

MAX_PLACINGS = 64
MAX_POINTS = 10_000


@dataclass(frozen=True)
class PointsRule:
    placings: tuple[float, ...] = (10, 8, 6, 5, 4, 3, 2, 1)  # points for 1st, 2nd, ...
    participation: float = 0.0  # every place beyond the list
    best_of: int | None = None  # count a player's best N events; None: every event

    def points_for(self, place: int) -> float:
        if place < 1:
            raise ValueError(f"a place is 1 or more, not {place}")
        return float(self.placings[place - 1]) if place <= len(self.placings) else float(self.participation)


@dataclass(frozen=True)
class EventPlacings:
    event: Hashable
    places: Mapping[Hashable, int]  # player -> final place in that event


@dataclass(frozen=True)
class EventScore:
    place: int
    points: float
    counted: bool


@dataclass(frozen=True)
class SeriesRow:
    rank: int
    player: Hashable
    points: float  # counted points
    events: int  # events played
    per_event: Mapping[Hashable, EventScore] = field(default_factory=dict)
    shared: bool = False  # another player has the same rank

    @property
    def best_place(self) -> int:
        return min(score.place for score in self.per_event.values())


def parse_placings(text: str) -> tuple[float, ...]:
    """The organizer's points per placing, e.g. "10, 8, 6, 5": numbers from 0 up, separated by
    commas or spaces, never more for a worse place. Raises ValueError with a message for people."""
    parts = [p for p in str(text or "").replace(",", " ").split() if p]
    if not parts:
        raise ValueError("Give the points of at least the first place, e.g. 10, 8, 6, 5, 4, 3, 2, 1.")
    if len(parts) > MAX_PLACINGS:
        raise ValueError(f"Points for at most {MAX_PLACINGS} places (the rest get the participation points).")
    values = []
    for part in parts:
        value = parse_points(part, "Points per placing")
        values.append(value)
    if any(later > earlier for earlier, later in zip(values, values[1:], strict=False)):
        raise ValueError("A worse place cannot earn more points than a better one.")
    return tuple(values)


def parse_points(text: str, what: str = "Points") -> float:
    """A number of points: 0 to MAX_POINTS, at most two decimals, ASCII digits only."""
    text = str(text).strip()
    whole, _, decimals = text.partition(".")
    if not (
        whole.isascii() and whole.isdigit() and len(whole) <= 5
        and (not decimals or (decimals.isascii() and decimals.isdigit() and len(decimals) <= 2))
    ):  # fmt: skip
        raise ValueError(f"{what}: {text[:20]!r} is not a number of points (0 to {MAX_POINTS}).")
    value = float(text)
    if value > MAX_POINTS:
        raise ValueError(f"{what}: at most {MAX_POINTS}.")
    return value


def format_placings(placings: Sequence[float]) -> str:
    return ", ".join(f"{p:g}" for p in placings)


def series_standings(events: Iterable[EventPlacings], rule: PointsRule) -> list[SeriesRow]:
    """Every player who placed in at least one event, in series order."""
    scores: dict[Hashable, dict[Hashable, EventScore]] = {}
    for event in events:
        for player, place in event.places.items():
            scores.setdefault(player, {})[event.event] = EventScore(place, rule.points_for(place), True)
    rows = []
    for player, per_event in scores.items():
        if rule.best_of is not None and len(per_event) > rule.best_of:
            # The best N by points; among equal points the better place, then the earlier-listed.
            ranked = sorted(per_event.items(), key=lambda item: (-item[1].points, item[1].place))
            kept = {event for event, _ in ranked[: rule.best_of]}
            per_event = {e: EventScore(s.place, s.points, e in kept) for e, s in per_event.items()}
        points = sum(s.points for s in per_event.values() if s.counted)
        rows.append((player, points, per_event))

    worst = max((s.place for _, _, per_event in rows for s in per_event.values()), default=0)

    def order(row):
        player, points, per_event = row
        return (-round(points, 6), _countback(per_event.values(), worst), -len(per_event))

    rows.sort(key=lambda row: (order(row), str(row[0])))
    out: list[SeriesRow] = []
    for i, row in enumerate(rows):
        tied_above = i > 0 and order(rows[i - 1]) == order(row)
        tied_below = i + 1 < len(rows) and order(rows[i + 1]) == order(row)
        rank = out[-1].rank if tied_above else i + 1
        out.append(SeriesRow(rank, row[0], row[1], len(row[2]), row[2], shared=tied_above or tied_below))
    return out


def _countback(scores: Iterable[EventScore], worst: int) -> tuple[int, ...]:
    """More first places first, then more second places, ... down to `worst` (one length for
    every player, so that the keys compare place by place): a key that sorts best first."""
    places = [s.place for s in scores]
    return tuple(-places.count(p) for p in range(1, worst + 1))
