"""Series pages: only a series' organizers change it, only with events they organize; bad settings
are refused with a message and change nothing; guests are matched by name; CSV cells are safe."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.test import Client

from tests.tournaments.people import user
from tournaments import services
from tournaments.models import Event, Series
from tournaments.services import leagues

pytestmark = pytest.mark.django_db


def finished_event(org, name: str, day: int, players: list[tuple[str, object]]) -> Event:
    """An event of 4 players (one table), played and finished: VP by list order, first the best."""
    event = services.create_event(
        org, name=name, date=datetime.date(2026, 4, day), draft_mode=Event.DraftMode.NONE, rounds=1
    )
    entrants = [services.register(event, n, user=u, by=org, checked_in=True) for n, u in players]
    rnd = services.generate_round(event, by=org)
    vp = {e.pk: 20 - 3 * i for i, e in enumerate(entrants)}
    for table in rnd.tables.all():
        services.set_result(table, {s.entrant_id: vp[s.entrant_id] for s in table.seats.all()}, by=org)
    services.finish_event(event, org)
    return event


def series_with_events(org):
    series = leagues.create_series(org, **leagues.clean_settings("League", "10, 6, 3", "1", ""))
    return series


def state(series: Series) -> tuple:
    series.refresh_from_db()
    return (series.name, series.placings, series.participation_points, series.best_of,
            sorted(series.events.values_list("pk", flat=True)))  # fmt: skip


# ---------------------------------------------------------------------------------- permissions --
SERIES_ACTIONS = [
    (
        "series_edit",
        "edit/",
        {"name": "Renamed", "placings": "5, 3", "participation_points": "0", "best_of": ""},
    ),
    ("series_add_event", "events/add/", {"event": "{spare}"}),
    ("series_remove_event", "events/{member}/remove/", {}),
]


def scene():
    org = user("series-org")
    series = series_with_events(org)
    member = services.create_event(org, name="In it", date=datetime.date(2026, 4, 1))
    spare = services.create_event(org, name="Spare", date=datetime.date(2026, 4, 8))
    leagues.add_event(series, member, org)
    return org, series, {"member": member.pk, "spare": spare.pk}


@pytest.mark.parametrize("name, path, data", SERIES_ACTIONS, ids=[a[0] for a in SERIES_ACTIONS])
@pytest.mark.parametrize("who", ["anonymous", "stranger", "event organizer"])
def test_series_actions_refuse_everyone_but_its_organizers_and_change_nothing(name, path, data, who):
    org, series, ids = scene()
    url = f"/tournaments/series/{series.pk}/" + path.format(**ids)
    post = {k: v.format(**ids) for k, v in data.items()}
    client = Client()
    if who == "stranger":
        client.force_login(user("stranger"))
    elif who == "event organizer":  # co-organizes the events, not the series
        helper = user("helper")
        for pk in ids.values():
            services.add_co_organizer(Event.objects.get(pk=pk), "helper", org)
        client.force_login(helper)
    before = state(series)
    response = client.post(url, post)
    if who == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    else:
        assert response.status_code == 403
    assert state(series) == before
    organizer = Client()
    organizer.force_login(org)
    assert organizer.post(url, post, follow=True).status_code == 200
    assert state(series) != before


def test_every_series_organizer_view_has_a_permission_test():
    from tournaments import urls

    views = {r.name for r in urls.urlpatterns if getattr(r.callback, "series_organizers_only", False)}
    assert views == {name for name, _, _ in SERIES_ACTIONS}


def test_an_event_joins_a_series_only_at_the_hands_of_its_organizer(client):
    org, series, ids = scene()
    other = user("other-org")
    foreign = services.create_event(other, name="Theirs", date=datetime.date(2026, 4, 9))
    client.force_login(org)
    before = state(series)
    page = client.post(f"/tournaments/series/{series.pk}/events/add/", {"event": foreign.pk}, follow=True)
    assert "only events you organize" in page.content.decode()
    for bad in ("", "x", "²", "-1", "9" * 40, str(foreign.pk + 100)):
        client.post(f"/tournaments/series/{series.pk}/events/add/", {"event": bad})
    assert state(series) == before
    assert "Theirs" not in client.get(f"/tournaments/series/{series.pk}/edit/").content.decode()
    page = client.post(f"/tournaments/series/{series.pk}/events/add/", {"event": ids["member"]}, follow=True)
    assert "already in this series" in page.content.decode() and state(series) == before


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("name", "   ", "Give the series a name"),
        ("name", "x" * 121, "at most 120"),
        ("placings", "10, 12", "worse place"),
        ("placings", "²", "not a number"),
        ("placings", "", "at least the first place"),
        ("participation_points", "-1", "not a number"),
        ("participation_points", "20", "cannot be more"),
        ("best_of", "0", "Best of"),
        ("best_of", "x", "Best of"),
    ],
)
def test_bad_series_settings_are_refused_with_a_message_and_make_or_change_nothing(
    client, field, value, message
):
    org, series, _ = scene()
    client.force_login(org)
    good = {"name": "League", "placings": "10, 6, 3", "participation_points": "1", "best_of": ""}
    count = Series.objects.count()
    response = client.post("/tournaments/series/new/", {**good, field: value})
    assert response.status_code == 400 and message in response.content.decode()
    assert Series.objects.count() == count
    before = state(series)
    response = client.post(f"/tournaments/series/{series.pk}/edit/", {**good, field: value})
    assert response.status_code == 400 and message in response.content.decode()
    assert state(series) == before


def test_a_new_series_needs_a_login_and_goes_to_its_settings(client):
    response = client.post("/tournaments/series/new/", {"name": "L", "placings": "3, 2, 1"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not Series.objects.exists()
    client.force_login(user("someone"))
    response = client.post(
        "/tournaments/series/new/", {"name": "L", "placings": "3, 2, 1", "participation_points": ""}
    )
    created = Series.objects.get()
    assert response["Location"] == f"/tournaments/series/{created.pk}/edit/"
    assert created.placings == [3, 2, 1] and created.participation_points == 0 and created.best_of is None


# ---------------------------------------------------------------------------------- standings ----
def test_guests_are_matched_by_name_accounts_by_account_and_never_with_each_other(client):
    org = user("series-org")
    ada = user("ada-account")
    series = series_with_events(org)
    one = finished_event(org, "One", 1, [("Ada", ada), ("Émile  Zola", None), ("Bob", None), ("Cy", None)])
    two = finished_event(org, "Two", 8, [("ÉMILE ZOLA", None), ("ada", None), ("Ada L.", ada), ("Bob", None)])
    running = services.create_event(org, name="Three", date=datetime.date(2026, 4, 15))
    for event in (one, two, running):
        leagues.add_event(series, event, org)
    table = leagues.standings(series)
    assert table.counted == [one, two]
    lines = {line.name: line for line in table.lines}
    # The guest Émile is one line (named as in the latest event); Ada's account is one line under
    # either name; the guest "ada" of event two is someone else.
    assert lines["ÉMILE ZOLA"].row.events == 2 and lines["ÉMILE ZOLA"].guest
    assert lines["Ada L."].row.events == 2 and lines["Ada L."].user_id == ada.pk
    assert lines["ada"].row.events == 1 and lines["ada"].guest
    assert sum(line.row.points for line in table.lines) == 2 * (10 + 6 + 3 + 1)
    html = client.get(f"/tournaments/series/{series.pk}/").content.decode()
    assert "Three" in html and "counted once finished" in html
    assert f'href="/tournaments/players/{ada.pk}/"' in html


def test_best_of_counts_the_best_events_and_the_page_strikes_the_rest(client):
    org = user("series-org")
    series = leagues.create_series(org, **leagues.clean_settings("Best", "10, 6, 3, 1", "0", "1"))
    names = [("A", None), ("B", None), ("C", None), ("D", None)]
    for day, order in ((1, names), (8, names[::-1])):
        leagues.add_event(series, finished_event(org, f"E{day}", day, order), org)
    table = leagues.standings(series)
    assert {line.name: line.row.points for line in table.lines} == {"A": 10, "B": 6, "C": 6, "D": 10}
    assert (
        '<s title="not counted (best of 1)">'
        in client.get(f"/tournaments/series/{series.pk}/").content.decode()
    )


def test_the_series_csv_writes_a_name_that_looks_like_a_formula_as_text(client):
    org = user("series-org")
    series = series_with_events(org)
    evil = '=HYPERLINK("http://evil.example","x")'
    leagues.add_event(
        series, finished_event(org, "One", 1, [(evil, None), ("B", None), ("C", None), ("D", None)]), org
    )
    text = client.get(f"/tournaments/series/{series.pk}/standings.csv").content.decode()
    cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
    assert "'" + evil in cells and evil not in cells
    data = client.get(f"/tournaments/series/{series.pk}/standings.json").json()
    assert data["standings"][0]["name"] == evil and data["standings"][0]["points"] == 10
