"""The top cut and its knockout stages: the cut's tables, the final, and what a corrected result or
an undone no-show does to a stage already seated (refused, or seated again with consent).

Part of ``tournaments.services`` (see its docstring); import from there."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from django.db import transaction

from tournaments import topcut
from tournaments.moves import number_tables
from tournaments.rules import listed

from ..models import Draft, Entrant, Event, Round, Seat, Table
from .changes import Conflict, _changed, _lock, require_manager
from .entrants import latest_round
from .results import (
    _check_plausible,
    _confirm_result,
    _lock_table,
    _undo_no_show,
    clean_vp,
    standings,
)
from .rounds import _create_round, _start_draft

logger = logging.getLogger(__name__)


# ---------------------------------------------------------------------------------- top cut ------
def start_top_cut(event: Event, by) -> Round:
    """The top cut (tournaments.topcut) from the final Swiss standings: a final table for a top 4,
    snake-seeded semifinal tables for a top 8 or 16, the first stage of a bracket of tables of 2 at
    a 1v1 event. Drafts as configured, best seed picks first."""
    with transaction.atomic():
        event = _lock(event)
        require_manager(by, event)
        if event.top_cut not in topcut.CUT_SIZES:
            raise Conflict("This event has no top cut (set one in the settings).")
        last = latest_round(event)
        if last is None or last.stage != Round.Stage.SWISS:
            raise Conflict(
                "The top cut comes after the Swiss rounds." if last is None else "The top cut has started."
            )
        if not last.is_finished:
            raise Conflict(f"{last.label} is not finished yet.")
        ranked = [r.entrant for r in standings(event) if not r.entrant.dropped]
        try:
            tables = topcut.top_cut([e.pk for e in ranked], event.top_cut, event.table_size)
        except ValueError as exc:
            raise Conflict(f"No top cut: {exc}.") from None
        stage = topcut.first_stage(event.top_cut, event.table_size)
        by_pk = {e.pk: e for e in ranked}
        seed = {e.pk: i + 1 for i, e in enumerate(ranked)}
        rnd = _create_round(event, last.number + 1, stage, "top cut", f"Top {event.top_cut}", ranked)
        for number, table in zip(kept_numbers(tables, by_pk), tables, strict=True):
            _create_cut_table(event, rnd, number, [by_pk[p] for p in table], seed)
        _changed(
            event, by, "top_cut", f"Started the top {event.top_cut}: {rnd.label.lower()}.", round=rnd.number
        )
    return rnd


def kept_numbers(tables: list[list[int]], by_pk: Mapping[int, Entrant]) -> list[int]:
    """The numbers of `tables` (entrant ids) with the tables some players keep (an accessible seat,
    `Entrant.fixed_table`) in their place (tournaments.moves.number_tables)."""
    fixed = {pk: by_pk[pk].fixed_table for t in tables for pk in t if by_pk[pk].fixed_table}
    return number_tables(tables, fixed)[0]


def _create_cut_table(event: Event, rnd: Round, number: int, entrants: list[Entrant], seed: Mapping) -> Table:
    report = {
        "lines": [", ".join(f"{e.name} (seed {seed[e.pk]})" for e in entrants)],
        "seeds": [seed[e.pk] for e in entrants],
    }
    table = Table.objects.create(round=rnd, number=number, report=report)
    Seat.objects.bulk_create(
        Seat(table=table, round=rnd, entrant=e, position=i, factions=list(e.factions))
        for i, e in enumerate(entrants)
    )
    if event.draft_mode == Event.DraftMode.TABLE:
        _start_draft(event, table, [e.pk for e in entrants])
    return table


def semifinal_seeds(event: Event) -> tuple[list[Entrant], dict[int, int]]:
    """The Swiss standings order without dropped players, and each one's seed (1 = best)."""
    ranked = [r.entrant for r in standings(event) if not r.entrant.dropped]
    return ranked, {e.pk: i + 1 for i, e in enumerate(ranked)}


# A knockout stage's tables in words ("the semifinals are not finished").
STAGE_PLURALS = {
    Round.Stage.EIGHTHFINAL: "round of 16",
    Round.Stage.QUARTERFINAL: "quarterfinals",
    Round.Stage.SEMIFINAL: "semifinals",
    Round.Stage.FINAL: "final",
}


def next_stage_name(rnd: Round) -> str:
    """What `start_final` pairs after the knockout round `rnd`, in words ("" after the Swiss rounds
    and the final)."""
    if rnd.stage in (Round.Stage.SWISS, Round.Stage.FINAL):
        return ""
    return STAGE_PLURALS[topcut.stage_after(rnd.tables.count(), rnd.event.table_size)]


def create_final(event: Event, number: int) -> Round:
    """Inside the event's transaction: as round `number`, the knockout stage after the one played
    before it (tournaments.topcut.next_stage): the players who go through (most VP, ties to the
    better seed; the first two of each table of a top 8 at tables of 4) meet at the final table,
    seated by their original seed; in a 1v1 bracket the winners play the next stage (quarterfinals,
    semifinals), best seed against worst. A player who dropped (or was disqualified) does not go
    through. (Named for the final, which it pairs in most cuts.)"""
    ranked, seed = semifinal_seeds(event)
    last = (
        Round.objects.filter(event=event, number__lt=number)
        .exclude(stage=Round.Stage.SWISS)
        .order_by("-number")
        .first()
    )
    played = [
        [(s.entrant_id, ranking_vp(s.vp, s.no_show)) for s in t.seats.all() if s.entrant_id in seed]
        for t in last.tables.prefetch_related("seats").order_by("number")
    ]
    try:
        stage, tables = topcut.next_stage(played, [e.pk for e in ranked], event.table_size)
    except ValueError as exc:
        raise Conflict(f"The next stage cannot be paired: {exc}.") from None
    by_pk = {e.pk: e for e in Entrant.objects.filter(pk__in=[p for t in tables for p in t])}
    rnd = _create_round(
        event, number, stage, "top cut", STAGE_PLURALS[stage].capitalize(), list(by_pk.values())
    )
    for table_number, table in zip(kept_numbers(tables, by_pk), tables, strict=True):
        _create_cut_table(event, rnd, table_number, [by_pk[p] for p in table], seed)
    return rnd


def start_final(event: Event, by) -> Round:
    """After a knockout stage before the final: its next stage (`create_final`)."""
    with transaction.atomic():
        event = _lock(event)
        require_manager(by, event)
        last = latest_round(event)
        if last is None or last.stage in (Round.Stage.SWISS, Round.Stage.FINAL):
            raise Conflict("The final follows the semifinals.")
        if not last.is_finished:
            raise Conflict(f"The {STAGE_PLURALS[last.stage]} are not finished yet.")
        rnd = create_final(event, last.number + 1)
        names = ", ".join(
            s.entrant.name
            for s in Seat.objects.filter(round=rnd)
            .select_related("entrant")
            .order_by("table__number", "position")
        )
        _changed(event, by, "top_cut", f"Started the {STAGE_PLURALS[rnd.stage]}: {names}.", round=rnd.number)
    return rnd


# ---------------------------------------------------------------------------------- results ------
# The organizer's result lives here, after the top cut it may have to pair again (services modules
# import only those before them: results comes before knockout).
def set_result(
    table: Table | int, vps: Mapping, by, unusual_ok: bool = False, reseat_final: bool = False
) -> Table:
    """An organizer enters, settles or corrects a table's result (in any round): it is confirmed at
    once. A correction is written to the log with the VP before and after and what it does not
    change (`correction_effects`); the standings follow from the event's new version.

    Refused (nothing changes): a result that looks mistyped, unless `unusual_ok` (`Unusual`); a
    correction at a knockout stage (semifinals, quarterfinals, round of 16) that changes who goes
    through once the next stage is seated (`AdvancingChanged`), unless that stage has not started
    and `reseat_final`: then it is paired again with the players who go through now, in the same
    transaction (named for the final, the next stage in most cuts). A table playing in the app whose
    game still runs: the result is the organizer's, time is called in the game and its own result
    will be ignored (the log and the pages say so): the game is ended at once (_end_overridden_game)."""
    with transaction.atomic():
        event, table = _lock_table(table)
        require_manager(by, event)
        cleaned = clean_vp(table, vps)
        if table.state == Table.State.CONFIRMED:
            before = dict(table.seats.values_list("entrant_id", "vp"))
            if before == cleaned:
                raise Conflict(
                    f"Table {table.number} of {table.round.label.lower()} already has these VP: "
                    "nothing to correct."
                )
        _check_plausible(event, table, cleaned, unusual_ok)
        following = _stage_to_reseat(event, table, cleaned, reseat_final)
        game_running = table.game_id is not None and table.game.is_active
        _confirm_result(event, table, cleaned, by, overrides_game=game_running)
        if following is not None:
            _reseat_stage(event, following, by)
        if game_running:
            game_pk = table.game_id
            transaction.on_commit(lambda: _end_overridden_game(game_pk))
    return table


class AdvancingChanged(Conflict):
    """A correction at a knockout stage that would change who goes through to the next stage, which
    is already seated with the old players (issue 27): refused. `can_reseat`: that stage has not
    started, so it can be paired again; `next_stage`: its name ("final", "semifinals"...)."""

    code = "advancing_changed"

    def __init__(self, message: str, can_reseat: bool, next_stage: str):
        super().__init__(message)
        self.can_reseat = can_reseat
        self.next_stage = next_stage


def _has_started(rnd: Round) -> bool:
    """A round is under way once its clock ran, a table has a result or an app game, or a draft
    has a pick."""
    return (
        rnd.status != Round.Status.PAIRED
        or rnd.tables.exclude(state=Table.State.OPEN).exists()
        or rnd.tables.filter(game__isnull=False).exists()
        or Draft.objects.filter(table__round=rnd, version__gt=0).exists()
    )


def _going_through(table: Table, vps: Mapping[int, int], seed: Mapping[int, int]) -> list[int]:
    """Who of a knockout table goes through with these VP (tournaments.topcut.advancing): as many as
    the stage sends on per table, never a player who dropped or was disqualified (not in `seed`), as
    `create_final` pairs them."""
    per_table = topcut.advance_per_table(table.round.tables.count(), table.round.event.table_size)
    played = [(pk, vp or 0) for pk, vp in vps.items() if pk in seed]
    return topcut.advancing(played, seed, per_table)


def _stage_to_reseat(event: Event, table: Table, cleaned: dict[int, int], reseat: bool) -> Round | None:
    """The next knockout stage to pair again after correcting this table of a stage before the
    final: semifinals, a 1v1 bracket's quarterfinals or round of 16 (None: nothing to redo). Raises
    AdvancingChanged when the correction changes the SET of players going through (the order among
    them is the seeds', not the VP) and the next stage is seated with the old ones, unless `reseat`
    and that stage has not started."""
    stage = table.round.stage
    if stage in (Round.Stage.SWISS, Round.Stage.FINAL) or table.state != Table.State.CONFIRMED:
        return None
    following = (
        Round.objects.filter(event=event, number__gt=table.round.number)
        .exclude(stage=Round.Stage.SWISS)
        .order_by("number")
        .first()
    )
    if following is None:
        return None
    _, seed = semifinal_seeds(event)
    absent = set(table.seats.filter(no_show=True).values_list("entrant_id", flat=True))
    before = dict(table.seats.values_list("entrant_id", "vp"))
    old = _going_through(table, _ranking(before, absent), seed)
    new = _going_through(table, _ranking(cleaned, absent), seed)
    if set(old) == set(new):
        return None
    return _advancing_changed(table, following, old, new, reseat, "This correction")


def ranking_vp(vp: int | None, no_show: bool) -> int:
    """A seat's VP as a knockout stage ranks them: a no-show below everyone who played (rules:
    No-shows), a present player with 0 VP included."""
    return -1 if no_show else (vp or 0)


def _ranking(vps: Mapping[int, int | None], absent: set[int]) -> dict[int, int]:
    return {pk: ranking_vp(vp, pk in absent) for pk, vp in vps.items()}


def _following_stage(event: Event, table: Table) -> Round | None:
    """The knockout stage after this table's (semifinals, a bracket's quarterfinals or round of
    16) once it is seated; None for a Swiss or final table, or before the next stage."""
    if table.round.stage in (Round.Stage.SWISS, Round.Stage.FINAL):
        return None
    return (
        Round.objects.filter(event=event, number__gt=table.round.number)
        .exclude(stage=Round.Stage.SWISS)
        .order_by("number")
        .first()
    )


def _advancing_now(event: Event, table: Table) -> list[int]:
    """Who of a knockout table goes through with its seats as stored (no-shows last, dropped
    players never)."""
    _, seed = semifinal_seeds(event)
    seats = table.seats.values_list("entrant_id", "vp", "no_show")
    return _going_through(table, {pk: ranking_vp(vp, absent) for pk, vp, absent in seats}, seed)


def _advancing_changed(table: Table, following: Round, old, new, reseat: bool, what: str) -> Round:
    """`what` (a correction, a no-show undone) changes who goes through from this knockout table
    to `following`, seated with the old players: AdvancingChanged, unless that stage has not
    started and `reseat` (then `following` is returned, to pair again)."""
    stage = table.round.stage
    names = dict(table.seats.values_list("entrant_id", "entrant__name"))
    gone = listed([names[pk] for pk in old if pk not in new])
    coming = listed([names[pk] for pk in new if pk not in old])
    next_name = STAGE_PLURALS[following.stage]
    where = f"table {table.number} of the {STAGE_PLURALS[stage]}"
    change = f"{what} sends {coming} through from {where} instead of {gone}"
    plural = next_name.endswith("s")  # "the semifinals have", "the final has"
    if _has_started(following):
        raise AdvancingChanged(
            f"{change}, but the {next_name} {'have' if plural else 'has'} started with {gone}: it "
            f"cannot be made now (the {next_name} {'stand' if plural else 'stands'} as played).",
            can_reseat=False,
            next_stage=next_name,
        )
    if not reseat:
        raise AdvancingChanged(
            f"{change}, and the {next_name} {'are' if plural else 'is'} seated with {gone}. Confirm "
            f"to correct it and pair the {next_name} again with {coming} "
            f"({'they have' if plural else 'it has'} not started).",
            can_reseat=True,
            next_stage=next_name,
        )
    return following


def undo_no_show(table: Table | int, entrant, by, reseat_final: bool = False) -> Seat:
    """An organizer takes back a no-show mark (results._undo_no_show says what it does). At a
    knockout stage whose next stage is seated, taking it back after the table's result may change
    who goes through (a no-show ranks below everyone present, a player dropped with the mark is
    back): refused as a correction would be (AdvancingChanged), or with `reseat_final`, while the
    next stage has not started, that stage is paired again with the players who go through now.
    Issue 27: checked at the knockouts too."""
    with transaction.atomic():
        event, table = _lock_table(table)
        require_manager(by, event)
        following = _following_stage(event, table) if table.state == Table.State.CONFIRMED else None
        before = _advancing_now(event, table) if following is not None else []
        seat = _undo_no_show(event, table, entrant, by)
        if following is not None:
            after = _advancing_now(event, table)
            if set(after) != set(before):
                redo = _advancing_changed(
                    table, following, before, after, reseat_final, "Taking back the no-show"
                )
                _reseat_stage(event, redo, by)
    return seat


def _reseat_stage(event: Event, stage: Round, by) -> None:
    """Pair a knockout stage that has not started again (after a correction before it)."""
    number = stage.number
    stage.delete()
    rnd = create_final(event, number)
    seats = Seat.objects.filter(round=rnd).select_related("entrant").order_by("table__number", "position")
    names = ", ".join(s.entrant.name for s in seats)
    again = f"Paired the {STAGE_PLURALS[rnd.stage]} again after the correction: {names}."
    _changed(event, by, "top_cut", again, round=number)


def _end_overridden_game(game_pk: int) -> None:
    """After an organizer entered the result of a table whose app game still runs: the game is
    ended at once (play.end_game, as the site's staff end a table: its record stays whole and
    replays, nobody can move in it any more), and its page says why (in_app.game_notes). The VP it
    had come back as any ended game's do (signals.game_finished) and are ignored: the table's
    result is the organizer's (record_app_result logs it once). Issue 27: calling time let a table
    of people without a turn timer wait, or a tie play on, long after the result was in."""
    from smashup.play import services as play

    try:
        play.end_game(game_pk)
    except play.PlayError:
        logger.exception("could not end game %s after its table's result was entered", game_pk)
