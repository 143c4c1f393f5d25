"""CSV exports of an event: entrants, pairings, results and standings (one row per line of the
thing, with plain columns a spreadsheet can sort)."""

from __future__ import annotations

import csv

from django.db.models import Prefetch

from . import services
from .models import TIEBREAKER_LABELS, Event, Round, Seat

KINDS = ("entrants", "pairings", "results", "standings")
PRIVATE = {"entrants"}  # organizers only: check-in state and accounts


def write(kind: str, event: Event, out) -> None:
    writer = csv.writer(out)
    {"entrants": entrants, "pairings": pairings, "results": results, "standings": standings}[kind](
        event, writer
    )


def entrants(event: Event, writer) -> None:
    writer.writerow(
        ["name", "account", "status", "checked_in_at", "dropped_after_round", "late_round", "factions"]
    )
    for e in event.entrants.select_related("user"):
        writer.writerow(
            [
                e.name,
                e.user.get_username() if e.user else "",
                e.status,
                e.checked_in_at.isoformat() if e.checked_in_at else "",
                "" if e.dropped_after is None else e.dropped_after,
                e.late_round or "",
                " + ".join(e.factions),
            ]
        )


def _rounds(event: Event):
    return event.rounds_set.order_by("number").prefetch_related(
        Prefetch("tables__seats", queryset=Seat.objects.select_related("entrant").order_by("position")),
        "byes__entrant",
    )


def pairings(event: Event, writer) -> None:
    writer.writerow(["round", "stage", "table", "seat", "name", "factions"])
    for rnd in _rounds(event):
        for table in sorted(rnd.tables.all(), key=lambda t: t.number):
            for seat in table.seats.all():
                writer.writerow(
                    [
                        rnd.number,
                        rnd.stage,
                        table.number,
                        seat.position + 1,
                        seat.entrant.name,
                        " + ".join(seat.factions),
                    ]
                )
        for bye in rnd.byes.all():
            writer.writerow([rnd.number, rnd.stage, "bye", "", bye.entrant.name, ""])


def results(event: Event, writer) -> None:
    writer.writerow(["round", "stage", "table", "seat", "name", "vp", "points", "state"])
    for rnd in _rounds(event):
        for table in sorted(rnd.tables.all(), key=lambda t: t.number):
            confirmed = table.is_confirmed
            points = services.points_of(table, event) if confirmed else {}
            for seat in table.seats.all():
                writer.writerow(
                    [
                        rnd.number,
                        rnd.stage,
                        table.number,
                        seat.position + 1,
                        seat.entrant.name,
                        "" if seat.vp is None else seat.vp,
                        _num(points.get(seat.entrant_id)),
                        table.state,
                    ]
                )
        if rnd.stage == Round.Stage.SWISS:
            for bye in rnd.byes.all():
                writer.writerow([rnd.number, rnd.stage, "bye", "", bye.entrant.name, "", "", "bye"])


def standings(event: Event, writer) -> None:
    names = [TIEBREAKER_LABELS[t] for t in event.tiebreakers]
    writer.writerow(["rank", "name", "points", *names, "games", "byes", "dropped"])
    for row in services.standings(event):
        writer.writerow(
            [
                row.rank,
                row.entrant.name,
                _num(row.points),
                *(_num(v) for v in row.tiebreaks),
                row.games,
                row.byes,
                "yes" if row.dropped else "",
            ]
        )


def _num(value) -> str:
    if value is None:
        return ""
    return f"{value:.4f}".rstrip("0").rstrip(".")
