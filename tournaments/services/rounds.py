"""Rounds and tables: pairing (tournaments.pairing), byes, drafts, late seats, swaps, the top cut.

Part of ``tournaments.services`` (see its docstring); import from there."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tournaments import topcut
from tournaments.moves import number_tables
from tournaments.pairing import PairingOptions, PastRound, Player, evaluate, pair_round
from tournaments.pairing.cost import TableReport
from tournaments.rules import plural

from ..models import AuditEntry, Bye, Draft, Entrant, Event, Round, RoundClock, Seat, Table
from .changes import Conflict, Invalid, _changed, _lock, require_manager
from .entrants import _lock_entrant, active_entrants, latest_round
from .results import (
    _check_plausible,
    _confirm_result,
    _lock_table,
    _undo_no_show,
    clean_vp,
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
# import only those before them: results comes before rounds).
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
    gone = _names([names[pk] for pk in old if pk not in new])
    coming = _names([names[pk] for pk in new if pk not in old])
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


# ---------------------------------------------------------------------------------- rematches ----
def earlier_tables(event: Event, before_round: int) -> list[tuple[int, int, frozenset]]:
    """(round number, table number, its players) of every Swiss table before `before_round`."""
    groups: dict[tuple[int, int], set] = {}
    seats = Seat.objects.filter(
        round__event=event, round__stage=Round.Stage.SWISS, round__number__lt=before_round
    ).values_list("round__number", "table__number", "entrant_id")
    for number, table, entrant_id in seats:
        groups.setdefault((number, table), set()).add(entrant_id)
    return [(number, table, frozenset(players)) for (number, table), players in sorted(groups.items())]


def whole_table_repeats(tables, earlier) -> list[tuple[int, int, int]]:
    """(index in `tables`, round, table) for each table whose players all sat together before (at
    one earlier table, the latest such): a forced rematch of a whole table, not one pair meeting
    again. `tables`: lists of entrant ids; `earlier`: `earlier_tables`."""
    found = []
    for index, players in enumerate(tables):
        group = frozenset(players)
        if len(group) < 2:
            continue
        matches = [(number, table) for number, table, before in earlier if group <= before]
        if matches:
            found.append((index, *matches[-1]))
    return found


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def repeat_lines(tables, earlier, names: Mapping[int, str], numbers=None) -> list[str]:
    """The whole-table repeats of `tables` in words, e.g. "Table 2: Ada, Bob and Cy all sat together
    at table 1 of round 1." (`numbers`: the tables' numbers; default 1, 2, ...)."""
    lines = []
    for index, number, table in whole_table_repeats(tables, earlier):
        who = _names(sorted((names.get(pk, str(pk)) for pk in tables[index]), key=str.lower))
        shown = numbers[index] if numbers else index + 1
        lines.append(f"Table {shown}: {who} all sat together at table {table} of round {number}.")
    return lines


def repeated_tables(rnd: Round) -> list[str]:
    """The whole tables a paired Swiss round repeats, in words (for the organizer after pairing)."""
    if rnd.stage != Round.Stage.SWISS:
        return []
    tables = round_tables(rnd)
    groups = [[s.entrant_id for s in t.seats.all()] for t in tables]
    names = {s.entrant_id: s.entrant.name for t in tables for s in t.seats.all()}
    return repeat_lines(groups, earlier_tables(rnd.event, rnd.number), names, [t.number for t in tables])


@dataclass(frozen=True)
class RematchCheck:
    """What pairing the next round would do about whole-table rematches, before it is paired."""

    round: int
    lines: list[str]  # each repeated table in words
    reason: str  # why they cannot be avoided
    advice: str  # what the organizer can change


def next_round_check(event: Event) -> RematchCheck | None:
    """Before the organizer pairs the next Swiss round: a dry run of the pairing with the same inputs
    and seed as `generate_round` (nothing is stored), and the whole tables it would seat again, in
    words, with why they are forced. None when no round can be paired now. With a keep-your-draft
    event (Event.DraftMode.EVENT) the faction check puts avoiding clashes above avoiding rematches,
    so a small pool can force the round-1 tables to meet again: the check says so."""
    last = latest_round(event)
    if event.is_finished or last is None or last.stage != Round.Stage.SWISS or not last.is_finished:
        return None
    number = last.number + 1
    entrants = active_entrants(event)
    if len(entrants) < 2:
        return None
    names = {e.pk: e.name for e in entrants}
    players = pairing_players(event, number, entrants)
    past = history(event, number)
    earlier = earlier_tables(event, number)
    options = pairing_options(event)
    pairing = pair_round(players, past, number, event.seed, options)
    fixed = {e.pk: e.fixed_table for e in entrants if e.fixed_table}
    lines = repeat_lines(pairing.seats(), earlier, names, number_tables(pairing.seats(), fixed)[0])
    if not lines:
        return RematchCheck(number, [], "", "")
    n = len(entrants)
    if n <= event.table_size:
        reason = f"With {plural(n, 'active player')} there is one table: every round seats it again."
        advice = "Add players, or finish the event."
    else:
        reason = (
            f"{plural(n, 'active player')} at tables of {event.table_size} cannot all meet new opponents "
            "after these rounds."
        )
        advice = "Pair it anyway (the standings still count), or finish the event."
        if options.faction_copies is not None:
            free = pair_round(players, past, number, event.seed, replace(options, faction_copies=None))
            if len(whole_table_repeats(free.seats(), earlier)) < len(lines):
                copies = plural(options.faction_copies, "copy", "copies")
                reason = (
                    "Players keep the factions they drafted in round 1, and the pool has "
                    f"{copies} of each faction: every other seating puts two holders of a faction at one "
                    "table, which the pairing avoids before it avoids rematches."
                )
                advice = (
                    "To avoid it, allow more copies of each faction in the settings (the pairing then "
                    "mixes the tables), or accept the rematch."
                )
    return RematchCheck(number, lines, reason, advice)
