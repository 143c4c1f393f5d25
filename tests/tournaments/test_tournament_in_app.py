"""Tournament tables played in the app (tournaments.in_app) on the real PostgreSQL: an organizer starts a
table as a live game, the game's end records the table's result (confirmed, logged as the app's), the
round clock calling time calls time in the round's games (once, however often its task runs), the
sweep catches what was missed, and only organizers start tables."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.test import Client
from django.utils import timezone

from smashup.play import services as play
from smashup.play.models import Choice
from smashup.play.models import Game as PlayGame
from smashup.play.signals import game_finished
from tests.tournaments.people import user
from tournaments import clock, in_app, services
from tournaments.models import AuditEntry, Draft, Entrant, Event, RoundClock, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)
PAIR = ["Aliens", "Ninjas"]
# Each faction is in a game once: the players of a table hold different factions.
PAIRS = [PAIR, ["Pirates", "Robots"], ["Wizards", "Zombies"], ["Dinosaurs", "Tricksters"]]


@pytest.fixture(autouse=True)
def grannies_not_in_the_app(monkeypatch):
    """These tests need a faction of the boxes that the app does not play: Grannies stand for it
    (the app plays them since they were registered; which faction it is does not matter)."""
    from smashup.play import tables

    playable = [f for f in tables.factions_available() if f != "Grannies"]
    monkeypatch.setattr(tables, "factions_available", lambda: list(playable))
    monkeypatch.setattr(play, "factions_available", lambda: list(playable))


class Scene:
    """A 2-player-table event, round 1 paired: four players with two Core factions each, no faction
    twice (PAIRS), the first with an account ("player"); an organizer and a stranger."""

    def __init__(self, table_size: int = 2, players: int = 4, base_limit: bool = False):
        self.org = user("org")
        self.player_user = user("player")
        self.stranger = user("stranger")
        self.event = services.create_event(
            self.org,
            name="In the app",
            date=datetime.date(2026, 5, 1),
            table_size=table_size,
            draft_mode=Event.DraftMode.NONE,
            in_app_base_limit=base_limit,
        )
        self.entrants = [services.register(self.event, f"P{i + 1}", by=self.org) for i in range(players)]
        for i, entrant in enumerate(self.entrants):
            services.set_factions(entrant, PAIRS[i % len(PAIRS)], self.org)
        Entrant.objects.filter(pk=self.entrants[0].pk).update(user=self.player_user)
        self.round = services.generate_round(self.event, self.org)
        self.table = Seat.objects.get(round=self.round, entrant=self.entrants[0]).table

    def client(self, who: str) -> Client:
        c = Client()
        if who != "anonymous":
            c.force_login({"org": self.org, "player": self.player_user, "stranger": self.stranger}[who])
        return c


def snapshot(event: Event) -> tuple:
    return (
        list(Table.objects.filter(round__event=event).order_by("pk").values()),
        list(Seat.objects.filter(round__event=event).order_by("pk").values()),
        AuditEntry.objects.filter(event=event).count(),
        PlayGame.objects.count(),
        Choice.objects.count(),
    )


def bots_play_out(game: PlayGame) -> PlayGame:
    """The server's heuristic bot answers every seat's decisions until the game ends."""
    for _ in range(20000):
        game.refresh_from_db()
        if not game.is_active:
            break
        play.bot_move(game.pk, game.version, force=True)
    game.refresh_from_db()
    return game


def engine_vp(game: PlayGame) -> list[int]:
    with play.engine_game(game) as engine:
        return [p.vp for p in engine.players]


# ---------------------------------------------------------------------------------- starting -----
def test_an_organizer_starts_a_table_in_the_app():
    s = Scene()
    game = in_app.start_table(s.table, s.org)
    s.table.refresh_from_db()
    assert s.table.game_id == game.pk and game.is_active
    seats = list(s.table.seats.select_related("entrant").order_by("position"))
    play_seats = list(game.seats.order_by("index"))
    assert [p.guest_name for p in play_seats] == [seat.entrant.name for seat in seats]
    assert all(p.claimed and not p.is_bot for p in play_seats)
    # The player with an account holds their seat by logging in; the other by a seat link.
    by_entrant = {seat.entrant_id: p for seat, p in zip(seats, play_seats, strict=True)}
    assert by_entrant[s.entrants[0].pk].user_id == s.player_user.pk
    assert [p["name"] for p in game.config["players"]] == [seat.entrant.name for seat in seats]
    assert [p["factions"] for p in game.config["players"]] == [seat.factions for seat in seats]
    assert game.config["first_player"] == 0 and game.config["end_after_bases"] is None
    with play.engine_game(game) as engine:
        assert engine.current == 0  # position 0 plays first
    entry = AuditEntry.objects.filter(event=s.event, action="in_app").get()
    assert entry.actor == "org" and game.code in entry.message


def test_the_event_option_ends_in_app_games_after_the_tournament_number_of_bases():
    s = Scene(base_limit=True)
    game = in_app.start_table(s.table, s.org)
    assert game.config["end_after_bases"] == in_app.BASE_LIMITS[2] == 4
    assert in_app.BASE_LIMITS == {2: 4, 3: 5, 4: 6}


def test_a_drafted_table_plays_the_drafted_factions_and_waits_for_its_draft():
    s = Scene()
    first = Seat.objects.select_related("entrant").get(table=s.table, position=0)
    drafted = list(reversed(first.entrant.factions))  # not their own pair, and nobody else's
    Seat.objects.filter(pk=first.pk).update(factions=drafted)
    draft = Draft.objects.create(table=s.table, state={}, status=Draft.Status.OPEN)
    before = snapshot(s.event)
    with pytest.raises(services.Conflict, match="still drafting"):
        in_app.start_table(s.table, s.org)
    assert snapshot(s.event) == before
    Draft.objects.filter(pk=draft.pk).update(status=Draft.Status.DONE)
    game = in_app.start_table(s.table, s.org)
    assert game.config["players"][0]["factions"] == drafted


@pytest.mark.parametrize(
    "spoil, error",
    [
        (lambda s: Seat.objects.filter(table=s.table).update(factions=["Aliens"]), "no two factions"),
        (lambda s: Seat.objects.filter(table=s.table).update(factions=["Grannies", "Robots"]), "cannot play"),
        (lambda s: services.set_result(s.table, _vps(s.table), by=s.org), "already has a result"),
        (lambda s: in_app.start_table(s.table, s.org), "already plays in the app"),
        (
            lambda s: Event.objects.filter(pk=s.event.pk).update(mode=Event.Mode.BIGBASE, board="gone"),
            "not offered",
        ),
    ],
)
def test_a_table_that_cannot_play_in_the_app_is_refused_and_nothing_changes(spoil, error):
    s = Scene()
    spoil(s)
    before = snapshot(s.event)
    with pytest.raises(services.TournamentError, match=error):
        in_app.start_table(s.table, s.org)
    assert snapshot(s.event) == before


def _vps(table: Table) -> dict[int, int]:
    return {seat.entrant_id: 3 + seat.position for seat in table.seats.all()}


def test_only_organizers_start_tables_in_the_service():
    s = Scene()
    player = s.entrants[0]
    before = snapshot(s.event)
    for who in (s.stranger, s.player_user, None, player):
        with pytest.raises(services.NotAllowed):
            in_app.start_table(s.table, who)
        with pytest.raises(services.NotAllowed):
            in_app.start_round(s.round, who)
    assert snapshot(s.event) == before


def test_every_table_of_the_round_starts_at_once():
    s = Scene()
    Seat.objects.filter(table=s.table, position=1).update(factions=["Grannies", "Ninjas"])
    started, skipped = in_app.start_round(s.round, s.org)
    assert started == 1 and len(skipped) == 1 and "Grannies" in skipped[0]
    assert Table.objects.filter(round=s.round, game__isnull=False).count() == 1
    Seat.objects.filter(table=s.table, position=1).update(factions=[])  # the player's own pair again
    assert in_app.start_round(s.round, s.org) == (1, [])
    assert Table.objects.filter(round=s.round, game__isnull=True).count() == 0
    before = snapshot(s.event)
    with pytest.raises(services.Conflict, match="already plays in the app"):
        in_app.start_round(s.round, s.org)  # nothing is left to start
    assert snapshot(s.event) == before


def test_players_of_a_round_playing_in_the_app_can_no_longer_be_swapped():
    """The game's result is recorded by seat position, so its players must stay where they sit."""
    s = Scene()
    other = Seat.objects.filter(round=s.round).exclude(table=s.table).first()
    in_app.start_table(s.table, s.org)
    before = snapshot(s.event)
    with pytest.raises(services.Conflict, match="playing in the app"):
        services.swap_players(s.round, s.entrants[0].pk, other.entrant_id, s.org)
    assert snapshot(s.event) == before


def test_a_late_entrant_is_not_seated_at_a_table_playing_in_the_app():
    s = Scene(table_size=4, players=3)
    in_app.start_table(s.table, s.org)
    late = services.register(s.event, "Late", by=s.org)
    services.set_factions(late, PAIR, s.org)
    before = snapshot(s.event)
    with pytest.raises(services.Conflict, match="playing in the app"):
        services.seat_late(late, s.table, s.org)
    assert snapshot(s.event) == before


# ---------------------------------------------------------------------------------- results ------
def test_a_bot_played_game_reports_the_tables_result_and_the_standings_follow():
    s = Scene()
    game = bots_play_out(in_app.start_table(s.table, s.org))
    assert game.is_finished
    vp = engine_vp(game)
    s.table.refresh_from_db()
    assert s.table.state == Table.State.CONFIRMED and s.table.decided_by is None
    seats = list(s.table.seats.order_by("position"))
    assert [seat.vp for seat in seats] == vp and all(seat.confirmed for seat in seats)
    entry = AuditEntry.objects.filter(event=s.event, action="app_result").get()
    assert entry.actor == "app" and "the app reported the result" in entry.message
    standings = {row.entrant.pk: row for row in services.standings(s.event)}
    assert standings[seats[0].entrant_id].vp == vp[0]
    # The organizer can still correct it; the sweep does not undo the correction.
    services.set_result(s.table, {seat.entrant_id: 1 for seat in seats}, by=s.org)
    assert in_app.sweep()["recorded"] == 0
    assert list(s.table.seats.values_list("vp", flat=True)) == [1, 1]


def test_a_lost_report_is_caught_by_the_sweep_once():
    s = Scene()
    game = in_app.start_table(s.table, s.org)
    game_finished.disconnect(dispatch_uid="tournaments.in_app.game_finished")
    try:
        game = bots_play_out(game)
    finally:
        game_finished.connect(in_app.game_finished, dispatch_uid="tournaments.in_app.game_finished")
    s.table.refresh_from_db()
    assert game.is_finished and s.table.state == Table.State.OPEN
    assert in_app.sweep()["recorded"] == 1
    s.table.refresh_from_db()
    assert s.table.state == Table.State.CONFIRMED
    assert [seat.vp for seat in s.table.seats.order_by("position")] == engine_vp(game)
    assert in_app.sweep()["recorded"] == 0
    assert AuditEntry.objects.filter(event=s.event, action="app_result").count() == 1


def test_a_result_from_a_game_that_is_not_a_tables_changes_nothing():
    s = Scene()
    before = snapshot(s.event)
    assert in_app.game_finished(game_id=10**9, vp=[1, 2]) is False
    game = in_app.start_table(s.table, s.org)
    assert in_app.game_finished(game_id=game.pk, vp=[1, 2, 3]) is False  # not this table's seats
    after = snapshot(s.event)
    assert after[1] == before[1]  # no VP entered


# ---------------------------------------------------------------------------------- time ---------
def time_calls(game: PlayGame) -> int:
    return game.choices.in_record().filter(seat__isnull=True).count()


def test_the_organizer_calling_time_calls_it_in_the_rounds_games():
    s = Scene()
    games = [in_app.start_table(t, s.org) for t in s.round.tables.order_by("number")]
    clock.start(s.round.clock, s.org)
    clock.call_time(s.round.clock, s.org)
    for game in games:
        game.refresh_from_db()
        assert time_calls(game) == 1 and play.time_called(game)
    # Their games play on to the end: the turn in progress is the last, then the most VP wins.
    game = bots_play_out(games[0])
    with play.engine_game(game) as engine:
        assert engine.time_called and engine.turn <= engine.final_turn + len(engine.players)
    assert Table.objects.get(game=game).state == Table.State.CONFIRMED


def test_the_clock_task_calls_time_in_the_games_once_however_often_it_runs():
    s = Scene()
    game = in_app.start_table(s.table, s.org)
    clock.start(s.round.clock, s.org)
    rc = RoundClock.objects.get(pk=s.round.clock.pk)
    RoundClock.objects.filter(pk=rc.pk).update(deadline=timezone.now() - datetime.timedelta(seconds=1))
    assert "call" in clock.advance(rc.pk, rc.version)
    game.refresh_from_db()
    version = game.version
    assert time_calls(game) == 1
    assert clock.advance(rc.pk, rc.version) == []  # a duplicate task
    assert clock.sweep() == 0
    assert in_app.sweep()["time_called"] == 0
    assert in_app.time_called_in_round(s.round.pk) == 0  # and calling again directly does nothing
    game.refresh_from_db()
    assert game.version == version and time_calls(game) == 1


def test_a_table_started_after_time_was_called_gets_time_called_at_once():
    s = Scene()
    clock.start(s.round.clock, s.org)
    clock.call_time(s.round.clock, s.org)
    game = in_app.start_table(s.table, s.org)
    game.refresh_from_db()
    assert time_calls(game) == 1


def test_the_sweep_calls_time_that_a_lost_commit_hook_missed():
    s = Scene()
    game = in_app.start_table(s.table, s.org)
    RoundClock.objects.filter(round=s.round).update(status=RoundClock.Status.CALLED)  # no hook ran
    assert time_calls(game) == 0
    assert in_app.sweep()["time_called"] == 1
    assert in_app.sweep()["time_called"] == 0
    assert time_calls(game) == 1


def _past_deadline(s: Scene, seconds: float) -> None:
    RoundClock.objects.filter(round=s.round).update(
        deadline=timezone.now() - datetime.timedelta(seconds=seconds)
    )


def test_time_is_not_called_in_the_game_of_a_table_with_extra_time_until_it_is_over():
    """The real in-app time calling (no recorder in its place): when the round's time is called, the
    game of a table with extra time (a judge call) plays on; the clock, the in-app sweep and calling
    time in the round leave it alone; when its extra time is over, time is called in it, once."""
    s = Scene()
    extended, other = list(s.round.tables.order_by("number"))
    games = {t.pk: in_app.start_table(t, s.org) for t in (extended, other)}
    clock.start(s.round.clock, s.org)
    clock.extend_table(extended, 300, s.org)
    _past_deadline(s, 1)
    rc = RoundClock.objects.get(round=s.round)
    assert "call" in clock.advance(rc.pk)
    for game in games.values():
        game.refresh_from_db()
    assert time_calls(games[other.pk]) == 1
    assert time_calls(games[extended.pk]) == 0 and not play.time_called(games[extended.pk])
    assert in_app.sweep()["time_called"] == 0
    assert clock.sweep() == 0
    assert in_app.time_called_in_round(s.round.pk, skip=[extended.pk]) == 0
    assert time_calls(games[extended.pk]) == 0
    _past_deadline(s, 301)  # the table's 5 extra minutes are over too
    assert clock.advance(rc.pk) == [f"table:{extended.pk}"]
    assert time_calls(games[extended.pk]) == 1
    assert in_app.sweep()["time_called"] == 0 and time_calls(games[extended.pk]) == 1


def test_a_table_with_extra_time_started_in_the_app_after_the_rounds_time_plays_on():
    s = Scene()
    extended, other = list(s.round.tables.order_by("number"))
    clock.start(s.round.clock, s.org)
    clock.extend_table(extended, 300, s.org)
    _past_deadline(s, 1)
    assert "call" in clock.advance(RoundClock.objects.get(round=s.round).pk)
    game = in_app.start_table(extended, s.org)
    late = in_app.start_table(other, s.org)  # no extra time: time is called in it at once
    assert time_calls(game) == 0 and time_calls(late) == 1
    _past_deadline(s, 301)
    clock.advance(RoundClock.objects.get(round=s.round).pk)
    assert time_calls(game) == 1


def test_a_result_typed_in_for_a_table_whose_game_still_runs_ends_it_and_its_own_is_ignored():
    """Issue 27: the game stayed "Playing" and waited forever, and calling time in it still let a
    table of people play out the turn (or a tie on). Now it is ended at once (as the site's staff
    end a game: its record replays), its own result is ignored (logged once), and the organizer's,
    the player's and the game's own pages say so."""
    s = Scene()
    game = in_app.start_table(s.table, s.org)
    vps = {seat.entrant_id: 9 - seat.position for seat in s.table.seats.all()}
    org = s.client("org")
    response = org.post(
        f"/tournaments/{s.event.pk}/tables/{s.table.pk}/result/",
        {f"vp_{k}": v for k, v in vps.items()},
        follow=True,
    )
    assert "it is ended, its own result ignored" in response.content.decode()
    s.table.refresh_from_db()
    assert s.table.is_confirmed
    game.refresh_from_db()
    assert not game.is_active and game.stopped_at is not None and game.winner is None
    assert time_calls(game) == 0  # ended, not a time call
    assert (
        "it is ended, and its own result is ignored"
        in AuditEntry.objects.get(event=s.event, action="result").message
    )
    assert dict(s.table.seats.values_list("entrant_id", "vp")) == vps  # the organizer's result stands
    ignored = AuditEntry.objects.filter(event=s.event, action="app_result_ignored")
    assert ignored.count() == 1 and game.code in ignored.get().message
    in_app.sweep()
    assert ignored.count() == 1
    html = org.get(f"/tournaments/{s.event.pk}/manage/").content.decode()
    assert "result entered by an organizer: the game's own result is ignored" in html
    me = s.client("player").get(f"/tournaments/{s.event.pk}/me/").content.decode()
    assert "An organizer entered your table" in me and "the game was ended" in me
    # The game's page (a player's, a spectator's) says why it ended, not "the site's staff".
    for who in ("player", "anonymous"):
        page = html_text(s.client(who).get(f"/play/g/{game.public_id}/").content.decode())
        assert in_app.OVERRIDDEN.format(event=s.event.name) in page
        assert "The site's staff ended this game" not in page


def html_text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", page))


def test_the_game_page_shows_the_tournament_clock_of_its_table():
    """Issue 27: an app game showed no clock for its table's extra time. Its page shows the round's
    clock, and a table with extra time its own (refreshed by the page); a game that is over, none."""
    s = Scene()
    game = in_app.start_table(s.table, s.org)
    clock.start(s.round.clock, s.org)
    page = s.client("anonymous").get(f"/play/g/{game.public_id}/").content.decode()
    part = re.search(r'<section class="panel game-tournament".*?</section>', page, re.S).group(0)
    assert f"table {s.table.number}" in part and 'class="t-clock"' in part and "Round 1" in part
    assert "js/tournaments.js" in page  # the countdown ticks
    clock.extend_table(s.table, 300, s.org)
    page = s.client("player").get(f"/play/g/{game.public_id}/").content.decode()
    part = re.search(r'<section class="panel game-tournament".*?</section>', page, re.S).group(0)
    assert 'class="t-table-clock"' in part and "+5 minutes" in part
    url = f"/tournaments/{s.event.pk}/tables/{s.table.pk}/game-clock/"
    assert f'hx-get="{url}"' in part
    fragment = s.client("anonymous").get(url).content.decode()
    assert fragment.startswith('<section class="panel game-tournament"') and "+5 minutes" in fragment
    other = s.round.tables.exclude(pk=s.table.pk).first()
    assert (
        s.client("anonymous").get(f"/tournaments/{s.event.pk}/tables/{other.pk}/game-clock/").status_code
        == 404
    )
    game = bots_play_out(game)
    fragment = s.client("anonymous").get(url).content.decode()
    assert "t-clock" not in fragment  # the game is over: no clock to play to
    # A game that is no tournament's has no such part.
    from smashup.play.render import game_notes

    assert game_notes(PlayGame(pk=10**9), page=True) == {"ended": "", "parts": []}


def test_the_in_app_panels_show_the_clock_of_a_table_with_extra_time():
    s = Scene()
    game = in_app.start_table(s.table, s.org)
    clock.start(s.round.clock, s.org)
    clock.extend_table(s.table, 300, s.org)
    html = s.client("org").get(f"/tournaments/{s.event.pk}/manage/").content.decode()
    row = re.search(rf'<li id="in-app-table-{s.table.number}">.*?</li>', html, re.S).group(0)
    assert game.code in row and "extra time" in row and 'class="t-table-clock"' in row and "+5 minutes" in row
    me = s.client("player").get(f"/tournaments/{s.event.pk}/me/").content.decode()
    panel = re.search(r'id="t-in-app-me".*?</section>', me, re.S).group(0)
    assert "Your game has 5 minutes of extra time" in panel and 'class="t-table-clock"' in panel


# ---------------------------------------------------------------------------------- views --------
START_URLS = ["tables/{table}/in-app/", "rounds/in-app/"]


@pytest.mark.parametrize("url", START_URLS)
@pytest.mark.parametrize("who", ["anonymous", "stranger", "player"])
def test_start_views_refuse_everyone_but_organizers_and_change_nothing(url, who):
    s = Scene()
    before = snapshot(s.event)
    response = s.client(who).post(f"/tournaments/{s.event.pk}/" + url.format(table=s.table.pk))
    if who == "anonymous":
        assert response.status_code == 302 and "/login" in response["Location"]
    else:
        assert response.status_code == 403
    assert snapshot(s.event) == before


@pytest.mark.parametrize("url", START_URLS)
def test_start_views_work_for_the_organizer_and_only_by_post(url):
    s = Scene()
    c = s.client("org")
    full = f"/tournaments/{s.event.pk}/" + url.format(table=s.table.pk)
    before = snapshot(s.event)
    assert c.get(full).status_code == 405
    assert snapshot(s.event) == before
    response = c.post(full)
    assert response.status_code == 302
    assert PlayGame.objects.count() >= 1
    s.table.refresh_from_db()
    assert s.table.game_id is not None


def test_bad_input_to_the_start_views_changes_nothing():
    s = Scene()
    other_event = services.create_event(s.org, name="Other", date=datetime.date(2026, 5, 2))
    c = s.client("org")
    before = snapshot(s.event)
    assert c.post(f"/tournaments/{other_event.pk}/tables/{s.table.pk}/in-app/").status_code == 404
    assert c.post(f"/tournaments/{s.event.pk}/tables/999999/in-app/").status_code == 404
    assert c.post(f"/tournaments/{other_event.pk}/rounds/in-app/").status_code == 302  # no round yet
    assert snapshot(s.event) == before
    # A refused start (a table with a result) says why and changes nothing.
    services.set_result(s.table, _vps(s.table), by=s.org)
    before = snapshot(s.event)
    response = c.post(f"/tournaments/{s.event.pk}/tables/{s.table.pk}/in-app/", follow=True)
    assert "already has a result" in response.content.decode()
    assert snapshot(s.event) == before


def test_pages_show_seat_links_to_organizers_only_and_the_game_to_its_player():
    s = Scene()
    org = s.client("org")
    page = org.get(f"/tournaments/{s.event.pk}/manage/").content.decode()
    assert "Start this table in the app" in page and "Start every table in the app" in page
    game = in_app.start_table(s.table, s.org)
    page = org.get(f"/tournaments/{s.event.pk}/manage/").content.decode()
    # A link for the guest's seat only: the player with an account logs in.
    assert f"game {game.code}" in page and page.count("/play/s/") == 1 and "plays with their account" in page
    player = s.client("player")
    me = player.get(f"/tournaments/{s.event.pk}/me/").content.decode()
    assert f"/play/g/{game.public_id}/" in me and "Play your game" in me and "/play/s/" not in me
    for who in ("player", "stranger", "anonymous"):
        for path in ("", "standings/", f"round/{s.round.number}/", "projector/"):
            assert "/play/s/" not in s.client(who).get(f"/tournaments/{s.event.pk}/{path}").content.decode()
    # The player's seat is theirs by login on the game page; time called shows there and on the me page.
    with play.engine_game(game) as engine:
        assert engine.current == 0
    clock.start(s.round.clock, s.org)
    clock.call_time(s.round.clock, s.org)
    assert "Time has been called" in player.get(f"/play/g/{game.public_id}/").content.decode()
    assert "Time has been called" in player.get(f"/tournaments/{s.event.pk}/me/").content.decode()


def test_the_settings_form_sets_the_base_limit():
    s = Scene()
    data = {
        "name": "In the app", "date": "2026-05-01", "mode": "standard", "table_size": "2", "layout": "even",
        "round_minutes": "50", "warnings": "10", "end_rule": "x", "faction_pool": ["Aliens", "Ninjas",
        "Pirates", "Robots", "Wizards", "Zombies", "Tricksters", "Dinosaurs"], "faction_copies": "1",
        "draft_mode": "none", "bans_per_player": "0", "scoring": "normalised", "tiebreaker_1": "sos",
        "top_cut": "0", "in_app_base_limit": "on",
    }  # fmt: skip
    page = s.client("org").get(f"/tournaments/{s.event.pk}/edit/").content.decode()
    assert 'name="in_app_base_limit"' in page
    response = s.client("org").post(f"/tournaments/{s.event.pk}/edit/", data)
    assert response.status_code == 302
    s.event.refresh_from_db()
    assert s.event.in_app_base_limit is True


def test_a_guests_seat_link_works_once_and_the_organizers_cannot_open_the_seat_after():
    """The guest's seat link, handed out from the dashboard, seats the first who confirms it; then
    the dashboard shows no link, the link opens nothing (for the organizers either), and the guest
    has their own link on their game page for another device."""
    import re

    s = Scene()
    org = s.client("org")
    game = in_app.start_table(s.table, s.org)
    manage = f"/tournaments/{s.event.pk}/manage/"
    link = re.search(r'value="http://testserver(/play/s/[^"]+/)"', org.get(manage).content.decode()).group(1)
    guest_seat = game.seats.get(user__isnull=True)
    guest = Client()
    page = guest.get(link).content.decode()
    assert f"Take this seat as {guest_seat.guest_name}" in page
    assert guest.post(link)["Location"] == f"/play/g/{game.public_id}/"
    guest_page = guest.get(f"/play/g/{game.public_id}/").content.decode()
    assert f'data-seat="{guest_seat.index}"' in guest_page and "/play/r/" in guest_page
    assert "/play/s/" not in org.get(manage).content.decode()
    assert "seat taken" in org.get(manage).content.decode()
    for response in (org.get(link), org.post(link), Client().post(link)):
        assert response.status_code == 403 and "taken this seat" in response.content.decode()
    org_page = org.get(f"/play/g/{game.public_id}/").content.decode()
    assert 'data-seat=""' in org_page and "/play/r/" not in org_page  # a spectator


# ---------------------------------------------------------------------------------- factions -----
def test_app_refusal_wants_two_playable_factions_a_seat_and_each_faction_once():
    known = {"Aliens", "Ninjas", "Pirates", "Robots"}
    ok = [("Ann", ["Aliens", "Ninjas"]), ("Bo", ["Pirates", "Robots"])]
    assert in_app.app_refusal(3, ok, known) is None
    assert "Bo has no two factions" in in_app.app_refusal(3, [ok[0], ("Bo", ["Pirates"])], known)
    assert "cannot play Grannies" in in_app.app_refusal(3, [ok[0], ("Bo", ["Grannies", "Robots"])], known)
    shared = in_app.app_refusal(3, [ok[0], ("Bo", ["Robots", "Ninjas"])], known)
    assert shared == (
        "Ann and Bo both hold Ninjas: the app plays each faction once per game; table 3 plays with cards."
    )


def test_a_table_with_a_faction_twice_plays_with_cards_and_offers_no_start_button():
    """Two boxes let two players hold one faction at a table with cards; the app plays each faction
    once per game, so such a table is refused in the app, says why, and changes nothing."""
    s = Scene()
    seats = list(Seat.objects.filter(table=s.table).order_by("position"))
    Seat.objects.filter(pk=seats[1].pk).update(factions=["Robots", seats[0].entrant.factions[0]])
    before = snapshot(s.event)
    with pytest.raises(services.Invalid, match="both hold .*: the app plays each faction once per game"):
        in_app.start_table(s.table, s.org)
    assert snapshot(s.event) == before
    page = s.client("org").get(f"/tournaments/{s.event.pk}/manage/").content.decode()
    assert page.count("Start this table in the app") == 1  # the other table only
    assert "plays with cards: " in page and "each faction once per game" in page
    # The round's button starts the table that can play and says why the other cannot.
    started, skipped = in_app.start_round(s.round, s.org)
    assert started == 1 and "each faction once per game" in skipped[0]


def test_a_table_in_the_app_gets_the_bases_of_its_factions_sets():
    s = Scene()
    game = in_app.start_table(s.table, s.org)
    assert game.config["base_sets"] == "factions"
    with play.engine_game(game) as engine:
        cards = list(engine.base_deck) + [slot.card for slot in engine.bases]
        sets = {engine.defs[c].set for c in cards}
    assert sets == {"core"}


def test_the_event_form_offers_every_faction_and_marks_those_the_app_plays():
    s = Scene()
    page = html.unescape(s.client("org").get(f"/tournaments/{s.event.pk}/edit/").content.decode())
    from smashup.draft import FACTIONS, SETS

    for faction in play.factions_available():
        assert f"{faction} ({SETS[FACTIONS[faction]]}) · plays in the app" in page
    assert "Grannies (What Were We Thinking?)<" in page or "Grannies (What Were We Thinking?)\n" in page


# ---------------------------------------------------------------------------------- play your game
def guest_of(s: Scene, game: PlayGame) -> tuple[Entrant, object]:
    """The table's guest entrant (no account) and their seat in the game."""
    seats = list(Seat.objects.filter(table=s.table).select_related("entrant").order_by("position"))
    index = next(i for i, seat in enumerate(seats) if seat.entrant.user_id is None)
    return seats[index].entrant, game.seats.get(index=index)


def private_client(entrant: Entrant) -> Client:
    c = Client()
    c.post(f"/tournaments/p/{entrant.token}/")  # the player's private link: this browser is them
    return c


def test_a_guest_player_plays_their_game_from_their_page_and_only_they_can():
    s = Scene()
    game = in_app.start_table(s.table, s.org)
    guest, play_seat = guest_of(s, game)
    me_url, play_url = f"/tournaments/{s.event.pk}/me/", f"/tournaments/{s.event.pk}/me/play/"
    c = private_client(guest)
    page = c.get(me_url).content.decode()
    assert "Play your game" in page and play_url in page and "ask the organizer" not in page
    assert "/play/s/" not in page  # the button takes the seat; no link to pass around
    # A stranger, another player's browser, or a GET cannot take it; nothing changes.
    token = play_seat.token
    elsewhere = Seat.objects.filter(round=s.round).exclude(table=s.table).select_related("entrant").first()
    for other in (Client(), s.client("stranger"), private_client(elsewhere.entrant)):
        other.post(play_url)
    assert c.get(play_url).status_code == 405
    play_seat.refresh_from_db()
    assert play_seat.token == token and not play_seat.taken
    response = c.post(play_url)
    assert response.status_code == 302 and response["Location"] == f"/play/g/{game.public_id}/"
    play_seat.refresh_from_db()
    assert play_seat.taken and play_seat.token != token
    game_page = c.get(f"/play/g/{game.public_id}/").content.decode()
    assert f'data-seat="{play_seat.index}"' in game_page
    assert "Play your game" in c.get(me_url).content.decode()  # now a plain link to the game
    # Whoever else opens the player's link (the organizers hold it) cannot take the seat over.
    again = private_client(guest)
    page = again.get(me_url).content.decode()
    assert "taken on another device" in page and play_url not in page
    taken_token = play_seat.token
    refused = again.post(play_url, follow=True).content.decode()
    assert "taken on another device" in refused
    play_seat.refresh_from_db()
    assert play_seat.token == taken_token
    assert 'data-seat=""' in again.get(f"/play/g/{game.public_id}/").content.decode()


def test_play_my_game_without_a_game_in_the_app_is_refused():
    s = Scene()
    guest = next(e for e in s.entrants if e.user_id is None)
    c = private_client(guest)
    before = snapshot(s.event)
    page = c.post(f"/tournaments/{s.event.pk}/me/play/", follow=True).content.decode()
    assert "does not play in the app" in page
    assert snapshot(s.event) == before
