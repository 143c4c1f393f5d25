"""The accounts and events the tournament tests start from, written once for every test module."""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Event


def user(name: str, **fields):
    """The account called `name`, made on first use with the password "pw-<name>" (tests that log in
    through the form use it); `fields` (email, is_staff, ...) apply only when it is made."""
    found = get_user_model().objects.filter(username=name).first()
    return found or get_user_model().objects.create_user(username=name, password="pw-" + name, **fields)


def new_event(
    players: int = 0,
    *,
    organizer=None,
    player_name: str = "P{:02d}",
    **fields,
) -> Event:
    """An event organized by `organizer` (the account "org" unless given), with `players` players
    registered by the organizer and named by `player_name` from 1 up (P01, P02, ...); no draft
    unless `fields` asks for one, and the name and date a test does not care about."""
    organizer = organizer or user("org")
    fields.setdefault("name", "Friday Smash")
    fields.setdefault("date", datetime.date(2026, 5, 1))
    fields.setdefault("draft_mode", Event.DraftMode.NONE)
    event = services.create_event(organizer, **fields)
    for i in range(players):
        services.register(event, player_name.format(i + 1), by=organizer)
    return event
