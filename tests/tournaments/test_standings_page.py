"""The standings page's table (tournaments/standings_table.py): pre-rendered rows cached by the event
version. Its query count stays the same as entrants and rounds grow, computed or from the cache; the
rows it renders are the standings (names escaped, the viewer's own row marked, drops and byes said)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments import services
from tournaments.models import Entrant, Event, Round, Seat

pytestmark = pytest.mark.django_db


def organizer():
    return get_user_model().objects.get_or_create(username="org")[0]


def event_with(players: int, name: str = "Cup", **fields) -> Event:
    org = organizer()
    fields.setdefault("draft_mode", Event.DraftMode.NONE)
    event = services.create_event(org, name=name, date=datetime.date(2026, 5, 1), rounds=8, **fields)
    for i in range(players):
        services.register(event, f"P{i + 1:02d}", by=org)
    return event


def play(rnd: Round) -> None:
    for table in rnd.tables.all():
        seats = list(table.seats.order_by("position"))
        services.set_result(table, {s.entrant_id: 12 - 2 * s.position for s in seats}, by=organizer())


def played(players: int, rounds: int, name: str) -> Event:
    event = event_with(players, name)
    for _ in range(rounds):
        play(services.generate_round(event, by=organizer()))
    event.refresh_from_db()
    return event


def body_rows(html: str) -> list[str]:
    tbody = html.split('<table class="t-standings">', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr[^>]*>.*?</tr>", tbody, re.S)


def page_queries(client, event: Event, *, cached: bool) -> tuple[int, list[str]]:
    url = f"/tournaments/{event.pk}/standings/"
    if cached:
        client.get(url)
    else:
        cache.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries), body_rows(response.content.decode())


@pytest.mark.parametrize("cached", [False, True])
@pytest.mark.parametrize("as_player", [False, True])
def test_the_standings_page_query_count_is_the_same_for_more_entrants_and_more_rounds(
    client, cached, as_player
):
    small, large = played(8, 1, "Small"), played(36, 4, "Large")
    Entrant.objects.filter(event=large, name="P03").update(dropped=True, dropped_after=4)
    services.touch(large)  # a change bumps the version (the cached table is rebuilt)
    large.refresh_from_db()
    if as_player:  # a player of both events (their own row is marked on each page)
        for event in (small, large):
            client.post(f"/tournaments/p/{Entrant.objects.get(event=event, name='P05').token}/")
    small_count, small_rows = page_queries(client, small, cached=cached)
    large_count, large_rows = page_queries(client, large, cached=cached)
    assert (len(small_rows), len(large_rows)) == (8, 36)
    assert small_count == large_count, (small_count, large_count)
    assert small_count <= 10


def test_the_rows_are_the_standings_with_names_escaped_and_the_viewers_row_marked(client):
    event = event_with(5, "Marks")
    sneaky = services.register(event, "<b>Eve & Co</b>", by=organizer())
    play(services.generate_round(event, by=organizer()))
    services.drop(Entrant.objects.get(event=event, name="P02"), by=organizer())
    event.refresh_from_db()
    rows = services.standings(event)
    client.post(f"/tournaments/p/{sneaky.token}/")  # this browser is Eve's
    html = client.get(f"/tournaments/{event.pk}/standings/").content.decode()
    shown = body_rows(html)
    assert len(shown) == len(rows) == 6
    assert "<b>Eve" not in html and "&lt;b&gt;Eve &amp; Co&lt;/b&gt;" in html
    for row, tr in zip(rows, shown, strict=True):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        assert cells[0] == str(row.rank)
        assert ("(dropped)" in cells[1]) is row.dropped
        assert ('class="me' in tr) is (row.entrant.pk == sneaky.pk)
        assert re.sub(r"<[^>]+>", "", cells[2]) == f"{row.points:g}"
        games = f"{row.games}" + (f" + {row.byes} bye{'s' * (row.byes != 1)}" if row.byes else "")
        assert cells[-1] == games
    # Someone else's browser sees the same rows without Eve's mark.
    other = client.__class__()
    assert 'class="me' not in other.get(f"/tournaments/{event.pk}/standings/").content.decode()


def test_a_bye_is_said_in_the_games_column_and_an_empty_event_says_nobody_played(client):
    empty = event_with(0, "Empty")
    html = client.get(f"/tournaments/{empty.pk}/standings/").content.decode()
    assert body_rows(html) == ['<tr><td colspan="9" class="t-muted">Nobody has played yet.</td></tr>']
    event = event_with(5, "Byes", layout=Event.Layout.BYES)
    play(services.generate_round(event, by=organizer()))
    event.refresh_from_db()
    byes = [r for r in services.standings(event) if r.byes]
    assert len(byes) == 1, "5 players at tables of 4 with byes: one bye"
    html = client.get(f"/tournaments/{event.pk}/standings/").content.decode()
    assert f'<td class="n">{byes[0].games} + 1 bye</td>' in html


def test_find_your_table_lists_names_a_to_z_whatever_their_accents_and_case():
    from tournaments.views.public import alphabetical

    names = ["Mei", "Émile Zola", "dolores", "Zoë", "Åsa", "Bob", "élodie", "Zoe"]
    assert sorted(names, key=alphabetical) == [
        "Åsa", "Bob", "dolores", "élodie", "Émile Zola", "Mei", "Zoe", "Zoë"
    ]  # fmt: skip


def test_the_projector_finds_an_accented_name_among_its_letter(client):
    event = event_with(0, "Room")
    for name in ("Mei", "Émile", "Dolores", "Fatima"):
        services.register(event, name, by=organizer())
    services.generate_round(event, by=organizer())
    html = client.get(f"/tournaments/{event.pk}/projector/").content.decode()
    find = html.split('id="p-find"', 1)[1]
    order = re.findall(r'<span class="p-name">([^<]+)</span>', find)
    assert order == ["Dolores", "Émile", "Fatima", "Mei"]


def test_bench_event_times_the_standings_page_alone_and_keeps_nothing():
    import io
    import json

    from django.core.management import CommandError, call_command

    before = (Event.objects.count(), Entrant.objects.count())
    out = io.StringIO()
    call_command(
        "bench_event", "--pair-entrants", "0", "--standings-entrants", "8", "--rounds", "2", "--repeat", "1",
        stdout=out,
    )  # fmt: skip
    figures = json.loads(out.getvalue())
    assert not any(key.startswith("pair_") for key in figures)
    for name in ("standings", "standings_cached"):
        assert figures[f"{name}_s"] > 0 and figures[f"{name}_cpu_s"] >= 0 and figures[f"{name}_queries"] > 0
    assert figures["standings_cached_queries"] < figures["standings_queries"]
    assert (Event.objects.count(), Entrant.objects.count()) == before
    with pytest.raises(CommandError, match="pair-entrants"):
        call_command("bench_event", "--pair-entrants", "1", stdout=io.StringIO())
    assert (Event.objects.count(), Entrant.objects.count()) == before


def test_the_cached_rows_follow_a_rename_and_a_drop_at_once(client):
    event = played(6, 1, "Fresh")
    url = f"/tournaments/{event.pk}/standings/"
    assert "P04" in client.get(url).content.decode()  # the table is cached now
    entrant = Entrant.objects.get(event=event, name="P04")
    services.rename(entrant, "Quinn", by=organizer())
    services.drop(entrant, by=organizer())
    rows = body_rows(client.get(url).content.decode())
    quinn = [tr for tr in rows if "Quinn" in tr]
    assert len(quinn) == 1 and "(dropped)" in quinn[0] and not any("P04" in tr for tr in rows)


def test_the_standings_queries_built_once_read_what_the_orm_reads():
    """`services.results._prepared` runs the standings' queries from SQL the ORM built once: the same
    rows as the ORM's, on every database (where the ORM would convert a value, it runs the query)."""
    from tournaments.models import Penalty
    from tournaments.services import results

    event = played(9, 2, "Prepared")
    entrant = event.entrants.first()
    services.give_penalty(event, entrant, "vp_loss", by=organizer(), round_number=1, vp=2)
    other = event_with(5, "Other")  # nothing of another event is read
    for query in (
        results._seat_values,
        results._bye_values,
        results._entrant_values,
        Penalty.standings_values,
    ):
        assert results._prepared(query, event.pk) == list(query(event.pk))
        assert results._prepared(query, other.pk) == list(query(other.pk))
    assert (
        len(results._prepared(results._seat_values, event.pk))
        == Seat.objects.filter(round__event=event).count()
    )
    assert results._prepared(Penalty.standings_values, event.pk) == [(entrant.pk, "vp_loss", 1, 2)]


def test_the_public_penalties_come_with_the_table_by_round_and_follow_a_revocation(client):
    """The list under the table is read with the standings and cached with them: by round (those
    without a round last), each round's in the order given, names escaped, never the note; a player
    not in the table (warned, then dropped before playing) is listed too; a revoked penalty goes."""
    from tournaments.models import Penalty

    event = played(8, 2, "Judged")
    org = organizer()
    seated = [s.entrant for s in event.rounds_set.get(number=2).tables.first().seats.order_by("position")]
    late = services.register(event, "<Late & Co>", by=org)
    # A warning given before any round (none in this event's life: written as it would be kept).
    Penalty.objects.create(event=event, entrant=seated[3], kind="warning", note="Early")
    services.give_penalty(event, late, "warning", by=org, note="Slow play")  # the current round, 2
    services.drop(late, by=org)
    services.give_penalty(event, seated[0], "vp_loss", by=org, round_number=2, vp=3)
    first = services.give_penalty(event, seated[1], "warning", by=org, round_number=1)
    services.give_penalty(event, seated[2], "game_loss", by=org, round_number=1)
    html = client.get(f"/tournaments/{event.pk}/standings/").content.decode()
    assert "Late &amp; Co" not in html.split("</tbody>")[0]  # not in the table
    listed = html.split('<ul class="t-plain t-penalties">', 1)[1].split("</ul>")[0]
    assert re.findall(r"<li>(.*?)</li>", listed) == [
        f"{seated[1].name}: <strong>warning</strong> in round 1",
        f"{seated[2].name}: <strong>game loss</strong> in round 1",
        "&lt;Late &amp; Co&gt;: <strong>warning</strong> in round 2",
        f"{seated[0].name}: <strong>vp loss</strong> of 3 VP in round 2",
        f"{seated[3].name}: <strong>warning</strong>",
    ]
    assert "Slow play" not in html and "Early" not in html
    services.revoke_penalty(first, org)
    html = client.get(f"/tournaments/{event.pk}/standings/").content.decode()
    assert (
        f"{seated[1].name}: <strong>warning</strong>" not in html and "game loss</strong> in round 1" in html
    )
