"""The live Kickin' It Queensberry draft at a table, over the pure state machine of ``draft.py``.

A ``Draft`` row holds the pure ``DraftState`` as JSON and a ``version`` (the number of choices made).
A choice names the version it answers, so a double click or two devices never choose twice. Only
the player whose turn it is (or an organizer, on their behalf) may choose.

Pick timer (optional, ``Event.pick_seconds``): it runs from the moment the round starts (its clock
is started, ``start_timers``) or, in a draft opened after that, from the moment the draft opens; so
nobody is timed while players are still finding their tables (an organizer can pick for anyone at
any time, and taking the round back or re-pairing restarts the draft). The round's start and each
choice set ``deadline``; a Celery task scheduled for it (``draft_timeout(draft, version)``) takes
the default (seeded random) choice if the draft is still at that version, and the beat sweep
catches a task that got lost. When the draft is done the factions go to the seats (and, in an
event draft, to the entrants for the whole event).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from smashup import draft as kiq

from .models import Draft, Entrant, Event, Round, Seat
from .services import Conflict, Invalid, NotAllowed, _changed, _lock, can_manage, touch

logger = logging.getLogger(__name__)

TOLERANCE = 0.5  # seconds: a timer task may run this much early


def start_draft(event: Event, table, players: list[int], first=None, pool=None) -> Draft:
    """Inside a transaction holding the event: open a draft for `players` (seat order) at `table`.
    `pool`: {faction: copies} instead of the event's pool (a late draft, without what the table's
    other players already hold)."""
    try:
        state = kiq.new_draft(
            players,
            seed=f"{event.seed}:{table.round.number}:{table.number}",
            pool=pool if pool is not None else list(event.faction_pool),
            copies=event.faction_copies,
            bans_per_player=event.bans_per_player,
            min_per_player=event.min_factions_per_player,
            first=first,
            one_table=True,  # a draft is at one table: each faction once per game, whatever the copies
        )
    except kiq.DraftError as exc:
        raise Invalid(f"The draft at table {table.number} cannot start: {exc}.") from None
    deadline = None
    if event.pick_seconds and table.round.status != Round.Status.PAIRED:  # the round has started
        deadline = timezone.now() + timedelta(seconds=event.pick_seconds)
    draft = Draft.objects.create(
        table=table, state=state.to_dict(), pick_seconds=event.pick_seconds, deadline=deadline
    )
    if deadline is not None:
        pk = draft.pk
        transaction.on_commit(lambda: schedule_timeout(pk, 0, deadline))
    return draft


def start_timers(rnd: Round) -> int:
    """Inside the event's transaction, when the round's clock starts: the pick timers of its open
    drafts start now. Returns how many started."""
    started = 0
    for draft in Draft.objects.select_for_update().filter(
        table__round=rnd, status=Draft.Status.OPEN, deadline__isnull=True, pick_seconds__gt=0
    ):
        draft.deadline = timezone.now() + timedelta(seconds=draft.pick_seconds)
        draft.save(update_fields=["deadline"])
        pk, version, deadline = draft.pk, draft.version, draft.deadline
        transaction.on_commit(
            lambda pk=pk, version=version, deadline=deadline: schedule_timeout(pk, version, deadline)
        )
        started += 1
    return started


def late_pool(event: Event, held: list[list[str]]) -> dict[str, int]:
    """The event's pool without what the table's other players already hold, for the players who
    draft late (a round-1 bye, a late entry): each faction is in a game once, so a faction held at
    the table is out whatever the copies."""
    taken = {f for factions in held for f in factions}
    return {f: event.faction_copies for f in event.faction_pool if f not in taken}


def state_of(draft: Draft) -> kiq.DraftState:
    return kiq.DraftState.from_dict(draft.state)


def _lock_draft(draft_id: int) -> tuple[Event, Draft]:
    event_id = Draft.objects.filter(pk=draft_id).values_list("table__round__event_id", flat=True).first()
    if event_id is None:
        raise Invalid("There is no such draft.")
    event = _lock(event_id)
    return event, Draft.objects.select_related("table__round").select_for_update(of=("self",)).get(
        pk=draft_id
    )


def choose(
    draft_id: int, faction: str, expected_version, *, entrant: Entrant | None = None, user=None
) -> Draft:
    """The current player (`entrant`) bans or picks `faction`; an organizer (`user`) may choose for
    them. Refused (nothing changes) when it is not their turn, the version is stale or the rules say no."""
    with transaction.atomic():
        event, draft = _lock_draft(draft_id)
        if draft.status != Draft.Status.OPEN:
            raise Conflict("This draft is over.")
        if str(expected_version) != str(draft.version):
            raise Conflict("Someone chose in the meantime; here is the draft as it is now.", "stale")
        state = state_of(draft)
        player, kind = kiq.current_step(state)
        organizer = user is not None and can_manage(user, event)
        if not organizer and (entrant is None or entrant.pk != player):
            raise NotAllowed("It is not your turn to choose.")
        try:
            state = (kiq.apply_ban if kind == kiq.BAN else kiq.apply_pick)(state, player, faction)
        except kiq.DraftError as exc:
            raise Invalid(f"That choice is not allowed: {exc}.") from None
        _save(event, draft, state)
        if organizer and (entrant is None or entrant.pk != player):
            name = Entrant.objects.get(pk=player).name
            _changed(
                event,
                user,
                "draft",
                f"Table {draft.table.number} of {draft.table.round.label.lower()}: {kind} {faction} "
                f"for {name} (by an organizer).",
                table=draft.table_id,
            )
    return draft


def pick_for_current(draft_id: int, user) -> Draft:
    """An organizer takes the default (random) choice for whoever's turn it is (a player not there)."""
    with transaction.atomic():
        event, draft = _lock_draft(draft_id)
        if not can_manage(user, event):
            raise NotAllowed("Only the organizers can pick for a player.")
        if draft.status != Draft.Status.OPEN:
            raise Conflict("This draft is over.")
        state = state_of(draft)
        player, kind = kiq.current_step(state)
        state = kiq.apply_timeout(state)
        _save(event, draft, state)
        name = Entrant.objects.get(pk=player).name
        _changed(
            event,
            user,
            "draft",
            f"Table {draft.table.number} of {draft.table.round.label.lower()}: random {kind} "
            f"{state.picks[-1].faction if kind == kiq.PICK else state.bans[-1].faction} for {name}.",
            table=draft.table_id,
        )
    return draft


def pick_rest_at_random(draft_id: int, expected_version, user) -> list[tuple[int, str, str]]:
    """An organizer ends a draft at once: every ban and pick left is taken at random for whoever's
    turn it is, as the pick timer would (the seeded default choice, so the same draft gives the same
    picks whoever runs it). Names the version the organizer saw, so a pick made meanwhile is not
    overrun. Returns (player, ban/pick, faction) in order; one audit entry lists them."""
    with transaction.atomic():
        event, draft = _lock_draft(draft_id)
        if not can_manage(user, event):
            raise NotAllowed("Only the organizers can pick for the players.")
        if draft.status != Draft.Status.OPEN:
            raise Conflict("This draft is over.")
        if str(expected_version) != str(draft.version):
            raise Conflict("Someone chose in the meantime; here is the draft as it is now.", "stale")
        state = state_of(draft)
        made = []
        while not kiq.is_done(state):
            player, kind = kiq.current_step(state)
            state = kiq.apply_timeout(state)
            made.append((player, kind, (state.picks if kind == kiq.PICK else state.bans)[-1].faction))
        # `version` counts the choices made; _save adds the last one.
        draft.version += len(made) - 1
        _save(event, draft, state)
        names = dict(Entrant.objects.filter(pk__in={p for p, _, _ in made}).values_list("pk", "name"))
        listed = ", ".join(f"{kind} {faction} for {names[player]}" for player, kind, faction in made)
        _changed(
            event,
            user,
            "draft",
            f"Table {draft.table.number} of {draft.table.round.label.lower()}: random choices for everyone "
            f"left: {listed}.",
            table=draft.table_id,
            random=[[player, kind, faction] for player, kind, faction in made],
        )
    return made


def timeout(draft_id: int, version: int | None = None) -> bool:
    """The pick timer ran out: take the default choice. Does nothing (False) if the draft moved on
    from `version`, is over, has no deadline or its deadline is still ahead."""
    with transaction.atomic():
        try:
            event, draft = _lock_draft(draft_id)
        except Invalid:
            return False
        if draft.status != Draft.Status.OPEN or draft.deadline is None:
            return False
        if version is not None and draft.version != version:
            return False
        if (draft.deadline - timezone.now()).total_seconds() > TOLERANCE:
            return False
        _save(event, draft, kiq.apply_timeout(state_of(draft)))
    return True


def _save(event: Event, draft: Draft, state: kiq.DraftState) -> None:
    draft.state = state.to_dict()
    draft.version += 1
    done = kiq.is_done(state)
    if done:
        draft.status = Draft.Status.DONE
        draft.deadline = None
        _finish(event, draft, state)
    elif draft.pick_seconds:
        draft.deadline = timezone.now() + timedelta(seconds=draft.pick_seconds)
    draft.save()
    touch(event)
    if draft.deadline is not None:
        pk, version, deadline = draft.pk, draft.version, draft.deadline
        transaction.on_commit(lambda: schedule_timeout(pk, version, deadline))


def _finish(event: Event, draft: Draft, state: kiq.DraftState) -> None:
    """The factions go to the seats; in an event draft each player keeps theirs all event."""
    chosen = kiq.result(state)
    # Only the drafting players' seats: in a late draft the others keep the pair they hold.
    for seat in Seat.objects.filter(table=draft.table_id, entrant_id__in=list(chosen)):
        seat.factions = chosen[seat.entrant_id]
        seat.save(update_fields=["factions"])
    if event.draft_mode == Event.DraftMode.EVENT:
        for entrant in Entrant.objects.filter(pk__in=list(chosen)):
            entrant.factions = chosen[entrant.pk]
            entrant.save(update_fields=["factions"])


def schedule_timeout(draft_id: int, version: int, deadline) -> None:
    from smashup.core.schedule import send_at

    from .tasks import draft_timeout

    options = {}
    queue = getattr(settings, "TOURNAMENT_QUEUE", None)
    if queue:
        options["queue"] = queue
    try:
        send_at(draft_timeout, (draft_id, version), deadline, **options)
    except Exception:  # broker down: the beat sweep catches the deadline
        logger.exception("could not schedule the pick timer of draft %s", draft_id)


def sweep() -> int:
    """Take the default choice in every open draft whose pick deadline has passed."""
    due = Draft.objects.filter(status=Draft.Status.OPEN, deadline__lte=timezone.now())
    return sum(timeout(pk, version) for pk, version in due.values_list("pk", "version"))


def draft_view(draft: Draft, names: dict[int, str]) -> dict:
    """What the draft page shows: whose turn, the pool with what is left, each player's choices."""
    state = state_of(draft)
    step = kiq.current_step(state)
    legal = set(kiq.legal_picks(state))
    taken: dict[str, int] = {}
    for c in state.picks:
        taken[c.faction] = taken.get(c.faction, 0) + 1
    banned = {c.faction for c in state.bans}
    pool = [
        {
            "faction": f,
            "set": kiq.SETS[kiq.FACTIONS[f]],
            "copies": copies,
            "left": copies - taken.get(f, 0),
            "banned": f in banned,
            "legal": f in legal,
        }
        for f, copies in state.pool
    ]
    players = [
        {
            "pk": p,
            "name": names.get(p, str(p)),
            "picks": [c.faction for c in state.picks if c.player == p],
            "bans": [c.faction for c in state.bans if c.player == p],
            "auto": [c.faction for c in state.picks + state.bans if c.player == p and c.auto],
            "turn": step is not None and step[0] == p,
            "first": p == state.first,
        }
        for p in state.players
    ]
    return {
        "draft": draft,
        "done": step is None,
        "turn": step[0] if step else None,
        "turn_name": names.get(step[0], "") if step else "",
        "kind": step[1] if step else None,
        "pool": pool,
        "players": players,
        "first_name": names.get(state.first, ""),
        "first_by": state.first_by,
        "steps_done": len(state.picks) + len(state.bans),
        "steps_total": len(kiq.turn_order(state)),
    }
