"""A player's notices away from their page (tournaments.delivery): by Web Push to a push service on
loopback that decrypts each message with the subscription's keys and checks the VAPID signature
(push_service.py), and by e-mail through a real SMTP server on loopback (aiosmtpd). Table paired,
pick up, clock low, time called, result to confirm, a place off the waitlist: each moment once.

The pages that turn them on and off, and the links of the mails, are here too; the encryption and
signing one message at a time: test_tournament_push.py; the page in Chromium:
tests/browser/test_tournament_push_page.py."""

from __future__ import annotations

import datetime
import html
import json
import re
import threading
import uuid
from collections import Counter
from email.header import decode_header, make_header

import pytest
from celery.contrib.testing.worker import start_worker
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from smashup.celery import app as celery_app
from smashup.core import mail as account_mail
from tests.tournaments.people import user
from tournaments import clock, delivery, drafting, mailing, services
from tournaments.models import (
    Entrant,
    Event,
    NoticeEmail,
    NoticeSent,
    PushSubscription,
    RoundClock,
    Table,
)


def player(entrant: Entrant) -> Client:
    """A browser that acts for `entrant` (what their private link's button does)."""
    client = Client()
    session = client.session
    session["tournament_entries"] = {str(entrant.event_id): entrant.token}
    session.save()
    return client


def push_on(client: Client, event: Event, sub) -> None:
    data = sub.as_json()
    response = client.post(
        reverse("tournaments:push_subscribe", args=[event.pk]),
        {"endpoint": data["endpoint"], **data["keys"]},
    )
    assert response.status_code == 200, response.content


def mail_on(client: Client, event: Event, address: str, inbox) -> None:
    """Ask for the mails at `address` on the player's page, then open the link that arrives."""
    before = len(inbox)
    response = client.post(
        reverse("tournaments:notice_mail", args=[event.pk]), {"action": "on", "address": address}
    )
    assert response.status_code == 302
    account_mail.flush()
    message = inbox.wait_for(before + 1)[before]
    assert message["To"] == address and subject(message) == f"Confirm your notices of {event.name}"
    link = re.search(r"https?://[^/\s]+(/tournaments/mail/confirm/\S+)", body_of(message)).group(1)
    stranger = Client()  # the link works in any browser: the mailbox is what it proves
    assert NoticeEmail.objects.get(address=address).confirmed_at is None
    assert stranger.get(link).status_code == 200
    assert NoticeEmail.objects.get(address=address).confirmed_at is None  # a GET confirms nothing
    assert stranger.post(link).status_code == 200
    assert NoticeEmail.objects.get(address=address).confirmed_at is not None


def body_of(message) -> str:
    return message.get_payload(decode=True).decode()


def subject(message) -> str:
    return str(make_header(decode_header(message["Subject"])))


def page_keys(client: Client, event: Event) -> list[str]:
    page = client.get(reverse("tournaments:me", args=[event.pk])).content.decode()
    found = re.search(r'<script id="t-notices-data" type="application/json">(.*?)</script>', page, re.S)
    return [n["key"] for n in json.loads(found.group(1))]


def pushed(service, sub) -> list[str]:
    return [m.payload["key"] for m in service.received if m.endpoint == sub.endpoint]


def notice_mails(inbox, address: str) -> list:
    return [m for m in inbox if m["To"] == address and not subject(m).startswith("Confirm your notices")]


def same_as_pages(event: Event, players: dict[Entrant, Client]) -> None:
    """What delivery works out for each player is what their page shows (views.me_page)."""
    entrants = list(Entrant.objects.filter(pk__in=[e.pk for e in players]))
    due = delivery.current_notices(Event.objects.get(pk=event.pk), entrants)
    for entrant, client in players.items():
        assert [n.key for n in due[entrant.pk]] == page_keys(client, event), entrant.name


# ---------------------------------------------------------------------------------- every moment --
@pytest.mark.django_db
def test_each_notice_goes_once_by_push_and_by_mail(push_service, vapid, inbox):
    org = user("org")
    event = services.create_event(
        org, name="Push Cup", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.TABLE,
        table_size=2, player_cap=2, warning_minutes=[10],
    )  # fmt: skip
    ada = services.register(event, "Ada", by=org)
    bo = services.register(event, "Bo", by=org)
    cy = services.register(event, "Cy")
    assert cy.waiting
    browsers = {ada: player(ada), cy: player(cy)}
    ada_phone, cy_phone = push_service.subscribe(vapid), push_service.subscribe(vapid)
    push_on(browsers[ada], event, ada_phone)
    push_on(browsers[cy], event, cy_phone)
    mail_on(browsers[ada], event, "ada@example.org", inbox)
    mail_on(browsers[cy], event, "cy@example.org", inbox)
    assert delivery.deliver(event.pk)["notices"] == 0  # nothing has happened yet

    # A place opens: Bo drops before round 1, Cy is in.
    services.drop(Entrant.objects.get(pk=bo.pk), org)
    cy.refresh_from_db()
    same_as_pages(event, browsers)
    assert delivery.deliver(event.pk)["notices"] == 1
    place = f"place:{cy.promoted_at.isoformat()}"
    assert pushed(push_service, cy_phone) == [place] and pushed(push_service, ada_phone) == []

    services.check_in(Entrant.objects.get(pk=cy.pk), org)  # at the desk
    # Round 1 is paired: both hear it, and whoever picks first in the table's draft hears that too.
    rnd = services.generate_round(event, org)
    table = rnd.tables.get()
    draft = table.draft
    first = Entrant.objects.get(pk=drafting.kiq.current_picker(drafting.state_of(draft)))
    same_as_pages(event, browsers)
    assert delivery.deliver(event.pk)["notices"] == 3
    phones = {ada.pk: ada_phone, cy.pk: cy_phone}
    assert pushed(push_service, phones[first.pk])[-2:] == ["paired:1", f"pick:{table.pk}:0"]
    other = cy if first.pk == ada.pk else ada
    assert pushed(push_service, phones[other.pk])[-1] == "paired:1"
    assert delivery.deliver(event.pk)["notices"] == 0  # once per moment, however often it runs

    # The next choice of the draft is a new moment for whoever makes it.
    drafting.pick_for_current(draft.pk, org)
    draft.refresh_from_db()
    nxt = drafting.kiq.current_picker(drafting.state_of(draft))
    same_as_pages(event, browsers)
    assert delivery.deliver(event.pk)["notices"] == 1
    assert pushed(push_service, phones[nxt])[-1] == f"pick:{table.pk}:1"
    while draft.status == draft.Status.OPEN:
        drafting.pick_for_current(draft.pk, org)
        draft.refresh_from_db()
    assert delivery.deliver(event.pk)["notices"] == 0  # picks made meanwhile are over: not sent late

    # The clock runs low, then time is called.
    round_clock = RoundClock.objects.select_related("round").get(round=rnd)
    clock.start(round_clock, org)
    RoundClock.objects.filter(pk=round_clock.pk).update(
        deadline=timezone.now() + datetime.timedelta(minutes=9)
    )
    assert clock.advance(round_clock.pk) == ["warn:600"]
    same_as_pages(event, browsers)
    assert delivery.deliver(event.pk)["notices"] == 2
    clock.call_time(round_clock.pk, org)
    same_as_pages(event, browsers)
    assert delivery.deliver(event.pk)["notices"] == 2

    # Ada enters the result: Cy is asked to confirm it; then it is confirmed and nothing is left.
    services.report_result(table.pk, Entrant.objects.get(pk=ada.pk), {ada.pk: 12, cy.pk: 9})
    table = Table.objects.get(pk=table.pk)
    same_as_pages(event, browsers)
    assert delivery.deliver(event.pk)["notices"] == 1
    services.confirm_result(table.pk, Entrant.objects.get(pk=cy.pk), table.result_version)
    same_as_pages(event, browsers)
    assert delivery.deliver(event.pk)["notices"] == 0

    confirm = f"confirm:{table.pk}:{table.result_version}"
    expected = {
        ada.pk: ["paired:1", "clock:1:600", "called:1"],
        cy.pk: [place, "paired:1", "clock:1:600", "called:1", confirm],
    }
    expected[first.pk].append(f"pick:{table.pk}:0")
    expected[nxt].append(f"pick:{table.pk}:1")
    for who, phone, address in ((ada, ada_phone, "ada@example.org"), (cy, cy_phone, "cy@example.org")):
        got = pushed(push_service, phone)
        assert sorted(got) == sorted(expected[who.pk]), who.name  # each moment, and once
        lines = (line for m in notice_mails(inbox, address) for line in body_of(m).splitlines())
        titles = Counter(line for line in lines if line in KIND_TITLE.values())
        assert titles == Counter(KIND_TITLE[delivery.kind(key)] for key in got), who.name
    assert push_service.rejected == []
    assert NoticeSent.objects.filter(entrant=ada).count() == len(expected[ada.pk])
    # The mails: one per delivery that had something new for the player, every notice in it.
    assert [subject(m) for m in notice_mails(inbox, "cy@example.org")][:2] == [
        "You have a place · Push Cup",
        "Round 1: table 1 · Push Cup" if first.pk != cy.pk else "Your pick (and 1 more) · Push Cup",
    ]
    last = notice_mails(inbox, "cy@example.org")[-1]
    assert subject(last) == "Confirm your result · Push Cup"
    assert "Ada entered the result of table 1: confirm it or dispute it." in body_of(last)
    assert last["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = "".join(last["List-Unsubscribe"].split())  # unfolded
    assert re.match(r"<http://testserver/tournaments/mail/stop/\S+/>$", unsubscribe)


# The titles of the notices (tournaments.notices) by kind, as the mails show them.
KIND_TITLE = {
    "place": "You have a place",
    "paired": "Round 1: table 1",
    "pick": "Your pick",
    "clock": "Time runs low",
    "called": "Time is called",
    "confirm": "Confirm your result",
}


# ---------------------------------------------------------------------------------- gone -------
def two_player_event(**fields) -> tuple[Event, Entrant, Entrant]:
    org = user("org")
    fields.setdefault("draft_mode", Event.DraftMode.NONE)
    event = services.create_event(
        org, name="Gone Cup", date=datetime.date(2026, 5, 1), table_size=2, **fields
    )
    return event, services.register(event, "Ada", by=org), services.register(event, "Bo", by=org)


@pytest.mark.django_db
def test_a_subscription_the_push_service_says_is_gone_is_removed(push_service, vapid):
    event, ada, bo = two_player_event()
    browser = player(ada)
    kept, gone, missing, broken = (push_service.subscribe(vapid) for _ in range(4))
    for sub in (kept, gone, missing, broken):
        push_on(browser, event, sub)
    push_service.status[gone.endpoint.removeprefix(push_service.origin)] = 410
    push_service.status[missing.endpoint.removeprefix(push_service.origin)] = 404
    push_service.status[broken.endpoint.removeprefix(push_service.origin)] = 503
    services.generate_round(event, event.organizer)
    outcome = delivery.deliver(event.pk)
    assert outcome == {"notices": 1, "pushed": 1, "gone": 2, "failed": 1, "mailed": 0}
    assert pushed(push_service, kept) == ["paired:1"]
    left = set(PushSubscription.objects.filter(entrant=ada).values_list("endpoint", flat=True))
    assert left == {kept.endpoint, broken.endpoint}  # a failure that is not "gone" keeps it
    assert PushSubscription.objects.get(endpoint=kept.endpoint).last_sent_at is not None


@pytest.mark.django_db
def test_what_the_page_showed_when_push_was_turned_on_is_not_pushed(push_service, vapid):
    event, ada, bo = two_player_event()
    services.generate_round(event, event.organizer)
    browser = player(ada)
    assert page_keys(browser, event) == ["paired:1"]
    sub = push_service.subscribe(vapid)
    push_on(browser, event, sub)
    assert delivery.deliver(event.pk)["notices"] == 0 and push_service.received == []


@pytest.mark.django_db
def test_no_task_without_anyone_to_tell_and_none_while_push_is_off(
    push_service, vapid, settings, monkeypatch
):
    sent = []
    monkeypatch.setattr(
        "smashup.core.schedule.send_at",
        lambda task, args, eta, **o: sent.append((task.name, args, o)) or True,
    )
    event, ada, bo = two_player_event()
    assert delivery.queue_delivery(event.pk) is False and sent == []
    push_on(player(ada), event, push_service.subscribe(vapid))
    settings.NOTICE_QUEUE = "notices-q"
    assert delivery.queue_delivery(event.pk) is True
    assert sent == [("tournaments.deliver_notices", (event.pk,), {"queue": "notices-q"})]
    settings.VAPID_PRIVATE_KEY = None  # push turned off on the site: the subscription waits
    sent.clear()
    assert delivery.queue_delivery(event.pk) is False and sent == []


@pytest.mark.django_db
def test_a_broker_that_cannot_be_reached_changes_nothing_the_player_did(push_service, vapid, monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("no broker")

    monkeypatch.setattr("smashup.core.schedule.send_at", down)
    event, ada, bo = two_player_event()
    push_on(player(ada), event, push_service.subscribe(vapid))
    assert delivery.queue_delivery(event.pk) is False  # logged, never raised
    services.notify(event.pk, event.version)  # the hook after a commit: no exception either


# ---------------------------------------------------------------------------------- the worker ---
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_pushes_and_mails_after_the_change_and_the_clock_task(
    redis_url, push_service, vapid, inbox, settings
):
    """The production path: the change commits, the hook sends a task on the tournament queue, a
    Celery worker runs it; the clock's own task (a warning) commits, then its notices go the same
    way."""
    settings.TOURNAMENT_QUEUE = queue = f"test-tournaments-{uuid.uuid4().hex}"
    assert celery_app.conf.task_always_eager is False
    org = user("org")
    ada_user = user("ada", email="ada@example.org")
    event = services.create_event(
        org, name="Worker Cup", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE,
        table_size=2, warning_minutes=[1],
    )  # fmt: skip
    ada = services.register(event, user=ada_user, by=org)
    services.register(event, "Bo", by=org)
    browser = Client()
    browser.force_login(ada_user)
    sub = push_service.subscribe(vapid)
    push_on(browser, event, sub)
    # Her account's own address: no confirmation needed.
    browser.post(
        reverse("tournaments:notice_mail", args=[event.pk]), {"action": "on", "address": "ADA@example.org"}
    )
    assert NoticeEmail.objects.get(entrant=ada).confirmed_at is not None
    with start_worker(celery_app, perform_ping_check=False, queues=[queue], shutdown_timeout=30, pool="solo"):
        rnd = services.generate_round(event, org)
        assert [m.payload["key"] for m in push_service.wait_for(1)] == ["paired:1"]
        assert subject(inbox.wait_for(1)[0]) == "Round 1: table 1 · Worker Cup"
        c = RoundClock.objects.get(round=rnd)
        RoundClock.objects.filter(pk=c.pk).update(remaining=62.0)
        clock.start(c.pk, org)  # the warning at 60 s left is the clock's Celery task, 2 s from now
        got = [m.payload["key"] for m in push_service.wait_for(2)]
        assert got == ["paired:1", "clock:1:60"], push_service.rejected
        assert [subject(m) for m in inbox.wait_for(2)] == [
            "Round 1: table 1 · Worker Cup",
            "Time runs low · Worker Cup",
        ]
        for _ in range(50):  # nothing more comes of it
            threading.Event().wait(0.02)
    assert len(push_service.received) == 2 and push_service.rejected == []


# ---------------------------------------------------------------------------------- the pages ----
@pytest.mark.django_db
def test_the_player_page_offers_push_only_with_a_vapid_key(push_service, vapid, settings):
    event, ada, bo = two_player_event()
    page = player(ada).get(reverse("tournaments:me", args=[event.pk])).content.decode()
    assert f'data-key="{vapid}"' in page and 'id="t-mail-address"' in page
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = None
    page = player(ada).get(reverse("tournaments:me", args=[event.pk])).content.decode()
    assert 'id="t-push"' not in page and 'id="t-mail-address"' in page


@pytest.mark.django_db
def test_a_subscription_is_refused_with_a_reason_and_nothing_stored(push_service, vapid, settings):
    event, ada, bo = two_player_event()
    url = reverse("tournaments:push_subscribe", args=[event.pk])
    sub = push_service.subscribe(vapid)
    good = {"endpoint": sub.endpoint, "p256dh": sub.p256dh, "auth": sub.auth}
    cases = [
        (Client(), good, 403, "not signed up"),
        (player(ada), {**good, "endpoint": "https://push.example.org/x"}, 400, "not one this site sends to"),
        (player(ada), {**good, "endpoint": "http://127.0.0.1:6379/"}, 400, "not one this site sends to"),
        (player(ada), {**good, "p256dh": "AAAA"}, 400, "P-256"),
        (player(ada), {**good, "auth": ""}, 400, "16 bytes"),
        (player(ada), {"endpoint": sub.endpoint}, 400, "16 bytes"),
    ]
    for client, data, status, message in cases:
        response = client.post(url, data)
        assert response.status_code == status and message in response.json()["error"], data
    assert player(ada).get(url).status_code == 405
    settings.VAPID_PRIVATE_KEY = None
    response = player(ada).post(url, good)
    assert response.status_code == 409 and "VAPID" in response.json()["error"]
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_one_row_per_browser_at_most_five_and_a_browser_can_leave(push_service, vapid):
    event, ada, bo = two_player_event()
    browser = player(ada)
    subs = [push_service.subscribe(vapid) for _ in range(6)]
    for sub in subs:
        push_on(browser, event, sub)
    push_on(browser, event, subs[-1])  # again (every visit tells the server): still one row
    assert list(
        PushSubscription.objects.filter(entrant=ada).order_by("pk").values_list("endpoint", flat=True)
    ) == [s.endpoint for s in subs[1:]]
    remove = reverse("tournaments:push_unsubscribe", args=[event.pk])
    assert player(bo).post(remove, {"endpoint": subs[-1].endpoint}).json()["removed"] == 0  # not Bo's
    assert browser.post(remove, {"endpoint": subs[-1].endpoint}).json() == {"ok": True, "removed": 1}
    assert Client().post(remove, {"endpoint": subs[1].endpoint}).status_code == 403
    assert PushSubscription.objects.filter(entrant=ada).count() == 4


@pytest.mark.django_db
def test_mail_for_an_address_that_is_not_the_account_s_waits_for_its_link(inbox):
    event, ada, bo = two_player_event()
    browser = player(ada)
    url = reverse("tournaments:notice_mail", args=[event.pk])
    assert browser.post(url, {"action": "on", "address": "not an address"}).status_code == 302
    assert not NoticeEmail.objects.exists()
    browser.post(url, {"action": "on", "address": "ada@example.org"})
    row = NoticeEmail.objects.get(entrant=ada)
    assert row.confirmed_at is None and row.origin == "http://testserver"
    page = browser.get(reverse("tournaments:me", args=[event.pk])).content.decode()
    assert "We sent a link to ada@example.org" in page
    services.generate_round(event, event.organizer)
    account_mail.flush()
    inbox.wait_for(1)
    assert delivery.deliver(event.pk)["notices"] == 0  # unconfirmed: nothing is mailed
    assert len(inbox) == 1 and subject(inbox[0]).startswith("Confirm")
    # The player stops it from their page.
    browser.post(url, {"action": "off"})
    assert not NoticeEmail.objects.exists()
    assert Client().post(url, {"action": "on", "address": "x@example.org"}).status_code == 403


@pytest.mark.django_db
def test_the_stop_link_works_without_login_and_only_for_its_purpose(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    event, ada, bo = two_player_event()
    row = NoticeEmail.objects.create(entrant=ada, address="ada@example.org", origin="http://testserver",
                                     confirmed_at=timezone.now())  # fmt: skip
    stop = reverse("tournaments:notice_mail_stop", args=[mailing.stop_token(row)])
    anyone = Client(enforce_csrf_checks=True)
    page = anyone.get(stop)
    assert page.status_code == 200 and "Stop e-mailing Ada's notices of Gone Cup" in html.unescape(
        page.content.decode()
    )
    assert NoticeEmail.objects.filter(pk=row.pk).exists()  # a GET (a link checker) stops nothing
    # Forged, or signed for the other purpose: refused, nothing changed.
    confirm = mailing.confirm_token(row)
    for token in (confirm, mailing.stop_token(row)[:-2] + "xx", "garbage", "1:2:3"):
        answer = anyone.post(reverse("tournaments:notice_mail_stop", args=[token]))
        assert answer.status_code == 400, token
    wrong = reverse("tournaments:notice_mail_confirm", args=[mailing.stop_token(row)])
    assert Client().post(wrong).status_code == 400
    assert NoticeEmail.objects.filter(pk=row.pk).exists()
    # A mail program's one-click POST (RFC 8058): no page, no CSRF token.
    assert anyone.post(stop, {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert not NoticeEmail.objects.exists()
    assert anyone.post(stop).status_code == 400  # used: the address gets nothing any more
    # A link for an address since changed names an address no longer there.
    row = NoticeEmail.objects.create(entrant=ada, address="old@example.org", origin="http://testserver",
                                     confirmed_at=timezone.now())  # fmt: skip
    old = mailing.stop_token(row)
    NoticeEmail.objects.filter(pk=row.pk).update(address="new@example.org")
    assert anyone.post(reverse("tournaments:notice_mail_stop", args=[old])).status_code == 400
    assert NoticeEmail.objects.get(pk=row.pk).address == "new@example.org"


@pytest.mark.django_db
def test_a_confirmation_link_expires(settings, monkeypatch):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    event, ada, bo = two_player_event()
    row = NoticeEmail.objects.create(entrant=ada, address="ada@example.org", origin="http://testserver")
    made = timezone.now().timestamp() - mailing.CONFIRM_SECONDS - 60
    with monkeypatch.context() as patch:  # a link mailed three days and a minute ago
        patch.setattr(signing.TimestampSigner, "timestamp", lambda self: signing.b62_encode(int(made)))
        old = reverse("tournaments:notice_mail_confirm", args=[mailing.confirm_token(row)])
    assert Client().post(old).status_code == 400
    assert NoticeEmail.objects.get(pk=row.pk).confirmed_at is None
    fresh = reverse("tournaments:notice_mail_confirm", args=[mailing.confirm_token(row)])
    assert Client().post(fresh).status_code == 200
    assert NoticeEmail.objects.get(pk=row.pk).confirmed_at is not None


@pytest.mark.django_db
def test_two_runs_at_once_claim_each_moment_once():
    """Two delivery runs of one change (two changes in a row): whichever writes a moment first sends
    it; the other gets nothing of it (delivery._claim, one statement per run)."""
    event, ada, bo = two_player_event()
    first = delivery._claim([(ada.pk, "paired:1"), (bo.pk, "paired:1")])
    second = delivery._claim([(ada.pk, "paired:1"), (bo.pk, "paired:1"), (ada.pk, "clock:1:600")])
    assert first == {(ada.pk, "paired:1"), (bo.pk, "paired:1")}
    assert second == {(ada.pk, "clock:1:600")}
    assert delivery._claim([]) == set()
    assert NoticeSent.objects.count() == 3
