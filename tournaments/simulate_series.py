"""A simulated series of three events for 64 players, built through the real services as organizers
and players would (registration, drafts, pairing, results entered, confirmed and corrected, a top
cut, finishing): what the integration test of ratings, statistics and series and the
`bench_stats` command run on.

Seeded: the same seed builds the same events, draws and results. Each player has a hidden
strength that tilts their VP, so the ratings have something real to find.

- Event 1: a draft at the round 1 tables, each player keeping the pair all event; 3 Swiss rounds.
- Event 2: players bring their own factions (set by the organizer); 3 Swiss rounds, then a final
  table of 4; one no-show.
- Event 3: tables of 3 (and 4 where the count needs them), a draft at the round 1 tables;
  3 Swiss rounds.
Of the 64 players, 48 have accounts and 16 are guests; each event has 56 to 60 of them.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model

from . import drafting, services
from .draft import FACTIONS
from .models import Draft, Entrant, Event, Round, Series
from .services import leagues

PLAYERS = 64
ACCOUNTS = 48
ROUNDS = 3


@dataclass
class SimulatedSeries:
    organizer: object
    series: Series
    events: list[Event]
    users: list  # the accounts, by player number
    strength: dict[str, float]  # hidden strength by player name
    corrected: list = field(default_factory=list)  # (table pk, VP before, VP after) of corrections


def player_name(i: int) -> str:
    return f"Player {i + 1:02d}" if i < ACCOUNTS else f"Guest {i + 1 - ACCOUNTS:02d}"


def _vp(rng: random.Random, strength: float) -> int:
    return max(0, min(24, round(rng.gauss(9 + 3 * strength, 3))))


def play_round(
    rnd: Round, organizer, rng: random.Random, strength: dict[str, float], by_players: bool
) -> None:
    """Every table's result: entered by the organizer, or (`by_players`) reported by the first seat
    and confirmed by the others."""
    for table in rnd.tables.order_by("number"):
        seats = list(table.seats.select_related("entrant").order_by("position"))
        vps = {s.entrant_id: 0 if s.no_show else _vp(rng, strength[s.entrant.name]) for s in seats}
        present = [s for s in seats if not s.no_show]
        if by_players and len(present) == len(seats):
            table = services.report_result(table, present[0].entrant, vps)
            for seat in present[1:]:
                table.refresh_from_db()
                services.confirm_result(table, seat.entrant, table.result_version)
        else:
            services.set_result(table, vps, by=organizer)


def finish_drafts(rnd: Round, organizer) -> int:
    """Every open draft of `rnd` to its end, each pick the seeded default choice. Returns picks made."""
    picks = 0
    for draft_id in Draft.objects.filter(table__round=rnd).values_list("pk", flat=True):
        while Draft.objects.get(pk=draft_id).status == Draft.Status.OPEN:
            drafting.pick_for_current(draft_id, organizer)
            picks += 1
    return picks


def build(
    seed: int = 1, start: datetime.date = datetime.date(2026, 3, 6), players: int = PLAYERS
) -> SimulatedSeries:
    rng = random.Random(seed)
    User = get_user_model()
    organizer = User.objects.create_user(username=f"sim-organizer-{seed}", password=None)
    users = [
        User.objects.create_user(username=f"sim-{seed}-{i + 1:02d}", password=None) for i in range(ACCOUNTS)
    ]
    names = [player_name(i) for i in range(players)]
    strength = {name: rng.gauss(0, 1) for name in names}
    series = leagues.create_series(
        organizer, **leagues.clean_settings("Spring League", "10, 8, 6, 5, 4, 3, 2, 1", "1", "")
    )
    settings = [
        {"draft_mode": Event.DraftMode.EVENT, "table_size": 4, "top_cut": 0},
        {"draft_mode": Event.DraftMode.NONE, "table_size": 4, "top_cut": 4},
        {"draft_mode": Event.DraftMode.EVENT, "table_size": 3, "top_cut": 0},
    ]
    events = []
    factions = sorted(FACTIONS)
    for number, extra in enumerate(settings, 1):
        event = services.create_event(
            organizer,
            name=f"Spring League {number}",
            date=start + datetime.timedelta(days=7 * (number - 1)),
            rounds=ROUNDS,
            **extra,
        )
        leagues.add_event(series, event, organizer)
        absent = set(rng.sample(range(players), rng.randint(4, 8)))
        for i, name in enumerate(names):
            if i in absent:
                continue
            user = users[i] if i < ACCOUNTS else None
            entrant = services.register(event, name, user=user, by=organizer, checked_in=True)
            if extra["draft_mode"] == Event.DraftMode.NONE:
                services.set_factions(entrant, rng.sample(factions, 2), organizer)
        for round_number in range(1, ROUNDS + 1):
            rnd = services.generate_round(event, by=organizer)
            finish_drafts(rnd, organizer)
            if number == 2 and round_number == 2:  # a no-show, kept in the event
                table = rnd.tables.order_by("number").first()
                seat = table.seats.order_by("position").last()
                services.mark_no_show(table, seat.entrant_id, organizer, keep=True)
            play_round(rnd, organizer, rng, strength, by_players=number == 1 and round_number == 1)
        if event.top_cut:
            final = services.start_top_cut(event, organizer)
            finish_drafts(final, organizer)
            play_round(final, organizer, rng, strength, by_players=False)
        services.finish_event(event, organizer)
        event.refresh_from_db()
        events.append(event)
    return SimulatedSeries(organizer, series, events, users, strength)


def correct_a_result(sim: SimulatedSeries, event_index: int = 0, round_number: int = 1) -> tuple:
    """The organizer corrects the first table of a round: its VP in reverse seat order. Returns
    (table pk, VP before, VP after)."""
    event = sim.events[event_index]
    table = Round.objects.get(event=event, number=round_number).tables.order_by("number").first()
    before = dict(table.seats.values_list("entrant_id", "vp"))
    order = sorted(before, key=lambda pk: before[pk])
    values = sorted(before.values(), reverse=True)
    after = {pk: v for pk, v in zip(order, values, strict=True)}
    if after == before:  # every player had the same VP: give the last one more
        after[order[0]] += 5
    services.set_result(table, after, by=sim.organizer)
    sim.corrected.append((table.pk, before, after))
    return table.pk, before, after


def entrants_of(event: Event) -> list[Entrant]:
    return list(Entrant.objects.filter(event=event).order_by("name"))
