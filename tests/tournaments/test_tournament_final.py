"""After the top cut: the winner and the final order on the standings, the CSV and the projector; a
tables-of-3 event cuts at tables of 3; the projector's "find your table" and no ranking before results."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Event, Round

pytestmark = pytest.mark.django_db


def organizer():
    return get_user_model().objects.get_or_create(username="org")[0]


def event_with(players: int, **fields) -> Event:
    org = organizer()
    fields.setdefault("draft_mode", Event.DraftMode.NONE)
    event = services.create_event(org, name="Cup", date=datetime.date(2026, 5, 1), **fields)
    for i in range(players):
        services.register(event, f"P{i + 1:02d}", by=org)
    return event


def play(rnd: Round, vp=lambda seat: 12 - 2 * seat.position) -> None:
    for table in rnd.tables.all():
        services.set_result(table, {s.entrant_id: vp(s) for s in table.seats.all()}, by=organizer())


def test_a_top_4_names_the_winner_and_the_final_order_everywhere(client):
    event = event_with(8, top_cut=4, rounds=2)
    org = organizer()
    for _ in range(2):
        play(services.generate_round(event, org))
    swiss = [r.entrant.name for r in services.standings(event)]
    final = services.start_top_cut(event, org)
    assert services.final_standings(event) is None  # no result yet: the Swiss order stands
    # The fourth seed wins the final, the top seed comes last at the final table.
    play(final, vp=lambda seat: seat.position * 3)
    services.finish_event(event, org)
    placed = services.final_standings(event)
    names = [p.entrant.name for p in placed]
    assert names[:4] == [swiss[3], swiss[2], swiss[1], swiss[0]]
    assert names[4:] == swiss[4:] and [p.place for p in placed] == list(range(1, 9))
    html = client.get(f"/tournaments/{event.pk}/standings/").content.decode()
    assert "Final standings" in html and f"Winner: <strong>{swiss[3]}</strong>" in html
    assert html.index("Final standings") < html.index("Swiss standings")
    rows = list(
        csv.reader(io.StringIO(client.get(f"/tournaments/{event.pk}/export/standings.csv").content.decode()))
    )
    assert rows[0][-2:] == ["final_place", "top_cut"]
    assert [r[1] for r in rows[1:5]] == names[:4] and [r[-2] for r in rows[1:4]] == ["1", "2", "3"]
    assert rows[1][-1] == "final" and rows[5][-1] == ""
    projector = client.get(f"/tournaments/{event.pk}/projector/").content.decode()
    assert "Final standings" in projector and f"Winner: <strong>{swiss[3]}</strong>" in projector


def test_an_event_at_tables_of_three_cuts_at_tables_of_three():
    event = event_with(9, table_size=3, top_cut=9, rounds=2)
    org = organizer()
    for _ in range(2):
        play(services.generate_round(event, org))
    semis = services.start_top_cut(event, org)
    assert sorted(t.seats.count() for t in semis.tables.all()) == [3, 3, 3]
    play(semis)
    final = services.start_final(event, org)
    assert [t.seats.count() for t in final.tables.all()] == [3]
    with pytest.raises(services.Invalid, match="At tables of 3 the top cut is a top 3 or a top 9"):
        services.create_event(org, name="X", table_size=3, top_cut=4, draft_mode=Event.DraftMode.NONE)


def test_the_projector_finds_your_table_and_shows_no_ranking_before_results(client):
    event = event_with(100)
    before = client.get(f"/tournaments/{event.pk}/projector/").content.decode()
    assert "The standings appear with the first results" in before and 'class="p-n"' not in before
    rnd = services.generate_round(event, organizer())
    html = client.get(f"/tournaments/{event.pk}/projector/").content.decode()
    assert "Find your table" in html
    assert html.count('class="p-find-page"') == 3  # 100 players, 45 a page
    assert html.count('<li><span class="p-name">') == 100
    first = rnd.tables.get(number=1).seats.order_by("position").first().entrant.name
    assert f'<span class="p-name">{first}</span> <span class="p-where">Table 1</span>' in html
    names = [n for n in html.split('<span class="p-name">')[1:]]
    listed = [n.split("<")[0] for n in names]
    assert listed == sorted(listed, key=str.lower)
