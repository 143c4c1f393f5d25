"""Self check-in at the venue: the organizer opens it and shows a QR code (dashboard, projector)
whose link carries the event's check-in secret; a player who scans it checks in with one tap.

The secret proves presence in the room, so it must not outlive the moment: it works only while self
check-in is open and the event is not over, the organizer can rotate it at any time (every code shown
or photographed so far stops working), and closing self check-in rotates it too, so a code seen today
never opens a later check-in. Who checks in is who this browser is for the event (their account, or
the player link they opened): the code alone checks nobody in.

Part of ``tournaments.services`` (see its docstring); import from there."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from ..models import Entrant, Event, new_token
from .changes import Conflict, NotAllowed, _changed, _lock, require_manager

STALE_CODE = "This check-in code is not valid (any more): scan the code the organizer shows now."


def set_self_check_in(event: Event, open_: bool, by) -> Event:
    """Open or close self check-in (closing rotates the secret)."""
    with transaction.atomic():
        event = _lock(event)
        require_manager(by, event)
        if event.is_finished and open_:
            raise Conflict("This event is over.")
        if event.self_check_in_open == open_:
            return event
        event.self_check_in_open = open_
        fields = ["self_check_in_open", "updated_at"]
        if not open_:
            event.check_in_secret = new_token()
            fields.append("check_in_secret")
        event.save(update_fields=fields)
        verb = "Opened" if open_ else "Closed"
        _changed(event, by, "self_check_in", f"{verb} self check-in.", open=open_)
    return event


def rotate_check_in_code(event: Event, by) -> Event:
    """A new secret: every check-in code shown so far stops working."""
    with transaction.atomic():
        event = _lock(event)
        require_manager(by, event)
        event.check_in_secret = new_token()
        event.save(update_fields=["check_in_secret", "updated_at"])
        _changed(event, by, "self_check_in", "Made a new check-in code (the old one no longer works).")
    return event


def check_in_code_valid(event: Event, secret) -> bool:
    """Whether `secret` opens self check-in now (constant-time comparison)."""
    return (
        isinstance(secret, str)
        and event.self_check_in_open
        and not event.is_finished
        and secrets.compare_digest(secret.encode(), event.check_in_secret.encode())
    )


def self_check_in(event: Event, entrant: Entrant | None, secret) -> Entrant:
    """`entrant` (who this browser is for the event, or None) checks in with the venue's code."""
    with transaction.atomic():
        event = _lock(event)
        if not check_in_code_valid(event, secret):
            if event.is_finished:
                raise Conflict("This event is over.")
            if not event.self_check_in_open:
                raise Conflict("Self check-in is closed: check in with the organizer.")
            raise NotAllowed(STALE_CODE, "stale_code")
        if entrant is None:
            raise NotAllowed(
                "This device is not signed up for this event: open your player link or sign in, then "
                "scan the code again."
            )
        entrant = Entrant.objects.select_for_update().get(pk=entrant.pk, event=event)
        if entrant.dropped:
            raise Conflict("You have dropped from this event: see the organizer to come back.")
        if entrant.waiting:
            raise Conflict(
                f"You are number {entrant.wait_rank} on the waitlist: you can check in once you have a place."
            )
        if entrant.checked_in:
            return entrant
        entrant.checked_in, entrant.checked_in_at = True, timezone.now()
        entrant.save(update_fields=["checked_in", "checked_in_at"])
        _changed(
            event, entrant, "check_in", f"{entrant.name} checked in with the venue's code.",
            entrant=entrant.pk, checked_in=True, by_code=True,
        )  # fmt: skip
    return entrant
