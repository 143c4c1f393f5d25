"""Who may act, and how every change is written: errors, permissions, the event lock, the audit
entry, the version bump and the live notification after the commit.

Part of ``tournaments.services`` (see its docstring); import from there."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from smashup.core.errors import Refused
from tournaments.names import MAX_NAME  # noqa: F401 (re-exported)

from ..models import AuditEntry, Entrant, Event

MAX_VP = 999


# ---------------------------------------------------------------------------------- errors -------
class TournamentError(Refused):
    """A refused request of tournaments (smashup.core.errors.Refused)."""


class NotAllowed(TournamentError):
    code = "forbidden"


class Conflict(TournamentError):
    code = "conflict"


class Invalid(TournamentError):
    code = "invalid"


# ---------------------------------------------------------------------------------- who ----------
def can_manage(user, event: Event) -> bool:
    """The organizer, a co-organizer or a superuser."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser or event.organizer_id == user.pk:
        return True
    return event.co_organizers.filter(pk=user.pk).exists()


def require_manager(user, event: Event) -> None:
    if not can_manage(user, event):
        raise NotAllowed("Only the organizers of this event can do that.")


def entrant_for(event: Event, user=None, session=None) -> Entrant | None:
    """The entrant this logged-in user or this browser session is, if any."""
    if user is not None and getattr(user, "is_authenticated", False):
        # One at most (unique per event): by pk, not the name order (its join and sort cost a query).
        found = event.entrants.filter(user=user).order_by("pk").first()
        if found is not None:
            return found
    token = ((session or {}).get("tournament_entries") or {}).get(str(event.pk))
    if isinstance(token, str) and token:
        return event.entrants.filter(token=token).order_by("pk").first()  # unique
    return None


def remember_entrant(session, entrant: Entrant) -> None:
    """This browser session acts for `entrant` from now on (what a sign-up or a private link gives)."""
    held = dict(session.get("tournament_entries") or {})
    held[str(entrant.event_id)] = entrant.token
    session["tournament_entries"] = held


def _actor(by) -> tuple[object | None, str]:
    """(user or None, display name) of whoever acts: a user, an entrant (a player) or None (the server)."""
    if by is None:
        return None, "server"
    if isinstance(by, str):
        return None, by
    if isinstance(by, Entrant):
        return by.user, f"{by.name} (player)"
    return by, by.get_username()


# ---------------------------------------------------------------------------------- plumbing -----
def _lock(event: Event | int) -> Event:
    pk = event.pk if isinstance(event, Event) else event
    try:
        return Event.objects.select_for_update().get(pk=pk)
    except Event.DoesNotExist:
        raise TournamentError("There is no such event.", "not_found") from None


def _changed(event: Event, by, action: str, message: str, **data) -> AuditEntry:
    """Inside the event's transaction: write the audit entry, bump the version, notify after commit."""
    user, actor = _actor(by)
    entry = AuditEntry.objects.create(
        event=event, user=user, actor=actor[:80], action=action, message=message, data=data
    )
    touch(event)
    return entry


def touch(event: Event) -> None:
    """Bump the event's version (the event row must be locked) and tell its pages after the commit."""
    event.version += 1
    Event.objects.filter(pk=event.pk).update(version=event.version, updated_at=timezone.now())
    pk, version = event.pk, event.version
    transaction.on_commit(lambda: notify(pk, version))


def notify(event_id: int, version: int) -> None:
    from ..delivery import queue_delivery
    from ..live import notify_event

    notify_event(event_id, version)
    queue_delivery(event_id)  # the notices by Web Push and e-mail, in a Celery task
