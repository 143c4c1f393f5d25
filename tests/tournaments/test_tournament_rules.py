"""The event's rules page (how ties are broken) and the standings' draw marks, through the test client."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Event
from tournaments.rules import event_rules, plural

pytestmark = pytest.mark.django_db


def organizer():
    return get_user_model().objects.get_or_create(username="org")[0]


def test_plural_says_one_point_and_two_points():
    assert plural(1, "point") == "1 point"
    assert plural(2.5, "point") == "2.5 points"
    assert plural(1.0, "table") == "1 table"
    assert plural(0, "player") == "0 players"


def test_the_rules_page_explains_each_chosen_tie_breaker_in_order_and_the_byes(client):
    event = services.create_event(
        organizer(), name="Cup", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE,
        tiebreakers=["sos", "firsts"], table_size=3,
    )  # fmt: skip
    headings = [h for h, _ in event_rules(event)]
    assert headings == [
        "Points",
        "Byes",
        "Tie-breaker 1: Strength of schedule (SoS)",
        "Tie-breaker 2: Wins per game",
        "Seeded draw",
        "No-shows",
        "Extra time",
    ]
    html = client.get(f"/tournaments/{event.pk}/rules/").content.decode()
    assert "at least 2 points per round, whether they stayed or dropped" in html
    assert "A bye is worth 2.5 points" in html and "neither helps nor hurts" in html
    assert "Tie-breaker 3" not in html and "in each game, your VP divided" not in html.lower()
    standings = client.get(f"/tournaments/{event.pk}/standings/").content.decode()
    assert f'href="/tournaments/{event.pk}/rules/"' in standings


def test_the_standings_mark_the_places_the_seeded_draw_decided(client):
    org = organizer()
    event = services.create_event(
        org, name="Ties", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE, table_size=2
    )
    for name in "ABCD":
        services.register(event, name, by=org)
    rnd = services.generate_round(event, by=org)
    tables = list(rnd.tables.order_by("number"))
    # Both tables end 5 - 5: four players with the same points and the same tie-breakers.
    for table in tables:
        services.set_result(table, {s.entrant_id: 5 for s in table.seats.all()}, by=org)
    html = client.get(f"/tournaments/{event.pk}/standings/").content.decode()
    assert html.count('class="t-draw"') == 4
    # One table with a winner: only the two players tied at 5 - 5 are marked.
    services.set_result(tables[0], {s.entrant_id: 9 - s.position for s in tables[0].seats.all()}, by=org)
    html = client.get(f"/tournaments/{event.pk}/standings/").content.decode()
    assert html.count('class="t-draw"') == 2


def test_the_event_form_and_the_dashboard_preview_the_layouts(client):
    org = organizer()
    client.force_login(org)
    html = client.get("/tournaments/new/").content.decode()
    assert "7 players: 1 table of 4 and 1 table of 3" in html  # even, and now "byes" too
    assert "6 players" not in html and "17 players: 2 tables of 4 and 3 tables of 3" in html
    event = services.create_event(
        org, name="Seven", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE, layout="byes"
    )
    for i in range(6):
        services.register(event, f"P{i}", by=org)
    html = client.get(f"/tournaments/{event.pk}/edit/").content.decode()
    assert "6 players: 1 table of 4 and 2 byes" in html
    manage = client.get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert "next round: 6 players: 1 table of 4 and 2 byes" in manage


def test_one_is_singular_everywhere(client):
    org = organizer()
    event = services.create_event(
        org, name="Tiny", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE, rounds=1,
        round_minutes=1,
    )  # fmt: skip
    services.register(event, "Solo", by=org)
    listing = client.get("/tournaments/").content.decode()
    assert "1 player ·" in listing and "1 players" not in listing
    page = client.get(f"/tournaments/{event.pk}/").content.decode()
    assert "1 Swiss round " in page and "of 1 minute<" in page
    for name in ("Two", "Three"):
        services.register(event, name, by=org)
    rnd = services.generate_round(event, org)
    message = event.audit.filter(action="pair").get().message
    assert message.startswith("Paired round 1: 1 table (random), 0 repeat meetings")
    table = rnd.tables.get()
    services.set_result(table, {s.entrant_id: 3 - s.position for s in table.seats.all()}, by=org)
    html = client.get(f"/tournaments/{event.pk}/round/1/").content.decode()
    assert "1 point<" in html and "4 points<" in html


def test_irreversible_actions_ask_for_confirmation(client):
    org = organizer()
    client.force_login(org)
    event = services.create_event(
        org, name="Ask", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE
    )
    for i in range(4):
        services.register(event, f"P{i}", by=org)
    services.generate_round(event, org)
    html = client.get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert 'data-confirm="Take back the pairing of round 1?' in html
    assert html.count('data-confirm="Drop P') == 4
    rnd = event.rounds_set.get()
    for table in rnd.tables.all():
        services.set_result(table, {s.entrant_id: s.position for s in table.seats.all()}, by=org)
    html = client.get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert 'data-confirm="Finish Ask?' in html


def test_a_large_dashboard_comes_in_pages_and_finds_a_player_and_their_table(client):
    from tournaments.models import Entrant

    org = organizer()
    client.force_login(org)
    event = services.create_event(
        org, name="Big", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE
    )
    Entrant.objects.bulk_create(
        Entrant(event=event, name=f"Player {i:03d}", checked_in=True) for i in range(240)
    )
    rnd = services.generate_round(event, org)
    base = f"/tournaments/{event.pk}/manage/"
    html = client.get(base).content.decode()
    rows, tables = '<tr class="in" id="entrant-', 'class="t-table t-table-open"'
    assert html.count(rows) == 100 and html.count(tables) == 32
    assert "page 1 of 3" in html and "page 1 of 2" in html  # 240 players, 60 tables
    last = client.get(base + "?players=3&tables=2").content.decode()
    assert last.count(rows) == 40 and last.count(tables) == 28
    assert client.get(base + "?players=x").status_code == 200  # a bad page number shows page 1
    seat = rnd.tables.get(number=17).seats.first()
    found = client.get(base, {"q": seat.entrant.name.lower()}).content.decode()
    assert found.count(rows) == 1 and 'id="table-17"' in found and found.count(tables) == 1


def test_the_standings_page_is_cached_by_the_event_version_and_never_stale(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    org = organizer()
    event = services.create_event(
        org, name="Cached", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE
    )
    for i in range(6):
        services.register(event, f"P{i}", by=org)
    rnd = services.generate_round(event, org)
    url = f"/tournaments/{event.pk}/standings/"
    client.get(url)
    with CaptureQueriesContext(connection) as first:
        client.get(url)
    table = rnd.tables.get(number=1)
    services.set_result(table, {s.entrant_id: 10 + s.position for s in table.seats.all()}, by=org)
    with CaptureQueriesContext(connection) as after_change:
        html = client.get(url).content.decode()
    winner = table.seats.order_by("-position").first().entrant.name
    names = [f"<td>P{i}" for i in range(6)]
    assert html.index(f"<td>{winner}") == min(html.index(n) for n in names)  # on top at once
    assert len(first) < len(after_change)  # a hit skips the standings queries; a change recomputes
