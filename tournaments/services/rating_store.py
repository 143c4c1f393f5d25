"""Keeping the stored ratings equal to the results: which rounds changed, and re-rating from there.

A round is rated once it is finished (every table confirmed), in the order (event date, event,
round number), every stage (Swiss, semifinals, final). The stored rows (tournaments.rating_models)
are derived data: `refresh()` compares each event that changed since it was last looked at (its
version moved on) with what was rated, finds the earliest round whose results, players, place in
the order or existence changed, deletes every rating from that round on and rates those rounds
again with the pure `tournaments.ratings` from the ratings just before it. Running it twice
changes nothing; `rerate_all()` from nothing gives the same rows (`manage.py rerate --check`).

It runs after the commit of every confirmed result (`refresh_after_commit`, called where a round
may have become final, services/results.py), and before any page reads ratings, so a refresh that
failed or never ran (a crash between the commit and it) is made up the next time anyone looks.

Who is rated: an entrant with an account as that account, across events; a guest (an entrant
without an account) as a newcomer in their event, whose rating lives only in that event (nothing
links two guests with the same name). Guests count for the others: beating a table of guests
moves an account's rating as beating newcomers does. No-shows are left out of their table.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from django.db import transaction
from django.db.models import Count, F, Q

from tournaments import ratings
from tournaments.ratings import RatedRound as PureRound
from tournaments.ratings import RatedSeat, Skill

from ..models import Event, Round, Seat
from ..rating_models import PlayerRating, RatedEvent, RatedRound, RatingChange, RatingState

log = logging.getLogger(__name__)

Position = tuple  # (event date, event pk, round number): the order rounds are rated in
BEGINNING: Position = (datetime.date.min, 0, 0)


class SeatInput(NamedTuple):
    """A seat of a finished round as the rating reads it (the `ref` of its pure RatedSeat)."""

    key: tuple
    round_id: int
    seat_id: int
    entrant_id: int
    user_id: int | None
    vp: int
    no_show: bool


@dataclass(frozen=True)
class Refreshed:
    events_checked: int
    rerated_from: Position | None  # None: nothing had changed
    rounds_rated: int
    changes: int


def player_key(user_id: int | None, entrant_id: int) -> tuple:
    """An account is one player across events; a guest is one entrant."""
    return ("u", user_id) if user_id is not None else ("e", entrant_id)


def _from(position: Position, date: str, event: str, number: str) -> Q:
    """Rows at or after `position` in the rating order, by the names of their three fields."""
    d, e, n = position
    return (
        Q(**{f"{date}__gt": d})
        | Q(**{date: d, f"{event}__gt": e})
        | Q(**{date: d, event: e, f"{number}__gte": n})
    )


def _round_inputs(rounds: Iterable[int]) -> dict[int, dict]:
    """{round pk: {"position": Position, "tables": {table pk: [SeatInput]}}} of these rounds."""
    out: dict[int, dict] = {}
    rows = (
        Seat.objects.filter(round_id__in=list(rounds))
        .values_list(
            "round_id", "round__event__date", "round__event_id", "round__number",
            "table_id", "pk", "entrant_id", "entrant__user_id", "vp", "no_show",
        )
        .order_by()
    )  # fmt: skip
    for round_id, date, event_id, number, table_id, seat_id, entrant_id, user_id, vp, no_show in rows:
        entry = out.setdefault(round_id, {"position": (date, event_id, number), "tables": {}})
        entry["tables"].setdefault(table_id, []).append(
            SeatInput(
                player_key(user_id, entrant_id), round_id, seat_id, entrant_id, user_id, vp or 0, no_show
            )
        )
    return out


def _pure_round(position: Position, tables: dict) -> PureRound:
    pure_tables = []
    for table_id in sorted(tables):
        seats = tables[table_id]
        places = ratings.places_of({s.key: s.vp for s in seats}, absent={s.key for s in seats if s.no_show})
        pure_tables.append([RatedSeat(s.key, places[s.key], ref=s) for s in seats if s.key in places])
    return PureRound(position, pure_tables)


def _fingerprint(rnd: PureRound) -> str:
    """The players and places a round was rated from (its position is stored beside it)."""
    tables = sorted(sorted([list(s.player), s.place] for s in table) for table in rnd.tables)
    return hashlib.sha256(json.dumps(tables, default=str).encode()).hexdigest()


def _lock_state() -> RatingState:
    RatingState.objects.get_or_create(pk=1)
    return RatingState.objects.select_for_update().get(pk=1)


def refresh() -> Refreshed:
    """Bring the stored ratings up to date with every finished round (see the module docstring)."""
    with transaction.atomic():
        state = _lock_state()
        start: Position | None
        if state.model != ratings.MODEL_NAME:  # first run, or another model: everything again
            stale = list(Event.objects.values_list("pk", "version"))
            start = BEGINNING
        else:
            # Versions first, results second: a change committed in between leaves the event stale.
            stale = list(
                Event.objects.annotate(rated=F("rating_mark__version"))
                .filter(Q(rated__isnull=True) | ~Q(rated=F("version")))
                .values_list("pk", "version")
            )
            start = _changed_from([pk for pk, _ in stale])
        rated = changes = 0
        if start is not None:
            rated, changes = _rerate_from(start)
        _mark(stale)
        if state.model != ratings.MODEL_NAME:
            state.model = ratings.MODEL_NAME
            state.save(update_fields=["model", "updated_at"])
    return Refreshed(len(stale), start, rated, changes)


def _changed_from(event_ids: list[int]) -> Position | None:
    """The earliest position whose rating inputs differ from what was rated, among `event_ids`'s
    rounds and the rated rounds whose round is gone."""
    candidates: list[Position] = [
        (r.event_date, r.event_ref, r.number) for r in RatedRound.objects.filter(round__isnull=True)
    ]
    if event_ids:
        finished = dict(
            Round.objects.filter(event_id__in=event_ids, status=Round.Status.FINISHED).values_list(
                "pk", "event_id"
            )
        )
        inputs = _round_inputs(finished)
        stored = {
            r.round_id: r
            for r in RatedRound.objects.filter(Q(round__event_id__in=event_ids) | Q(event_ref__in=event_ids))
            if r.round_id is not None
        }
        for round_id in set(finished) | set(stored):
            old = stored.get(round_id)
            old_position = (old.event_date, old.event_ref, old.number) if old else None
            entry = inputs.get(round_id)
            if entry is None:  # no longer finished (or has no seats): its ratings go
                if old_position is not None:
                    candidates.append(old_position)
                continue
            pure = _pure_round(entry["position"], entry["tables"])
            if old is None or old_position != entry["position"] or old.fingerprint != _fingerprint(pure):
                candidates.append(entry["position"])
                if old_position is not None:
                    candidates.append(old_position)
    return min(candidates) if candidates else None


def _rerate_from(start: Position) -> tuple[int, int]:
    """Delete every rating at or after `start` and rate the finished rounds from there again."""
    round_ids = list(
        Round.objects.filter(status=Round.Status.FINISHED)
        .filter(_from(start, "event__date", "event_id", "number"))
        .values_list("pk", flat=True)
    )
    inputs = _round_inputs(round_ids)
    pure_rounds = [_pure_round(entry["position"], entry["tables"]) for entry in inputs.values()]
    later = RatingChange.objects.filter(_from(start, "event_date", "event_id", "round_number"))
    affected_users = set(later.exclude(user=None).values_list("user_id", flat=True))
    users = {s.player[1] for r in pure_rounds for t in r.tables for s in t if s.player[0] == "u"}
    guests = {s.player[1] for r in pure_rounds for t in r.tables for s in t if s.player[0] == "e"}
    affected_users |= users
    if RatedRound.objects.filter(round__isnull=True).exists():
        # A deleted event took its rating rows with it: whose they were is unknown now, so every
        # current rating is checked against what is left.
        affected_users |= set(PlayerRating.objects.values_list("user_id", flat=True))
    start_skills = _skills_before(start, users, guests)
    later.delete()
    if start == BEGINNING:
        PlayerRating.objects.all().delete()
    RatedRound.objects.filter(
        _from(start, "event_date", "event_ref", "number") | Q(round__isnull=True)
    ).delete()
    _, made = ratings.rate_rounds(pure_rounds, start_skills)
    RatingChange.objects.bulk_create(
        [
            RatingChange(
                seat_id=c.ref.seat_id,
                round_id=c.ref.round_id,
                event_id=c.round_key[1],
                event_date=c.round_key[0],
                round_number=c.round_key[2],
                user_id=c.ref.user_id,
                entrant_id=c.ref.entrant_id,
                mu_before=c.before.mu,
                sigma_before=c.before.sigma,
                mu=c.after.mu,
                sigma=c.after.sigma,
            )
            for c in made
        ],
        batch_size=1000,
    )
    RatedRound.objects.bulk_create(
        [
            RatedRound(
                round_id=round_id,
                event_date=entry["position"][0],
                event_ref=entry["position"][1],
                number=entry["position"][2],
                fingerprint=_fingerprint(_pure_round(entry["position"], entry["tables"])),
            )
            for round_id, entry in inputs.items()
        ],
        batch_size=1000,
    )
    _update_current(affected_users)
    return len(pure_rounds), len(made)


def _skills_before(start: Position, users: set[int], guests: set[int]) -> dict[tuple, Skill]:
    """Each player's skill after their last rated table before `start` (newcomers: none)."""
    skills: dict[tuple, Skill] = {}
    earlier = RatingChange.objects.exclude(_from(start, "event_date", "event_id", "round_number"))
    rows = earlier.filter(Q(user_id__in=users) | Q(user=None, entrant_id__in=guests)).order_by(
        "event_date", "event_id", "round_number"
    )
    for user_id, entrant_id, mu, sigma in rows.values_list("user_id", "entrant_id", "mu", "sigma"):
        skills[player_key(user_id, entrant_id)] = Skill(mu, sigma)  # the last one wins
    return skills


def _update_current(user_ids: set[int]) -> None:
    """PlayerRating of `user_ids` from their latest RatingChange (none left: no rating)."""
    if not user_ids:
        return
    latest: dict[int, tuple[float, float]] = {}
    rows = (
        RatingChange.objects.filter(user_id__in=user_ids)
        .order_by("event_date", "event_id", "round_number")
        .values_list("user_id", "mu", "sigma")
    )
    for user_id, mu, sigma in rows:
        latest[user_id] = (mu, sigma)
    counts = {
        row["user_id"]: row
        for row in RatingChange.objects.filter(user_id__in=user_ids)
        .values("user_id")
        .annotate(games=Count("pk"), events=Count("event", distinct=True))
        .order_by()
    }
    PlayerRating.objects.filter(user_id__in=user_ids).delete()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                user_id=user_id,
                mu=mu,
                sigma=sigma,
                rating=mu - 3 * sigma,
                games=counts[user_id]["games"],
                events=counts[user_id]["events"],
            )
            for user_id, (mu, sigma) in latest.items()
        ]
    )


def _mark(stale: list[tuple[int, int]]) -> None:
    """Record the versions just compared (the events that still exist)."""
    if not stale:
        return
    existing = set(Event.objects.filter(pk__in=[pk for pk, _ in stale]).values_list("pk", flat=True))
    RatedEvent.objects.filter(event_id__in=existing).delete()
    RatedEvent.objects.bulk_create([RatedEvent(event_id=pk, version=v) for pk, v in stale if pk in existing])


def rerate_all() -> Refreshed:
    """Forget every stored rating and rate every finished round again from nothing."""
    with transaction.atomic():
        state = _lock_state()
        RatedEvent.objects.all().delete()
        state.model = ""  # refresh() then starts from the beginning
        state.save(update_fields=["model", "updated_at"])
        return refresh()


def snapshot() -> dict:
    """The stored ratings as plain data (for `rerate --check`: compare before and after)."""
    return {
        "changes": sorted(
            (seat, round(mu_b, 9), round(s_b, 9), round(mu, 9), round(s, 9))
            for seat, mu_b, s_b, mu, s in RatingChange.objects.values_list(
                "seat_id", "mu_before", "sigma_before", "mu", "sigma"
            )
        ),
        "current": sorted(
            (user, round(mu, 9), round(s, 9), games, events)
            for user, mu, s, games, events in PlayerRating.objects.values_list(
                "user_id", "mu", "sigma", "games", "events"
            )
        ),
    }


def refresh_before_reading() -> None:
    """What pages call before they read ratings: a refresh whose failure (a lock timeout on SQLite,
    the database busy) is logged and leaves the page showing the ratings as stored."""
    try:
        refresh()
    except Exception:
        log.exception("ratings: refresh before reading failed; showing the stored ratings")


def refresh_after_commit() -> None:
    """Refresh the ratings once the current transaction commits (a result may have made a round
    final, or corrected one). A failure is logged and left to the next refresh (pages refresh
    before they read), never shown to whoever entered the result."""

    def run():
        try:
            refresh()
        except Exception:  # the result is committed; the ratings catch up on the next refresh
            log.exception("ratings: refresh after a result failed; the next page that reads them retries")

    transaction.on_commit(run)
