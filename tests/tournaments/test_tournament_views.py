"""Tournament pages through the Django test client on PostgreSQL: the organizer runs an event in the
browser (create, add and check in players, pair, clock, results, swap, top cut, exports), players
sign up and follow their table, the public standings, and the standings' query count."""

from __future__ import annotations

import csv
import datetime
import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.tournaments.people import new_event, user
from tournaments import services
from tournaments.forms import FACTION_CHOICES
from tournaments.models import Entrant, Event, Round, RoundClock, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def org_client(client):
    client.force_login(user("org"))
    return client


def play_round(rnd: Round, organizer) -> None:
    for table in rnd.tables.all():
        seats = list(table.seats.order_by("position"))
        services.set_result(table, {s.entrant_id: 12 - 2 * s.position for s in seats}, by=organizer)


def event_form(**overrides) -> dict:
    data = {
        "name": "Spring Cup",
        "date": "2026-04-11",
        "place": "Dice & Dragons",
        "description": "",
        "mode": "standard",
        "table_size": "4",
        "layout": "even",
        "rounds": "",
        "round_minutes": "50",
        "warnings": "10, 5",
        "end_rule": "Finish the round.",
        "faction_pool": [
            "Aliens",
            "Dinosaurs",
            "Ninjas",
            "Pirates",
            "Robots",
            "Tricksters",
            "Wizards",
            "Zombies",
        ],
        "faction_copies": "1",
        "draft_mode": "table",
        "bans_per_player": "0",
        "pick_seconds": "",
        "scoring": "normalised",
        "tiebreaker_1": "sos",
        "tiebreaker_2": "vp_share",
        "tiebreaker_3": "",
        "tiebreaker_4": "",
        "top_cut": "0",
        "require_check_in": "on",
        "registration_open": "on",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


# ---------------------------------------------------------------------------------- create -------
def test_list_and_new_event(client):
    assert client.get("/tournaments/").status_code == 200
    response = client.get("/tournaments/new/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(user("org"))
    html = client.get("/tournaments/new/").content.decode()
    for name in ("name", "date", "table_size", "faction_pool", "tiebreaker_1", "warnings", "draft_mode"):
        assert f'name="{name}"' in html
    response = client.post("/tournaments/new/", event_form())
    event = Event.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{event.pk}/manage/"
    assert event.organizer.username == "org" and event.place == "Dice & Dragons"
    assert event.warning_minutes == [10, 5] and event.tiebreakers == ["sos", "vp_share"]
    assert event.faction_pool[:2] == ["Aliens", "Dinosaurs"] and event.draft_mode == "table"


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"faction_pool": ["Aliens", "Ninjas"]}, "faction pool does not work"),
        ({"tiebreaker_2": "sos"}, "at most once"),
        ({"warnings": "ten"}, "Whole minutes"),
        ({"name": ""}, "This field is required"),
    ],
)
def test_new_event_form_errors(org_client, overrides, message):
    response = org_client.post("/tournaments/new/", event_form(**overrides))
    assert response.status_code == 200 and message in response.content.decode()
    assert not Event.objects.exists()


def test_edit_settings(org_client):
    event = new_event()
    html = org_client.get(f"/tournaments/{event.pk}/edit/").content.decode()
    assert 'value="Friday Smash"' in html and "Co-organizers" in html
    response = org_client.post(
        f"/tournaments/{event.pk}/edit/", event_form(name="Friday Smash II", round_minutes="45")
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.name == "Friday Smash II" and event.round_minutes == 45
    assert event.audit.filter(action="settings").exists()
    assert event.min_factions_per_player == 2  # not in the form posted: the rulebook's 2
    assert 'name="min_factions_per_player"' in html
    # 8 factions cannot give 4 players 3 each: refused with the reason, nothing saved.
    response = org_client.post(f"/tournaments/{event.pk}/edit/", event_form(min_factions_per_player="3"))
    assert response.status_code == 200 and "faction pool does not work" in response.content.decode()
    event.refresh_from_db()
    assert event.min_factions_per_player == 2
    twelve = [f for f, _ in FACTION_CHOICES][:12]
    org_client.post(
        f"/tournaments/{event.pk}/edit/", event_form(min_factions_per_player="3", faction_pool=twelve)
    )
    event.refresh_from_db()
    assert event.min_factions_per_player == 3 and len(event.faction_pool) == 12
    user("helper")
    org_client.post(f"/tournaments/{event.pk}/organizers/add/", {"username": "helper"})
    assert list(event.co_organizers.values_list("username", flat=True)) == ["helper"]


# ---------------------------------------------------------------------------------- players ------
def test_sign_up_on_the_event_page_without_an_account(client):
    event = new_event()
    html = client.get(f"/tournaments/{event.pk}/").content.decode()
    assert "Sign up" in html and '<svg class="qr"' in html
    response = client.post(f"/tournaments/{event.pk}/signup/", {"name": "Ada"})
    assert response["Location"] == f"/tournaments/{event.pk}/me/"
    ada = Entrant.objects.get(event=event)
    assert ada.name == "Ada" and not ada.checked_in
    html = client.get(f"/tournaments/{event.pk}/me/").content.decode()
    assert "Ada" in html and "Check in with the organizer" in html
    # Another browser is somebody else; the private link makes it Ada's.
    other = client.__class__()
    assert "not signed up" in other.get(f"/tournaments/{event.pk}/me/").content.decode()
    assert other.post(f"/tournaments/p/{ada.token}/")["Location"] == f"/tournaments/{event.pk}/me/"
    assert "Ada" in other.get(f"/tournaments/{event.pk}/me/").content.decode()
    assert other.get("/tournaments/p/not-a-token/").status_code == 404


def test_logged_in_players_sign_up_with_their_account(client):
    event = new_event()
    client.force_login(user("bea"))
    client.post(f"/tournaments/{event.pk}/signup/", {"name": ""})
    assert Entrant.objects.get(event=event).user.username == "bea"
    response = client.post(f"/tournaments/{event.pk}/signup/", {"name": "Bea 2"}, follow=True)
    assert "already signed up" in response.content.decode() and Entrant.objects.count() == 1


def test_closed_registration(client):
    event = new_event(registration_open=False)
    assert "Registration is closed" in client.get(f"/tournaments/{event.pk}/").content.decode()
    response = client.post(f"/tournaments/{event.pk}/signup/", {"name": "Ada"}, follow=True)
    assert "closed" in response.content.decode() and not Entrant.objects.exists()


# ---------------------------------------------------------------------------------- a whole event
def test_an_organizer_runs_an_event_in_the_browser(org_client, client):
    event = new_event()
    base = f"/tournaments/{event.pk}"
    for name in ("Ada", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"):
        org_client.post(f"{base}/entrants/add/", {"name": name})
    assert event.entrants.filter(checked_in=True).count() == 7
    late = services.register(event, "Hal")  # signed up online, not checked in
    html = org_client.get(f"{base}/manage/").content.decode()
    assert "Pair round 1" in html and "Hal" in html and "Check in" in html
    org_client.post(f"{base}/entrants/{late.pk}/checkin/")
    org_client.post(f"{base}/rounds/new/")
    rnd = event.rounds_set.get()
    assert rnd.tables.count() == 2
    html = org_client.get(f"{base}/manage/").content.decode()
    assert "Start the clock" in html and "Why this table" in html and "Swap two players" in html
    # Clock.
    org_client.post(f"{base}/clock/start/")
    assert RoundClock.objects.get(round=rnd).status == "running"
    org_client.post(f"{base}/clock/extend/", {"minutes": "5"})
    clock = RoundClock.objects.get(round=rnd)
    assert clock.duration == 55 * 60
    live = org_client.get(f"{base}/live.json").json()
    assert live["clock"]["status"] == "running" and live["clock"]["deadline"] and live["version"] >= 1
    # Results: one table by the organizer, one by its players.
    first, second = rnd.tables.order_by("number")
    vp = {f"vp_{s.entrant_id}": str(10 + s.position) for s in first.seats.all()}
    org_client.post(f"{base}/tables/{first.pk}/result/", vp)
    first.refresh_from_db()
    assert first.state == Table.State.CONFIRMED
    players = [s.entrant for s in second.seats.order_by("position")]
    player_client = client
    player_client.post(f"/tournaments/p/{players[0].token}/")
    html = player_client.get(f"{base}/me/").content.decode()
    assert f"table {second.number}" in html and "Enter the result of your table" in html
    player_client.post(
        f"{base}/tables/{second.pk}/report/", {f"vp_{p.pk}": str(i) for i, p in enumerate(players)}
    )
    for p in players[1:]:
        c = client.__class__()
        c.post(f"/tournaments/p/{p.token}/")
        assert "Confirm these VP" in c.get(f"{base}/me/").content.decode()
        c.post(f"{base}/tables/{second.pk}/confirm/", {"result_version": "1"})
    second.refresh_from_db()
    rnd.refresh_from_db()
    assert second.state == Table.State.CONFIRMED and rnd.is_finished
    # Standings, pairings, print, projector, CSV.
    html = client.get(f"{base}/standings/").content.decode()
    assert html.count("<tr") == 1 + 8 and "VP share" in html
    html = client.get(f"{base}/round/1/").content.decode()
    assert "Table 1" in html and "Table 2" in html
    html = client.get(f"{base}/round/1/print/").content.decode()
    assert "Find your table" in html and html.index("Ada") > 0
    html = client.get(f"{base}/projector/").content.decode()
    # Every result is in: no clock any more (issue 14), the standings instead.
    assert '<svg class="qr"' in html and "t-clock-time" not in html and 'class="p-rank"' in html
    rows = list(csv.reader(io.StringIO(client.get(f"{base}/export/standings.csv").content.decode())))
    assert rows[0][:3] == ["rank", "name", "points"] and len(rows) == 9
    rows = list(csv.reader(io.StringIO(client.get(f"{base}/export/results.csv").content.decode())))
    assert len(rows) == 9 and {r[7] for r in rows[1:]} == {"confirmed"}
    rows = list(csv.reader(io.StringIO(org_client.get(f"{base}/export/entrants.csv").content.decode())))
    assert len(rows) == 9 and rows[0][0] == "name"
    # Round 2, then a swap with its warnings preview.
    org_client.post(f"{base}/rounds/new/")
    r2 = event.rounds_set.get(number=2)
    (a, *_), (b, *_) = [
        list(t.seats.values_list("entrant_id", flat=True)) for t in r2.tables.order_by("number")
    ]
    preview = org_client.get(f"{base}/rounds/2/swap/", {"a": a, "b": b}).content.decode()
    assert "than now:" in preview and "Cost" not in preview and "000000" not in preview
    org_client.post(f"{base}/rounds/2/swap/", {"a": a, "b": b})
    assert event.audit.filter(action="swap").exists()
    assert "swapped" in org_client.get(f"{base}/audit/").content.decode()


def test_a_dispute_shows_on_the_dashboard_and_the_organizer_settles_it(org_client, client):
    event = new_event(players=4)
    org = event.organizer
    rnd = services.generate_round(event, by=org)
    table = rnd.tables.get()
    a, b, *_ = [s.entrant for s in table.seats.order_by("position")]
    services.report_result(table, a, {s.entrant_id: 5 for s in table.seats.all()})
    client.post(f"/tournaments/p/{b.token}/")
    client.post(f"/tournaments/{event.pk}/tables/{table.pk}/dispute/", {"note": "I had 9"})
    html = org_client.get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert "Disputed results" in html and "I had 9" in html
    org_client.post(
        f"/tournaments/{event.pk}/tables/{table.pk}/result/",
        {f"vp_{s.entrant_id}": "9" for s in table.seats.all()},
    )
    table.refresh_from_db()
    assert table.state == Table.State.CONFIRMED


def test_late_entry_seated_from_the_dashboard(org_client):
    event = new_event(players=7)
    rnd = services.generate_round(event, by=event.organizer)
    short = rnd.tables.order_by("number").last()
    org_client.post(f"/tournaments/{event.pk}/entrants/add/", {"name": "Late"})
    late = Entrant.objects.get(name="Late")
    html = org_client.get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert "Seat now" in html
    org_client.post(f"/tournaments/{event.pk}/entrants/{late.pk}/seat/", {"table": short.pk})
    assert short.seats.filter(entrant=late).exists()


def test_top_cut_from_the_dashboard(org_client):
    event = new_event(players=8, top_cut=4)
    org = event.organizer
    play_round(services.generate_round(event, by=org), org)
    assert "Start the top 4" in org_client.get(f"/tournaments/{event.pk}/manage/").content.decode()
    org_client.post(f"/tournaments/{event.pk}/rounds/top-cut/")
    assert event.rounds_set.filter(stage=Round.Stage.FINAL).exists()


def test_every_event_page_shows_the_clock_from_the_server_deadline(org_client, client):
    event = new_event(players=4)
    services.generate_round(event, by=event.organizer)
    org_client.post(f"/tournaments/{event.pk}/clock/start/")
    clock = RoundClock.objects.get()
    client.post(f"/tournaments/p/{Entrant.objects.first().token}/")
    for path in ("", "standings/", "round/1/", "me/", "projector/"):
        html = client.get(f"/tournaments/{event.pk}/{path}").content.decode()
        tag = re.search(r'<div class="t-clock" data-clock[^>]*>', html)
        assert tag, path
        assert f'data-deadline="{clock.deadline.isoformat()}"' in tag.group(0)
        assert 'data-status="running"' in tag.group(0)


def test_time_is_called_shows_the_end_rule(org_client, client):
    event = new_event(players=4, end_rule="Finish the round; most VP wins.")
    services.generate_round(event, by=event.organizer)
    org_client.post(f"/tournaments/{event.pk}/clock/start/")
    org_client.post(f"/tournaments/{event.pk}/clock/call/")
    html = client.get(f"/tournaments/{event.pk}/").content.decode()
    assert "Time is called" in html and "Finish the round; most VP wins." in html


def _warned_alert(html: str) -> str:
    found = re.search(r'<div id="t-warned" data-live>(.*?)</div>\s*(?:<div id="t-live"|<main)', html, re.S)
    assert found, "no warning region"
    return found.group(1)


def test_a_fired_clock_warning_shows_an_alert_on_every_page(org_client, client):
    from tournaments import clock as clocks

    event = new_event(players=4, warning_minutes=[10, 5])
    services.generate_round(event, by=event.organizer)
    client.post(f"/tournaments/p/{Entrant.objects.first().token}/")
    paths = ("", "standings/", "round/1/", "me/", "projector/", "manage/")
    org_client.post(f"/tournaments/{event.pk}/clock/start/")

    def alerts():
        out = {}
        for path in paths:
            who = org_client if path == "manage/" else client
            out[path] = _warned_alert(who.get(f"/tournaments/{event.pk}/{path}").content.decode())
        return out

    assert all(a.strip() == "" for a in alerts().values())  # running, no warning yet
    clock = RoundClock.objects.select_related("round").get()
    RoundClock.objects.filter(pk=clock.pk).update(
        deadline=timezone.now() + datetime.timedelta(minutes=9, seconds=30)
    )
    assert clocks.advance(clock.pk, clock.version) == ["warn:600"]  # the warning's task
    for path, alert in alerts().items():
        assert 'role="alert"' in alert and "Less than 10 minutes left" in alert, path
        if path != "projector/":
            assert "Less than 10 minutes left in round 1." in alert, path
    live = client.get(f"/tournaments/{event.pk}/live.json").json()
    assert live["clock"]["fired"] == [600] and live["clock"]["warned"] == 600
    org_client.post(f"/tournaments/{event.pk}/clock/pause/")  # still true while paused
    assert "Less than 10 minutes left" in alerts()[""]
    org_client.post(f"/tournaments/{event.pk}/clock/resume/")
    RoundClock.objects.filter(pk=clock.pk).update(
        deadline=timezone.now() + datetime.timedelta(minutes=4, seconds=50)
    )
    clocks.sweep()
    assert "Less than 5 minutes left in round 1." in alerts()["me/"]
    # More time puts the warnings behind again; calling time replaces them with its own alert.
    org_client.post(f"/tournaments/{event.pk}/clock/extend/", {"minutes": "20"})
    assert all(a.strip() == "" for a in alerts().values())
    org_client.post(f"/tournaments/{event.pk}/clock/call/")
    assert all(a.strip() == "" for a in alerts().values())


def test_round_one_publishes_its_seed_so_anyone_can_draw_it_again(org_client, client):
    from tournaments.pairing import PairingOptions, Player, pair_round

    event = new_event(players=9)
    for path in ("", "standings/", "projector/", "export/pairings.csv"):
        assert event.seed not in client.get(f"/tournaments/{event.pk}/{path}").content.decode()
    rnd = services.generate_round(event, by=event.organizer)
    html = client.get(f"/tournaments/{event.pk}/round/1/").content.decode()
    assert "Check this draw" in html and f"<code>{event.seed}</code>" in html
    # Only what the page says: the seed, the players' numbers and the table options.
    ids = [int(n) for n in re.search(r"for n in \(([0-9, ]+)\)", html).group(1).split(", ")]
    size = int(re.search(r"table_size=(\d+)", html).group(1))
    layout = re.search(r'layout="(\w+)"', html).group(1)
    again = pair_round([Player(n) for n in ids], [], 1, event.seed, PairingOptions(size, layout))
    assert again.seats() == [list(t.seats.order_by("position").values_list("entrant_id", flat=True))
                             for t in rnd.tables.order_by("number")]  # fmt: skip
    assert "They are the tables above." in html
    # After a swap the page says the tables were changed since the draw.
    (a, *_), (b, *_), *_ = again.seats()
    services.swap_players(rnd, a, b, by=event.organizer)
    html = client.get(f"/tournaments/{event.pk}/round/1/").content.decode()
    assert "The tables above differ" in html
    # Later rounds are not drawn at random: nothing to publish there.
    for table in rnd.tables.all():
        services.set_result(table, {s.entrant_id: s.position for s in table.seats.all()}, by=event.organizer)
    services.generate_round(event, by=event.organizer)
    assert "Check this draw" not in client.get(f"/tournaments/{event.pk}/round/2/").content.decode()


BASE_RULE = "A game ends after a number of scored bases: 4 at 2 players, 5 at 3, 6 at 4."


def _called_alert(html: str) -> str:
    """The "time is called" region of a page (header pages and the projector)."""
    found = re.search(r'id="t-called" data-live>(.*?)(?:<main|<div id="t-live")', html, re.S)
    assert found, "no time-called region"
    return found.group(1)


@pytest.mark.parametrize("on", [True, False])
def test_the_base_limit_shows_on_the_players_pages_and_when_time_is_called(org_client, client, on):
    """The base limit is a rule for every table, cardboard ones included: the event, round, my-table
    and projector pages state it, and so does the time-called alert; off, none of them does."""
    event = new_event(players=4, in_app_base_limit=on)
    services.generate_round(event, by=event.organizer)
    client.post(f"/tournaments/p/{Entrant.objects.first().token}/")
    for path in ("", "round/1/", "me/", "projector/"):
        html = client.get(f"/tournaments/{event.pk}/{path}").content.decode()
        assert (BASE_RULE in html) is on, path
        assert "time is called" not in _called_alert(html).lower()
    org_client.post(f"/tournaments/{event.pk}/clock/start/")
    org_client.post(f"/tournaments/{event.pk}/clock/call/")
    for path in ("", "standings/", "me/", "projector/"):
        alert = _called_alert(client.get(f"/tournaments/{event.pk}/{path}").content.decode())
        assert "Time is called" in alert and event.end_rule in alert, path
        assert (BASE_RULE in alert) is on, path
    form = org_client.get(f"/tournaments/{event.pk}/edit/").content.decode()
    assert "Base limit: every game ends after a number of scored bases" in form


# ---------------------------------------------------------------------------------- queries ------
def _standings_queries(client, players: int) -> int:
    event = new_event(players=players, name=f"Q{players}")
    org = event.organizer
    for _ in range(2):
        play_round(services.generate_round(event, by=org), org)
    Entrant.objects.filter(event=event, name="P03").update(dropped=True, dropped_after=2)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/tournaments/{event.pk}/standings/")
    assert response.status_code == 200
    assert response.content.decode().count('<td class="n"><strong>') == players
    return len(queries)


@pytest.mark.parametrize("as_player", [False, True])
def test_the_standings_page_query_count_does_not_grow_with_the_entrants(client, as_player):
    if as_player:
        client.force_login(user("someone"))
    small = _standings_queries(client, 8)
    large = _standings_queries(client, 40)
    assert small == large, (small, large)
    assert small <= 12


# ---------------------------------------------------------------------------------- draft --------
def _player(client_class, entrant: Entrant):
    c = client_class()
    c.post(f"/tournaments/p/{entrant.token}/")
    return c


def test_the_live_draft_page_shows_whose_pick_it_is_and_takes_the_pick(client, org_client):
    from tournaments import draft as kiq
    from tournaments import drafting

    event = new_event(players=4, draft_mode=Event.DraftMode.EVENT, pick_seconds=45)
    rnd = services.generate_round(event, by=event.organizer)
    table = rnd.tables.get()
    url = f"/tournaments/{event.pk}/tables/{table.pk}/draft/"
    state = drafting.state_of(table.draft)
    picker = Entrant.objects.get(pk=kiq.current_picker(state))
    waiting = Entrant.objects.exclude(pk=picker.pk).first()
    me = _player(client.__class__, picker)
    assert "Your pick: open the draft" in me.get(f"/tournaments/{event.pk}/me/").content.decode()
    html = me.get(url).content.decode()
    assert "Your pick!" in html and "(1 of 8)" in html
    # The last seat (the one before the first player) picks first, and the page says why.
    assert picker == table.seats.order_by("-position").first().entrant
    assert f"First: {picker.name} (the seat before the first player: first pick and first turn" in html
    assert "the pick timer starts with the round's clock" in html and 'class="t-pick-clock"' not in html
    from tournaments import clock

    clock.start(rnd.clock, event.organizer)
    assert 'class="t-pick-clock"' in me.get(url).content.decode()  # the first pick is timed too
    assert (
        f"<strong>{picker.name}</strong> picks now"
        in _player(client.__class__, waiting).get(url).content.decode()
    )
    response = me.post(f"{url}pick/", {"faction": "Wizards", "version": "0"}, follow=True)
    assert "Wizards" in response.content.decode()
    draft = table.draft.__class__.objects.get(pk=table.draft.pk)
    assert draft.version == 1 and drafting.state_of(draft).picks[0].faction == "Wizards"
    assert draft.deadline is not None  # the pick timer runs for every pick, the first too
    html = me.post(f"{url}pick/", {"faction": "Aliens", "version": "0"}, follow=True).content.decode()
    assert "Someone chose in the meantime" in html or "not your turn" in html.lower()
    # The organizer can take a random pick for whoever is next, and the page says it was random.
    org_client.post(f"{url}pick/", {"random": "1"})
    assert "(random: " in org_client.get(url).content.decode()
    # Everyone picks to the end: the pairs go to the seats and to the entrants for the whole event.
    for _ in range(6):
        org_client.post(f"{url}pick/", {"random": "1"})
    assert "The draft is done" in client.get(url).content.decode()
    assert all(len(e.factions) == 2 for e in Entrant.objects.filter(event=event))


# ---------------------------------------------------------------------------------- admin --------
def test_the_admin_covers_every_tournament_model(client):
    from django.apps import apps
    from django.contrib import admin

    from tournaments.services import leagues, rating_store

    event = new_event(players=5, table_size=2, draft_mode=Event.DraftMode.TABLE)  # two tables and a bye
    _judging_rows(event)
    rnd = services.generate_round(event, by=event.organizer)
    for table in rnd.tables.all():  # a finished round: ratings; and a series
        services.set_result(table, {s.entrant_id: s.position for s in table.seats.all()}, by=event.organizer)
    Entrant.objects.filter(pk=rnd.tables.first().seats.first().entrant_id).update(user=event.organizer)
    rating_store.refresh()
    leagues.create_series(event.organizer, **leagues.clean_settings("League", "3, 1", "0", ""))
    _notice_rows(event)
    admin_user = get_user_model().objects.create_superuser("boss", password="pw-boss")
    client.force_login(admin_user)
    for model in apps.get_app_config("tournaments").get_models():
        assert admin.site.is_registered(model), model
        meta = model._meta
        assert client.get(f"/admin/tournaments/{meta.model_name}/").status_code == 200, meta.model_name
        obj = model.objects.first()
        assert obj is not None, meta.model_name
        assert client.get(f"/admin/tournaments/{meta.model_name}/{obj.pk}/change/").status_code == 200


def _notice_rows(event: Event) -> None:
    """A row of each model of the notices by push and e-mail (tournaments.delivery)."""
    from tournaments.models import NoticeEmail, NoticeSent, PushSubscription

    entrant = event.entrants.first()
    PushSubscription.objects.create(entrant=entrant, endpoint="https://fcm.googleapis.com/fcm/send/x",
                                    p256dh="p", auth="a")  # fmt: skip
    NoticeEmail.objects.create(entrant=entrant, address="ada@example.org", origin="http://testserver")
    NoticeSent.objects.create(entrant=entrant, key="paired:1")


def test_bad_form_values_are_refused_with_a_message_not_an_error(org_client):
    event = new_event(players=7)
    services.generate_round(event, by=event.organizer)
    late = services.register(event, "Late", by=event.organizer)
    table = event.rounds_set.get().tables.first()
    base = f"/tournaments/{event.pk}"
    for path, data in (
        (f"entrants/{late.pk}/seat/", {"table": "abc"}),
        (f"entrants/{late.pk}/seat/", {"table": "999999"}),
        (f"entrants/{late.pk}/factions/", {"faction1": "Aliens", "faction2": "Aliens"}),
        (f"entrants/{late.pk}/rename/", {"name": ""}),
        (f"tables/{table.pk}/result/", {"vp_1": "x"}),
        ("clock/extend/", {"minutes": "999"}),
        ("rounds/1/swap/", {"a": "x", "b": "1"}),
    ):
        response = org_client.post(f"{base}/{path}", data, follow=True)
        assert response.status_code == 200, path
        assert any(m.level_tag == "error" for m in response.context["messages"]), path
    assert org_client.post(f"{base}/entrants/{late.pk}/nothing/").status_code == 404
    assert org_client.post(f"{base}/clock/nothing/").status_code == 404


def _judging_rows(event: Event) -> None:
    """A judge call and a penalty (services.judging)."""
    entrant = event.entrants.first()
    services.call_judge(event, entrant, "A rules question")
    services.give_penalty(event, entrant.pk, "warning", event.organizer, note="Slow play")
