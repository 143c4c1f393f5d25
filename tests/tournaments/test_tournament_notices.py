"""A player's notices: table paired, pick up, clock low, time called, result to confirm, a place off
the waitlist. The pure function first (no database), then the page that carries them as JSON for
static/js/tournament-notices.js (its behaviour in Chromium: tests/browser/test_tournament_event.py)."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments import clock, services
from tournaments.models import Entrant, Event, Seat
from tournaments.notices import player_notices


def keys(notices) -> list[str]:
    return [n.key for n in notices]


R1 = {"event_name": "Cup", "round_number": 1, "round_label": "Round 1"}


def test_nothing_before_the_first_round():
    assert player_notices(event_name="Cup") == []


def test_a_paired_table_names_the_table_and_the_seat():
    notices = player_notices(
        event_name="Cup", round_number=2, round_label="Round 2", table_pk=7, table_number=3, seat=1
    )
    assert keys(notices) == ["paired:2"]
    assert notices[0].title == "Round 2: table 3"
    assert notices[0].body == "Cup: you play at table 3, seat 1 (you go first)."


def test_a_changed_place_is_a_new_moment_that_says_so():
    """Issue 27: a player moved (or swapped, or whose table was paired again or renumbered) after
    the pairing heard nothing: the key was the round's alone. Each change is a new moment now."""
    moved = player_notices(
        event_name="Cup", round_number=2, round_label="Round 2", table_pk=9, table_number=5, seat=2, changes=1
    )
    assert keys(moved) == ["paired:2:changed:1"]
    assert moved[0].title == "Round 2: now table 5"
    assert moved[0].body == "Cup: an organizer changed your place: you now play at table 5, seat 2."
    again = player_notices(event_name="Cup", round_number=2, round_label="Round 2", bye=True, changes=2)
    assert keys(again) == ["paired:2:changed:2"] and "you now have a bye" in again[0].body


def test_a_bye_is_a_notice_too():
    notices = player_notices(event_name="Cup", round_number=1, round_label="Round 1", bye=True)
    assert keys(notices) == ["paired:1"] and notices[0].body == "Cup: you have a bye."


def test_no_pairing_notice_once_the_round_is_over():
    done = player_notices(
        event_name="Cup", round_number=2, round_label="Round 2", round_finished=True, table_pk=7,
        table_number=3,
    )  # fmt: skip
    assert done == []


def test_the_clock_running_low_and_time_called():
    low = player_notices(
        event_name="Cup", round_number=1, round_label="Round 1", table_pk=7, table_number=1, seat=2,
        clock_status="running", warned=600,
    )  # fmt: skip
    assert keys(low) == ["clock:1:600", "paired:1"]
    assert low[0].body == "Less than 10 minutes left in round 1."
    five = player_notices(**R1, clock_status="paused", warned=300)
    assert keys(five) == ["clock:1:300"]  # a later warning is a new moment
    called = player_notices(
        event_name="Cup", round_number=1, round_label="Round 1", clock_status="called", warned=None
    )
    assert keys(called) == ["called:1"]
    ready = player_notices(**R1, clock_status="ready", warned=600)
    assert ready == []


def test_a_result_to_confirm_names_who_entered_it_and_its_version():
    args = dict(
        event_name="Cup", round_number=1, round_label="Round 1", table_pk=7, table_number=4, seat=2,
        table_state="reported", result_version=3, reported_by="Ada",
    )  # fmt: skip
    notices = player_notices(**args)
    assert notices[0].key == "confirm:7:3"
    assert notices[0].body == "Ada entered the result of table 4: confirm it or dispute it."
    assert "confirm:7:3" not in keys(player_notices(**args, confirmed=True))
    assert "confirm:7:3" not in keys(player_notices(**args, reported_by_me=True))
    assert "confirm:7:4" in keys(player_notices(**{**args, "result_version": 4}))  # changed VP: again


def test_a_pick_and_a_place_off_the_waitlist():
    pick = player_notices(**R1, table_pk=7, table_number=2, seat=3, draft_turn=5)
    assert keys(pick) == ["pick:7:5", "paired:1"]
    place = player_notices(event_name="Cup", promoted="2026-05-01T10:00:00+00:00")
    assert keys(place) == ["place:2026-05-01T10:00:00+00:00"]


# ---------------------------------------------------------------------------------- the page -----
def _user(name: str):
    found = get_user_model().objects.filter(username=name).first()
    return found or get_user_model().objects.create_user(username=name, password="pw-" + name)


def _page_notices(client: Client, event: Event) -> list[dict]:
    html = client.get(reverse("tournaments:me", args=[event.pk])).content.decode()
    found = re.search(r'<script id="t-notices-data" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


@pytest.mark.django_db
def test_the_player_page_carries_its_notices_as_they_happen():
    org = _user("org")
    event = services.create_event(
        org, name="Notice Cup", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE,
        table_size=2, warning_minutes=[10],
    )  # fmt: skip
    ada = services.register(event, "Ada", by=org)
    bo = services.register(event, "Bo", by=org)
    client = Client()
    client.post(reverse("tournaments:private", args=[ada.token]))
    assert _page_notices(client, event) == []
    rnd = services.generate_round(event, org)
    table = rnd.tables.get()
    seat = Seat.objects.get(table=table, entrant=ada)
    notices = _page_notices(client, event)
    assert [n["key"] for n in notices] == ["paired:1"]
    assert notices[0]["body"] == f"Notice Cup: you play at table 1, seat {seat.position + 1}" + (
        " (you go first)." if seat.position == 0 else "."
    )
    # The clock runs low: the warning fired (as the clock's task would) is a notice.
    round_clock = rnd.clock
    clock.start(round_clock, org)
    round_clock.refresh_from_db()
    round_clock.deadline = round_clock.deadline - datetime.timedelta(minutes=45)
    round_clock.save(update_fields=["deadline"])
    assert clock.advance(round_clock.pk) == ["warn:600"]
    assert [n["key"] for n in _page_notices(client, event)] == ["clock:1:600", "paired:1"]
    # Bo enters the result: Ada is asked to confirm it.
    table.refresh_from_db()
    services.report_result(table, Entrant.objects.get(pk=bo.pk), {ada.pk: 10, bo.pk: 12})
    table.refresh_from_db()
    notices = _page_notices(client, event)
    assert notices[0]["key"] == f"confirm:{table.pk}:{table.result_version}"
    assert notices[0]["body"] == "Bo entered the result of table 1: confirm it or dispute it."
    services.confirm_result(table, Entrant.objects.get(pk=ada.pk), table.result_version)
    assert _page_notices(client, event) == []  # the round is over: nothing left to say


@pytest.mark.django_db
def test_the_service_worker_is_served_for_the_tournament_pages(client):
    response = client.get(reverse("tournaments:notices_worker"))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert reverse("tournaments:notices_worker") == "/tournaments/notices-sw.js"  # scope: /tournaments/
    assert "notificationclick" in response.content.decode()
    assert client.post(reverse("tournaments:notices_worker")).status_code == 405
