"""Ratings, faction statistics, charts and series points on a simulated 64-player, 3-event series
(tournaments/simulate_series.py: built through the services, with drafts, reported and confirmed
results, a no-show and a top cut).

The series is built once for the module (about half a minute); each test runs in a savepoint that
is rolled back, so a correction in one test is gone in the next.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections import defaultdict

import pytest
from django.db import transaction
from django.db.models import ProtectedError

from tournaments import ratings, simulate_series, stats
from tournaments.models import Draft, Entrant, Event, Round, Seat, Table
from tournaments.rating_models import PlayerRating, RatingChange
from tournaments.services import leagues, rating_store, records
from tournaments.services.records import event_places


@pytest.fixture(scope="module")
def sim(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            built = simulate_series.build(seed=7)
            rating_store.refresh()
            yield built
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------- helpers ------
def recomputed_independently() -> dict:
    """Ratings computed here from the seats with the pure module alone (not the store's code)."""
    rows = (
        Seat.objects.filter(round__status=Round.Status.FINISHED)
        .order_by("round__event__date", "round__event_id", "round__number", "table_id")
        .values_list(
            "round__event__date", "round__event_id", "round__number", "table_id",
            "entrant_id", "entrant__user_id", "vp", "no_show",
        )
    )  # fmt: skip
    rounds: dict[tuple, dict[int, dict]] = defaultdict(lambda: defaultdict(dict))
    for date, event_id, number, table_id, entrant_id, user_id, vp, no_show in rows:
        key = ("u", user_id) if user_id else ("e", entrant_id)
        rounds[(date, event_id, number)][table_id][key] = (vp, no_show)
    pure = []
    for position, tables in rounds.items():
        rated_tables = []
        for seats in tables.values():
            places = ratings.places_of(
                {k: v for k, (v, _) in seats.items()}, {k for k, (_, ns) in seats.items() if ns}
            )
            rated_tables.append([ratings.RatedSeat(k, p) for k, p in places.items()])
        pure.append(ratings.RatedRound(position, rated_tables))
    skills, _ = ratings.rate_rounds(pure)
    return {key[1]: skill for key, skill in skills.items() if key[0] == "u"}


def stored() -> dict:
    return {r.user_id: ratings.Skill(r.mu, r.sigma) for r in PlayerRating.objects.all()}


def same_skills(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        abs(a[k].mu - b[k].mu) < 1e-9 and abs(a[k].sigma - b[k].sigma) < 1e-9 for k in a
    )


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values):
        order = sorted(range(len(values)), key=lambda i: values[i])
        out = [0.0] * len(values)
        for rank, i in enumerate(order):
            out[i] = rank
        return out

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    return 1 - 6 * sum((a - b) ** 2 for a, b in zip(rx, ry, strict=True)) / (n * (n * n - 1))


# ---------------------------------------------------------------------------------- ratings ------
def test_the_series_is_what_it_says(sim):
    assert [e.status for e in sim.events] == [Event.Status.FINISHED] * 3
    people = set(Entrant.objects.filter(event__in=sim.events).values_list("name", flat=True))
    assert len(people) == 64
    assert Round.objects.filter(event__in=sim.events, stage=Round.Stage.FINAL).count() == 1
    assert Seat.objects.filter(round__event__in=sim.events, no_show=True).count() == 1
    assert Table.objects.filter(round__event=sim.events[2]).exclude(seats__isnull=True).count() > 0
    sizes = {t.seats.count() for t in Table.objects.filter(round__event=sim.events[2])}
    assert 3 in sizes


def test_every_finished_round_is_rated_accounts_across_events_guests_within_one(sim):
    present = Seat.objects.filter(round__event__in=sim.events, no_show=False)
    assert RatingChange.objects.count() == present.count()
    accounts = set(
        Entrant.objects.filter(event__in=sim.events, user__isnull=False).values_list("user_id", flat=True)
    )
    assert set(PlayerRating.objects.values_list("user_id", flat=True)) == accounts
    for rating in PlayerRating.objects.all():
        assert rating.games == present.filter(entrant__user_id=rating.user_id).count()
        assert rating.rating == pytest.approx(rating.mu - 3 * rating.sigma)
    # A guest is a newcomer in each event: their first game there starts from the newcomer's skill.
    for event in sim.events:
        for entrant in Entrant.objects.filter(event=event, user=None)[:5]:
            first = RatingChange.objects.filter(entrant=entrant).order_by("round_number").first()
            assert (first.mu_before, first.sigma_before) == (ratings.START_MU, ratings.START_SIGMA)
    # An account carries its rating from one event to the next.
    user = sim.users[0]
    changes = list(RatingChange.objects.filter(user=user).order_by("event_date", "round_number"))
    assert len({c.event_id for c in changes}) >= 2
    for before, after in zip(changes, changes[1:], strict=False):
        assert (after.mu_before, after.sigma_before) == (before.mu, before.sigma)


def test_the_stored_ratings_are_the_ratings_of_the_results_and_find_the_stronger_players(sim):
    assert same_skills(stored(), recomputed_independently())
    names = dict(Entrant.objects.filter(user__isnull=False).values_list("user_id", "name"))
    users = sorted(stored())
    hidden = [sim.strength[names[u]] for u in users]
    shown = [stored()[u].rating for u in users]
    assert spearman(hidden, shown) > 0.5  # seeded: a fixed number, not a chance


def test_refreshing_again_changes_nothing(sim):
    before = rating_store.snapshot()
    again = rating_store.refresh()
    assert again.rerated_from is None and again.changes == 0
    assert rating_store.snapshot() == before
    assert rating_store.rerate_all().rerated_from == rating_store.BEGINNING
    assert rating_store.snapshot() == before


def test_a_correction_rerates_from_its_round_on_when_it_commits(sim, django_capture_on_commit_callbacks):
    first_event = sim.events[0]
    later = RatingChange.objects.exclude(event=first_event).values_list("seat_id", "mu")
    untouched_before = dict(later)
    with django_capture_on_commit_callbacks(execute=True):
        simulate_series.correct_a_result(sim, event_index=0, round_number=2)
    # The hook ran after the commit: the stored ratings are those of the corrected results...
    assert same_skills(stored(), recomputed_independently())
    # ... rounds before the corrected one kept their ratings, everything after moved.
    round1 = dict(RatingChange.objects.filter(event=first_event, round_number=1).values_list("seat_id", "mu"))
    assert round1 and all(isinstance(v, float) for v in round1.values())
    after = dict(RatingChange.objects.exclude(event=first_event).values_list("seat_id", "mu"))
    assert after.keys() == untouched_before.keys() and after != untouched_before
    snapshot = rating_store.snapshot()
    rating_store.rerate_all()
    assert rating_store.snapshot() == snapshot


def test_a_moved_date_rerates_what_follows_and_a_rated_event_cannot_be_deleted(sim):
    first = sim.events[0]
    moved = sim.events[2].date + datetime.timedelta(days=1)
    Event.objects.filter(pk=first.pk).update(date=moved, version=first.version + 1)  # as a settings change
    result = rating_store.refresh()
    assert result.rerated_from == (first.date, first.pk, 1)  # from where it was: everything after moves
    assert same_skills(stored(), recomputed_independently())
    # An event with results is archived, never deleted (issue 28): its games stay rated.
    with pytest.raises(ProtectedError):
        Event.objects.filter(pk=sim.events[1].pk).delete()
    result = rating_store.refresh()
    assert result.rerated_from is None
    assert same_skills(stored(), recomputed_independently())


# ---------------------------------------------------------------------------------- statistics ---
def test_faction_statistics_count_every_game_once_and_every_pick_of_every_draft(sim):
    data = records.faction_stats([e.pk for e in sim.events])
    tables = Table.objects.filter(round__event__in=sim.events)
    assert data.tables == tables.count()
    assert data.seats == Seat.objects.filter(round__event__in=sim.events, no_show=False).count()
    assert data.seats_without_factions == 0
    # Every table hands out one win, and each seat plays two factions.
    assert sum(f.wins for f in data.factions) == pytest.approx(2 * data.tables)
    assert sum(f.games for f in data.factions) == 2 * data.seats
    assert sum(p.games for p in data.pairs) == data.seats
    drafts = Draft.objects.filter(table__round__event__in=sim.events)
    assert data.drafts == drafts.count() > 0
    assert sum(p.picked for p in data.picks) == sum(len(d.state["picks"]) for d in drafts)
    first_picks = defaultdict(int)
    for d in drafts:
        first_picks[d.state["picks"][0][1]] += 1
    assert {p.name: p.first_picks for p in data.picks if p.first_picks} == dict(first_picks)
    one = records.faction_stats([sim.events[1].pk])
    assert one.drafts == 0 and one.tables == Table.objects.filter(round__event=sim.events[1]).count()


def test_the_statistics_pages_draw_charts_with_titles_and_tables_and_export_the_same_numbers(sim, client):
    event = sim.events[0]
    for url in (
        f"/tournaments/{event.pk}/stats/",
        "/tournaments/stats/",
        f"/tournaments/series/{sim.series.pk}/stats/",
    ):
        html = client.get(url).content.decode()
        svgs = re.findall(r"<svg class=\"s-chart-svg\"[^>]*>", html)
        assert len(svgs) == 4, url  # win rate, VP, pairs, pick order
        assert all('role="img"' in s and "aria-labelledby=" in s and 'viewBox="0 0 360 ' in s for s in svgs)
        for chart_id in re.findall(r'aria-labelledby="([\w-]+)-title', html):
            assert f'<title id="{chart_id}-title">' in html and f'<desc id="{chart_id}-desc">' in html
        assert html.count("<table") >= 3 and "<caption>" in html
    data = client.get(f"/tournaments/{event.pk}/stats.json").json()
    text = client.get(f"/tournaments/{event.pk}/stats/factions.csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["faction"] for r in rows] == [f["name"] for f in data["factions"]]
    assert [float(r["win_rate"]) for r in rows] == [f["win_rate"] for f in data["factions"]]
    picks = list(
        csv.DictReader(io.StringIO(client.get(f"/tournaments/{event.pk}/stats/picks.csv").content.decode()))
    )
    assert [r["faction"] for r in picks] == [p["name"] for p in data["picks"]]
    assert client.get(f"/tournaments/{event.pk}/stats/secrets.csv").status_code == 404
    everything = client.get("/tournaments/stats.json").json()
    assert everything["tables"] == Table.objects.count()


def test_the_event_statistics_page_lists_the_event_s_ratings_with_guests_marked(sim, client):
    event = sim.events[1]
    html = client.get(f"/tournaments/{event.pk}/stats/").content.decode()
    listed = records.event_ratings(event)
    assert len(listed) == Entrant.objects.filter(event=event).count()
    assert listed[0]["place"] == 1
    winner = listed[0]
    assert winner["name"] in html
    guest = next(r for r in listed if r["user_id"] is None)
    assert re.search(re.escape(guest["name"]) + r" <span class=\"t-tag\">guest</span>", html)
    account = next(r for r in listed if r["user_id"])
    assert f'href="/tournaments/players/{account["user_id"]}/"' in html


# ---------------------------------------------------------------------------------- series -------
def test_series_points_follow_each_event_s_final_places(sim, client):
    table = leagues.standings(sim.series)
    assert table.counted == sim.events
    rule = leagues.rule_of(sim.series)
    expected: dict[str, float] = defaultdict(float)
    for event in sim.events:
        names = dict(Entrant.objects.filter(event=event).values_list("pk", "name"))
        for entrant_id, place in event_places(event).items():
            expected[names[entrant_id]] += rule.points_for(place)
    assert {line.name: line.row.points for line in table.lines} == expected
    assert len(table.lines) == 64  # accounts by account, guests matched by name
    assert sum(line.guest for line in table.lines) == 16
    points = [line.row.points for line in table.lines]
    assert points == sorted(points, reverse=True)
    # Event 2's place 1 is the winner of its final table, not the Swiss leader.
    final = Round.objects.get(event=sim.events[1], stage=Round.Stage.FINAL)
    vps = dict(final.tables.get().seats.values_list("entrant_id", "vp"))
    top = max(vps.values())
    winner = next(pk for pk, place in event_places(sim.events[1]).items() if place == 1)
    assert vps[winner] == top
    html = client.get(f"/tournaments/series/{sim.series.pk}/").content.decode()
    assert table.lines[0].name in html and "guest" in html
    data = client.get(f"/tournaments/series/{sim.series.pk}/standings.json").json()
    assert [row["name"] for row in data["standings"]] == [line.name for line in table.lines]
    text = client.get(f"/tournaments/series/{sim.series.pk}/standings.csv").content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:5] == ["rank", "name", "guest", "points", "events"] and len(rows) == 65


# ---------------------------------------------------------------------------------- profiles -----
def test_a_profile_shows_events_places_factions_and_rating(sim, client):
    user = sim.users[3]
    found = records.profile(user)
    entrants = Entrant.objects.filter(user=user)
    assert [p.event.pk for p in found.events] == sorted((e.event_id for e in entrants), reverse=True)
    for item in found.events:
        assert item.place == event_places(item.event)[item.entrant.pk]
        assert set(item.factions) == {
            f for s in Seat.objects.filter(entrant=item.entrant) for f in s.factions
        }
    assert (
        sum(g for _, g, _ in found.faction_games)
        == 2 * Seat.objects.filter(entrant__in=entrants, no_show=False).count()
    )
    assert found.rating.user_id == user.pk and found.rank >= 1
    html = client.get(f"/tournaments/players/{user.pk}/").content.decode()
    assert found.name in html and "Rating of" in html and user.get_username() not in html
    assert client.get(f"/tournaments/players/{sim.organizer.pk}/").status_code == 404  # never played
    board = client.get("/tournaments/ratings/").content.decode()
    best = PlayerRating.objects.order_by("-rating").first()
    assert f'href="/tournaments/players/{best.user_id}/"' in board.split("</tr>")[1]


def test_the_faction_stats_of_the_simulation_add_up_like_the_pure_module_on_the_same_input(sim):
    ids = [e.pk for e in sim.events]
    direct = stats.faction_stats(records.table_results(ids), records.draft_records(ids))
    assert direct.as_dict() == records.faction_stats(ids).as_dict()
