"""What the statistics, profile and series pages read: plain data gathered from the database for the
pure `tournaments.stats`, `tournaments.series` and `tournaments.ratings`.

Part of ``tournaments.services`` (import it as ``from tournaments.services import records``).
Queries stay few whatever the size: one for the seats of every confirmed table of the events asked,
one for their drafts; event places come from the standings (cached by event version). Faction
statistics are cached by the versions of the events they cover, so a page is computed again only
after one of those events changed.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db.models import Q

from tournaments import stats
from tournaments.draft import DraftState

from ..models import Draft, Entrant, Event, Round, Seat, Table
from ..rating_models import PlayerRating, RatingChange
from .rating_store import refresh_before_reading
from .results import cached_standings, final_standings

STATS_CACHE_SECONDS = 600


# ---------------------------------------------------------------------------------- factions -----
def table_results(event_ids: Iterable[int] | None) -> list[stats.TableResult]:
    """Every confirmed table of these events (None: of every event), any round and stage."""
    seats = Seat.objects.filter(table__state=Table.State.CONFIRMED)
    if event_ids is not None:
        seats = seats.filter(round__event_id__in=list(event_ids))
    tables: dict[int, list[stats.SeatResult]] = defaultdict(list)
    rows = seats.order_by().values_list("table_id", "entrant_id", "factions", "vp", "no_show")
    for table_id, entrant_id, factions, vp, no_show in rows:
        tables[table_id].append(stats.SeatResult(entrant_id, tuple(factions or ()), vp or 0, no_show))
    return [stats.TableResult(tables[pk]) for pk in sorted(tables)]


def draft_records(event_ids: Iterable[int] | None) -> list[stats.DraftRecord]:
    """Every finished draft of these events (None: of every event), in the order of their tables."""
    drafts = Draft.objects.filter(status=Draft.Status.DONE)
    if event_ids is not None:
        drafts = drafts.filter(table__round__event_id__in=list(event_ids))
    out = []
    for (data,) in drafts.order_by("table_id").values_list("state"):
        state = DraftState.from_dict(data)
        out.append(
            stats.DraftRecord(
                pool=dict(state.pool),
                picks=[c.faction for c in state.picks],
                bans=[c.faction for c in state.bans],
            )
        )
    return out


def _versions_key(prefix: str, event_ids: Iterable[int] | None) -> str:
    events = Event.objects.all() if event_ids is None else Event.objects.filter(pk__in=list(event_ids))
    versions = sorted(events.values_list("pk", "version"))
    digest = hashlib.sha256(repr(versions).encode()).hexdigest()[:32]
    return f"tournaments:{prefix}:{digest}"


def faction_stats(event_ids: Iterable[int] | None) -> stats.FactionStats:
    """`stats.faction_stats` over these events (None: every event), cached by their versions."""
    ids = None if event_ids is None else sorted(set(event_ids))
    key = _versions_key("faction-stats", ids)
    try:
        found = cache.get(key)
    except Exception:  # the cache (Redis) is down: compute
        found = None
    if found is not None:
        return found
    result = stats.faction_stats(table_results(ids), draft_records(ids))
    try:
        cache.set(key, result, STATS_CACHE_SECONDS)
    except Exception:
        pass
    return result


# ---------------------------------------------------------------------------------- places -------
def event_places(event: Event) -> dict[int, int]:
    """{entrant pk: final place} of an event: the top cut's order once its final is confirmed, else
    the Swiss standings' ranks (players who never played and are not active are not placed)."""
    rows = cached_standings(event)
    has_cut = Round.objects.filter(event=event).exclude(stage=Round.Stage.SWISS).exists()
    final = final_standings(event, rows) if has_cut else None
    if final:
        return {p.entrant.pk: p.place for p in final}
    return {row.entrant.pk: row.rank for row in rows}


# ---------------------------------------------------------------------------------- profiles -----
@dataclass
class ProfileEvent:
    event: Event
    entrant: Entrant
    place: int | None
    players: int
    games: int = 0
    vp: int = 0
    wins: float = 0.0
    factions: list[str] = field(default_factory=list)
    rating_before: float | None = None
    rating_after: float | None = None

    @property
    def rating_delta(self) -> float | None:
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before


@dataclass
class Profile:
    name: str
    events: list[ProfileEvent]
    rating: PlayerRating | None
    rank: int | None  # among rated accounts
    rated_players: int
    history: list[tuple[float, str]]  # the rating before the first rated event, then after each
    faction_games: list[tuple[str, int, float]]  # (faction, games, wins), most played first


def profile(user) -> Profile | None:
    """An account's tournament record: its events (place, games, VP, factions, rating change), its
    rating and the factions it played. None when it never entered an event (no profile to show)."""
    refresh_before_reading()
    entrants = list(
        Entrant.objects.filter(user=user, wait_rank=None)
        .select_related("event")
        .order_by("event__date", "event_id")
    )
    if not entrants:
        return None
    started = set(
        Round.objects.filter(event__in=[e.event_id for e in entrants], status=Round.Status.FINISHED)
        .values_list("event_id", flat=True)
        .distinct()
    )
    by_event = {}
    for e in entrants:
        # A place once a round of the event is over (before that, the standings are only a list).
        places = event_places(e.event) if e.event_id in started else {}
        by_event[e.event_id] = ProfileEvent(e.event, e, places.get(e.pk), len(places))
    mine = set(e.pk for e in entrants)
    seats = Seat.objects.filter(
        table__in=Table.objects.filter(seats__entrant__in=entrants, state=Table.State.CONFIRMED)
    ).values_list("round__event_id", "table_id", "entrant_id", "factions", "vp", "no_show")
    tables: dict[int, list] = defaultdict(list)
    for event_id, table_id, entrant_id, factions, vp, no_show in seats.order_by():
        tables[table_id].append(
            (event_id, stats.SeatResult(entrant_id, tuple(factions or ()), vp or 0, no_show))
        )
    faction_games: dict[str, list[float]] = {}
    for rows in tables.values():
        wins = stats.win_shares(stats.TableResult([seat for _, seat in rows]))
        for event_id, seat in rows:
            if seat.player not in mine or seat.player not in wins:
                continue  # someone else, or a game this player did not play (a no-show)
            item = by_event[event_id]
            item.games += 1
            item.vp += seat.vp
            item.wins += wins[seat.player]
            for f in seat.factions:
                if f not in item.factions:
                    item.factions.append(f)
                games_wins = faction_games.setdefault(f, [0, 0.0])
                games_wins[0] += 1
                games_wins[1] += wins[seat.player]
    changes = RatingChange.objects.filter(user=user).order_by("event_date", "event_id", "round_number")
    history = []
    for event_id, mu_b, s_b, mu, s in changes.values_list(
        "event_id", "mu_before", "sigma_before", "mu", "sigma"
    ):
        item = by_event.get(event_id)
        if item is None:
            continue
        if item.rating_before is None:
            item.rating_before = mu_b - 3 * s_b
        item.rating_after = mu - 3 * s
    for item in by_event.values():
        if item.rating_after is not None:
            if not history:  # where the line starts: the rating before the first rated event
                history.append((item.rating_before, f"before {item.event.name}"))
            history.append((item.rating_after, f"after {item.event.name} ({item.event.date:%d %b %Y})"))
    rating = PlayerRating.objects.filter(user=user).first()
    rank = None
    if rating is not None:
        rank = 1 + PlayerRating.objects.filter(Q(rating__gt=rating.rating)).count()
    return Profile(
        name=entrants[-1].name,
        events=list(reversed(list(by_event.values()))),  # latest first
        rating=rating,
        rank=rank,
        rated_players=PlayerRating.objects.count(),
        history=history,
        faction_games=sorted(
            ((f, int(g), w) for f, (g, w) in faction_games.items()), key=lambda x: (-x[1], x[0])
        ),
    )


def display_names(user_ids: Iterable[int]) -> dict[int, str]:
    """The name each account used in its latest event (profiles show that, never the user name)."""
    names: dict[int, str] = {}
    rows = (
        Entrant.objects.filter(user_id__in=list(user_ids))
        .order_by("event__date", "event_id")
        .values_list("user_id", "name")
    )
    for user_id, name in rows:
        names[user_id] = name
    return names


def leaderboard(limit: int = 100) -> list[tuple[int, PlayerRating, str]]:
    """The rated accounts, best rating first: (rank, rating, name)."""
    refresh_before_reading()
    top = list(PlayerRating.objects.order_by("-rating", "-mu", "user_id")[:limit])
    names = display_names(r.user_id for r in top)
    return [(i, r, names.get(r.user_id, "?")) for i, r in enumerate(top, 1)]


def event_ratings(event: Event) -> list[dict]:
    """Each rated player of an event: their rating before its first game and after its last, by
    final place (guests too: they are rated within the event only)."""
    refresh_before_reading()
    rows: dict[int, dict] = {}
    changes = RatingChange.objects.filter(event=event).order_by("round_number")
    for entrant_id, user_id, mu_b, s_b, mu, s in changes.values_list(
        "entrant_id", "user_id", "mu_before", "sigma_before", "mu", "sigma"
    ):
        row = rows.setdefault(entrant_id, {"user_id": user_id, "before": mu_b - 3 * s_b, "games": 0})
        row["after"] = mu - 3 * s
        row["games"] += 1
    places = event_places(event)
    names = dict(Entrant.objects.filter(pk__in=list(rows)).values_list("pk", "name"))
    out = [
        {
            "entrant_id": pk,
            "name": names[pk],
            "place": places.get(pk),
            "delta": row["after"] - row["before"],
            **row,
        }
        for pk, row in rows.items()
    ]
    return sorted(out, key=lambda r: (r["place"] is None, r["place"] or 0, r["name"].casefold()))
