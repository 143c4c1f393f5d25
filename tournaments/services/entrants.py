"""Players: sign-up (late entries too), the player cap and its waitlist, check-in, drops, names,
factions; who is active.

The cap (``Event.player_cap``) counts the players who hold a place: not dropped, not waiting. A
sign-up beyond it, or while anyone is already waiting (nobody jumps the line), joins the waitlist at
its end (``Entrant.wait_rank``, 1 = next in). Before the event starts (no round paired yet) a place
that opens, by a drop or a cap raise, goes to the first in line at once (``promoted_at``: their page
says so). Once rounds are played a place stays open until an organizer promotes someone: the people
waiting may not be at the venue. Waiting players are never checked in nor paired.

Part of ``tournaments.services`` (see its docstring); import from there."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.utils import timezone

from smashup import draft as kiq
from tournaments import names

from ..models import Entrant, Event, Round, Seat, Table
from .changes import (
    Conflict,
    Invalid,
    TournamentError,
    _changed,
    _lock,
    can_manage,
    require_manager,
)


# ---------------------------------------------------------------------------------- entrants -----
def clean_name(name) -> str:
    """The name as stored (tournaments.names.clean_name: no control or invisible characters)."""
    try:
        return names.clean_name(name)
    except names.BadName as exc:
        raise Invalid(exc.message) from None


def _same_name(event: Event, name: str, but=None) -> Entrant | None:
    """The entrant of `event` whose name is `name` as names are compared (case, look-alike letters)."""
    found = event.entrants.filter(name_key=names.name_key(name))
    if but is not None:
        found = found.exclude(pk=but.pk)
    return found.first()


def latest_round(event: Event) -> Round | None:
    return event.rounds_set.order_by("-number").first()


def register(event: Event, name: str = "", *, user=None, by=None, checked_in: bool | None = None) -> Entrant:
    """Sign a player up. `by` None or the entrant's own user: a self sign-up (registration must be
    open); `by` an organizer: they add the player, checked in at once (they are at the desk).

    After round 1 was paired this is a late entry: the player is paired from the next round on, or
    the organizer seats them into a short table of the current round (`seat_late`)."""
    organizer = by is not None and by is not user and can_manage(by, event)
    if user is not None and not getattr(user, "is_authenticated", False):
        user = None
    if not name and user is not None:
        name = user.get_username()
    name = clean_name(name)
    with transaction.atomic():
        event = _lock(event)
        if event.is_finished:
            raise Conflict("This event is over.")
        if not organizer and not event.registration_open:
            raise Conflict("Registration for this event is closed; ask an organizer.")
        if user is not None and event.entrants.filter(user=user).exists():
            raise Conflict("You are already signed up for this event.")
        twin = _same_name(event, name)
        if twin is not None:
            looks = "" if twin.name == name else f" (as {twin.name}, which looks the same)"
            raise Conflict(
                f"Someone called {name} is already signed up{looks}; add something to tell you apart."
            )
        last = latest_round(event)
        wait_rank = None
        if event.player_cap is not None and (_room(event) <= 0 or _waiting(event).exists()):
            wait_rank = _waiting(event).count() + 1
        if checked_in is None or wait_rank is not None:
            checked_in = organizer and wait_rank is None
        try:
            with transaction.atomic():
                entrant = Entrant.objects.create(
                    event=event,
                    name=name,
                    user=user,
                    checked_in=checked_in,
                    checked_in_at=timezone.now() if checked_in else None,
                    late_round=last.number if last else None,
                    wait_rank=wait_rank,
                )
        except IntegrityError:
            raise Conflict(f"{name} is already signed up.") from None
        late = f" (late entry, during {last.label.lower()})" if last else ""
        who = "Added" if organizer else "Signed up"
        full = f", number {wait_rank} on the waitlist (the event is full)" if wait_rank else ""
        _changed(
            event, by or user or entrant, "register", f"{who} {name}{late}{full}.", entrant=entrant.pk,
            wait_rank=wait_rank,
        )  # fmt: skip
    return entrant


# ---------------------------------------------------------------------------------- waitlist -----
def _placed(event: Event):
    """The players who hold a place: not dropped, not waiting."""
    return event.entrants.filter(dropped=False, wait_rank__isnull=True)


def _waiting(event: Event):
    return event.entrants.filter(wait_rank__isnull=False).order_by("wait_rank", "pk")


def _room(event: Event) -> int:
    """Places left under the cap (a large number without a cap)."""
    if event.player_cap is None:
        return 1 << 30
    return event.player_cap - _placed(event).count()


def has_started(event: Event) -> bool:
    return event.status != Event.Status.REGISTRATION or event.rounds_set.exists()


def waitlist(event: Event) -> list[Entrant]:
    return list(_waiting(event))


def _renumber(event: Event) -> None:
    """Close the gaps in the line (1, 2, 3...), keeping its order."""
    for rank, entrant in enumerate(_waiting(event), start=1):
        if entrant.wait_rank != rank:
            Entrant.objects.filter(pk=entrant.pk).update(wait_rank=rank)


def _give_place(event: Event, entrant: Entrant, by, why: str) -> None:
    entrant.wait_rank = None
    entrant.promoted_at = timezone.now()
    entrant.save(update_fields=["wait_rank", "promoted_at"])
    _changed(event, by, "promote", f"{entrant.name} has a place ({why}).", entrant=entrant.pk)


def _fill_places(event: Event, by, why: str) -> list[Entrant]:
    """Before the start: give every open place to the first in line (the event row is locked); a
    lifted cap lets everyone in."""
    if has_started(event):
        return []
    promoted = []
    for entrant in list(_waiting(event))[: max(0, _room(event))]:
        _give_place(event, entrant, by, why)
        promoted.append(entrant)
    if promoted:
        _renumber(event)
    return promoted


def promote(entrant: Entrant | int, by) -> Entrant:
    """An organizer gives a waiting player a place now (out of order too), if there is room."""
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        require_manager(by, event)
        if not entrant.waiting:
            raise Conflict(f"{entrant.name} is not on the waitlist.")
        if _room(event) <= 0:
            raise Conflict(
                f"The event is full ({event.player_cap} players): raise the cap or drop a player first."
            )
        _give_place(event, entrant, by, "promoted by an organizer")
        _renumber(event)
    return entrant


def move_on_waitlist(entrant: Entrant | int, rank, by) -> Entrant:
    """An organizer moves a waiting player to place `rank` in line (1 = next in)."""
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        require_manager(by, event)
        if not entrant.waiting:
            raise Conflict(f"{entrant.name} is not on the waitlist.")
        line = [e for e in _waiting(event) if e.pk != entrant.pk]
        if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= len(line) + 1:
            raise Invalid(f"Choose a place from 1 to {len(line) + 1} on the waitlist.")
        before = entrant.wait_rank
        line.insert(rank - 1, entrant)
        for position, waiting in enumerate(line, start=1):
            if waiting.wait_rank != position:
                Entrant.objects.filter(pk=waiting.pk).update(wait_rank=position)
        entrant.wait_rank = rank
        _changed(
            event, by, "waitlist", f"Moved {entrant.name} to number {rank} on the waitlist.",
            entrant=entrant.pk, before=before, after=rank,
        )  # fmt: skip
    return entrant


def set_player_cap(event: Event, cap, by) -> Event:
    """Set or lift (None) the cap. Never below the players who hold a place; a raise before the
    start lets the first in line in."""
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 2):
        raise Invalid("A player cap is at least 2 players (or empty: no cap).")
    with transaction.atomic():
        event = _lock(event)
        require_manager(by, event)
        if cap == event.player_cap:
            return event
        placed = _placed(event).count()
        if cap is not None and cap < placed:
            raise Conflict(f"{placed} players already have a place: the cap cannot be below {placed}.")
        before, event.player_cap = event.player_cap, cap
        event.save(update_fields=["player_cap", "updated_at"])
        _changed(
            event, by, "settings", f"Player cap: {cap if cap is not None else 'none'}.",
            before={"player_cap": before}, after={"player_cap": cap},
        )  # fmt: skip
        _fill_places(event, by, "the cap was raised" if cap is not None else "the cap was lifted")
    return event


def _lock_entrant(entrant: Entrant | int) -> tuple[Event, Entrant]:
    pk = entrant.pk if isinstance(entrant, Entrant) else entrant
    event_id = Entrant.objects.filter(pk=pk).values_list("event_id", flat=True).first()
    if event_id is None:
        raise TournamentError("There is no such player.", "not_found")
    event = _lock(event_id)
    return event, Entrant.objects.get(pk=pk)


def check_in(entrant: Entrant | int, by, checked_in: bool = True) -> Entrant:
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        require_manager(by, event)
        if entrant.checked_in == checked_in:
            return entrant
        if entrant.dropped and checked_in:
            raise Conflict(f"{entrant.name} has dropped; reinstate them first.")
        if entrant.waiting and checked_in:
            raise Conflict(f"{entrant.name} is on the waitlist; give them a place first.")
        entrant.checked_in = checked_in
        entrant.checked_in_at = timezone.now() if checked_in else None
        entrant.save(update_fields=["checked_in", "checked_in_at"])
        verb = "Checked in" if checked_in else "Undid the check-in of"
        _changed(event, by, "check_in", f"{verb} {entrant.name}.", entrant=entrant.pk, checked_in=checked_in)
    return entrant


def drop(entrant: Entrant | int, by) -> Entrant:
    """Drop from the next round on: a table the player sits at now keeps them (and their result)."""
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        own = isinstance(by, Entrant) and by.pk == entrant.pk
        if not own:
            require_manager(by, event)
        if entrant.dropped:
            raise Conflict(f"{entrant.name} has already dropped.")
        last = latest_round(event)
        was_waiting = entrant.waiting
        entrant.dropped = True
        entrant.dropped_after = last.number if last else 0
        entrant.wait_rank = None
        entrant.save(update_fields=["dropped", "dropped_after", "wait_rank"])
        if was_waiting:
            _changed(event, by, "drop", f"{entrant.name} left the waitlist.", entrant=entrant.pk, after=None)
            _renumber(event)
            return entrant
        when = f"after {last.label.lower()}" if last else "before the first round"
        _changed(
            event,
            by,
            "drop",
            f"{entrant.name} dropped ({when}).",
            entrant=entrant.pk,
            after=entrant.dropped_after,
        )
        _fill_places(event, by, f"{entrant.name} dropped")
    return entrant


def reinstate(entrant: Entrant | int, by) -> Entrant:
    """Undo a drop: the player is paired again from the next round on (the rounds missed stay missed)."""
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        require_manager(by, event)
        if not entrant.dropped:
            raise Conflict(f"{entrant.name} has not dropped.")
        if _room(event) <= 0 or (event.player_cap is not None and _waiting(event).exists()):
            raise Conflict(
                f"The event is full ({event.player_cap} players) or has a waitlist: raise the cap, "
                "or give the place to the first in line."
            )
        entrant.dropped = False
        entrant.dropped_after = None
        entrant.save(update_fields=["dropped", "dropped_after"])
        _changed(event, by, "reinstate", f"Reinstated {entrant.name}.", entrant=entrant.pk)
    return entrant


def rename(entrant: Entrant | int, name: str, by) -> Entrant:
    name = clean_name(name)
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        require_manager(by, event)
        twin = _same_name(event, name, but=entrant)
        if twin is not None:
            looks = "" if twin.name == name else f" (as {twin.name}, which looks the same)"
            raise Conflict(f"Someone called {name} is already signed up{looks}.")
        old = entrant.name
        entrant.name = name
        entrant.save(update_fields=["name"])
        _changed(event, by, "rename", f"Renamed {old} to {name}.", entrant=entrant.pk, before=old)
    return entrant


def set_factions(entrant: Entrant | int, factions: Iterable[str], by) -> Entrant:
    """The organizer sets a player's pair (no draft, or a late entrant in an event draft). Copied to
    the player's seats in rounds without results yet."""
    factions = [f for f in factions if f]
    if len(factions) != 2 or factions[0] == factions[1] or any(f not in kiq.FACTIONS for f in factions):
        raise Invalid("Choose two different factions.")
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        require_manager(by, event)
        entrant.factions = factions
        entrant.save(update_fields=["factions"])
        Seat.objects.filter(entrant=entrant, table__state=Table.State.OPEN).filter(
            table__draft__isnull=True
        ).update(factions=factions)
        _changed(
            event,
            by,
            "factions",
            f"Set the factions of {entrant.name}: {' + '.join(factions)}.",
            entrant=entrant.pk,
        )
    return entrant


def active_entrants(event: Event) -> list[Entrant]:
    """Who is paired in the next round: not dropped and (when the event asks for it) checked in."""
    qs = event.entrants.filter(dropped=False, wait_rank__isnull=True)
    if event.require_check_in:
        qs = qs.filter(checked_in=True)
    return list(qs)
