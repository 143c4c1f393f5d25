"""The read-only JSON API (standings, pairings) and the organizers' JSON export of an event."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def organizer():
    return get_user_model().objects.get_or_create(username="org")[0]


@pytest.fixture
def event():
    org = organizer()
    event = services.create_event(
        org, name="Api Cup", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE
    )
    for i in range(9):
        services.register(event, f"P{i + 1}", by=org)
    rnd = services.generate_round(event, org)
    table = rnd.tables.get(number=1)
    services.set_result(table, {s.entrant_id: 10 - s.position for s in table.seats.all()}, by=org)
    return event


def test_the_standings_api_lists_every_player_with_named_tie_breakers(client, event):
    response = client.get(f"/tournaments/{event.pk}/api/standings.json")
    assert response.status_code == 200 and response["Access-Control-Allow-Origin"] == "*"
    data = response.json()
    assert data["api"] == 1 and data["event"]["name"] == "Api Cup" and data["final"] is None
    assert len(data["standings"]) == 9 and data["standings"][0]["points"] == 4.0
    assert set(data["standings"][0]["tiebreakers"]) == set(event.tiebreakers)
    assert "token" not in response.content.decode()


def test_the_pairings_api_gives_a_round_and_refuses_bad_rounds_clearly(client, event):
    data = client.get(f"/tournaments/{event.pk}/api/pairings.json").json()
    tables = data["round"]["tables"]
    assert data["round"]["number"] == 1 and [len(t["players"]) for t in tables] == [3, 3, 3]
    assert tables[0]["state"] == "confirmed" and tables[0]["players"][0]["vp"] == 10
    assert tables[1]["players"][0]["vp"] is None
    assert client.get(f"/tournaments/{event.pk}/api/pairings.json?round=1").json() == data
    bad = client.get(f"/tournaments/{event.pk}/api/pairings.json?round=x")
    assert bad.status_code == 400 and "round number" in bad.json()["error"]
    missing = client.get(f"/tournaments/{event.pk}/api/pairings.json?round=7")
    assert missing.status_code == 404 and "no round 7" in missing.json()["error"]
    assert client.post(f"/tournaments/{event.pk}/api/standings.json").status_code == 405
    assert "standings.json" in client.get(f"/tournaments/{event.pk}/api/").json()["endpoints"]


def test_the_json_export_is_for_organizers_and_holds_everything(client, event):
    assert client.get(f"/tournaments/{event.pk}/export.json").status_code == 302  # to the login
    client.force_login(get_user_model().objects.create_user("someone"))
    assert client.get(f"/tournaments/{event.pk}/export.json").status_code == 403
    client.force_login(organizer())
    response = client.get(f"/tournaments/{event.pk}/export.json")
    data = response.json()
    assert 'filename="api-cup.json"' in response["Content-Disposition"]
    assert len(data["entrants"]) == 9 and data["entrants"][0]["checked_in"] is True
    assert len(data["rounds"]) == 1 and len(data["rounds"][0]["tables"]) == 3
    assert len(data["standings"]) == 9
