"""Changing a seated round by hand: swapping two players between tables and seating a late player.

Part of ``tournaments.services`` (see its docstring); import from there."""

from __future__ import annotations

import logging
from dataclasses import replace

from django.db import transaction
from django.utils import timezone

from tournaments.pairing import PastRound, Player, evaluate
from tournaments.pairing.cost import TableReport

from ..models import Bye, Draft, Entrant, Round, Seat, Table
from .changes import Conflict, Invalid, _changed, _lock, require_manager
from .entrants import _lock_entrant, latest_round
from .results import (
    standings,
)
from .rounds import _start_draft, history, keep_numbers, named_report, pairing_options

logger = logging.getLogger(__name__)


# ---------------------------------------------------------------------------------- swaps --------
def named_pairing(rnd: Round):
    """The round's tables as a tournaments.pairing `Pairing`, explained against the standings and
    history before it. Players are named by their entrant names (unique in an event), so the pure
    module's explanations and warnings read as they are. Returns (pairing, players, history, pks)."""
    event = rnd.event
    names, factions = {}, {}
    for pk, name, held in Entrant.objects.filter(event=event).values_list("pk", "name", "factions"):
        names[pk], factions[name] = name, tuple(held or ())
    tables = [
        [names[s.entrant_id] for s in t.seats.all()]
        for t in rnd.tables.prefetch_related("seats").order_by("number")
    ]
    byes = [names[pk] for pk in rnd.byes.values_list("entrant_id", flat=True)]
    placed = {n for t in tables for n in t} | set(byes)
    rows = standings(event, before_round=rnd.number)
    points = {r.entrant.name: r for r in rows}
    players = [
        Player(n, points=points[n].points, tiebreaks=points[n].tiebreaks, factions=factions[n])
        if n in points
        else Player(n, factions=factions[n])
        for n in sorted(placed)
    ]
    past = [
        PastRound([[names[p] for p in t] for t in r.tables], [names[p] for p in r.byes])
        for r in history(event, rnd.number)
    ]
    pairing = evaluate(tables, byes, players, past, rnd.number, event.seed, pairing_options(event))
    return pairing, players, past, {n: pk for pk, n in names.items()}


def check_swap(rnd: Round, a: int, b: int):
    """tournaments.pairing.check_swap for two entrants of a round: a preview, nothing changes."""
    from tournaments.pairing import check_swap as pure_check_swap

    pairing, players, past, pks = named_pairing(rnd)
    names = {pk: n for n, pk in pks.items()}
    try:
        check = pure_check_swap(
            pairing,
            names.get(int(a)),
            names.get(int(b)),
            players,
            past,
            rnd.event.seed,
            pairing_options(rnd.event),
        )
    except ValueError as exc:
        raise Invalid(f"Those two players cannot be swapped: {exc}.") from None
    return room_numbers(check, list(rnd.tables.order_by("number").values_list("number", flat=True)))


def room_numbers(check, numbers: list[int]):
    """A swap check whose tables and warnings say the room's table numbers: the pure check numbers
    the tables 1, 2, ... by their order, and a kept table (an accessible seat) may stand elsewhere."""
    if numbers == list(range(1, len(numbers) + 1)):
        return check

    def renumbered(report):
        return (
            replace(report, number=numbers[report.number - 1]) if isinstance(report, TableReport) else report
        )

    def warning(text: str) -> str:
        head, sep, rest = text.partition(": ")
        if sep and head.startswith("Table ") and head[6:].isdigit() and 0 < int(head[6:]) <= len(numbers):
            return f"Table {numbers[int(head[6:]) - 1]}: {rest}"
        return text

    return replace(
        check,
        before=tuple(renumbered(r) for r in check.before),
        after=tuple(renumbered(r) for r in check.after),
        warnings=tuple(warning(w) for w in check.warnings),
    )


def swap_players(rnd: Round | int, a: int, b: int, by) -> list[str]:
    """Swap two players' seats (or a seat and a bye) in a Swiss round that has not started. Returns
    the warnings of the swap (repeats, fairness, spread), which go to the audit log too."""
    rnd_pk = rnd.pk if isinstance(rnd, Round) else rnd
    with transaction.atomic():
        event = _lock(Round.objects.filter(pk=rnd_pk).values_list("event_id", flat=True).first() or 0)
        require_manager(by, event)
        rnd = Round.objects.select_related("event").get(pk=rnd_pk)
        if rnd.stage != Round.Stage.SWISS or rnd.status != Round.Status.PAIRED:
            raise Conflict("Players can be swapped only in a Swiss round that has not started.")
        if Table.objects.filter(round=rnd).exclude(state=Table.State.OPEN).exists():
            raise Conflict("A table of this round has reported a result already.")
        if Draft.objects.filter(table__round=rnd, version__gt=0).exists():
            raise Conflict("The draft of this round has started.")
        if Table.objects.filter(round=rnd, game__isnull=False).exists():
            # An app game's result is recorded by seat position: moving players would misattribute it.
            raise Conflict("A table of this round is playing in the app; players can no longer be swapped.")
        a, b = int(a), int(b)
        if a == b:
            raise Invalid("Choose two different players.")
        check = check_swap(rnd, a, b)
        seats = {
            s.entrant_id: s
            for s in Seat.objects.filter(round=rnd, entrant_id__in=[a, b]).select_related("table")
        }
        entrants = {e.pk: e for e in Entrant.objects.filter(pk__in=[a, b])}
        where = {pk: f"table {seats[pk].table.number}" if pk in seats else "a bye" for pk in (a, b)}
        _swap(rnd, entrants[a], entrants[b], seats.get(a), seats.get(b))
        # The explanations of the tables follow the new arrangement; drafts not begun restart. The
        # pairing numbers tables by their order: the room's numbers may differ (kept tables).
        numbers = list(rnd.tables.order_by("number").values_list("number", flat=True))
        for report in check.pairing.tables:
            Table.objects.filter(round=rnd, number=numbers[report.number - 1]).update(
                report=named_report(report, {})
            )
        for table in {s.table for s in seats.values()}:
            draft = Draft.objects.filter(table=table).first()
            if draft is not None:
                draft.delete()
                _start_draft(
                    event, table, list(table.seats.order_by("position").values_list("entrant_id", flat=True))
                )
        warnings = list(check.warnings)
        kept = keep_numbers(rnd)  # a player who keeps a table takes its number along
        _changed(
            event,
            by,
            "swap",
            f"{rnd.label}: swapped {entrants[a].name} ({where[a]}) and {entrants[b].name} ({where[b]})"
            + (f"; warnings: {'; '.join(warnings)}" if warnings else "")
            + "".join(f"; {note}" for note in kept)
            + ".",
            round=rnd.number,
            a=a,
            b=b,
            delta=check.delta,
        )
    return warnings


def _swap(rnd: Round, a: Entrant, b: Entrant, seat_a: Seat | None, seat_b: Seat | None) -> None:
    """Exchange the places of a and b (a seat each, or a seat and a bye). Each one's place changed:
    their notice says so again (Seat.changes, Bye.changes)."""
    if seat_a is None and seat_b is None:
        return  # two byes
    byes = dict(rnd.byes.filter(entrant__in=[a, b]).values_list("entrant_id", "changes"))
    changes = {
        e.pk: (seat.changes if seat is not None else byes.get(e.pk, 0)) + 1
        for e, seat in ((a, seat_a), (b, seat_b))
    }
    places = []
    for seat, other in ((seat_a, b), (seat_b, a)):
        if seat is not None:
            places.append((seat.table_id, seat.position, other))
            seat.delete()  # (round, entrant) is unique: free both places before filling them
    if seat_a is None or seat_b is None:
        rnd.byes.filter(entrant__in=[a, b]).delete()
        bye = b if seat_a is None else a
        Bye.objects.create(round=rnd, entrant=bye, changes=changes[bye.pk])
    for table_id, position, entrant in places:
        Seat.objects.create(
            table_id=table_id,
            round=rnd,
            entrant=entrant,
            position=position,
            factions=list(entrant.factions),
            changes=changes[entrant.pk],
        )


def seat_late(entrant: Entrant | int, table: Table | int, by) -> Seat:
    """Seat a late entrant at a short table of the round in progress (before any result there)."""
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        require_manager(by, event)
        table = (
            Table.objects.select_related("round")
            .filter(pk=table.pk if isinstance(table, Table) else table)
            .first()
        )
        if table is None:
            raise Invalid("Choose a table.")
        rnd = table.round
        if rnd.event_id != event.pk:
            raise Invalid("That table is not in this event.")
        if rnd != latest_round(event) or rnd.is_finished:
            raise Conflict("Late entrants join a table of the round in progress only.")
        if entrant.dropped:
            raise Conflict(f"{entrant.name} has dropped.")
        if entrant.waiting:
            raise Conflict(f"{entrant.name} is on the waitlist; give them a place first.")
        if (
            Seat.objects.filter(round=rnd, entrant=entrant).exists()
            or rnd.byes.filter(entrant=entrant).exists()
        ):
            raise Conflict(f"{entrant.name} already plays in {rnd.label.lower()}.")
        seats = list(table.seats.all())
        if len(seats) >= event.table_size:
            raise Conflict(f"Table {table.number} is full.")
        if table.state != Table.State.OPEN:
            raise Conflict(f"Table {table.number} has already reported a result.")
        if table.game_id is not None:
            # The game's seats are fixed when it starts; its result is recorded by seat position.
            raise Conflict(f"Table {table.number} is playing in the app; seat {entrant.name} elsewhere.")
        draft = Draft.objects.filter(table=table).first()
        if draft is not None and draft.version > 0:
            raise Conflict(f"The draft at table {table.number} has started; seat {entrant.name} elsewhere.")
        seat = Seat.objects.create(
            table=table, round=rnd, entrant=entrant, position=len(seats), factions=list(entrant.factions)
        )
        if not entrant.checked_in:
            entrant.checked_in, entrant.checked_in_at = True, timezone.now()
            entrant.save(update_fields=["checked_in", "checked_in_at"])
        if draft is not None:
            draft.delete()
            _start_draft(event, table, [s.entrant_id for s in [*seats, seat]])
        if rnd.stage == Round.Stage.SWISS:
            # The table's explanation follows its new players (no longer short, who met whom...).
            numbers = list(rnd.tables.order_by("number").values_list("number", flat=True))
            report = named_pairing(rnd)[0].tables[numbers.index(table.number)]
            Table.objects.filter(pk=table.pk).update(report=named_report(report, {}))
        _changed(
            event,
            by,
            "seat_late",
            f"Seated {entrant.name} (late entry) at table {table.number} of {rnd.label.lower()}.",
            entrant=entrant.pk,
            table=table.pk,
        )
    return seat
