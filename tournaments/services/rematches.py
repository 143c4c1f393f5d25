"""Rematches: which whole tables of a round met before, in words, and the check before the next round.

Part of ``tournaments.services`` (see its docstring); import from there."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace

from tournaments.moves import number_tables
from tournaments.pairing import pair_round
from tournaments.rules import listed, plural

from ..models import Event, Round, Seat
from .entrants import active_entrants, latest_round
from .results import (
    round_tables,
)
from .rounds import history, pairing_options, pairing_players

logger = logging.getLogger(__name__)


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


def repeat_lines(tables, earlier, names: Mapping[int, str], numbers=None) -> list[str]:
    """The whole-table repeats of `tables` in words, e.g. "Table 2: Ada, Bob and Cy all sat together
    at table 1 of round 1." (`numbers`: the tables' numbers; default 1, 2, ...)."""
    lines = []
    for index, number, table in whole_table_repeats(tables, earlier):
        who = listed(sorted((names.get(pk, str(pk)) for pk in tables[index]), key=str.lower))
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
