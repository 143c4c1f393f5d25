"""Series (leagues): create and edit one, add and remove its events, and its standings.

Part of ``tournaments.services`` (import it as ``from tournaments.services import leagues``). The
points come from the pure `tournaments.series`; this module reads each event's final places.

Who may do what: the series' organizer, its co-organizers and superusers edit a series; an event
joins a series only at the hands of someone who manages both (so nobody puts another organizer's
event into their league, or takes it out).

Who is one player across the events of a series: an account is; guests (entrants without an
account) are matched by name, compared without case, accents kept, and with spaces and Unicode
look-alike forms normalised (NFKC), since a league of regulars often plays without accounts and the
organizer runs every event of it. A guest never matches an account: a player who signs up with an
account after playing as a guest has two lines (the page says so on guest lines).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction

from tournaments import series as pure

from ..models import Entrant, Event
from ..series_models import Series
from .changes import Conflict, Invalid, NotAllowed, can_manage
from .records import event_places

MAX_SERIES_NAME = 120


def can_manage_series(user, series: Series) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser or series.organizer_id == user.pk:
        return True
    return series.co_organizers.filter(pk=user.pk).exists()


def require_series_manager(user, series: Series) -> None:
    if not can_manage_series(user, series):
        raise NotAllowed("Only the organizers of this series can do that.")


def rule_of(series: Series) -> pure.PointsRule:
    return pure.PointsRule(
        placings=tuple(float(p) for p in series.placings),
        participation=float(series.participation_points),
        best_of=series.best_of,
    )


def clean_settings(name: str, placings: str, participation: str, best_of: str, description: str = "") -> dict:
    """The series form's fields as model values; Invalid with a message for people otherwise."""
    name = " ".join(str(name or "").split())
    if not name:
        raise Invalid("Give the series a name.")
    if len(name) > MAX_SERIES_NAME:
        raise Invalid(f"A series name has at most {MAX_SERIES_NAME} characters.")
    try:
        points = pure.parse_placings(placings)
        extra = pure.parse_points(participation or "0", "Participation points")
    except ValueError as exc:
        raise Invalid(str(exc)) from None
    if extra > points[-1]:
        raise Invalid("Participation points cannot be more than the last listed place earns.")
    best = str(best_of or "").strip()
    if best and not (best.isascii() and best.isdigit() and 1 <= len(best) <= 3 and int(best) >= 1):
        raise Invalid("Best of: a number of events from 1 up, or empty to count every event.")
    return {
        "name": name,
        "description": str(description or "").strip()[:2000],
        "placings": list(points),
        "participation_points": extra,
        "best_of": int(best) if best else None,
    }


def create_series(by, **fields) -> Series:
    if by is None or not getattr(by, "is_authenticated", False):
        raise NotAllowed("Log in to create a series.")
    return Series.objects.create(organizer=by, **fields)


def update_series(series: Series, by, **fields) -> Series:
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        require_series_manager(by, series)
        for name, value in fields.items():
            setattr(series, name, value)
        series.save()
    return series


def add_event(series: Series, event: Event | int, by) -> Event:
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        require_series_manager(by, series)
        event = Event.objects.filter(pk=event.pk if isinstance(event, Event) else event).first()
        if event is None:
            raise Invalid("There is no such event.")
        if not can_manage(by, event):
            raise NotAllowed("You can add only events you organize.")
        if series.events.filter(pk=event.pk).exists():
            raise Conflict(f"{event.name} is already in this series.")
        series.events.add(event)
    return event


def remove_event(series: Series, event: Event | int, by) -> None:
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        require_series_manager(by, series)
        pk = event.pk if isinstance(event, Event) else event
        if not series.events.filter(pk=pk).exists():
            raise Conflict("That event is not in this series.")
        series.events.remove(pk)


def addable_events(series: Series, user) -> list[Event]:
    """Events this user manages that are not in the series yet (latest first)."""
    if user is None or not user.is_authenticated:
        return []
    events = Event.objects.exclude(series=series)
    if not user.is_superuser:
        events = events.filter(pk__in=_managed_event_ids(user))
    return list(events.order_by("-date", "-pk")[:200])


def _managed_event_ids(user) -> list[int]:
    own = list(Event.objects.filter(organizer=user).values_list("pk", flat=True))
    return own + list(user.co_organized_events.values_list("pk", flat=True))


# ---------------------------------------------------------------------------------- standings ----
def guest_key(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


@dataclass(frozen=True)
class SeriesLine:
    row: pure.SeriesRow
    name: str
    user_id: int | None  # an account's profile, or None for a guest
    guest: bool


@dataclass(frozen=True)
class SeriesTable:
    events: list[Event]  # every event of the series, by date
    counted: list[Event]  # the finished ones: they give points
    lines: list[SeriesLine]
    rule: pure.PointsRule


def standings(series: Series) -> SeriesTable:
    """The series standings: finished events give points; running ones are listed, not counted."""
    events = list(series.events.order_by("date", "pk"))
    counted = [e for e in events if e.status == Event.Status.FINISHED]
    entrants = {
        e.pk: e for e in Entrant.objects.filter(event__in=counted).only("pk", "name", "user_id", "event_id")
    }
    placings = []
    names: dict[tuple, str] = {}
    for event in counted:  # by date: a player's latest name wins
        places: dict[tuple, int] = {}
        for entrant_id, place in event_places(event).items():
            e = entrants[entrant_id]
            key = ("u", e.user_id) if e.user_id is not None else ("g", guest_key(e.name))
            if key in places:  # two guests of one event whose names differ only in form
                key = ("g", f"{guest_key(e.name)}#{entrant_id}")
            places[key] = place
            names[key] = e.name
        placings.append(pure.EventPlacings(event.pk, places))
    rule = rule_of(series)
    rows = pure.series_standings(placings, rule)
    lines = [
        SeriesLine(
            row=row,
            name=names[row.player],
            user_id=row.player[1] if row.player[0] == "u" else None,
            guest=row.player[0] == "g",
        )
        for row in rows
    ]
    return SeriesTable(events, counted, lines, rule)


def standings_data(series: Series, table: SeriesTable) -> dict:
    """The series standings as JSON-ready data (the API and the JSON export)."""
    return {
        "series": {"id": series.pk, "name": series.name},
        "rule": {
            "placings": list(table.rule.placings),
            "participation": table.rule.participation,
            "best_of": table.rule.best_of,
        },
        "events": [
            {"id": e.pk, "name": e.name, "date": e.date.isoformat(), "counted": e in table.counted}
            for e in table.events
        ],
        "standings": [
            {
                "rank": line.row.rank,
                "shared": line.row.shared,
                "name": line.name,
                "guest": line.guest,
                "points": line.row.points,
                "events": line.row.events,
                "results": _results(line.row.per_event),
            }
            for line in table.lines
        ],
    }


def _results(per_event: Mapping) -> list[dict]:
    return [
        {"event": event_id, "place": score.place, "points": score.points, "counted": score.counted}
        for event_id, score in per_event.items()
    ]
