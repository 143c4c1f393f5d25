"""An organizer's hand on the pairings, around the pairing itself: moving one player to another
table of a round not yet started, priced and warned about as a swap is (tournaments.moves.check_move);
pairing one table again with the players of the tables not started (tournaments.moves.repair_table);
and a table a player keeps every round (an accessible seat: ``Entrant.fixed_table``; pairing numbers
the tables with tournaments.moves.number_tables, and after a move, a swap or a table paired again
the kept number follows its player: services.keep_numbers).

Part of ``tournaments.services`` (see its docstring); import from there."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F

from tournaments import moves
from tournaments.pairing import SwapCheck

from ..models import Draft, Entrant, Event, Round, Seat, Table
from .changes import Conflict, Invalid, TournamentError, _changed, _lock, require_manager
from .entrants import _lock_entrant, latest_round
from .rounds import _start_draft, _table_draft, keep_numbers, named_report, pairing_options
from .swaps import named_pairing

MAX_TABLE_NUMBER = 999


def _not_started(rnd: Round, what: str) -> None:
    """Players can be moved (and tables renumbered) only in a Swiss round nothing happened in yet:
    as for a swap (services.swap_players)."""
    if rnd.stage != Round.Stage.SWISS or rnd.status != Round.Status.PAIRED:
        raise Conflict(f"{what} only in a Swiss round that has not started.")
    if Table.objects.filter(round=rnd).exclude(state=Table.State.OPEN).exists():
        raise Conflict("A table of this round has reported a result already.")
    if Draft.objects.filter(table__round=rnd, version__gt=0).exists():
        raise Conflict("The draft of this round has started.")
    if Table.objects.filter(round=rnd, game__isnull=False).exists():
        # An app game's result is recorded by seat position: moving players would misattribute it.
        raise Conflict(f"A table of this round is playing in the app: {what[0].lower() + what[1:]} no more.")


def _choice(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise Invalid(f"Choose {what}.")
    return value


def check_move(rnd: Round, entrant, table) -> SwapCheck:
    """The cost and warnings of moving `entrant` (a pk) to `table` (a pk) of `rnd`: a preview,
    nothing changes."""
    entrant, table = _choice(entrant, "a player"), _choice(table, "a table")
    pairing, players, past, pks = named_pairing(rnd)
    names = {pk: name for name, pk in pks.items()}
    ordered = list(rnd.tables.order_by("number").values_list("pk", "number"))
    index = next((i for i, (pk, _) in enumerate(ordered) if pk == table), None)
    if index is None:
        raise Invalid(f"That table is not in {rnd.label.lower()}.")
    if entrant not in names:
        raise Invalid("Choose a player of this event.")
    try:
        return moves.check_move(
            pairing.seats(),
            pairing.bye_players(),
            names[entrant],
            index,
            players,
            past,
            rnd.number,
            rnd.event.seed,
            pairing_options(rnd.event),
            numbers=[number for _, number in ordered],
        )
    except ValueError as exc:
        raise Invalid(f"That move cannot be made: {exc}.") from None


def move_player(rnd: Round | int, entrant, table, by) -> list[str]:
    """Move a player to another table of a Swiss round that has not started (they take its last
    seat; the seats they leave close up). The explanations of both tables follow; their drafts, not
    begun, start again. Returns the warnings, which go to the audit log too."""
    rnd_pk = rnd.pk if isinstance(rnd, Round) else rnd
    with transaction.atomic():
        event = _lock(Round.objects.filter(pk=rnd_pk).values_list("event_id", flat=True).first() or 0)
        require_manager(by, event)
        rnd = Round.objects.select_related("event").get(pk=rnd_pk)
        _not_started(rnd, "Players can be moved")
        check = check_move(rnd, entrant, table)
        seat = Seat.objects.select_related("table", "entrant").get(round=rnd, entrant_id=entrant)
        source, target = seat.table, Table.objects.get(pk=table)
        seat.delete()
        for position, left in enumerate(source.seats.order_by("position")):
            if left.position != position:  # close up, first seat first: positions stay unique
                # Their seat changed: their notice of the table says so (Seat.changes).
                Seat.objects.filter(pk=left.pk).update(position=position, changes=F("changes") + 1)
        Seat.objects.create(
            table=target,
            round=rnd,
            entrant=seat.entrant,
            position=target.seats.count(),
            factions=list(seat.entrant.factions),
            changes=seat.changes + 1,
        )
        for report in check.after:
            Table.objects.filter(round=rnd, number=report.number).update(report=named_report(report, {}))
        for changed in (source, target):
            draft = Draft.objects.filter(table=changed).first()
            if draft is not None:
                draft.delete()
                order = list(changed.seats.order_by("position").values_list("entrant_id", flat=True))
                _start_draft(event, changed, order)
        warnings = list(check.warnings)
        kept = keep_numbers(rnd)  # a player who keeps a table takes its number along
        _changed(
            event, by, "move",
            f"{rnd.label}: moved {seat.entrant.name} from table {source.number} to table {target.number}"
            + (f"; warnings: {'; '.join(warnings)}" if warnings else "")
            + "".join(f"; {note}" for note in kept) + ".",
            round=rnd.number, entrant=seat.entrant_id, source=source.number, target=target.number,
            delta=check.delta,
        )  # fmt: skip
    return warnings


def set_fixed_table(entrant: Entrant | int, number, by) -> Entrant:
    """The player keeps table `number` every round from now on (an accessible seat), or no longer
    (`number` None). When the round paired last has not started, their table there takes the
    number at once (the table that had it takes theirs)."""
    if number is not None and (
        isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_TABLE_NUMBER
    ):
        raise Invalid(f"A table number is 1 to {MAX_TABLE_NUMBER}.")
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        require_manager(by, event)
        if event.is_finished:
            raise Conflict("This event is over.")
        if entrant.waiting and number is not None:
            raise Conflict(f"{entrant.name} is on the waitlist; give them a place first.")
        if number == entrant.fixed_table:
            raise Conflict(
                f"{entrant.name} keeps table {number} already."
                if number
                else f"{entrant.name} keeps no table."
            )
        holder = event.entrants.filter(fixed_table=number).exclude(pk=entrant.pk).first() if number else None
        if holder is not None:
            raise Conflict(f"Table {number} is kept for {holder.name}: release it there first.")
        entrant.fixed_table = number
        try:
            with transaction.atomic():
                entrant.save(update_fields=["fixed_table"])
        except IntegrityError:
            raise Conflict(f"Table {number} is kept for another player.") from None
        now = _renumber_now(event, entrant, number) if number else ""
        if number:
            message = f"{entrant.name} keeps table {number} (an accessible seat){now}."
        else:
            message = f"{entrant.name} no longer keeps a table."
        _changed(event, by, "fixed_table", message, entrant=entrant.pk, table=number)
    return entrant


def _renumber_now(event: Event, entrant: Entrant, number: int) -> str:
    """In the latest round, if it has not started: the player's table takes `number` (swapping with
    the table that had it). Returns what happened, in words for the log ("" when nothing did)."""
    rnd = latest_round(event)
    if rnd is None:
        return ""
    try:
        _not_started(rnd, "Tables can be renumbered")
    except TournamentError:
        return ""
    seat = Seat.objects.filter(round=rnd, entrant=entrant).select_related("table").first()
    if seat is None or seat.table.number == number:
        return ""
    mine, old = seat.table, seat.table.number
    other = Table.objects.filter(round=rnd, number=number).first()
    # (round, number) is unique: free the number first (no table is numbered 0).
    Table.objects.filter(pk=mine.pk).update(number=0)
    if other is not None:
        Table.objects.filter(pk=other.pk).update(number=old)
    Table.objects.filter(pk=mine.pk).update(number=number)
    # Their tables' numbers changed: the players' notices say so again (Seat.changes).
    Seat.objects.filter(table_id__in=[mine.pk] + ([other.pk] if other else [])).update(
        changes=F("changes") + 1
    )
    swapped = f"; table {number} became table {old}" if other is not None else ""
    return f"; in {rnd.label.lower()} their table {old} is now table {number}{swapped}"


# ---------------------------------------------------------------------------------- re-pairing ---
def free_tables(rnd: Round) -> list[Table]:
    """The tables of `rnd` that can still change players: no result, no game in the app, no draft
    pick made (in number order)."""
    started = set(Draft.objects.filter(table__round=rnd, version__gt=0).values_list("table_id", flat=True))
    return [
        t
        for t in rnd.tables.order_by("number")
        if t.state == Table.State.OPEN and t.game_id is None and t.pk not in started
    ]


def check_repair(rnd: Round, table) -> moves.Repairing:
    """What pairing table `table` (a pk) of `rnd` again would do (moves.repair_table): a preview,
    nothing changes. Its players are paired anew with those of the other tables not started, so
    that they do not sit together again; the other tables change as little as that needs."""
    table = _choice(table, "a table")
    if rnd.stage != Round.Stage.SWISS or rnd.status != Round.Status.PAIRED:
        raise Conflict("A table can be paired again only in a Swiss round whose clock has not started.")
    ordered = list(rnd.tables.order_by("number").values_list("pk", "number"))
    index = next((i for i, (pk, _) in enumerate(ordered) if pk == table), None)
    if index is None:
        raise Invalid(f"That table is not in {rnd.label.lower()}.")
    number = ordered[index][1]
    free = {t.pk for t in free_tables(rnd)}
    if table not in free:
        raise Conflict(
            f"Table {number} has started (a result, a game in the app or a draft pick): it can no "
            "longer be paired again."
        )
    pairing, players, past, _ = named_pairing(rnd)
    try:
        return moves.repair_table(
            pairing.seats(),
            pairing.bye_players(),
            index,
            players,
            past,
            rnd.number,
            rnd.event.seed,
            pairing_options(rnd.event),
            free=[i for i, (pk, _) in enumerate(ordered) if pk in free],
            numbers=[n for _, n in ordered],
        )
    except ValueError as exc:
        raise Conflict(f"Table {number} cannot be paired again: {exc}.") from None


def repair_table(rnd: Round | int, table, by) -> moves.Repairing:
    """Pair table `table` (a pk) of a Swiss round whose clock has not started again (check_repair):
    its players and those of the other tables not started are seated anew as the preview says. The
    changed tables' seats, explanations and drafts (not begun) follow; a table some player keeps
    keeps its number with them. The log names every player who moved and the warnings."""
    rnd_pk = rnd.pk if isinstance(rnd, Round) else rnd
    with transaction.atomic():
        event = _lock(Round.objects.filter(pk=rnd_pk).values_list("event_id", flat=True).first() or 0)
        require_manager(by, event)
        rnd = Round.objects.select_related("event").get(pk=rnd_pk)
        result = check_repair(rnd, table)
        tables = list(rnd.tables.order_by("number"))
        number = next(t.number for t in tables if t.pk == table)
        if not result.changed:
            raise Conflict(f"Pairing table {number} again changes nothing: no other seating is as good.")
        by_name = {e.name: e for e in Entrant.objects.filter(event=event)}
        changed = [tables[i] for i in result.changed]
        # Where each player sat and how often their place changed (Seat.changes: their notice).
        was = {
            pk: (table_id, position, changes)
            for pk, table_id, position, changes in Seat.objects.filter(table__in=changed).values_list(
                "entrant_id", "table_id", "position", "changes"
            )
        }
        Seat.objects.filter(table__in=changed).delete()
        seats = []
        for i, t in zip(result.changed, changed, strict=True):
            for k, name in enumerate(result.tables[i]):
                entrant = by_name[name]
                old_table, old_position, changes = was[entrant.pk]
                seats.append(
                    Seat(
                        table=t,
                        round=rnd,
                        entrant=entrant,
                        position=k,
                        factions=list(entrant.factions),
                        changes=changes + ((old_table, old_position) != (t.pk, k)),
                    )
                )
        Seat.objects.bulk_create(seats)
        for t, report in zip(changed, result.check.after, strict=True):
            Table.objects.filter(pk=t.pk).update(report=named_report(report, {}))
            Draft.objects.filter(table=t).delete()
            _table_draft(event, rnd, t, [by_name[n] for n in report.players])
        moved = "; ".join(
            f"{name} from table {tables[a].number} to table {tables[b].number}" for name, a, b in result.moved
        )
        warnings = list(result.check.warnings)
        kept = keep_numbers(rnd)
        _changed(
            event, by, "repair",
            f"{rnd.label}: paired table {number} again: {moved}"
            + (f"; warnings: {'; '.join(warnings)}" if warnings else "")
            + "".join(f"; {note}" for note in kept) + ".",
            round=rnd.number, table=number, delta=result.check.delta,
            moved=[[by_name[name].pk, tables[a].number, tables[b].number] for name, a, b in result.moved],
        )  # fmt: skip
    return result
