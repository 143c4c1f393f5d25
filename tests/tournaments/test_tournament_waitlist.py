"""The player cap and its waitlist: sign-ups beyond the cap wait in order, a place that opens before
the start goes to the first in line (their page says so), organizers see the line, reorder it and
give places; late entries respect the cap. Refused requests change nothing."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tests.tournaments.people import user
from tournaments import services
from tournaments.models import AuditEntry, Entrant, Event

pytestmark = pytest.mark.django_db


def capped_event(cap: int = 4, signups: int = 0, **fields) -> Event:
    fields.setdefault("draft_mode", Event.DraftMode.NONE)
    event = services.create_event(
        user("org"), name="Capped", date=datetime.date(2026, 5, 1), player_cap=cap, **fields
    )
    for i in range(signups):
        services.register(event, f"P{i + 1}")
    return event


def line(event: Event) -> list[tuple[str, int]]:
    return [(e.name, e.wait_rank) for e in services.waitlist(event)]


def snapshot(event: Event) -> list[tuple]:
    rows = Entrant.objects.filter(event=event).order_by("pk")
    state = [(e.name, e.wait_rank, e.dropped, e.checked_in, e.promoted_at) for e in rows]
    event.refresh_from_db()
    return [*state, event.player_cap, event.version, AuditEntry.objects.filter(event=event).count()]


def test_sign_ups_beyond_the_cap_join_the_waitlist_in_order():
    event = capped_event(cap=3, signups=5)
    placed = [e.name for e in services.active_entrants(event)]
    assert line(event) == [("P4", 1), ("P5", 2)]
    assert not Entrant.objects.get(name="P4").checked_in
    # An organizer adding a player at the desk respects the cap too (not checked in while waiting).
    added = services.register(event, "Desk", by=user("org"))
    assert added.wait_rank == 3 and not added.checked_in
    assert placed == []  # nobody checked in yet (the event asks for check-in)
    assert event.entrants.filter(wait_rank__isnull=True).count() == 3


def test_a_drop_before_the_start_gives_the_place_to_the_first_in_line():
    event = capped_event(cap=3, signups=5)
    p2 = Entrant.objects.get(name="P2")
    services.drop(p2, p2)
    p4 = Entrant.objects.get(name="P4")
    assert p4.wait_rank is None and p4.promoted_at is not None
    assert line(event) == [("P5", 1)]
    assert AuditEntry.objects.filter(event=event, action="promote", data__entrant=p4.pk).exists()


def test_a_cap_raise_lets_as_many_in_as_it_adds():
    event = capped_event(cap=2, signups=5)
    services.set_player_cap(event, 4, user("org"))
    assert line(event) == [("P5", 1)]
    promoted = Entrant.objects.filter(promoted_at__isnull=False).values_list("name", flat=True)
    assert set(promoted) == {"P3", "P4"}
    services.update_event(event, user("org"), player_cap=None)  # the form's way: no cap at all
    assert line(event) == []


def test_leaving_the_waitlist_closes_the_gap():
    event = capped_event(cap=2, signups=5)
    p4 = Entrant.objects.get(name="P4")
    services.drop(p4, p4)
    assert line(event) == [("P3", 1), ("P5", 2)]
    assert Entrant.objects.get(name="P4").wait_rank is None
    assert event.entrants.filter(wait_rank__isnull=True, dropped=False).count() == 2  # nobody promoted


def test_organizers_reorder_and_promote():
    event = capped_event(cap=2, signups=5)
    org = user("org")
    services.move_on_waitlist(Entrant.objects.get(name="P5"), 1, org)
    assert line(event) == [("P5", 1), ("P3", 2), ("P4", 3)]
    with pytest.raises(services.Conflict, match="full"):
        services.promote(Entrant.objects.get(name="P4"), org)
    services.set_player_cap(event, 3, org)  # the first in line (P5, moved up) gets the place
    assert line(event) == [("P3", 1), ("P4", 2)]


def test_after_the_start_a_place_waits_for_an_organizer():
    org = user("org")
    event = capped_event(cap=4, signups=6, require_check_in=False)
    rnd = services.generate_round(event, org)
    assert sorted(s.entrant.name for t in rnd.tables.all() for s in t.seats.all()) == ["P1", "P2", "P3", "P4"]
    p1 = Entrant.objects.get(name="P1")
    services.drop(p1, p1)
    assert line(event) == [("P5", 1), ("P6", 2)]  # the waiting players may not be at the venue
    # A late entry does not jump the line even though a place is open.
    late = services.register(event, "Late")
    assert late.wait_rank == 3
    services.promote(Entrant.objects.get(name="P6"), org)
    assert line(event) == [("P5", 1), ("Late", 2)]
    with pytest.raises(services.Conflict, match="full"):
        services.promote(Entrant.objects.get(name="P5"), org)


def test_waiting_players_are_never_checked_in_paired_or_seated():
    org = user("org")
    event = capped_event(cap=4, signups=5)
    p5 = Entrant.objects.get(name="P5")
    before = snapshot(event)
    with pytest.raises(services.Conflict, match="waitlist"):
        services.check_in(p5, org)
    assert snapshot(event) == before
    for e in Entrant.objects.filter(wait_rank__isnull=True):
        services.check_in(e, org)
    rnd = services.generate_round(event, org)
    assert p5.pk not in {s.entrant_id for t in rnd.tables.all() for s in t.seats.all()}
    assert not rnd.byes.filter(entrant=p5).exists()
    assert p5.pk not in {row.entrant.pk for row in services.standings(event)}


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda e, org, p: services.set_player_cap(e, 2, org), "cannot be below 3"),
        (lambda e, org, p: services.set_player_cap(e, 1, org), "at least 2"),
        (lambda e, org, p: services.set_player_cap(e, "5", org), "at least 2"),
        (lambda e, org, p: services.move_on_waitlist(p, 3, org), "from 1 to 2"),
        (lambda e, org, p: services.move_on_waitlist(p, 0, org), "from 1 to 2"),
        (lambda e, org, p: services.move_on_waitlist(Entrant.objects.get(name="P1"), 1, org), "not on the"),
        (lambda e, org, p: services.promote(Entrant.objects.get(name="P1"), org), "not on the"),
        (lambda e, org, p: services.promote(p, user("mallory")), "Only the organizers"),
        (lambda e, org, p: services.move_on_waitlist(p, 1, p), "Only the organizers"),
        (lambda e, org, p: services.set_player_cap(e, 9, user("mallory")), "Only the organizers"),
        (lambda e, org, p: services.update_event(e, org, player_cap=2), "cannot be below 3"),
    ],
)
def test_refused_waitlist_changes_change_nothing(call, error):
    event = capped_event(cap=3, signups=5)
    waiting = Entrant.objects.get(name="P5")
    before = snapshot(event)
    with pytest.raises(services.TournamentError, match=error):
        call(event, user("org"), waiting)
    assert snapshot(event) == before


def test_reinstating_into_a_full_event_is_refused():
    org = user("org")
    event = capped_event(cap=2, signups=2)
    p1 = Entrant.objects.get(name="P1")
    services.drop(p1, org)
    services.register(event, "P3")  # takes the open place at once
    before = snapshot(event)
    with pytest.raises(services.Conflict, match="full"):
        services.reinstate(p1, org)
    assert snapshot(event) == before


# ---------------------------------------------------------------------------------- pages --------
def test_the_pages_tell_a_player_where_they_stand(client):
    event = capped_event(cap=2, signups=2)
    page = client.get(reverse("tournaments:event", args=[event.pk])).content.decode()
    assert "The event is full (2 players)" in page
    response = client.post(reverse("tournaments:signup", args=[event.pk]), {"name": "Wanda"}, follow=True)
    html = response.content.decode()
    assert "number 1 on the waitlist" in html
    assert "You are number <strong>1</strong> on the waitlist." in html
    assert "Leave the waitlist" in html
    p1 = Entrant.objects.get(name="P1")
    services.drop(p1, p1)
    html = client.get(reverse("tournaments:me", args=[event.pk])).content.decode()
    assert "A place opened for you: you are in the event." in html
    assert "Check in at the venue" in html
    assert "on the waitlist" not in html


def test_the_dashboard_shows_the_line_and_its_controls(client):
    event = capped_event(cap=2, signups=4)
    client.force_login(user("org"))
    html = client.get(reverse("tournaments:manage", args=[event.pk])).content.decode()
    assert "2 of 2 places taken." in html
    assert 'id="waitlist"' in html and html.index(">P3<") < html.index(">P4<")
    p4 = Entrant.objects.get(name="P4")
    client.post(reverse("tournaments:entrant_action", args=[event.pk, p4.pk, "waitlist"]), {"rank": "1"})
    assert line(event) == [("P4", 1), ("P3", 2)]
    client.post(reverse("tournaments:player_cap", args=[event.pk]), {"player_cap": "3"})
    assert line(event) == [("P3", 1)]
    before = snapshot(event)
    response = client.post(
        reverse("tournaments:entrant_action", args=[event.pk, Entrant.objects.get(name="P3").pk, "waitlist"]),
        {"rank": "1x"},
        follow=True,
    )
    assert "rank" in response.content.decode()
    cap_url = reverse("tournaments:player_cap", args=[event.pk])
    response = client.post(cap_url, {"player_cap": "1"}, follow=True)
    assert "at least 2" in response.content.decode()
    assert snapshot(event) == before
    # Adding at the desk when full says where the player went.
    response = client.post(reverse("tournaments:entrant_add", args=[event.pk]), {"name": "Zed"}, follow=True)
    assert "The event is full: Zed is number 2 on the waitlist." in response.content.decode()


def test_only_organizers_reach_the_cap_and_waitlist_controls(client):
    event = capped_event(cap=2, signups=3)
    before = snapshot(event)
    p3 = Entrant.objects.get(name="P3")
    client.force_login(user("mallory"))
    cap_url = reverse("tournaments:player_cap", args=[event.pk])
    assert client.post(cap_url, {"player_cap": "9"}).status_code == 403
    url = reverse("tournaments:entrant_action", args=[event.pk, p3.pk, "promote"])
    assert client.post(url).status_code == 403
    assert snapshot(event) == before
