"""Organizer controls of issue 14: correcting a result of any earlier round (audit trail, standings
recomputed, what it does not redo), no-shows at a running table, extra time for one table (judge
calls) on the round clock and its Celery moments, and the warning before a pairing that seats whole
tables again. Services first, then the dashboard's controls through the test client; every refusal
changes nothing."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.core.cache import cache
from django.utils import timezone

from tests.tournaments import people
from tests.tournaments.people import user
from tournaments import clock, in_app, services, tasks
from tournaments.models import AuditEntry, Bye, Entrant, Event, Round, RoundClock, Seat, Table
from tournaments.scoring import placements, table_points
from tournaments.standings import Game, compute_standings


def new_event(players: int, **fields) -> Event:
    return people.new_event(players, **({"name": "Controls"} | fields))


def play(rnd: Round) -> None:
    """Every table: seat 1 scores most (12, 10, 8, ...)."""
    for table in rnd.tables.order_by("number"):
        seats = list(table.seats.order_by("position"))
        services.set_result(table, {s.entrant_id: 12 - 2 * s.position for s in seats}, by=user("org"))


def snapshot(event: Event) -> tuple:
    return (
        list(Event.objects.filter(pk=event.pk).values()),
        list(Entrant.objects.filter(event=event).order_by("pk").values()),
        list(Round.objects.filter(event=event).order_by("pk").values()),
        list(Table.objects.filter(round__event=event).order_by("pk").values()),
        list(Seat.objects.filter(round__event=event).order_by("pk").values()),
        list(Bye.objects.filter(round__event=event).order_by("pk").values()),
        list(RoundClock.objects.filter(round__event=event).order_by("pk").values()),
        AuditEntry.objects.filter(event=event).count(),
    )


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


@pytest.fixture
def scheduled(monkeypatch):
    """Record the Celery tasks the clock schedules instead of sending them."""
    calls = []
    monkeypatch.setattr(
        clock, "schedule", lambda pk, version, moments: calls.append((pk, version, list(moments)))
    )
    return calls


@pytest.fixture
def org_client(client):
    client.force_login(user("org"))
    return client


def two_rounds() -> tuple[Event, Round, Round]:
    """8 players at tables of 4: round 1 and round 2 played."""
    event = new_event(8)
    first = services.generate_round(event, user("org"))
    play(first)
    second = services.generate_round(event, user("org"))
    play(second)
    return event, first, second


# ---------------------------------------------------------------------------------- corrections --
@pytest.mark.django_db
def test_correcting_an_earlier_round_recomputes_the_standings_and_logs_who_when_old_and_new():
    event, first, second = two_rounds()
    event.refresh_from_db()
    before_rows = services.cached_standings(event)
    table = first.tables.order_by("number").first()
    seats = list(table.seats.order_by("position"))
    old = {s.entrant_id: s.vp for s in seats}
    # The last seat now wins the table: their points rise, the first seat's fall.
    new = {s.entrant_id: (20 if s.position == len(seats) - 1 else s.vp) for s in seats}
    version = event.version
    services.set_result(table, new, by=user("org"))
    event.refresh_from_db()
    assert event.version > version
    assert dict(table.seats.values_list("entrant_id", "vp")) == new
    entry = AuditEntry.objects.filter(event=event, action="result").first()  # newest first
    assert entry.user == user("org") and entry.actor == "org" and entry.at is not None
    assert entry.data["before"] == {str(k): v for k, v in old.items()}
    assert entry.data["after"] == {str(k): v for k, v in new.items()}
    assert "corrected the result from" in entry.message
    assert "Round 2 was paired from the standings before this correction" in entry.message
    after_rows = services.cached_standings(event)  # the cache follows the version
    last = seats[-1].entrant_id
    points = lambda rows, pk: next(r.points for r in rows if r.entrant.pk == pk)  # noqa: E731
    assert points(after_rows, last) > points(before_rows, last)
    assert points(after_rows, last) == points(services.standings(event), last)
    # Round 2's tables stay as they were paired.
    assert Round.objects.filter(event=event).count() == 2 and second.tables.count() == 2


@pytest.mark.django_db
def test_correction_effects_name_the_later_rounds_and_the_top_cut():
    event, first, second = two_rounds()
    assert services.round_correction_effects(second) == []
    assert services.round_correction_effects(first) == [
        "Round 2 was paired from the standings before this correction: its tables stay as they are "
        "(pairings are never redone)."
    ]
    Event.objects.filter(pk=event.pk).update(top_cut=4)
    event.refresh_from_db()
    services.start_top_cut(event, user("org"))
    effects = services.round_correction_effects(first)
    assert any("top cut was seeded" in e for e in effects)


@pytest.mark.django_db
def test_a_correction_that_changes_nothing_bad_vp_and_strangers_are_refused_and_change_nothing():
    event, first, _ = two_rounds()
    table = first.tables.order_by("number").first()
    same = dict(table.seats.values_list("entrant_id", "vp"))
    before = snapshot(event)
    with pytest.raises(services.Conflict, match="already has these VP"):
        services.set_result(table, same, by=user("org"))
    with pytest.raises(services.Invalid):
        services.set_result(table, {pk: -1 for pk in same}, by=user("org"))
    with pytest.raises(services.Invalid):
        services.set_result(table, dict(list(same.items())[:2]), by=user("org"))
    with pytest.raises(services.NotAllowed):
        services.set_result(table, {pk: 3 for pk in same}, by=user("stranger"))
    player = Entrant.objects.get(pk=next(iter(same)))
    with pytest.raises(services.NotAllowed):
        services.set_result(table, {pk: 3 for pk in same}, by=player)
    assert snapshot(event) == before


@pytest.mark.django_db
def test_the_results_page_of_an_earlier_round_corrects_with_a_confirmation_and_a_notice(org_client):
    event, first, _ = two_rounds()
    page = org_client.get(f"/tournaments/{event.pk}/rounds/1/results/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Round 2 was paired from the standings before this correction" in html
    assert html.count('data-confirm="Correct the result of table') == 2
    assert f'name="next" value="/tournaments/{event.pk}/rounds/1/results/"' in html
    dash = org_client.get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert f'href="/tournaments/{event.pk}/rounds/1/results/"' in dash
    table = first.tables.order_by("number").first()
    seats = list(table.seats.order_by("position"))
    data = {f"vp_{s.entrant_id}": str(s.vp + 1) for s in seats}
    data["next"] = f"/tournaments/{event.pk}/rounds/1/results/"
    response = org_client.post(f"/tournaments/{event.pk}/tables/{table.pk}/result/", data, follow=True)
    shown = messages_of(response)
    assert "Result corrected: the standings are recomputed." in shown
    assert any(m.startswith("Round 2 was paired from the standings") for m in shown)
    assert response.redirect_chain[-1][0] == f"/tournaments/{event.pk}/rounds/1/results/"
    assert [s.vp for s in table.seats.order_by("position")] == [s.vp + 1 for s in seats]


@pytest.mark.django_db
def test_forged_corrections_change_nothing(client, org_client):
    event, first, _ = two_rounds()
    other, other_first, _ = two_rounds()
    table = other_first.tables.order_by("number").first()
    data = {f"vp_{s.entrant_id}": "1" for s in table.seats.all()}
    before, before_other = snapshot(event), snapshot(other)
    # A table of another event under this event's URL.
    assert org_client.post(f"/tournaments/{event.pk}/tables/{table.pk}/result/", data).status_code == 404
    assert org_client.get(f"/tournaments/{event.pk}/rounds/9/results/").status_code == 404
    mine = first.tables.order_by("number").first()
    bad = {f"vp_{s.entrant_id}": "x1" for s in mine.seats.all()}
    response = org_client.post(f"/tournaments/{event.pk}/tables/{mine.pk}/result/", bad, follow=True)
    assert any("whole number" in m for m in messages_of(response)), messages_of(response)
    stranger = client.__class__()
    stranger.force_login(user("stranger"))
    ok = {f"vp_{s.entrant_id}": "1" for s in mine.seats.all()}
    assert stranger.post(f"/tournaments/{event.pk}/tables/{mine.pk}/result/", ok).status_code == 403
    assert stranger.get(f"/tournaments/{event.pk}/rounds/1/results/").status_code == 403
    assert snapshot(event) == before and snapshot(other) == before_other


# ---------------------------------------------------------------------------------- no-shows -----
def test_a_no_show_places_below_everyone_present_even_with_the_same_vp():
    vp = {"a": 10, "b": 5, "c": 0, "d": 0}
    assert placements(vp) == {"a": (1, 1), "b": (2, 2), "c": (3, 4), "d": (3, 4)}
    assert placements(vp, absent={"d"}) == {"a": (1, 1), "b": (2, 2), "c": (3, 3), "d": (4, 4)}
    assert table_points(vp, absent={"d"}) == {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}
    # Two no-shows share the last places; nobody absent is ever first.
    assert placements({"a": 0, "b": 0, "c": 0}, absent={"b", "c"}) == {"a": (1, 1), "b": (2, 3), "c": (2, 3)}
    rows = compute_standings(["a", "b"], [Game(1, {"a": 0, "b": 0}, frozenset({"b"}))])
    assert [(r.player, r.points, r.firsts) for r in rows] == [("a", 4.0, 1), ("b", 1.0, 0)]


@pytest.mark.django_db
def test_a_no_show_scores_zero_is_dropped_and_the_others_complete_the_table(client):
    event = new_event(4)
    rnd = services.generate_round(event, user("org"))
    table = rnd.tables.get()
    a, b, c, d = [s.entrant for s in table.seats.order_by("position")]
    seat = services.mark_no_show(table, d.pk, user("org"))
    assert (seat.no_show, seat.vp, seat.confirmed) == (True, 0, True)
    d.refresh_from_db()
    assert d.dropped and d.dropped_after == 1
    entry = AuditEntry.objects.filter(event=event, action="no_show").get()
    assert entry.user == user("org") and "dropped from the next round on" in entry.message
    # The others report without the no-show's VP (or with 0) and confirm among themselves.
    services.report_result(table, a, {a.pk: 9, b.pk: 4, c.pk: 0})
    table.refresh_from_db()
    services.confirm_result(table, b, table.result_version)
    services.confirm_result(table, c, table.result_version)
    table.refresh_from_db()
    assert table.state == Table.State.CONFIRMED
    rows = {r.entrant.pk: r for r in services.standings(event)}
    assert rows[c.pk].points == 2.0 and rows[d.pk].points == 1.0  # c (0 VP, present) beats the no-show
    assert services.points_of(table, event)[d.pk] == 1.0
    shown = client.get(f"/tournaments/{event.pk}/api/pairings.json?round=1").json()["round"]
    api = {p["name"]: p for p in shown["tables"][0]["players"]}
    assert api[d.name]["no_show"] is True and api[d.name]["points"] == 1 and api[c.name]["no_show"] is False
    client.force_login(user("org"))
    rows = list(
        csv.reader(io.StringIO(client.get(f"/tournaments/{event.pk}/export/results.csv").content.decode()))
    )
    assert rows[0][-1] == "no_show"
    assert {r[4]: r[-1] for r in rows[1:]} == {a.name: "", b.name: "", c.name: "", d.name: "yes"}
    rnd.refresh_from_db()
    assert rnd.is_finished
    # Dropped: not paired in round 2 (3 players left: one table of 3).
    second = services.generate_round(event, user("org"))
    assert sorted(second.tables.get().seats.values_list("entrant_id", flat=True)) == sorted(
        [a.pk, b.pk, c.pk]
    )


@pytest.mark.django_db
def test_a_kept_no_show_stays_and_undoing_one_reinstates_the_player():
    event = new_event(4)
    rnd = services.generate_round(event, user("org"))
    table = rnd.tables.get()
    a, b, c, d = [s.entrant for s in table.seats.order_by("position")]
    services.mark_no_show(table, c.pk, user("org"), keep=True)
    c.refresh_from_db()
    assert not c.dropped
    services.mark_no_show(table, d.pk, user("org"))
    services.undo_no_show(table, d.pk, user("org"))
    d.refresh_from_db()
    seat = table.seats.get(entrant=d)
    assert not d.dropped and d.dropped_after is None
    assert (seat.no_show, seat.vp, seat.confirmed) == (False, None, False)
    assert (
        "no longer a no-show (and no longer dropped)"
        in AuditEntry.objects.filter(event=event).first().message
    )
    # A player who dropped on their own is not reinstated by undoing a kept no-show.
    services.drop(c, c)
    services.undo_no_show(table, c.pk, user("org"))
    c.refresh_from_db()
    assert c.dropped


@pytest.mark.django_db
def test_no_show_refusals_change_nothing():
    event = new_event(8)
    rnd = services.generate_round(event, user("org"))
    t1, t2 = rnd.tables.order_by("number")
    a, b, c, d = [s.entrant for s in t1.seats.order_by("position")]
    services.mark_no_show(t1, d.pk, user("org"))
    before = snapshot(event)
    with pytest.raises(services.Conflict, match="already marked"):
        services.mark_no_show(t1, d.pk, user("org"))
    with pytest.raises(services.Invalid, match="does not sit at table 2"):
        services.mark_no_show(t2, a.pk, user("org"))
    with pytest.raises(services.Invalid):
        services.mark_no_show(t1, "x", user("org"))
    with pytest.raises(services.NotAllowed):
        services.mark_no_show(t1, a.pk, user("stranger"))
    with pytest.raises(services.NotAllowed):
        services.mark_no_show(t1, a.pk, b)
    with pytest.raises(services.Conflict, match="is not marked"):
        services.undo_no_show(t1, a.pk, user("org"))
    # The no-show's VP are 0: anything else is refused; the no-show neither reports nor confirms.
    with pytest.raises(services.Invalid, match="is a no-show at this table"):
        services.report_result(t1, a, {a.pk: 5, b.pk: 4, c.pk: 3, d.pk: 2})
    with pytest.raises(services.NotAllowed, match="no-show"):
        services.report_result(t1, d, {a.pk: 5, b.pk: 4, c.pk: 3})
    assert snapshot(event) == before
    services.mark_no_show(t1, c.pk, user("org"))
    services.mark_no_show(t1, b.pk, user("org"))
    before = snapshot(event)
    with pytest.raises(services.Conflict, match="Nobody else at table 1"):
        services.mark_no_show(t1, a.pk, user("org"))
    with pytest.raises(services.Conflict, match="an organizer enters your result"):
        services.report_result(t1, a, {a.pk: 5})
    assert snapshot(event) == before
    services.set_result(t1, {a.pk: 5}, by=user("org"))  # the organizer does
    # After the result a mark can still go (issue 27): d's 0 VP stand as a present player's.
    seat = services.undo_no_show(t1, d.pk, user("org"))
    assert not seat.no_show and seat.vp == 0
    services.set_result(t2, {s.entrant_id: 1 for s in t2.seats.all()}, by=user("org"))
    with pytest.raises(services.Conflict, match="Every result"):
        services.mark_no_show(t2, t2.seats.first().entrant_id, user("org"))


# Each faction once per game: every entrant of a table holds a pair of its own.
PAIRS = [["Aliens", "Ninjas"], ["Pirates", "Robots"], ["Wizards", "Zombies"], ["Dinosaurs", "Tricksters"]]


def set_pairs(event: Event) -> None:
    """Every seat of the latest round's tables a pair of its own at its table."""
    latest = Round.objects.filter(event=event).order_by("-number").first()
    for table in Table.objects.filter(round=latest):
        for i, seat in enumerate(table.seats.order_by("position")):
            services.set_factions(seat.entrant, PAIRS[i], user("org"))


@pytest.mark.django_db
def test_an_app_table_takes_no_no_show():
    event = new_event(4)
    rnd = services.generate_round(event, user("org"))
    set_pairs(event)
    table = rnd.tables.get()
    in_app.start_table(table, user("org"))
    before = snapshot(event)
    with pytest.raises(services.Conflict, match="plays in the app"):
        services.mark_no_show(table, table.seats.first().entrant_id, user("org"))
    assert snapshot(event) == before


@pytest.mark.django_db
def test_the_dashboard_marks_and_undoes_a_no_show(org_client):
    event = new_event(4)
    rnd = services.generate_round(event, user("org"))
    table = rnd.tables.get()
    d = table.seats.order_by("position").last().entrant
    html = org_client.get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert f'action="/tournaments/{event.pk}/tables/{table.pk}/no-show/"' in html
    assert 'data-confirm="Mark this player as a no-show at table 1?' in html
    url = f"/tournaments/{event.pk}/tables/{table.pk}/no-show/"
    response = org_client.post(url, {"entrant": d.pk}, follow=True)
    assert f"{d.name} is marked as a no-show at table 1." in messages_of(response)
    assert table.seats.get(entrant=d).no_show
    html = response.content.decode()
    assert "no-show</span>" in html and f"{d.name} came after all" in html
    # The player's page and the public round page say so.
    org_client.post(f"/tournaments/p/{d.token}/")
    me = org_client.get(f"/tournaments/{event.pk}/me/").content.decode()
    assert "marked you as a no-show" in me
    assert "no-show</span>" in org_client.get(f"/tournaments/{event.pk}/round/1/").content.decode()
    # Bad and forged requests: a clear message, nothing changed.
    before = snapshot(event)
    other = new_event(4, name="Other")
    other_table = services.generate_round(other, user("org")).tables.get()
    for data, text in [
        ({"entrant": d.pk}, "already marked"),
        ({"entrant": other_table.seats.first().entrant_id}, "does not sit at table 1"),
        ({}, "Choose the player"),
    ]:
        response = org_client.post(url, data, follow=True)
        assert any(text in m for m in messages_of(response)), messages_of(response)
    response = org_client.post(url, {"entrant": "1x"}, follow=True)
    assert any("entrant" in m for m in messages_of(response)), messages_of(response)
    assert (
        org_client.post(
            f"/tournaments/{event.pk}/tables/{other_table.pk}/no-show/", {"entrant": 1}
        ).status_code
        == 404
    )
    assert snapshot(event) == before
    response = org_client.post(
        f"/tournaments/{event.pk}/tables/{table.pk}/no-show/undo/", {"entrant": d.pk}, follow=True
    )
    assert f"{d.name} is back at table 1." in messages_of(response)
    assert not table.seats.get(entrant=d).no_show


@pytest.mark.django_db
def test_the_rules_page_says_how_no_shows_and_extra_time_work(client):
    event = new_event(0)
    html = client.get(f"/tournaments/{event.pk}/rules/").content.decode()
    assert "No-shows" in html and "dropped" in html and "unless the organizer keeps them" in html
    assert "Extra time" in html


# ---------------------------------------------------------------------------------- extra time ---
def running(players: int = 8) -> tuple[Event, RoundClock, list[Table]]:
    event = new_event(players, round_minutes=30)
    rnd = services.generate_round(event, user("org"))
    c = clock.start(rnd.clock, user("org"))
    return event, c, list(rnd.tables.order_by("number"))


def fresh(c: RoundClock) -> RoundClock:
    return RoundClock.objects.select_related("round").get(pk=c.pk)


def move_deadline(c: RoundClock, seconds_from_now: float) -> None:
    RoundClock.objects.filter(pk=c.pk).update(
        deadline=timezone.now() + datetime.timedelta(seconds=seconds_from_now)
    )


@pytest.mark.django_db
def test_extra_time_for_one_table_moves_its_deadline_and_schedules_its_moment(
    scheduled, django_capture_on_commit_callbacks
):
    event, c, (t1, t2) = running()
    with django_capture_on_commit_callbacks(execute=True):
        c = clock.extend_table(t1, 300, user("org"))
    c = fresh(c)
    assert c.extensions == {str(t1.pk): 300} and c.deadline is not None
    state = clock.table_state(c, t1)
    assert state["status"] == "running" and state["extra"] == 300 and state["extra_text"] == "5 minutes"
    assert datetime.datetime.fromisoformat(state["deadline"]) == c.deadline + datetime.timedelta(seconds=300)
    assert clock.table_state(c, t2) is None
    pk, version, moments = scheduled[-1]
    assert (pk, version) == (c.pk, c.version)
    assert moments[-1] == c.deadline + datetime.timedelta(seconds=300)  # the table's own moment
    clock.extend_table(t1, 120, user("org"))
    assert fresh(c).extensions == {str(t1.pk): 420}
    entry = AuditEntry.objects.filter(event=event, action="table_time").first()
    assert "gave table 1 2 minutes more (7 minutes extra in all)" in entry.message
    # Pausing the round pauses the table too: its time left is the round's plus its extra.
    c = clock.pause(c, user("org"))
    assert clock.table_state(fresh(c), t1)["status"] == "paused"
    assert clock.table_left(fresh(c), t1.pk) == pytest.approx(fresh(c).remaining + 420)


@pytest.mark.django_db
def test_the_round_calls_time_but_not_at_an_extended_table_until_its_extra_time_is_over(
    scheduled, monkeypatch, django_capture_on_commit_callbacks
):
    event, c, (t1, t2) = running()
    clock.extend_table(t1, 300, user("org"))
    called_rounds, called_tables = [], []
    monkeypatch.setattr(
        in_app, "time_called_in_round", lambda rid, skip=(): called_rounds.append((rid, list(skip)))
    )
    monkeypatch.setattr(in_app, "_call_time_in", lambda ids: called_tables.append(list(ids)) or 0)
    move_deadline(c, -1)
    c = fresh(c)
    with django_capture_on_commit_callbacks(execute=True):
        assert clock.advance(c.pk, c.version) == ["warn:600", "call"]
    c = fresh(c)
    assert c.status == "called"
    assert called_rounds == [(c.round_id, [t1.pk])]  # the app games of every other table
    assert clock.table_called(c, t2.pk) and not clock.table_called(c, t1.pk)
    assert clock.table_state(c, t1)["status"] == "running"
    assert "not yet at 1 table with extra time" in AuditEntry.objects.filter(event=event).first().message
    assert clock.upcoming(c) == [c.deadline + datetime.timedelta(seconds=300)]
    assert clock.advance(c.pk, c.version) == []  # not yet
    with pytest.raises(services.Conflict, match="Time is already called at table 2"):
        clock.extend_table(t2, 60, user("org"))
    RoundClock.objects.filter(pk=c.pk).update(deadline=timezone.now() - datetime.timedelta(seconds=301))
    with django_capture_on_commit_callbacks(execute=True):
        assert clock.advance(c.pk, c.version) == [f"table:{t1.pk}"]
    c = fresh(c)
    assert clock.table_called(c, t1.pk) and clock.table_state(c, t1)["status"] == "called"
    assert (
        "time is called at table 1 (extra time over)"
        in AuditEntry.objects.filter(event=event).first().message
    )
    assert clock.advance(c.pk, c.version) == [] and clock.upcoming(c) == []  # once


@pytest.mark.django_db
def test_the_sweep_catches_a_lost_table_moment_and_the_organizer_call_ends_extra_time(scheduled):
    event, c, (t1, t2) = running()
    clock.extend_table(t1, 300, user("org"))
    clock.extend_table(t2, 600, user("org"))
    move_deadline(c, -301)  # round over, table 1's extra time over, table 2's not
    assert tasks.sweep()["clocks"] == 1
    c = fresh(c)
    assert c.status == "called" and clock.table_called(c, t1.pk) and not clock.table_called(c, t2.pk)
    assert clock.sweep() == 0
    clock.call_time(c, user("org"))  # the organizer calls time everywhere
    c = fresh(c)
    assert clock.table_called(c, t2.pk)
    with pytest.raises(services.Conflict, match="already called"):
        clock.call_time(c, user("org"))


@pytest.mark.django_db
def test_the_in_app_sweep_leaves_a_game_at_an_extended_table_alone(scheduled, monkeypatch):
    event, c, (t1, t2) = running()
    clock.extend_table(t1, 300, user("org"))
    set_pairs(event)
    Table.objects.filter(pk=t1.pk).update(game=in_app.start_table(t2, user("org")))
    Table.objects.filter(pk=t2.pk).update(game=None)
    calls = []
    monkeypatch.setattr(in_app, "_call_time_in", lambda ids: calls.append(list(ids)) or 0)
    move_deadline(c, -1)
    clock.advance(c.pk)
    in_app.sweep()
    assert calls[-1] == []  # table 1 still has extra time
    move_deadline(c, -400)
    clock.advance(c.pk)
    in_app.sweep()
    assert calls[-1] == [Table.objects.get(pk=t1.pk).game_id]


@pytest.mark.django_db
def test_extra_time_refusals_change_nothing(scheduled):
    event, c, (t1, t2) = running()
    before = snapshot(event)
    for seconds in (0, -60, 3601, "ten"):
        with pytest.raises(services.Invalid):
            clock.extend_table(t1, seconds, user("org"))
    with pytest.raises(services.NotAllowed):
        clock.extend_table(t1, 60, user("stranger"))
    with pytest.raises(services.Invalid):
        clock.extend_table(999999, 60, user("org"))
    clock.extend_table(t1, 3000, user("org"))
    before = snapshot(event)
    with pytest.raises(services.Invalid, match="at most 60 extra minutes"):
        clock.extend_table(t1, 601, user("org"))
    play_table = t2
    services.set_result(play_table, {s.entrant_id: 1 for s in play_table.seats.all()}, by=user("org"))
    before = snapshot(event)
    with pytest.raises(services.Conflict, match="has its result"):
        clock.extend_table(play_table, 60, user("org"))
    assert snapshot(event) == before
    services.set_result(t1, {s.entrant_id: 1 for s in t1.seats.all()}, by=user("org"))
    with pytest.raises(services.Conflict, match="Every result"):
        clock.extend_table(t1, 60, user("org"))


@pytest.mark.django_db
def test_the_dashboard_projector_and_player_page_show_a_table_s_extra_time(org_client, scheduled):
    event, c, (t1, t2) = running()
    url = f"/tournaments/{event.pk}/tables/{t1.pk}/extend/"
    html = org_client.get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert f'action="{url}"' in html and "+ minutes for this table" in html
    response = org_client.post(url, {"minutes": "4"}, follow=True)
    assert "Table 1 has 4 more minutes." in messages_of(response)
    c = fresh(c)
    deadline = (c.deadline + datetime.timedelta(seconds=240)).isoformat()
    assert f'data-deadline="{deadline}"' in response.content.decode()
    projector = org_client.get(f"/tournaments/{event.pk}/projector/").content.decode()
    assert (
        "Extra time:" in projector
        and f'data-deadline="{deadline}"' in projector
        and "+4 minutes" in projector
    )
    player = t1.seats.first().entrant
    org_client.post(f"/tournaments/p/{player.token}/")
    me = org_client.get(f"/tournaments/{event.pk}/me/").content.decode()
    assert "Your table has 4 minutes of extra time" in me and f'data-deadline="{deadline}"' in me
    move_deadline(c, -1)
    clock.advance(c.pk)
    me = org_client.get(f"/tournaments/{event.pk}/me/").content.decode()
    assert "time is called in the room, not yet at your table" in me
    # Bad and forged requests.
    before = snapshot(event)
    for minutes in ("0", "61", "x", ""):
        response = org_client.post(url, {"minutes": minutes}, follow=True)
        assert "Give a table 1 to 60 extra minutes." in messages_of(response)
    response = org_client.post(
        f"/tournaments/{event.pk}/tables/{t2.pk}/extend/", {"minutes": "3"}, follow=True
    )
    assert any("Time is already called at table 2" in m for m in messages_of(response))
    other, _, (other_table, _) = running()
    assert (
        org_client.post(
            f"/tournaments/{event.pk}/tables/{other_table.pk}/extend/", {"minutes": "3"}
        ).status_code
        == 404
    )
    assert snapshot(event) == before


# ---------------------------------------------------------------------------------- rematches ----
@pytest.mark.django_db
def test_one_table_of_players_is_warned_that_it_meets_again(org_client):
    cache.clear()
    event = new_event(4, draft_mode=Event.DraftMode.EVENT)
    first = services.generate_round(event, user("org"))
    assert services.next_round_check(event) is None  # round 1 still plays
    play(first)
    check = services.next_round_check(event)
    names = sorted(Entrant.objects.filter(event=event).values_list("name", flat=True))
    assert check.round == 2
    assert check.lines == [
        f"Table 1: {', '.join(names[:-1])} and {names[-1]} all sat together at table 1 of round 1."
    ]
    assert check.reason == "With 4 active players there is one table: every round seats it again."
    dash = org_client.get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert f'hx-get="/tournaments/{event.pk}/rounds/next/check/"' in dash
    fragment = org_client.get(f"/tournaments/{event.pk}/rounds/next/check/").content.decode()
    assert "Round 2 will seat a whole table again." in fragment and check.lines[0] in fragment
    response = org_client.post(f"/tournaments/{event.pk}/rounds/new/", follow=True)
    assert "A whole table meets again. " + check.lines[0] in messages_of(response)
    assert services.repeated_tables(Round.objects.get(event=event, number=2)) == check.lines


@pytest.mark.django_db
def test_a_keep_your_draft_pool_that_forces_whole_tables_again_is_explained_in_words():
    cache.clear()
    event = new_event(4, draft_mode=Event.DraftMode.EVENT, table_size=2, faction_copies=1)
    first = services.generate_round(event, user("org"))
    (a, b), (c, d) = [
        [s.entrant for s in t.seats.order_by("position")] for t in first.tables.order_by("number")
    ]
    # Each player shares a faction with both players of the other table: every new pair clashes.
    for who, pair in [
        (a, ["Aliens", "Dinosaurs"]),
        (b, ["Ninjas", "Pirates"]),
        (c, ["Aliens", "Ninjas"]),
        (d, ["Dinosaurs", "Pirates"]),
    ]:
        services.set_factions(who, pair, user("org"))
    play(first)
    check = services.next_round_check(Event.objects.get(pk=event.pk))
    assert len(check.lines) == 2
    assert (
        "keep the factions they drafted in round 1" in check.reason
        and "1 copy of each faction" in check.reason
    )
    assert "allow more copies of each faction" in check.advice
    # With factions that do not clash, the pairing finds new opponents: no warning.
    for who, pair in [(c, ["Robots", "Wizards"]), (d, ["Zombies", "Tricksters"])]:
        services.set_factions(who, pair, user("org"))
    assert services.next_round_check(Event.objects.get(pk=event.pk)).lines == []


@pytest.mark.django_db
def test_the_rematch_check_is_for_organizers_and_only_in_keep_your_draft_events(client, org_client):
    event = new_event(4, draft_mode=Event.DraftMode.TABLE)
    play(services.generate_round(event, user("org")))
    assert "rounds/next/check/" not in org_client.get(f"/tournaments/{event.pk}/manage/").content.decode()
    client.force_login(user("stranger"))
    assert client.get(f"/tournaments/{event.pk}/rounds/next/check/").status_code == 403


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_calls_time_in_the_room_then_at_the_extended_table(redis_url, settings):
    """The production path: the clock's ETA tasks on Redis, run by a Celery worker, call the round's
    time and, a moment later, the time of the table with extra time."""
    import threading
    import uuid

    from celery.contrib.testing.worker import start_worker

    from smashup.celery import app as celery_app

    settings.TOURNAMENT_QUEUE = queue = f"test-tournaments-{uuid.uuid4().hex}"
    event = new_event(8)
    rnd = services.generate_round(event, user("org"))
    c = rnd.clock
    RoundClock.objects.filter(pk=c.pk).update(remaining=1.0, warnings=[])
    t1 = rnd.tables.order_by("number").first()
    with start_worker(celery_app, perform_ping_check=False, queues=[queue], shutdown_timeout=30, pool="solo"):
        clock.extend_table(t1, 2, user("org"))
        clock.start(c, user("org"))
        for _ in range(300):
            if clock.table_called(fresh(c), t1.pk):
                break
            threading.Event().wait(0.1)
    c = fresh(c)
    assert c.status == "called" and clock.table_called(c, t1.pk)
    messages = list(AuditEntry.objects.filter(event=event, action="clock").values_list("message", flat=True))
    apart = [
        "Round 1: time is called at table 1 (extra time over).",
        "Round 1: time is called (not yet at 1 table with extra time).",
    ]
    # A worker more than 2 seconds late applies both moments at once, in one entry.
    together = ["Round 1: time is called; time is called at table 1."]
    assert messages[:2] == apart or messages[:1] == together, messages
