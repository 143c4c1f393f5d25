"""Self check-in by QR code: the organizer opens it and shows the code (dashboard, projector between
rounds, never the public pages); a signed-in entrant, or a guest with their player link, checks in with
one tap; a forged, rotated or closed code, a device that is nobody, a waiting or dropped player are
refused and nothing changes."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from tests.tournaments.people import user
from tournaments import services
from tournaments.models import AuditEntry, Entrant, Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    event = services.create_event(
        user("org"), name="Venue Cup", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE
    )
    services.register(event, "Ada")
    services.register(event, "Bo", user=user("bo"))
    return event


def snapshot(event: Event) -> list:
    event.refresh_from_db()
    people = list(Entrant.objects.filter(event=event).order_by("pk").values_list("name", "checked_in"))
    return [*people, event.version, event.check_in_secret, AuditEntry.objects.filter(event=event).count()]


def as_guest(client, name: str) -> None:
    """This browser opens the player link of `name` (what a guest does on their phone)."""
    client.post(reverse("tournaments:private", args=[Entrant.objects.get(name=name).token]))


def code_url(event: Event, secret: str | None = None) -> str:
    event.refresh_from_db()
    return reverse("tournaments:code_check_in", args=[event.pk, secret or event.check_in_secret])


def test_a_guest_with_their_link_checks_in_with_one_tap(event, client):
    services.set_self_check_in(event, True, user("org"))
    as_guest(client, "Ada")
    page = client.get(code_url(event)).content.decode()
    assert "Check in as Ada" in page
    response = client.post(code_url(event), follow=True)
    assert "You are checked in." in response.content.decode()
    ada = Entrant.objects.get(name="Ada")
    assert ada.checked_in and ada.checked_in_at is not None
    assert AuditEntry.objects.filter(event=event, action="check_in", data__by_code=True).count() == 1
    before = snapshot(event)
    assert client.post(code_url(event)).status_code == 302  # again: already in, nothing new
    assert snapshot(event) == before


def test_a_signed_in_entrant_checks_in(event, client):
    services.set_self_check_in(event, True, user("org"))
    client.force_login(user("bo"))
    client.post(code_url(event))
    assert Entrant.objects.get(name="Bo").checked_in


def test_a_rotated_code_is_refused_and_changes_nothing(event, client):
    org = user("org")
    services.set_self_check_in(event, True, org)
    old = code_url(event)
    services.rotate_check_in_code(event, org)
    assert code_url(event) != old
    as_guest(client, "Ada")
    before = snapshot(event)
    response = client.post(old)
    assert response.status_code == 403
    assert "not valid" in response.content.decode()
    assert client.get(old).status_code == 403
    assert snapshot(event) == before


@pytest.mark.parametrize("forged", ["x", "A" * 24, "", " "])
def test_a_forged_code_is_refused(event, client, forged):
    services.set_self_check_in(event, True, user("org"))
    as_guest(client, "Ada")
    before = snapshot(event)
    url = f"/tournaments/{event.pk}/check-in/{forged}/"
    status = client.post(url).status_code
    assert status in (403, 404)  # an empty secret does not even match the URL
    assert snapshot(event) == before


def test_a_closed_check_in_refuses_even_the_right_code_and_closing_voids_it(event, client):
    org = user("org")
    as_guest(client, "Ada")
    before = snapshot(event)
    response = client.post(code_url(event))
    assert response.status_code == 409 and "Self check-in is closed" in response.content.decode()
    assert snapshot(event) == before
    services.set_self_check_in(event, True, org)
    seen = code_url(event)
    services.set_self_check_in(event, False, org)
    services.set_self_check_in(event, True, org)
    before = snapshot(event)
    assert client.post(seen).status_code == 403  # a code seen at the last opening
    assert snapshot(event) == before


def test_a_device_that_is_nobody_is_told_how_to_check_in(event, client):
    services.set_self_check_in(event, True, user("org"))
    page = client.get(code_url(event)).content.decode()
    assert "not signed up for this event" in page and "Sign in" in page
    before = snapshot(event)
    assert client.post(code_url(event)).status_code == 403
    assert snapshot(event) == before


def test_waiting_and_dropped_players_cannot_check_in(event, client):
    org = user("org")
    services.set_player_cap(event, 2, org)
    services.register(event, "Cy")  # number 1 on the waitlist
    services.set_self_check_in(event, True, org)
    as_guest(client, "Cy")
    before = snapshot(event)
    response = client.post(code_url(event))
    assert response.status_code == 409 and "waitlist" in response.content.decode()
    services.drop(Entrant.objects.get(name="Ada"), org)  # Cy gets Ada's place
    as_guest(client, "Ada")
    before = snapshot(event)
    response = client.post(code_url(event))
    assert response.status_code == 409 and "dropped" in response.content.decode()
    assert snapshot(event) == before


def test_the_code_shows_to_organizers_only(event, client):
    org = user("org")
    services.set_self_check_in(event, True, org)
    event.refresh_from_db()
    secret = event.check_in_secret
    for name in ("event", "projector", "standings", "me"):
        html = client.get(reverse(f"tournaments:{name}", args=[event.pk])).content.decode()
        assert secret not in html
    client.force_login(user("mallory"))
    assert secret not in client.get(reverse("tournaments:projector", args=[event.pk])).content.decode()
    client.force_login(org)
    dashboard = client.get(reverse("tournaments:manage", args=[event.pk])).content.decode()
    assert secret in dashboard and 'aria-label="QR code to check in at Venue Cup"' in dashboard
    projector = client.get(reverse("tournaments:projector", args=[event.pk])).content.decode()
    assert secret not in projector  # the SVG carries the link as modules, not as text
    assert 'id="p-check-in"' in projector and "QR code to check in" in projector


def test_the_qr_code_encodes_the_check_in_link(event, client):
    """Decode the SVG's modules back with the `qrcode` package's own matrix: the same link."""
    import qrcode

    org = user("org")
    services.set_self_check_in(event, True, org)
    client.force_login(org)
    html = client.get(reverse("tournaments:manage", args=[event.pk])).content.decode()
    link = "http://testserver" + code_url(event)
    pattern = r'<svg class="qr"[^>]*aria-label="QR code to check in[^"]*".*?</svg>'
    svg = re.search(pattern, html, re.S).group(0)
    expected = qrcode.make(link, image_factory=qrcode.image.svg.SvgPathImage, border=2).to_string(
        encoding="unicode"
    )
    path = re.search(r' d="([^"]+)"', expected).group(1)
    assert path in svg


def test_only_organizers_open_close_and_rotate(event, client):
    before = snapshot(event)
    client.force_login(user("mallory"))
    for action in ("open", "close", "rotate"):
        assert client.post(reverse("tournaments:self_check_in", args=[event.pk, action])).status_code == 403
    assert snapshot(event) == before
    with pytest.raises(services.NotAllowed):
        services.rotate_check_in_code(event, Entrant.objects.get(name="Ada"))
    assert snapshot(event) == before
    client.force_login(user("org"))
    assert client.post(reverse("tournaments:self_check_in", args=[event.pk, "nope"])).status_code == 404
    client.post(reverse("tournaments:self_check_in", args=[event.pk, "open"]))
    event.refresh_from_db()
    assert event.self_check_in_open


def test_a_finished_event_refuses_the_code(event, client):
    org = user("org")
    services.set_self_check_in(event, True, org)
    url = code_url(event)
    services.finish_event(event, org)
    as_guest(client, "Ada")
    before = snapshot(event)
    response = client.post(url)
    assert response.status_code == 409 and "over" in response.content.decode()
    assert snapshot(event) == before
