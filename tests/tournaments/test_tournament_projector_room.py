"""The projector as the room sees it: before round 1 how many have checked in (and, for an
organizer, the self check-in code); a large room's "find your table" makes the clock compact so a
page of names fits the screen."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from tests.tournaments.people import user
from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def event_with(players: int, checked_in: int) -> Event:
    org = user("org")
    event = services.create_event(
        org, name="Room", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE
    )
    for i in range(players):
        entrant = services.register(event, f"P{i + 1:03d}")
        if i < checked_in:
            services.check_in(entrant, org)
    return event


def body_class(html: str) -> str:
    return re.search(r'<body class="([^"]*)"', html).group(1)


def test_before_round_1_the_room_sees_who_has_checked_in(client):
    event = event_with(5, 3)
    html = client.get(reverse("tournaments:projector", args=[event.pk])).content.decode()
    assert "<strong>3</strong> of 5 players checked in." in re.sub(r"\s+", " ", html)
    services.set_self_check_in(event, True, user("org"))
    url = reverse("tournaments:projector", args=[event.pk])
    assert 'id="p-check-in"' not in client.get(url).content.decode()
    client.force_login(user("org"))
    html = client.get(reverse("tournaments:projector", args=[event.pk])).content.decode()
    assert 'id="p-check-in"' in html and "p-with-check-in" in html and "<strong>Event page</strong>" in html


@pytest.mark.parametrize("players, compact", [(13, False), (31, True)])
def test_a_large_room_gets_the_compact_clock(client, players, compact):
    event = event_with(players, players)
    services.generate_round(event, user("org"))
    html = client.get(reverse("tournaments:projector", args=[event.pk])).content.decode()
    assert ("p-finding" in body_class(html)) is compact
    assert html.count('class="p-where"') == players
