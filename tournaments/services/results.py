"""Results and standings: players report and confirm, organizers set or correct; the standings are
recomputed from the confirmed results.

Part of ``tournaments.services`` (see its docstring); import from there."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import Prefetch, QuerySet
from django.db.models.functions import Lower
from django.utils import timezone

from smashup.core import params
from tournaments import scoring, topcut
from tournaments.penalties import Penalty
from tournaments.rules import listed
from tournaments.standings import Game as PlayedGame
from tournaments.standings import Standing, StandingsOptions, compute_standings

from ..models import AuditEntry, Bye, Entrant, Event, Round, Seat, Table
from ..models import Penalty as PenaltyRow
from .changes import MAX_VP, Conflict, Invalid, NotAllowed, TournamentError, _changed, _lock, require_manager
from .rating_store import refresh_after_commit


# ---------------------------------------------------------------------------------- results ------
def clean_vp(table: Table, vps: Mapping) -> dict[int, int]:
    """{entrant pk: VP} for exactly the players of `table`, whole numbers 0..MAX_VP. A no-show's VP
    are 0: they may be left out (a disabled field), and anything else for them is refused."""
    seats = list(table.seats.values_list("entrant_id", "no_show", "entrant__name"))
    seated = [pk for pk, _, _ in seats]
    cleaned = {}
    for key, value in vps.items():
        # ASCII digits only (smashup.core.params): int() also read "٣", " +1_0 " and 1.0e1 forms.
        try:
            pk = params.whole_number(key, "player")
            vp = params.whole_number(value, "VP", max_digits=len(str(MAX_VP)))
        except params.BadNumber:
            if isinstance(value, int) and not isinstance(value, bool) and value > MAX_VP:
                raise Invalid(f"VP are whole numbers from 0 to {MAX_VP}.") from None
            raise Invalid("Enter the VP of every player as a whole number (the digits 0-9).") from None
        cleaned[pk] = vp
    for pk, no_show, name in seats:
        if no_show:
            if cleaned.get(pk, 0) != 0:
                raise Invalid(f"{name} is a no-show at this table: their VP are 0.")
            cleaned[pk] = 0
    if sorted(cleaned) != sorted(seated):
        raise Invalid("Enter the VP of every player at the table (and nobody else).")
    return cleaned


class Unusual(Conflict):
    """A result that looks mistyped (scoring.implausible): saved only once confirmed. `warnings`:
    each reason, for the confirmation page."""

    code = "unusual"

    def __init__(self, warnings: list[str]):
        super().__init__("Check this result before it is saved: " + " ".join(warnings))
        self.warnings = warnings


def _check_plausible(event: Event, table: Table, cleaned: dict[int, int], confirmed: bool) -> None:
    if confirmed:
        return
    names = dict(table.seats.values_list("entrant_id", "entrant__name"))
    absent = set(table.seats.filter(no_show=True).values_list("entrant_id", flat=True))
    warnings = scoring.implausible(cleaned, names, event.mode, absent)
    if warnings:
        raise Unusual(warnings)


def _lock_table(table: Table | int) -> tuple[Event, Table]:
    pk = table.pk if isinstance(table, Table) else table
    event_id = Table.objects.filter(pk=pk).values_list("round__event_id", flat=True).first()
    if event_id is None:
        raise TournamentError("There is no such table.", "not_found")
    event = _lock(event_id)
    return event, Table.objects.select_related("round").get(pk=pk)


def _seat_of(table: Table, entrant: Entrant | None) -> Seat:
    seat = None if entrant is None else table.seats.filter(entrant_id=entrant.pk).first()
    if seat is None:
        raise NotAllowed("Only the players of this table (and the organizers) can do that.")
    return seat


def _refuse_no_show(table: Table, seat: Seat) -> None:
    """A player marked as a no-show does not report or confirm; one left alone at a table does not
    decide their own result either: an organizer enters it (nobody could confirm it)."""
    if seat.no_show:
        raise NotAllowed("You are marked as a no-show at this table: talk to an organizer.")
    if not table.seats.filter(no_show=False).exclude(pk=seat.pk).exists() and table.seats.count() > 1:
        raise Conflict("The other players of this table are no-shows: an organizer enters your result.")


def _vp_text(table: Table, vps: Mapping[int, int]) -> str:
    names = dict(table.seats.values_list("entrant_id", "entrant__name"))
    return ", ".join(f"{names[pk]} {vp}" for pk, vp in vps.items())


def report_result(table: Table | int, entrant: Entrant, vps: Mapping, unusual_ok: bool = False) -> Table:
    """A player of the table enters everyone's VP; the others then confirm or dispute. A result that
    looks mistyped is refused (`Unusual`) unless `unusual_ok` (the player confirmed it)."""
    with transaction.atomic():
        event, table = _lock_table(table)
        seat = _seat_of(table, entrant)
        if table.state == Table.State.CONFIRMED:
            raise Conflict("This result is confirmed; ask an organizer to correct it.")
        _refuse_no_show(table, seat)
        if table.state == Table.State.DISPUTED:
            raise Conflict("This result is disputed; an organizer will settle it.")
        cleaned = clean_vp(table, vps)
        _check_plausible(event, table, cleaned, unusual_ok)
        for s in table.seats.all():
            s.vp = cleaned[s.entrant_id]
            s.confirmed = s.pk == seat.pk or s.no_show  # a no-show has nothing to confirm
            s.save(update_fields=["vp", "confirmed"])
        table.state = Table.State.REPORTED
        table.result_version += 1
        table.reported_by = seat.entrant
        table.reported_at = timezone.now()
        table.save(update_fields=["state", "result_version", "reported_by", "reported_at"])
        _changed(
            event,
            entrant,
            "report",
            f"Table {table.number} of {table.round.label.lower()}: reported {_vp_text(table, cleaned)}.",
            table=table.pk,
            vp={str(k): v for k, v in cleaned.items()},
        )
        _maybe_confirm(event, table)
    return table


def confirm_result(table: Table | int, entrant: Entrant, result_version) -> Table:
    """A player of the table agrees with the VP as reported (the version they saw)."""
    with transaction.atomic():
        event, table = _lock_table(table)
        seat = _seat_of(table, entrant)
        if table.state != Table.State.REPORTED:
            raise Conflict("There is no reported result waiting for confirmation at this table.")
        if str(result_version) != str(table.result_version):
            raise Conflict("The reported result changed since you looked at it; check it again.", "stale")
        if seat.no_show:
            raise NotAllowed("You are marked as a no-show at this table: talk to an organizer.")
        if not seat.confirmed:
            seat.confirmed = True
            seat.save(update_fields=["confirmed"])
            _changed(
                event,
                entrant,
                "confirm",
                f"Table {table.number} of {table.round.label.lower()}: {entrant.name} confirmed the result.",
                table=table.pk,
            )
            _maybe_confirm(event, table)
    return table


def dispute_result(table: Table | int, entrant: Entrant, note: str = "") -> Table:
    """A player of the table says the reported VP are wrong: an organizer settles it."""
    note = " ".join(str(note or "").split())[:500]
    with transaction.atomic():
        event, table = _lock_table(table)
        _seat_of(table, entrant)
        if table.state == Table.State.DISPUTED:
            # One open dispute per result: the organizers have it already (nothing is logged again).
            raise Conflict(
                f"This result is already disputed ({table.dispute_note.rstrip('.')}): an organizer "
                "will settle it.",
                "already_disputed",
            )
        if table.state != Table.State.REPORTED:
            raise Conflict("There is no reported result to dispute at this table.")
        table.state = Table.State.DISPUTED
        table.dispute_note = f"{entrant.name}: {note}" if note else f"{entrant.name} disputes the result."
        table.save(update_fields=["state", "dispute_note"])
        _changed(
            event,
            entrant,
            "dispute",
            f"Table {table.number} of {table.round.label.lower()}: {entrant.name} disputed the result"
            + (f" ({note})" if note else "")
            + ".",
            table=table.pk,
        )
    return table


def correction_effects(table: Table) -> list[str]:
    """What correcting this table's result does not redo, in words, for the organizer (before and
    after they correct it): rounds paired after it used the standings without the correction, and
    a top cut was seeded from them. The standings themselves are recomputed at once."""
    return round_correction_effects(table.round)


def round_correction_effects(rnd: Round) -> list[str]:
    """`correction_effects` of any table of `rnd`."""
    later = list(Round.objects.filter(event_id=rnd.event_id, number__gt=rnd.number).order_by("number"))
    if rnd.stage != Round.Stage.SWISS:
        return []  # a top-cut table decides only its own place
    notes = []
    swiss = [r for r in later if r.stage == Round.Stage.SWISS]
    cut = [r for r in later if r.stage != Round.Stage.SWISS]
    if swiss:
        names = _round_names(swiss)
        notes.append(
            f"{names} {'was' if len(swiss) == 1 else 'were'} paired from the standings before this "
            f"correction: {'its' if len(swiss) == 1 else 'their'} tables stay as they are (pairings "
            "are never redone)."
        )
    if cut:
        notes.append(
            "The top cut was seeded from the Swiss standings before this correction: its tables stay "
            "as they are."
        )
    return notes


def _round_names(rounds: list[Round]) -> str:
    return listed([r.label for r in rounds])


# ---------------------------------------------------------------------------------- no-shows -----
def _no_show_seat(table: Table, entrant) -> Seat:
    try:
        pk = int(entrant.pk if isinstance(entrant, Entrant) else entrant)
    except (TypeError, ValueError):
        raise Invalid("Choose the player who did not come.") from None
    if pk <= 0:  # no player chosen
        raise Invalid("Choose the player who did not come.")
    seat = table.seats.select_related("entrant").filter(entrant_id=pk).first()
    if seat is None:
        raise Invalid(f"That player does not sit at table {table.number}.")
    return seat


def _refuse_unless_playing(event: Event, table: Table, what: str) -> None:
    if event.is_finished:
        raise Conflict("This event is over.")
    if table.round.is_finished:
        raise Conflict(f"Every result of {table.round.label.lower()} is in: {what} is for a table in play.")
    if table.state != Table.State.OPEN:
        raise Conflict(
            f"Table {table.number} already has a {table.get_state_display().lower()} result: "
            f"{what} is for a table still playing (correct the result instead)."
        )
    if table.game_id is not None:
        raise Conflict(f"Table {table.number} plays in the app: the game decides its result.")


def mark_no_show(table: Table | int, entrant, by, keep: bool = False) -> Seat:
    """An organizer marks a player of a running table as a no-show: 0 VP, placed below everyone who
    played (a loss), nothing to confirm; the others complete the table's result as usual.

    Ruling (the usual organizer practice, as in Magic's tournament rules: a player missing from
    their match gets a loss and is dropped unless they report to the organizer): a player who does
    not come to their table is dropped from the next round on, unless the organizer keeps them
    (`keep`: they were late, not gone). The event's rules page says so (tournaments.rules)."""
    with transaction.atomic():
        event, table = _lock_table(table)
        require_manager(by, event)
        _refuse_unless_playing(event, table, "a no-show")
        seat = _no_show_seat(table, entrant)
        name = seat.entrant.name
        if seat.no_show:
            raise Conflict(f"{name} is already marked as a no-show.")
        if not table.seats.filter(no_show=False).exclude(pk=seat.pk).exists():
            raise Conflict(
                f"Nobody else at table {table.number} is here: drop the players instead of marking "
                "a whole table as no-shows."
            )
        seat.no_show = True
        seat.vp = 0
        seat.confirmed = True
        seat.save(update_fields=["no_show", "vp", "confirmed"])
        entrant = seat.entrant
        dropped = not keep and not entrant.dropped
        if dropped:
            entrant.dropped = True
            entrant.dropped_after = table.round.number
            entrant.save(update_fields=["dropped", "dropped_after"])
        where = f"Table {table.number} of {table.round.label.lower()}"
        then = f"{name} is dropped from the next round on" if dropped else f"{name} stays in the event"
        _changed(
            event,
            by,
            "no_show",
            f"{where}: marked {name} as a no-show (0 VP, a loss); {then}.",
            table=table.pk,
            entrant=entrant.pk,
            dropped=dropped,
        )
    return seat


def _undo_no_show(event: Event, table: Table, entrant, by) -> Seat:
    """Inside the event's transaction (services.undo_no_show, which guards the knockout stages):
    the player came after all (or was marked by mistake): the no-show mark goes, and a drop that
    came with it is undone. While the table plays, their VP are to be entered as everyone's; once
    the table has a result (reported or confirmed, issue 27: it could not be undone then), their 0
    VP stay in it as a present player's (no longer a loss below everyone) until an organizer
    corrects the result; a reported result waits for their confirmation again."""
    require_manager(by, event)
    if table.game_id is not None:
        raise Conflict(f"Table {table.number} plays in the app: the game decides its result.")
    if table.state == Table.State.DISPUTED:
        raise Conflict(f"Table {table.number}'s result is disputed: settle it first.")
    seat = _no_show_seat(table, entrant)
    name = seat.entrant.name
    if not seat.no_show:
        raise Conflict(f"{name} is not marked as a no-show.")
    had_result = table.state != Table.State.OPEN
    seat.no_show = False
    if had_result:
        seat.confirmed = table.state == Table.State.CONFIRMED
    else:
        seat.vp = None
        seat.confirmed = False
    seat.save(update_fields=["no_show", "vp", "confirmed"])
    if had_result:
        table.result_version += 1  # the result the others saw has changed: a new version
        table.save(update_fields=["result_version"])
    entrant = seat.entrant
    mark = (
        AuditEntry.objects.filter(
            event=event, action="no_show", data__table=table.pk, data__entrant=entrant.pk
        )
        .order_by("-at", "-pk")
        .first()
    )
    reinstated = (
        mark is not None
        and mark.data.get("dropped")
        and entrant.dropped
        and entrant.dropped_after == table.round.number
    )
    if reinstated:
        entrant.dropped = False
        entrant.dropped_after = None
        entrant.save(update_fields=["dropped", "dropped_after"])
    _changed(
        event,
        by,
        "no_show_undo",
        f"Table {table.number} of {table.round.label.lower()}: {name} is no longer a no-show"
        + (" (and no longer dropped)" if reinstated else "")
        + (f"; their {seat.vp} VP stand until the result is corrected." if had_result else "."),
        table=table.pk,
        entrant=entrant.pk,
    )
    return seat


def record_app_result(table: Table | int, vps: Mapping, game_code: str) -> Table | None:
    """The app reports the result of the in-app game played at `table` (tournaments.in_app): the VP
    are entered and confirmed as an organizer's result would be, and the log says the app reported
    them. A table whose result is already confirmed (an organizer was quicker, or this report came
    twice) is left alone: returns None. Organizers can still correct it with `set_result`."""
    with transaction.atomic():
        event, table = _lock_table(table)
        if table.state == Table.State.CONFIRMED:
            logged = AuditEntry.objects.filter(event=event, action="app_result_ignored", data__table=table.pk)
            if not logged.exists():  # said once: the signal and the sweep may both report it
                _changed(
                    event, "app", "app_result_ignored",
                    f"Table {table.number} of {table.round.label.lower()}: game {game_code} ended; its "
                    "result is ignored (the table's result was entered by an organizer).",
                    table=table.pk, game=game_code,
                )  # fmt: skip
            return None
        cleaned = clean_vp(table, vps)
        _confirm_result(event, table, cleaned, "app", app_game=game_code)
    return table


def _confirm_result(
    event: Event, table: Table, cleaned: dict[int, int], by, app_game: str = "", overrides_game=False
) -> None:
    """Inside the event's transaction: store `cleaned` VP as the table's confirmed result.
    `overrides_game`: the table's app game still runs; its own result will be ignored."""
    seats = list(table.seats.all())
    before = {s.entrant_id: s.vp for s in seats}
    was = table.state
    for s in seats:
        s.vp = cleaned[s.entrant_id]
        s.confirmed = True
        s.save(update_fields=["vp", "confirmed"])
    table.state = Table.State.CONFIRMED
    table.result_version += 1
    table.decided_by = by if not isinstance(by, str) else None
    table.confirmed_at = timezone.now()
    table.save(update_fields=["state", "result_version", "decided_by", "confirmed_at"])
    effects: list[str] = []
    if app_game:
        verb = f"the app reported the result of game {app_game}:"
    elif was == Table.State.CONFIRMED:
        old = _vp_text(table, before)
        verb = f"corrected the result from {old} to"
        effects = correction_effects(table)
    elif was == Table.State.DISPUTED:
        verb = "settled the dispute:"
    else:
        verb = "entered the result:"
    extra = {"game": app_game} if app_game else {}
    notes = list(effects)
    if overrides_game:
        notes.append(
            f"Game {table.game.code} in the app still ran: it is ended, and its own result is ignored."
        )
        extra["overrides_game"] = table.game.code
    if notes:
        extra["notes"] = notes
    _changed(
        event,
        by,
        "app_result" if app_game else "result",
        f"Table {table.number} of {table.round.label.lower()}: {verb} {_vp_text(table, cleaned)}."
        + "".join(" " + note for note in notes),
        table=table.pk,
        before={str(k): v for k, v in before.items()},
        after={str(k): v for k, v in cleaned.items()},
        **extra,
    )
    _maybe_finish_round(event, table.round)


def _maybe_confirm(event: Event, table: Table) -> None:
    if table.state == Table.State.REPORTED and not table.seats.filter(confirmed=False).exists():
        table.state = Table.State.CONFIRMED
        table.confirmed_at = timezone.now()
        table.save(update_fields=["state", "confirmed_at"])
        _maybe_finish_round(event, table.round)


def _maybe_finish_round(event: Event, rnd: Round) -> None:
    refresh_after_commit()  # a result just became final (or was corrected): ratings follow it
    if rnd.is_finished or rnd.tables.exclude(state=Table.State.CONFIRMED).exists():
        return
    rnd.status = Round.Status.FINISHED
    rnd.finished_at = timezone.now()
    rnd.save(update_fields=["status", "finished_at"])
    from ..clock import stop

    stop(rnd)  # every result is in: the clock stops, its banners go


# ---------------------------------------------------------------------------------- standings ----
@dataclass(frozen=True)
class Row:
    """One line of the standings: the pure module's `Standing` with the entrant it is about."""

    entrant: Entrant
    standing: Standing

    def __getattr__(self, name):
        if name.startswith("__") or name == "standing":  # pickling (the standings cache) asks these
            raise AttributeError(name)
        return getattr(self.standing, name)


class PlainEntrant(NamedTuple):
    """What the standings read of an entrant, without a model instance (`plain_entrants`): pages
    that only show names build their rows ten times cheaper (512 entrants: 0.6 ms against 6 ms, and
    nothing to unpickle from a cache). A named tuple: made three times faster than a frozen
    dataclass (0.4 -> 0.14 ms at 512)."""

    pk: int
    name: str
    dropped: bool
    wait_rank: int | None
    checked_in: bool


def plain_entrants(event: Event) -> list[PlainEntrant]:
    return list(map(PlainEntrant._make, _prepared(_entrant_values, event.pk)))


def _entrant_values(event_pk: int) -> QuerySet:
    fields = ("pk", "name", "dropped", "wait_rank", "checked_in")
    # The model's order less its event part (one event here): no join of the event to sort by.
    return Entrant.objects.filter(event_id=event_pk).order_by(Lower("name")).values_list(*fields)


def _seat_values(event_pk: int) -> QuerySet:
    """(table, round number, entrant, VP, no-show) of every seat of a confirmed Swiss table, in play
    order: the models' (a table's round, its number, the seat) without the joins of the table's round
    and the event that order spells out (a seat's round is its table's; one event here)."""
    return (
        Seat.objects.filter(
            round__event_id=event_pk, round__stage=Round.Stage.SWISS, table__state=Table.State.CONFIRMED
        )
        .order_by("round__number", "table__number", "position")
        .values_list("table_id", "round__number", "entrant_id", "vp", "no_show")
    )


def _bye_values(event_pk: int) -> QuerySet:
    return Bye.objects.filter(round__event_id=event_pk, round__stage=Round.Stage.SWISS).values_list(
        "round__number", "entrant_id"
    )


# Stands for the event's pk while `_plan` has the ORM build a query (no event has a negative pk).
_ANY_EVENT = -2_718_281


def _prepared(query: Callable[[int], QuerySet], event_pk: int) -> list[tuple]:
    """`list(query(event_pk))`, the query built once per process (`_plan`) where that gives the same
    rows. The standings read four queries after every change; at 512 players x 6 rounds building and
    iterating the seat query through the ORM cost 2.6 ms, running its SQL 1.3 ms."""
    plan = _plan(query, connection.vendor)
    if plan is None:
        return list(query(event_pk))
    sql, params, at = plan
    params = list(params)
    params[at] = event_pk
    with connection.cursor() as cursor:  # through Django's wrapper: counted, logged, in the transaction
        cursor.execute(sql, params)
        return cursor.fetchall()


@functools.cache
def _plan(query: Callable[[int], QuerySet], vendor: str) -> tuple[str, tuple, int] | None:
    """The SQL of `query`, its parameters and where the event's pk goes in them; None where the ORM
    converts what the database returns (SQLite's 0/1 for booleans, say): the ORM runs it then."""
    compiler = query(_ANY_EVENT).query.get_compiler(connection=connection)
    sql, params = compiler.as_sql()
    columns = [column for column, _, _ in compiler.select[: compiler.col_count]]
    if compiler.get_converters(columns) or list(params).count(_ANY_EVENT) != 1:
        return None
    return sql, tuple(params), list(params).index(_ANY_EVENT)


def standings_options(event: Event) -> StandingsOptions:
    return StandingsOptions(
        preset=event.scoring,
        tiebreakers=tuple(event.tiebreakers or ()),
        table_size=event.table_size,
        seed=event.seed,
    )


def standings(
    event: Event, *, before_round: int | None = None, entrants: list[Entrant] | None = None
) -> list[Row]:
    """The Swiss standings from the confirmed results and the penalties in force (four queries
    whatever the size of the event).

    Listed: everyone who played a game or had a bye, and everyone still active (dropped players
    stay, flagged). `before_round`: only the rounds before that number (what a pairing saw)."""
    return [Row(e, s) for e, s in ranked(event, before_round=before_round, entrants=entrants)]


def penalties_in_force(event: Event) -> list[Penalty]:
    """The event's penalties in force as the standings take them, in the order they were given."""
    return [Penalty(*values) for values in _prepared(PenaltyRow.standings_values, event.pk)]


def ranked(
    event: Event,
    *,
    before_round: int | None = None,
    entrants: list | None = None,
    penalties: list | None = None,
) -> list[tuple]:
    """`standings` as (entrant, Standing) pairs, without a `Row` each (the standings page's table).
    `penalties`: `penalties_in_force(event)`, when the caller has read them (all rounds only)."""
    if entrants is None:
        entrants = list(Entrant.objects.filter(event=event))
    if before_round is None:
        seat_rows, bye_list = _prepared(_seat_values, event.pk), _prepared(_bye_values, event.pk)
        if penalties is None:
            penalties = penalties_in_force(event)
    else:
        seat_rows = _seat_values(event.pk).filter(round__number__lt=before_round)
        bye_list = list(_bye_values(event.pk).filter(round__number__lt=before_round))
        penalties = PenaltyRow.standings_inputs(event, before_round)
    tables: dict[int, tuple[int, dict]] = {}
    absent: dict[int, set] = defaultdict(set)
    for table_id, number, entrant_id, vp, no_show in seat_rows:
        game = tables.get(table_id)
        if game is None:
            game = tables[table_id] = (number, {})
        game[1][entrant_id] = vp or 0
        if no_show:
            absent[table_id].add(entrant_id)
    nobody = frozenset()
    games = [
        PlayedGame(number, vp, frozenset(absent[pk]) if pk in absent else nobody)
        for pk, (number, vp) in tables.items()
    ]
    played = {e for _, vp in tables.values() for e in vp}
    played.update(e for _, e in bye_list)
    shown = [
        e for e in entrants
        if e.pk in played
        or (not e.dropped and e.wait_rank is None and (e.checked_in or not event.require_check_in))
    ]  # fmt: skip
    by_pk = {e.pk: e for e in shown}
    rows = compute_standings(
        list(by_pk),
        games,
        byes=bye_list,
        dropped={e.pk for e in shown if e.dropped},
        options=standings_options(event),
        penalties=penalties,
    )
    return [(by_pk[s.player], s) for s in rows]


# ---------------------------------------------------------------------------------- pages --------
def round_tables(rnd: Round) -> list[Table]:
    """The tables of a round with their seats and entrants (two queries)."""
    return list(
        rnd.tables.order_by("number").prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entrant").order_by("position"))
        )
    )


def points_of(table: Table, event: Event) -> dict[int, float]:
    """Tournament points of each player at a table with VP (tournaments.scoring)."""
    from tournaments.scoring import table_points

    seats = list(table.seats.all())
    if any(s.vp is None for s in seats):
        return {}
    absent = {s.entrant_id for s in seats if s.no_show}
    return table_points({s.entrant_id: s.vp for s in seats}, event.scoring, absent)


def vp_by_table(seats: Iterable[Seat]) -> dict[int, dict[int, int]]:
    out: dict[int, dict[int, int]] = defaultdict(dict)
    for s in seats:
        if s.vp is not None:
            out[s.table_id][s.entrant_id] = s.vp
    return out


# ---------------------------------------------------------------------------------- final --------
@dataclass(frozen=True)
class Placed:
    """One line of the final standings: the place after the top cut, and where it was decided."""

    place: int
    entrant: Entrant
    stage: str  # "final", "semifinal" or "swiss"
    row: Row | None  # the Swiss standings line (None for nobody: every placed player has one)


def final_standings(event: Event, rows: list[Row] | None = None) -> list[Placed] | None:
    """The final order once the top cut's final has its result (tournaments.topcut.final_order):
    the winner first. None while there is no confirmed final (the Swiss standings are the order)."""
    # A no-show ranks below everyone present at their table (rules: No-shows): as -1 VP here.
    cut = [
        (stage, table_id, e, -1 if absent else (vp or 0), state)
        for stage, table_id, e, vp, state, absent in Seat.objects.filter(round__event=event)
        .exclude(round__stage=Round.Stage.SWISS)
        .values_list("round__stage", "table_id", "entrant_id", "vp", "table__state", "no_show")
    ]
    final = [(e, vp) for stage, _, e, vp, state in cut if stage == Round.Stage.FINAL]
    if not final or any(
        state != Table.State.CONFIRMED for stage, _, _, _, state in cut if stage == Round.Stage.FINAL
    ):
        return None
    stages: dict[str, dict[int, list]] = defaultdict(dict)
    for stage, table_id, e, vp, _ in cut:
        stages[stage].setdefault(table_id, []).append((e, vp))
    semis = stages[Round.Stage.SEMIFINAL]
    earlier = [
        (stage, list(stages[stage].values()))
        for stage in (Round.Stage.QUARTERFINAL, Round.Stage.EIGHTHFINAL)
        if stages[stage]
    ]  # a 1v1 bracket's stages before its semifinals, latest first
    rows = standings(event) if rows is None else rows
    by_pk = {r.entrant.pk: r for r in rows}
    ranked = [r.entrant.pk for r in rows if not r.entrant.dropped or r.entrant.pk in dict(final)]
    ranked += [r.entrant.pk for r in rows if r.entrant.pk not in set(ranked)]
    order = topcut.final_order(final, list(semis.values()), ranked, earlier)
    return [Placed(place, by_pk[pk].entrant, how, by_pk[pk]) for place, pk, how in order if pk in by_pk]


STANDINGS_CACHE_SECONDS = 600


def cached_standings(event: Event) -> list[Row]:
    """`standings(event)` for the read-only pages (standings, projector, API), cached by the event's
    version: every change bumps it (changes.touch), so a cached table is never out of date. Only for
    requests that read committed data: a change inside a transaction that could still roll back must
    call `standings` itself. A cache that is down only costs the computation."""
    from django.core.cache import cache

    key = f"tournaments:standings:{event.pk}:{event.version}"
    try:
        rows = cache.get(key)
    except Exception:  # the cache (Redis) is down: compute
        rows = None
    if rows is None:
        rows = standings(event)
        try:
            cache.set(key, rows, STANDINGS_CACHE_SECONDS)
        except Exception:
            pass
    return rows
