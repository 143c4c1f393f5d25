"""Tournaments in Big Base mode (issue 11) on the real PostgreSQL: the event form offers Big Base only
with a board in the database, a Big Base round pairs tables of 2 to 4 around one board each, the
in-app game is a Big Base game on the event's board, and the results (from the finished game or
from the organizer) flow into the same standings."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from bigbase.models import Board, board_row_data
from bigbase.rules import default_board
from smashup.play import services as play
from smashup.play.models import Game as PlayGame
from tests.tournaments.people import user
from tournaments import in_app, services
from tournaments.forms import EventForm
from tournaments.models import AuditEntry, Event, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)
PAIRS = [["Aliens", "Ninjas"], ["Pirates", "Robots"], ["Wizards", "Zombies"], ["Dinosaurs", "Tricksters"]]


@pytest.fixture(autouse=True)
def boards():
    """The default board, as the migration loads it (a transaction test flushes migrated rows)."""
    board = default_board()
    Board.objects.get_or_create(
        slug="default", defaults={"name": board["name"], "data": board_row_data(board)}
    )
    Board.objects.get_or_create(
        slug="club", defaults={"name": "Club board", "data": {**board_row_data(board), "side_bonus_vp": 2}}
    )


class Scene:
    """A Big Base event on the club board, round 1 paired: `players` players, no faction twice at a
    table of up to four (PAIRS)."""

    def __init__(self, table_size: int = 4, players: int = 4, board: str = "club"):
        self.org = user("org")
        self.event = services.create_event(
            self.org,
            name="Big Base night",
            date=datetime.date(2026, 5, 1),
            mode=Event.Mode.BIGBASE,
            board=board,
            table_size=table_size,
            draft_mode=Event.DraftMode.NONE,
        )
        self.entrants = [services.register(self.event, f"P{i + 1}", by=self.org) for i in range(players)]
        for i, entrant in enumerate(self.entrants):
            services.set_factions(entrant, PAIRS[i % len(PAIRS)], self.org)
        self.round = services.generate_round(self.event, self.org)
        self.table = Seat.objects.get(round=self.round, entrant=self.entrants[0]).table

    def client(self) -> Client:
        c = Client()
        c.force_login(self.org)
        return c


def form_data(**overrides) -> dict:
    data = {
        "name": "Big Base night", "date": "2026-05-01", "mode": "bigbase", "board": "club", "table_size": "4",
        "layout": "even", "round_minutes": "50", "warnings": "10", "end_rule": "x",
        "faction_pool": [f for pair in PAIRS for f in pair],
        "faction_copies": "1", "draft_mode": "none", "bans_per_player": "0", "scoring": "normalised",
        "tiebreaker_1": "sos", "top_cut": "0",
    }  # fmt: skip
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def bots_play_out(game: PlayGame) -> PlayGame:
    for _ in range(20000):
        game.refresh_from_db()
        if not game.is_active:
            break
        play.bot_move(game.pk, game.version, force=True)
    game.refresh_from_db()
    return game


# ---------------------------------------------------------------------------------- the form -----
def test_the_event_form_offers_big_base_and_the_boards_of_the_database():
    form = EventForm()
    assert ("bigbase", "Big Base") in form.fields["mode"].choices
    assert {"default", "club"} <= {slug for slug, _ in form.fields["board"].choices}
    c = Client()
    c.force_login(user("org"))
    response = c.post("/tournaments/new/", form_data())
    assert response.status_code == 302
    event = Event.objects.get()
    assert event.mode == Event.Mode.BIGBASE and event.board == "club"


def test_without_a_board_in_the_database_big_base_is_not_offered_and_says_why():
    Board.objects.update(offered=False)
    form = EventForm()
    assert [value for value, _ in form.fields["mode"].choices] == ["standard"]
    assert "no" in form.fields["mode"].help_text and "board" in form.fields["mode"].help_text
    assert not EventForm(form_data()).is_valid()
    with pytest.raises(services.Invalid, match="offers none"):
        services.create_event(user("org"), name="x", mode=Event.Mode.BIGBASE, board="club")
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    "overrides, words",
    [
        ({"board": "nowhere"}, "Select a valid choice"),
        ({"board": ""}, "Choose one of the Big Base boards offered"),
        ({"in_app_base_limit": "on"}, "ends after its scoring periods"),
    ],
)
def test_a_bad_big_base_event_is_refused_with_the_reason(overrides, words):
    c = Client()
    c.force_login(user("org"))
    html = c.post("/tournaments/new/", form_data(**overrides)).content.decode()
    assert words in html and not Event.objects.exists()


def test_a_standard_event_keeps_no_board_and_the_board_is_locked_once_paired():
    c = Client()
    c.force_login(user("org"))
    c.post("/tournaments/new/", form_data(mode="standard"))
    assert Event.objects.get().board == ""
    with pytest.raises(services.Invalid, match="Only a Big Base event has a board"):
        services.create_event(user("org"), name="x", board="club")
    s = Scene()
    with pytest.raises(services.Conflict, match="board cannot change"):
        services.update_event(s.event, s.org, board="default")


def test_an_edit_keeps_the_event_working_when_its_board_stops_being_offered():
    s = Scene()
    Board.objects.filter(slug="club").update(offered=False)
    services.update_event(s.event, s.org, round_minutes=60)  # other settings still change
    form = EventForm(instance=s.event)
    assert ("bigbase", "Big Base") in form.fields["mode"].choices
    with pytest.raises(services.Invalid, match="not offered"):
        in_app.start_table(s.table, s.org)
    assert PlayGame.objects.count() == 0


# ---------------------------------------------------------------------------------- pairing ------
@pytest.mark.parametrize("players, sizes", [(7, [3, 4]), (5, [2, 3]), (4, [4])])
def test_a_big_base_round_pairs_tables_of_two_to_four_around_one_board(players, sizes):
    s = Scene(players=players)
    assert sorted(t.seats.count() for t in s.round.tables.all()) == sizes
    assert all(t.game_id is None and t.state == Table.State.OPEN for t in s.round.tables.all())


def test_the_next_big_base_round_avoids_rematches():
    s = Scene(players=4, table_size=2)
    for table in s.round.tables.all():
        seats = list(table.seats.order_by("position"))
        services.set_result(table, {seat.entrant_id: 10 + i for i, seat in enumerate(seats)}, by=s.org)
    second = services.generate_round(s.event, s.org)
    assert second.number == 2 and sorted(t.seats.count() for t in second.tables.all()) == [2, 2]
    assert services.repeated_tables(second) == []  # nobody meets the same opponent again


# ---------------------------------------------------------------------------------- the game -----
def test_the_in_app_game_is_a_big_base_game_on_the_events_board():
    s = Scene(players=3)
    game = in_app.start_table(s.table, s.org)
    assert game.mode == "bigbase" and game.is_active
    assert game.config["mode"] == "bigbase"
    assert game.config["board"]["id"] == "club" and game.config["board"]["side_bonus_vp"] == 2
    assert game.config["end_after_bases"] is None
    assert [p["name"] for p in game.config["players"]] == [
        seat.entrant.name for seat in s.table.seats.select_related("entrant").order_by("position")
    ]
    with play.engine_game(game) as engine:
        assert engine.current == 0
    # The board's later edit changes no game already started on it.
    Board.objects.filter(slug="club").update(data={**Board.objects.get(slug="club").data, "side_bonus_vp": 3})
    game.refresh_from_db()
    assert game.config["board"]["side_bonus_vp"] == 2
    # The organizers' panel names the board and links the table display.
    html = s.client().get(f"/tournaments/{s.event.pk}/manage/").content.decode()
    assert "Club board" in html and f"/play/g/{game.public_id}/display/" in html
    assert "Big Base on the board Club board" in Client().get(f"/tournaments/{s.event.pk}/").content.decode()


def test_a_finished_big_base_game_reports_the_result_and_the_standings_follow():
    s = Scene(players=2, table_size=2)
    game = bots_play_out(in_app.start_table(s.table, s.org))
    assert game.is_finished
    with play.engine_game(game) as engine:
        vp = [p.vp for p in engine.players]
        winner = engine.winner
    s.table.refresh_from_db()
    assert s.table.state == Table.State.CONFIRMED
    seats = list(s.table.seats.order_by("position"))
    assert [seat.vp for seat in seats] == vp
    assert AuditEntry.objects.filter(event=s.event, action="app_result").count() == 1
    rows = services.standings(s.event)
    assert {row.entrant.pk: row.vp for row in rows} == {seat.entrant_id: seat.vp for seat in seats}
    if winner is not None:  # Big Base plays on until one player leads: they are first
        assert rows[0].entrant.pk == seats[winner].entrant_id


def test_the_organizer_enters_a_big_base_tables_result_and_the_standings_follow():
    s = Scene(players=4)
    seats = list(s.table.seats.order_by("position"))
    vps = dict(zip([seat.entrant_id for seat in seats], [20, 31, 12, 25], strict=True))
    services.set_result(s.table, vps, by=s.org)
    s.table.refresh_from_db()
    assert s.table.state == Table.State.CONFIRMED
    rows = services.standings(s.event)
    assert [row.entrant.pk for row in rows] == [seats[i].entrant_id for i in (1, 3, 0, 2)]
    assert [row.vp for row in rows] == [31, 25, 20, 12]
    data = Client().get(f"/tournaments/{s.event.pk}/api/standings.json").json()
    assert data["event"]["mode"] == "bigbase" and data["event"]["board"] == "club"
