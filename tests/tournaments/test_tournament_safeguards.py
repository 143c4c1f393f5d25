"""What an abusive visitor or a careless admin could do to an event (issue 28, finding 7), on the real
PostgreSQL: a player's private link switches a browser only by a POST from its own page (a GET, from
any link, image or redirect elsewhere, switches nothing; a POST without the page's CSRF token is
refused); a result has one open dispute; the audit log is append-only, in the admin too; an event
with results is archived, never deleted, and keeps its log."""

from __future__ import annotations

import re

import pytest
from django.db.models import ProtectedError
from django.test import Client

from tests.tournaments import people
from tests.tournaments.people import user
from tournaments import services
from tournaments.models import AuditEntry, Entrant, Event, Seat, Table

pytestmark = pytest.mark.django_db


def new_event(players: int = 4, name: str = "Safeguards") -> Event:
    # the model's own draft default, as an organizer's new event has
    return people.new_event(players, name=name, player_name="P{}", draft_mode=Event.DraftMode.EVENT)


def reported_table(event: Event) -> Table:
    rnd = services.generate_round(event, user("org"))
    table = rnd.tables.order_by("number").first()
    seats = list(table.seats.order_by("position"))
    services.report_result(table, seats[0].entrant, {s.entrant_id: 10 - s.position for s in seats})
    table.refresh_from_db()
    return table


def csrf_token(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


# ---------------------------------------------------------------------------------- private link -
def test_a_get_of_a_private_link_switches_nothing_and_only_its_pages_post_does():
    event = new_event()
    ada, bob = Entrant.objects.filter(event=event).order_by("name")[:2]
    browser = Client(enforce_csrf_checks=True)
    session = browser.session
    session["tournament_entries"] = {str(event.pk): bob.token}  # this browser is Bob
    session.save()
    # Another site makes the browser open Ada's link (a link, an image, a redirect): a page, no switch.
    page = browser.get(f"/tournaments/p/{ada.token}/")
    html = page.content.decode()
    assert page.status_code == 200 and "Continue as P1" in html and "acts for <strong>P2</strong>" in html
    assert page["Referrer-Policy"] == "same-origin"
    assert services.entrant_for(event, session=browser.session) == bob
    assert "P2" in browser.get(f"/tournaments/{event.pk}/me/").content.decode()
    # Its "drop" would have dropped Ada; it can only drop Bob, whom this browser is.
    # A forged POST from another site has no CSRF token: refused, nothing switched.
    assert browser.post(f"/tournaments/p/{ada.token}/").status_code == 403
    assert services.entrant_for(event, session=browser.session) == bob
    # The page's own button.
    response = browser.post(f"/tournaments/p/{ada.token}/", {"csrfmiddlewaretoken": csrf_token(html)})
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{event.pk}/me/"
    assert services.entrant_for(event, session=browser.session) == ada
    # Already Ada: the link goes straight to her page.
    assert browser.get(f"/tournaments/p/{ada.token}/")["Location"] == f"/tournaments/{event.pk}/me/"
    assert not Entrant.objects.filter(event=event, dropped=True).exists()


def test_a_bad_private_link_is_a_404_by_get_and_by_post():
    new_event()
    for method in ("get", "post"):
        assert getattr(Client(), method)("/tournaments/p/not-a-token/").status_code == 404


# ---------------------------------------------------------------------------------- disputes -----
def test_a_result_has_one_open_dispute_and_a_second_is_refused_without_a_log_entry(client):
    event = new_event()
    table = reported_table(event)
    seats = list(table.seats.select_related("entrant").order_by("position"))
    services.dispute_result(table, seats[1].entrant, "I had 12")
    logged = AuditEntry.objects.filter(event=event).count()
    before = list(Table.objects.filter(pk=table.pk).values())
    for who in (seats[1].entrant, seats[2].entrant):  # the same player again, and another
        with pytest.raises(services.Conflict, match=r"already disputed \(P\d: I had 12\)") as refused:
            services.dispute_result(table, who, "again")
        assert refused.value.code == "already_disputed"
    # Through the page too: a clear message, nothing logged.
    client.post(f"/tournaments/p/{seats[1].entrant.token}/")
    response = client.post(f"/tournaments/{event.pk}/tables/{table.pk}/dispute/", {"note": "x"}, follow=True)
    assert "already disputed" in response.content.decode()
    assert AuditEntry.objects.filter(event=event).count() == logged
    assert list(Table.objects.filter(pk=table.pk).values()) == before
    # Settled by an organizer, the new result is confirmed: nothing left to dispute.
    services.set_result(table, {s.entrant_id: 5 + s.position for s in seats}, by=user("org"))
    with pytest.raises(services.Conflict, match="no reported result"):
        services.dispute_result(table, seats[1].entrant)


# ---------------------------------------------------------------------------------- audit --------
def test_audit_entries_cannot_be_changed_or_deleted_by_the_model():
    event = new_event()
    entry = AuditEntry.objects.filter(event=event).first()
    count = AuditEntry.objects.count()
    entry.message = "rewritten"
    for attempt in (
        entry.save,
        entry.delete,
        lambda: AuditEntry.objects.filter(event=event).update(message="rewritten"),
        lambda: AuditEntry.objects.filter(event=event).delete(),
        lambda: AuditEntry.objects.all().delete(),
    ):
        with pytest.raises(ValueError, match="append-only"):
            attempt()
    assert AuditEntry.objects.count() == count
    assert not AuditEntry.objects.filter(message="rewritten").exists()


@pytest.fixture
def admin_client():
    c = Client()
    c.force_login(user("root", is_staff=True, is_superuser=True))
    return c


def test_the_admin_shows_audit_entries_and_nothing_more_even_to_a_superuser(admin_client):
    event = new_event()
    entry = AuditEntry.objects.filter(event=event).first()
    count = AuditEntry.objects.count()
    base = "/admin/tournaments/auditentry/"
    assert admin_client.get(base).status_code == 200
    assert admin_client.get(f"{base}{entry.pk}/change/").status_code == 200  # shown, read-only
    assert admin_client.get(f"{base}add/").status_code == 403
    assert (
        admin_client.post(f"{base}add/", {"event": event.pk, "actor": "x", "action": "x"}).status_code == 403
    )
    assert admin_client.post(f"{base}{entry.pk}/change/", {"message": "rewritten"}).status_code == 403
    assert admin_client.get(f"{base}{entry.pk}/delete/").status_code == 403
    assert admin_client.post(f"{base}{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    bulk = admin_client.post(
        base, {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"}
    )
    assert bulk.status_code in (200, 302)
    assert AuditEntry.objects.count() == count
    assert AuditEntry.objects.get(pk=entry.pk).message == entry.message


# ---------------------------------------------------------------------------------- archive ------
def test_an_event_with_results_is_never_deleted_and_keeps_its_log(admin_client):
    event = new_event()
    reported_table(event)
    logged = AuditEntry.objects.filter(event=event).count()
    with pytest.raises(ProtectedError, match="archived, not deleted"):
        event.delete()
    with pytest.raises(ProtectedError):
        Event.objects.filter(pk=event.pk).delete()
    # The admin: no delete page, and its bulk delete lists the event as protected and deletes nothing.
    assert admin_client.get(f"/admin/tournaments/event/{event.pk}/delete/").status_code == 403
    page = admin_client.post(
        "/admin/tournaments/event/",
        {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes"},
    )
    assert page.status_code == 200 and "Cannot delete event" in page.content.decode()
    assert Event.objects.filter(pk=event.pk).exists()
    assert AuditEntry.objects.filter(event=event).count() == logged
    assert Seat.objects.filter(round__event=event, vp__isnull=False).exists()


def test_an_event_without_results_can_still_be_deleted_with_its_log(admin_client):
    event = new_event()
    services.generate_round(event, user("org"))  # paired, nothing played
    response = admin_client.post(f"/admin/tournaments/event/{event.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Event.objects.filter(pk=event.pk).exists()
    assert not AuditEntry.objects.filter(event_id=event.pk).exists()


def test_archiving_takes_an_event_out_of_the_lists_and_keeps_everything(client):
    event = new_event(name="Old Friday")
    reported_table(event)
    other = new_event(name="Next Friday")
    assert "Old Friday" in client.get("/tournaments/").content.decode()
    org = Client()
    org.force_login(user("org"))
    response = org.post(f"/tournaments/{event.pk}/archive/", follow=True)
    assert "archived" in response.content.decode()
    event.refresh_from_db()
    assert event.is_archived
    entry = AuditEntry.objects.filter(event=event).first()
    assert entry.action == "archive" and entry.actor == "org"
    listed = client.get("/tournaments/").content.decode()
    assert "Old Friday" not in listed and other.name in listed
    # Its organizers still find it (to list it again); its pages and results stay.
    mine = org.get("/tournaments/").content.decode()
    assert "Your archived events" in mine and "Old Friday" in mine
    assert client.get(f"/tournaments/{event.pk}/standings/").status_code == 200
    assert org.post(f"/tournaments/{event.pk}/archive/", {"restore": "1"}).status_code == 302
    assert "Old Friday" in client.get("/tournaments/").content.decode()
    # Only organizers archive.
    stranger = Client()
    stranger.force_login(user("stranger"))
    assert stranger.post(f"/tournaments/{event.pk}/archive/").status_code == 403
    with pytest.raises(services.NotAllowed):
        services.archive_event(event, user("stranger"))
    with pytest.raises(services.Conflict, match="not archived"):
        services.archive_event(event, user("org"), archived=False)


def test_the_admin_archive_action_archives_and_logs(admin_client):
    event = new_event()
    reported_table(event)
    response = admin_client.post(
        "/admin/tournaments/event/", {"action": "archive", "_selected_action": [event.pk]}
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.is_archived
    assert AuditEntry.objects.filter(event=event).first().action == "archive"
