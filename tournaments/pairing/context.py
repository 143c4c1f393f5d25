"""Plain-data inputs of the pairing and the indexed view of them that the search works on.

Players are numbered 0..n-1 in standings order (best first; ties broken by a seeded draw), so the
search handles small ints and lists instead of ids and dicts. Everything a table's cost needs from
the history (who met whom how often, who had a short table, a bye or the first seat) is counted once
here.
"""

from __future__ import annotations

import hashlib
import operator
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Player:
    id: Hashable
    points: float = 0.0
    tiebreaks: tuple[float, ...] = ()  # higher is better, in the event's order (see standings)
    dropped: bool = False
    # The factions the player holds for the whole event (a per-event draft); checked against
    # PairingOptions.faction_copies.
    factions: tuple[str, ...] = ()
    # The player's club (a name; "" none): with PairingOptions.avoid_clubs, players of one club are
    # kept apart in round 1.
    club: str = ""


@dataclass(frozen=True)
class PastRound:
    tables: Sequence[Sequence[Hashable]]  # each table in seat order: the first seat first
    byes: Sequence[Hashable] = ()


@dataclass(frozen=True)
class Weights:
    """Cost weights, highest first; each level outweighs everything below it in any realistic round.

    Fairness is a rule: nobody gets a second short table (or bye) before everyone had one, even if that
    costs a repeat (PairingOptions.short_tables "soft" lowers the short tables' weight below a repeat:
    PairingOptions.effective_weights). A faction clash comes next: with a per-event draft each round-1
    table drafts from its own pool, so two players who keep the same faction may meet later. The draft's
    copy rule (two players of a table share a faction only if there are enough copies) is a rule of the
    format, where a rematch is only a less varied game, so one clash weighs ten repeats. It stays below
    fairness, the search's one hard rule: with a small pool clashes can be unavoidable, and they must not
    hand someone a second short table. Repeats come next, far above the standings spread.
    """

    fairness: float = 100_000_000.0  # a short table for someone who had more than the fewest
    bye_fairness: float = 100_000_000.0  # a bye likewise
    clash: float = 10_000_000.0  # per player at a table beyond the copies of a faction they hold
    repeat: float = 1_000_000.0  # per earlier meeting of each pair now at one table
    spread: float = 1.0  # per squared points difference of each pair at a table
    bye_rank: float = 10.0  # per point above the lowest score: the lowest ranked sit out first
    first_seat: float = 0.1  # per earlier first seat of whoever sits first now


@dataclass(frozen=True)
class PairingOptions:
    table_size: int = 4
    layout: str = "even"  # see layout.MODES
    weights: Weights = field(default_factory=Weights)
    exact_limit: int = 12  # exact search up to this many active players, local search above
    matching_limit: int = 100  # 1v1: maximum-weight matching up to this many players, local search above
    # Swap evaluations of the tabu search (about a second): a budget that keeps results reproducible.
    max_evaluations: int = 1_000_000
    time_limit: float | None = None  # seconds; a safety cap that makes results machine-dependent
    window: int = 6  # tables either side (in standings order) tried for a swap before widening
    # How many players of one table may hold the same faction (the event's copies per table pool);
    # None: factions are not checked (players draft at every table, or bring their own).
    faction_copies: int | None = None
    # Short-table fairness (SHORT_TABLES): "strict", nobody gets a second short table before everyone
    # had one, whatever it costs in repeats; "soft", a short table again weighs half a repeat
    # (SOFT_FAIRNESS), so a rematch is avoided at that price. Byes stay strict either way.
    short_tables: str = "strict"
    # Round 1: players of one club (Player.club) sit at different tables where the draw allows.
    avoid_clubs: bool = False

    def __post_init__(self):
        if self.short_tables not in SHORT_TABLES:
            raise ValueError(f"short_tables is one of {SHORT_TABLES}, not {self.short_tables!r}")

    @property
    def strict(self) -> bool:
        return self.short_tables == "strict"

    def effective_weights(self) -> Weights:
        """The weights the search uses: the soft mode lowers a short table's fairness weight."""
        if self.strict:
            return self.weights
        return replace(self.weights, fairness=self.weights.repeat * SOFT_FAIRNESS)


SHORT_TABLES = ("strict", "soft")
# Soft short-table fairness (issue 27): a short table again (for someone who had one more than the
# fewest) weighs this many repeats; a third (two more: tri(2) = 3 units) 1.5. So the soft mode gives
# someone a second short table to spare a rematch, but not a third.
SOFT_FAIRNESS = 0.5


def tri(k: int) -> int:
    """0, 1, 3, 6...: a third short table costs more than two second ones."""
    return k * (k + 1) // 2 if k > 0 else 0


def seeded_key(seed: Hashable, *parts: Hashable) -> float:
    digest = hashlib.sha256(":".join(map(str, (seed, *parts))).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


@dataclass
class Context:
    ids: list  # index -> player id, standings order
    points: list[float]
    met: list[dict[int, int]]  # met[a][b]: earlier tables a and b shared
    short: list[int]  # earlier short tables
    byes: list[int]
    firsts: list[int]  # earlier first seats
    seat_counts: list[dict[int, int]]  # seat position -> times
    short_pen: list[float]  # fairness cost of seating this player at a short table now
    bye_fair: list[float]  # fairness cost of giving this player a bye now
    bye_pen: list[float]  # the same plus the rank part (the lowest scores sit out first)
    first_pen: list[float]
    table_size: int
    weights: Weights
    # Per player, the factions they hold as small ints (None when factions are not checked), and how
    # many players of one table may hold the same one.
    factions: list[tuple[int, ...]] | None = None
    copies: int = 1
    faction_names: list[str] = field(default_factory=list)
    # Earlier tables as player indices (active players only): each is a group that has all met, which
    # the pigeonhole bound (bounds.pigeonhole_repeats) spreads over the tables of this round.
    # One list of tables per earlier round.
    past_tables: list[list[tuple[int, ...]]] = field(default_factory=list)
    # Whether the short-table fairness is a rule (PairingOptions.short_tables "strict"): the bounds
    # that count only groupings keeping it (pigeonhole, min_repeats(fair=True)) then hold.
    strict: bool = True

    @property
    def n(self) -> int:
        return len(self.ids)

    def index(self) -> dict:
        return {pid: i for i, pid in enumerate(self.ids)}


def standings_order(players: Iterable[Player], seed: Hashable, round_number: int) -> list[Player]:
    """Active players, best first: points, tie-breakers, a seeded draw (never the input order)."""
    active = [p for p in players if not p.dropped]
    if len({p.id for p in active}) != len(active):
        raise ValueError("a player appears twice")
    if len({len(p.tiebreaks) for p in active}) > 1:  # keys of unequal lengths: compared as they are
        return sorted(
            active,
            key=lambda p: (
                -p.points,
                *(-t for t in p.tiebreaks),
                seeded_key(seed, round_number, "rank", p.id),
            ),
        )
    # The same order with the seeded draw (a hash per player, issue 27: 10 ms at 4,096 players)
    # worked out only among players equal on points and tie-breakers: the keys are of one length,
    # so the draw decides exactly where they are equal.
    standing = [(-p.points, *map(operator.neg, p.tiebreaks)) for p in active]
    ranked = sorted(range(len(active)), key=standing.__getitem__)
    out = []
    start = 0
    while start < len(ranked):
        end = start + 1
        while end < len(ranked) and standing[ranked[end]] == standing[ranked[start]]:
            end += 1
        equals = [active[i] for i in ranked[start:end]]
        if len(equals) > 1:
            equals.sort(key=lambda p: seeded_key(seed, round_number, "rank", p.id))
        out += equals
        start = end
    return out


def build_context(
    players: Sequence[Player],
    history: Sequence[PastRound],
    options: PairingOptions,
    least: tuple[int, int] | None = None,
) -> Context:
    """`players` in standings order (see standings_order). `least`: the fewest short tables and
    byes any active player had, when `players` are only some of them (the players of some tables
    paired again: a short table is fair or not against everyone, not only those)."""
    ids = [p.id for p in players]
    index = {pid: i for i, pid in enumerate(ids)}
    n = len(ids)
    met = [dict() for _ in range(n)]
    short, byes, firsts = [0] * n, [0] * n, [0] * n
    seat_counts = [dict() for _ in range(n)]
    past_tables = []
    for past in history:
        past_tables.append([])
        for table in past.tables:
            seats = [index.get(pid) for pid in table]
            past_tables[-1].append(tuple(a for a in seats if a is not None))
            for pos, a in enumerate(seats):
                if a is None:  # a dropped player: history that no longer matters
                    continue
                seat_counts[a][pos] = seat_counts[a].get(pos, 0) + 1
                firsts[a] += pos == 0
                short[a] += len(table) < options.table_size
                for b in seats:
                    if b is not None and b != a:
                        met[a][b] = met[a].get(b, 0) + 1
        for pid in past.byes:
            if pid in index:
                byes[index[pid]] += 1
    w = options.effective_weights()
    points = [float(p.points) for p in players]
    low = min(points, default=0.0)
    least_short, least_byes = least if least is not None else (min(short, default=0), min(byes, default=0))
    bye_fair = [w.bye_fairness * tri(b - least_byes) for b in byes]
    factions, names = None, []
    if options.faction_copies is not None and any(p.factions for p in players):
        names = sorted({f for p in players for f in p.factions})
        number = {f: i for i, f in enumerate(names)}
        factions = [tuple(sorted({number[f] for f in p.factions})) for p in players]
    return Context(
        ids=ids,
        points=points,
        met=met,
        short=short,
        byes=byes,
        firsts=firsts,
        seat_counts=seat_counts,
        short_pen=[w.fairness * tri(s - least_short) for s in short],
        bye_fair=bye_fair,
        bye_pen=[f + w.bye_rank * (pt - low) for f, pt in zip(bye_fair, points, strict=True)],
        first_pen=[w.first_seat * f for f in firsts],
        table_size=options.table_size,
        weights=w,
        factions=factions,
        copies=max(1, options.faction_copies or 1),
        faction_names=names,
        past_tables=[[t for t in tables if len(t) > 1] for tables in past_tables],
        strict=options.strict,
    )
