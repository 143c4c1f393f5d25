"""Players: sign-up (late entries too), check-in, drops, names, factions; who is active.

Part of ``tournaments.services`` (see its docstring); import from there."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.utils import timezone

from smashup import draft as kiq

from ..models import Entrant, Event, Round, Seat, Table
from .changes import (
    MAX_NAME,
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
    name = " ".join(str(name or "").split())
    if not name:
        raise Invalid("Enter a name.")
    if len(name) > MAX_NAME:
        raise Invalid(f"A name has at most {MAX_NAME} characters.")
    return name


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
        if event.entrants.filter(name__iexact=name).exists():
            raise Conflict(f"Someone called {name} is already signed up; add something to tell you apart.")
        last = latest_round(event)
        if checked_in is None:
            checked_in = organizer
        try:
            with transaction.atomic():
                entrant = Entrant.objects.create(
                    event=event,
                    name=name,
                    user=user,
                    checked_in=checked_in,
                    checked_in_at=timezone.now() if checked_in else None,
                    late_round=last.number if last else None,
                )
        except IntegrityError:
            raise Conflict(f"{name} is already signed up.") from None
        late = f" (late entry, during {last.label.lower()})" if last else ""
        who = "Added" if organizer else "Signed up"
        _changed(event, by or user or entrant, "register", f"{who} {name}{late}.", entrant=entrant.pk)
    return entrant


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
        entrant.dropped = True
        entrant.dropped_after = last.number if last else 0
        entrant.save(update_fields=["dropped", "dropped_after"])
        when = f"after {last.label.lower()}" if last else "before the first round"
        _changed(
            event,
            by,
            "drop",
            f"{entrant.name} dropped ({when}).",
            entrant=entrant.pk,
            after=entrant.dropped_after,
        )
    return entrant


def reinstate(entrant: Entrant | int, by) -> Entrant:
    """Undo a drop: the player is paired again from the next round on (the rounds missed stay missed)."""
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        require_manager(by, event)
        if not entrant.dropped:
            raise Conflict(f"{entrant.name} has not dropped.")
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
        if event.entrants.filter(name__iexact=name).exclude(pk=entrant.pk).exists():
            raise Conflict(f"Someone called {name} is already signed up.")
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
    qs = event.entrants.filter(dropped=False)
    if event.require_check_in:
        qs = qs.filter(checked_in=True)
    return list(qs)
