"""CSV exports of an event: entrants, pairings, results and standings (one row per line of the
thing, with plain columns a spreadsheet can sort). Every cell goes through `safe_cell`, so a name
that looks like a formula arrives as text."""

from __future__ import annotations

import csv
import re

from django.db.models import Prefetch

from . import services
from .models import TIEBREAKER_LABELS, Event, Round, Seat

KINDS = ("entrants", "pairings", "results", "standings")
PRIVATE = {"entrants"}  # organizers only: check-in state and accounts


# A spreadsheet reads a cell that starts with one of these as a formula (or, for tab and carriage
# return, strips them and may read what follows as one): `=HYPERLINK(...)` typed as a player's name
# would run when an organizer opens the export. Such text cells get a leading single quote, which a
# spreadsheet shows as text (the OWASP "CSV injection" advice). Plain numbers ("-1.5") stay numbers.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def safe_cell(value):
    """`value` as it may go into a CSV cell: text that a spreadsheet would read as a formula is
    quoted with a leading ' (numbers and other text as they are)."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


class SafeWriter:
    """A csv.writer whose every cell goes through `safe_cell`: every export writes through it."""

    def __init__(self, out):
        self._writer = csv.writer(out)

    def writerow(self, row) -> None:
        self._writer.writerow([safe_cell(value) for value in row])


def write(kind: str, event: Event, out) -> None:
    writer = SafeWriter(out)
    {"entrants": entrants, "pairings": pairings, "results": results, "standings": standings}[kind](
        event, writer
    )


def entrants(event: Event, writer) -> None:
    writer.writerow(
        ["name", "account", "status", "checked_in_at", "dropped_after_round", "late_round", "factions"]
        + ["email", "club"]  # from the organizer's list of players (services.importing)
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
                e.email,
                e.club,
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
    writer.writerow(["round", "stage", "table", "seat", "name", "vp", "points", "state", "no_show"])
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
                        "yes" if seat.no_show else "",
                    ]
                )
        if rnd.stage == Round.Stage.SWISS:
            for bye in rnd.byes.all():
                writer.writerow([rnd.number, rnd.stage, "bye", "", bye.entrant.name, "", "", "bye", ""])


def standings(event: Event, writer) -> None:
    names = [TIEBREAKER_LABELS[t] for t in event.tiebreakers]
    writer.writerow(["rank", "name", "points", *names, "games", "byes", "dropped", "final_place", "top_cut"])
    rows = services.standings(event)
    final = {p.entrant.pk: p for p in services.final_standings(event, rows) or ()}
    if final:  # after the top cut's final, its order is the event's order
        rows = [p.row for p in sorted(final.values(), key=lambda p: p.place)]
    for row in rows:
        placed = final.get(row.entrant.pk)
        writer.writerow(
            [
                row.rank,
                row.entrant.name,
                _num(row.points),
                *(_num(v) for v in row.tiebreaks),
                row.games,
                row.byes,
                "yes" if row.dropped else "",
                placed.place if placed else "",
                placed.stage if placed and placed.stage != "swiss" else "",
            ]
        )


def _num(value) -> str:
    if value is None:
        return ""
    return f"{value:.4f}".rstrip("0").rstrip(".")
