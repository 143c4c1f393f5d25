"""A read-only JSON API of an event, so other tools (stream overlays, league sites) can show it, and a
JSON export of the whole event for its organizers.

Public, no login, GET only (the same data as the public pages; never tokens, accounts or check-in):
    /tournaments/<id>/api/                    this documentation, as JSON
    /tournaments/<id>/api/standings.json      the standings (and the final order after a top cut)
    /tournaments/<id>/api/pairings.json       the current round's tables; ?round=N for another round
Organizers only:
    /tournaments/<id>/export.json             entrants, rounds, tables, results, byes and standings

Every answer carries "api": VERSION; fields are only ever added under the same version.
"""

from __future__ import annotations

from django.db.models import Prefetch

from . import penalties, services
from .models import Event, Round, Seat

VERSION = 1

DOCS = {
    "api": VERSION,
    "endpoints": {
        "standings.json": "Standings: rank, name, points, the tie-breakers in the event's order (by "
        "name), games, byes, dropped, draw (the seeded draw decided the place), disqualified and "
        "penalties (in words: 'disqualified', a VP or game loss with its round, warnings counted); "
        "'final' is the order after the top cut's final (null before).",
        "pairings.json": "A round's tables in seat order with VP and tournament points once "
        "confirmed, 'no_show' for a player marked absent (0 VP, a loss), and its byes. ?round=N "
        "picks a round (default: the latest).",
        "../export.json": "Organizers only: the whole event (entrants with their status, e-mail and "
        "club, every round, table, result and bye, and the standings).",
    },
    "read_only": True,
}


def _num(value):
    return None if value is None else round(float(value), 6)


def event_head(event: Event) -> dict:
    return {
        "id": event.pk,
        "name": event.name,
        "date": event.date.isoformat(),
        "place": event.place,
        "status": event.status,
        "table_size": event.table_size,
        "mode": event.mode,  # "standard" or "bigbase"
        "board": event.board or None,  # a Big Base event's board (its slug)
        "scoring": event.scoring,
        "tiebreakers": list(event.tiebreakers),
        "top_cut": event.top_cut,
        "version": event.version,
    }


def standings(event: Event) -> dict:
    rows = services.cached_standings(event)
    final = services.final_standings(event, rows)
    return {
        "api": VERSION,
        "event": event_head(event),
        "standings": [
            {
                "rank": r.rank,
                "name": r.entrant.name,
                "points": _num(r.points),
                "tiebreakers": {
                    name: _num(v) for name, v in zip(event.tiebreakers, r.tiebreaks, strict=True)
                },
                "games": r.games,
                "byes": r.byes,
                "dropped": r.dropped,
                "draw": r.draw_decided,
                "disqualified": r.disqualified,
                "penalties": penalties.summary(r.penalties),
            }
            for r in rows
        ],
        "final": None
        if final is None
        else [{"place": p.place, "name": p.entrant.name, "decided_in": p.stage} for p in final],
    }


def _round(event: Event, rnd: Round) -> dict:
    tables = []
    for table in services.round_tables(rnd):
        confirmed = table.state == table.State.CONFIRMED
        points = services.points_of(table, event) if confirmed else {}
        tables.append(
            {
                "number": table.number,
                "state": table.state,
                "players": [
                    {
                        "seat": s.position + 1,
                        "name": s.entrant.name,
                        "factions": list(s.factions or ()),
                        "vp": s.vp if confirmed else None,
                        "points": _num(points.get(s.entrant_id)),
                        "no_show": s.no_show,
                    }
                    for s in table.seats.all()
                ],
            }
        )
    return {
        "number": rnd.number,
        "label": rnd.label,
        "stage": rnd.stage,
        "status": rnd.status,
        "tables": tables,
        "byes": sorted(b.entrant.name for b in rnd.byes.select_related("entrant")),
    }


def pairings(event: Event, number: int | None = None) -> dict | None:
    rounds = event.rounds_set.order_by("-number")
    rnd = rounds.filter(number=number).first() if number is not None else rounds.first()
    if number is not None and rnd is None:
        return None
    return {"api": VERSION, "event": event_head(event), "round": None if rnd is None else _round(event, rnd)}


def export(event: Event) -> dict:
    """Everything, for the organizers (their records, another tool)."""
    entrants = list(event.entrants.select_related("user"))
    rounds = event.rounds_set.order_by("number").prefetch_related(
        Prefetch("tables__seats", queryset=Seat.objects.select_related("entrant").order_by("position"))
    )
    return {
        "api": VERSION,
        "event": event_head(event),
        "entrants": [
            {
                "name": e.name,
                "account": e.user.get_username() if e.user else None,
                "status": e.status,
                "checked_in": e.checked_in,
                "dropped_after_round": e.dropped_after,
                "late_round": e.late_round,
                "factions": list(e.factions or ()),
                "email": e.email,
                "club": e.club,
            }
            for e in entrants
        ],
        "rounds": [_round(event, rnd) for rnd in rounds],
        **{k: v for k, v in standings(event).items() if k in ("standings", "final")},
    }
