"""Rounds and tables: pairing (tournaments.pairing), byes, drafts at the tables, undoing a pairing.

Part of ``tournaments.services`` (see its docstring); import from there."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace

from django.db import transaction
from django.db.models import F

from tournaments.moves import number_tables
from tournaments.pairing import PairingOptions, PastRound, Player, pair_round
from tournaments.pairing.cost import TableReport
from tournaments.rules import plural

from ..models import AuditEntry, Bye, Draft, Entrant, Event, Round, RoundClock, Seat, Table
from .changes import Conflict, Invalid, _changed, _lock, require_manager
from .entrants import active_entrants, latest_round
from .results import (
    round_tables,
    standings,
)

logger = logging.getLogger(__name__)


# ---------------------------------------------------------------------------------- pairing ------
def pairing_options(event: Event) -> PairingOptions:
    # With a per-event draft each round-1 table drafted from its own pool and the pairs are kept all
    # event, so later tables must not gather more holders of a faction than the copies allow. In the
    # other modes factions are drafted at each table (or brought by the players): nothing to check.
    copies = event.faction_copies if event.draft_mode == Event.DraftMode.EVENT else None
    return PairingOptions(
        table_size=event.table_size,
        layout=event.layout,
        faction_copies=copies,
        short_tables=event.short_tables,
        avoid_clubs=event.avoid_clubs,
    )


def history(event: Event, before_round: int) -> list[PastRound]:
    """Who sat at which table, seat order, in the Swiss rounds before `before_round`."""
    rounds: dict[int, dict] = {}
    seats = (
        Seat.objects.filter(
            round__event=event, round__stage=Round.Stage.SWISS, round__number__lt=before_round
        )
        .order_by("round__number", "table__number", "position")
        .values_list("round__number", "table_id", "entrant_id")
    )
    for number, table_id, entrant_id in seats:
        rounds.setdefault(number, {"tables": {}, "byes": []})["tables"].setdefault(table_id, []).append(
            entrant_id
        )
    byes = Bye.objects.filter(
        round__event=event, round__stage=Round.Stage.SWISS, round__number__lt=before_round
    )
    for number, entrant_id in byes.values_list("round__number", "entrant_id"):
        rounds.setdefault(number, {"tables": {}, "byes": []})["byes"].append(entrant_id)
    return [PastRound(tables=list(r["tables"].values()), byes=r["byes"]) for _, r in sorted(rounds.items())]


def pairing_players(event: Event, before_round: int, entrants: list[Entrant]) -> list[Player]:
    """`entrants` as pairing players, with their points and tie-breakers before `before_round`."""
    rows = {r.entrant.pk: r for r in standings(event, before_round=before_round)}
    players = []
    for e in entrants:
        row, held = rows.get(e.pk), tuple(e.factions or ())
        if row is None:
            players.append(Player(e.pk, factions=held, club=e.club))
        else:
            players.append(
                Player(e.pk, points=row.points, tiebreaks=row.tiebreaks, factions=held, club=e.club)
            )
    return players


def named_report(report: TableReport, names: Mapping[int, str]) -> dict:
    """A table's pairing cost as JSON, with names instead of ids (and its lines for people)."""

    def n(pid):
        return names.get(pid, str(pid))

    shown = replace(
        report,
        players=tuple(n(p) for p in report.players),
        repeats=tuple((n(a), n(b), k) for a, b, k in report.repeats),
        fairness=tuple((n(p), k) for p, k in report.fairness),
        first_seat=(n(report.first_seat[0]), report.first_seat[1]),
        clashes=tuple((f, tuple(n(p) for p in holders), copies) for f, holders, copies in report.clashes),
    )
    return {
        "cost": report.cost,
        "repeats": [list(r) for r in shown.repeats],
        "spread": report.spread,
        "short": report.short,
        "fairness": [list(f) for f in shown.fairness],
        "first_seat": list(shown.first_seat),
        "clashes": [[f, list(holders), copies] for f, holders, copies in shown.clashes],
        "lines": [line.strip() for line in shown.lines()[1:]],
    }


def generate_round(event: Event, by) -> Round:
    """Pair the next Swiss round with tournaments.pairing (round 1: random, seeded from the event
    and the round number), create its tables, seats, byes, clock and drafts."""
    with transaction.atomic():
        event = _lock(event)
        require_manager(by, event)
        if event.is_finished:
            raise Conflict("This event is over.")
        last = latest_round(event)
        if last is not None and last.stage != Round.Stage.SWISS:
            raise Conflict("The top cut has started: no more Swiss rounds.")
        if last is not None and not last.is_finished:
            left = last.tables.exclude(state=Table.State.CONFIRMED).count()
            raise Conflict(
                f"{last.label} is not finished: {left} table{'s' * (left != 1)} "
                f"still need{'s' * (left == 1)} a confirmed result."
            )
        number = (last.number if last else 0) + 1
        entrants = active_entrants(event)
        if len(entrants) < 2:
            hint = " (check players in first)" if event.require_check_in else ""
            raise Conflict(f"A round needs at least two active players{hint}.")
        players = pairing_players(event, number, entrants)
        pairing = pair_round(players, history(event, number), number, event.seed, pairing_options(event))
        rnd = _create_round(event, number, Round.Stage.SWISS, pairing.method, pairing.lines()[0], entrants)
        names = {e.pk: e.name for e in entrants}
        by_pk = {e.pk: e for e in entrants}
        # Tables some players keep (accessible seats) take their numbers (tournaments.moves).
        numbers, kept = number_tables(
            pairing.seats(), {e.pk: e.fixed_table for e in entrants if e.fixed_table}
        )
        _create_tables(
            event,
            rnd,
            [
                (table_number, [by_pk[p] for p in report.players], named_report(report, names))
                for table_number, report in zip(numbers, pairing.tables, strict=True)
            ],
        )
        Bye.objects.bulk_create(Bye(round=rnd, entrant_id=bye.player) for bye in pairing.byes)
        if event.status == Event.Status.REGISTRATION:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status", "updated_at"])
        byes = ", ".join(names[b.player] for b in pairing.byes)
        _changed(
            event,
            by,
            "pair",
            f"Paired {rnd.label.lower()}: {plural(len(pairing.tables), 'table')} ({pairing.method}), "
            f"{plural(pairing.repeats, 'repeat meeting')}"
            + (f", {pairing.clashes} faction clash{'es' * (pairing.clashes > 1)}" if pairing.clashes else "")
            + (f", bye: {byes}" if byes else "")
            + "."
            + "".join(" " + note for note in kept),
            round=rnd.number,
            cost=pairing.cost,
            # A random draw is checked by drawing again: who was drawn, and their clubs when the draw
            # kept clubs apart (see published_draw).
            **({"drawn": sorted(p.id for p in players)} if pairing.method == "random" else {}),
            **({"clubs": club_labels(players)} if pairing.method == "random" and event.avoid_clubs else {}),
        )
    return rnd


def club_labels(players) -> dict[str, str]:
    """Each player's club as the round-1 draw compares them (case-blind, spaces trimmed), named by a
    number ("1", "2"... in the order of the players' ids), so that the published draw can be drawn
    again without naming anyone's club (clubs are the organizers' to see). Players without a club
    are left out."""
    labels: dict[str, str] = {}
    out = {}
    for player in sorted(players, key=lambda p: p.id):
        key = player.club.strip().casefold()
        if key:
            out[str(player.id)] = labels.setdefault(key, str(len(labels) + 1))
    return out


def published_draw(rnd: Round) -> dict | None:
    """What anyone needs to draw a random round again and compare (tournaments.pairing.pair_round
    with no history): the event's seed, the players drawn (entrant numbers and names) and the table
    options. The seed is published only once the round is paired: before, it would tell a player
    who signs up last where everyone will sit."""
    if rnd.method != "random":
        return None
    entry = (
        AuditEntry.objects.filter(event_id=rnd.event_id, action="pair", data__round=rnd.number)
        .order_by("-at", "-pk")
        .first()
    )
    if entry is None or "drawn" not in entry.data:
        return None
    drawn = list(entry.data["drawn"])
    names = dict(Entrant.objects.filter(pk__in=drawn).values_list("pk", "name"))
    event = rnd.event
    clubs = {int(pk): club for pk, club in (entry.data.get("clubs") or {}).items()}
    apart = "clubs" in entry.data
    options = PairingOptions(table_size=event.table_size, layout=event.layout, avoid_clubs=apart)
    drawn_players = [Player(pk, club=clubs.get(pk, "")) for pk in drawn]
    again = pair_round(drawn_players, [], rnd.number, event.seed, options)
    now = [[s.entrant_id for s in t.seats.all()] for t in round_tables(rnd)]
    byes = sorted(rnd.byes.values_list("entrant_id", flat=True))
    return {
        "seed": event.seed,
        "round": rnd.number,
        "players": [(pk, names.get(pk, "?")) for pk in drawn],
        "ids": ", ".join(map(str, drawn)),
        "table_size": event.table_size,
        "layout": event.layout,
        # With clubs kept apart: each drawn player's club, as the draw used it ("" none).
        "clubs": [clubs.get(pk, "") for pk in drawn] if apart else None,
        # False after a swap, a move or a late entrant at a short table (all in the log). The tables
        # are compared whatever their numbers: a kept table (an accessible seat) renumbers them.
        "matches": sorted(again.seats()) == sorted(now) and sorted(again.bye_players()) == byes,
    }


def _create_round(event, number, stage, method, summary, entrants) -> Round:
    rnd = Round.objects.create(event=event, number=number, stage=stage, method=method, summary=summary[:200])
    seconds = event.round_minutes * 60
    RoundClock.objects.create(round=rnd, duration=seconds, remaining=seconds, warnings=event.warnings_seconds)
    return rnd


def _drafts_at(event: Event, rnd: Round) -> bool:
    if event.draft_mode == Event.DraftMode.TABLE:
        return True
    return event.draft_mode == Event.DraftMode.EVENT and rnd.number == 1


def _create_tables(event: Event, rnd: Round, layout: list[tuple[int, list[Entrant], dict]]) -> list[Table]:
    """The round's tables and seats, each in one INSERT whatever the size of the event (a 1,024-player
    round took 527 queries one table at a time); then the drafts the tables need."""
    tables = Table.objects.bulk_create(
        Table(round=rnd, number=number, report=report) for number, _, report in layout
    )
    Seat.objects.bulk_create(
        (
            Seat(table=table, round=rnd, entrant=e, position=i, factions=list(e.factions))
            for table, (_, entrants, _) in zip(tables, layout, strict=True)
            for i, e in enumerate(entrants)
        ),
        batch_size=2000,
    )
    for table, (_, entrants, _) in zip(tables, layout, strict=True):
        _table_draft(event, rnd, table, entrants)
    return tables


def _table_draft(event: Event, rnd: Round, table: Table, entrants: list[Entrant]) -> None:
    """The draft a new table needs (`entrants` in seat order), if any."""
    if event.draft_mode == Event.DraftMode.EVENT:
        # Whoever has no pair yet drafts here: everyone at round 1, and later a player who had
        # a round-1 bye or entered late, from the pool without what their table-mates hold.
        missing = [e for e in entrants if len(e.factions or ()) != 2]
        if len(missing) == len(entrants):
            _start_draft(event, table, [e.pk for e in entrants])
        elif missing:
            _start_late_draft(event, table, entrants, missing)
    elif _drafts_at(event, rnd):
        _start_draft(event, table, [e.pk for e in entrants])


def keep_numbers(rnd: Round) -> list[str]:
    """After players changed tables in `rnd` (a move, a swap, a table paired again): every table
    with a player who keeps a table (Entrant.fixed_table, an accessible seat) takes that number
    again, the table that had it taking the old one (two such players at one table: the lower
    number, as pairing numbers them). So the kept table follows its player, wherever the change
    sent them. Returns what was renumbered, in words for the log."""
    seats = Seat.objects.filter(round=rnd, entrant__fixed_table__isnull=False).values_list(
        "table_id", "entrant__fixed_table"
    )
    wanted: dict[int, int] = {}
    for table_id, number in seats:
        wanted[table_id] = min(number, wanted.get(table_id, number))
    notes = []
    for table_id, number in sorted(wanted.items(), key=lambda kv: kv[1]):
        mine = Table.objects.get(pk=table_id)
        if mine.number == number:
            continue
        old = mine.number
        other = Table.objects.filter(round=rnd, number=number).first()
        # (round, number) is unique: free the number first (no table is numbered 0).
        Table.objects.filter(pk=mine.pk).update(number=0)
        if other is not None:
            Table.objects.filter(pk=other.pk).update(number=old)
        Table.objects.filter(pk=mine.pk).update(number=number)
        # Their tables' numbers changed: the players' notices say so again (Seat.changes).
        renumbered = [mine.pk] + ([other.pk] if other is not None else [])
        Seat.objects.filter(table_id__in=renumbered).update(changes=F("changes") + 1)
        notes.append(
            f"table {old} is now table {number}, kept for its player"
            + (f" (table {number} became table {old})" if other is not None else "")
        )
    return notes


def _start_late_draft(event: Event, table: Table, entrants: list[Entrant], missing: list[Entrant]):
    from ..drafting import late_pool, start_draft

    held = [list(e.factions) for e in entrants if e not in missing]
    pool = late_pool(event, held)
    try:
        return start_draft(event, table, [e.pk for e in missing], first=missing[0].pk, pool=pool)
    except Invalid:
        names = ", ".join(e.name for e in missing)
        verb = "have" if len(missing) > 1 else "has"
        raise Conflict(
            f"{names} at table {table.number} {verb} no factions and the pool left there is too "
            "small for a draft: set their factions on the dashboard, then pair again."
        ) from None


def _start_draft(event: Event, table: Table, players: list[int]) -> Draft:
    """`players` in seat order; the first seat plays first (the pairing rotates that seat fairly,
    pairing/seats.py; in a top cut it is the best seed). First pick and first turn are separate
    advantages (issue 14): the last seat, the one before the first player clockwise, picks first,
    so the seat after the first picker plays first."""
    from ..drafting import start_draft

    return start_draft(event, table, players, first=players[-1])


def unpair_round(event: Event, by) -> int:
    """Take back the latest round while nothing happened in it yet (no result, clock not started,
    no draft pick): e.g. to pair again after a late check-in. Returns its number."""
    with transaction.atomic():
        event = _lock(event)
        require_manager(by, event)
        rnd = latest_round(event)
        if rnd is None:
            raise Conflict("There is no round to take back.")
        if rnd.status != Round.Status.PAIRED or rnd.tables.exclude(state=Table.State.OPEN).exists():
            raise Conflict(f"{rnd.label} has started; it can no longer be taken back.")
        if Draft.objects.filter(table__round=rnd, version__gt=0).exists():
            raise Conflict(f"The draft of {rnd.label.lower()} has started; it can no longer be taken back.")
        number, label = rnd.number, rnd.label
        rnd.delete()
        if not event.rounds_set.exists():
            event.status = Event.Status.REGISTRATION
            event.save(update_fields=["status", "updated_at"])
        _changed(event, by, "unpair", f"Took back the pairing of {label.lower()}.", round=number)
    return number
