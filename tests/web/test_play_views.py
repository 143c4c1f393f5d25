"""The live-play pages: lobby, table, seat links, join by code, game page, POST fallback, replay."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from smashup.engine.invariants import card_ids_in, hidden_from
from smashup.play import render, services
from smashup.play.models import Game

from .play_helpers import (
    eager_bots,
    error_code,
    html_card_ids,
    linked_seats,
    option_values,
    resume_path,
    seated_client,
    status_attrs,
    two_person_game,
)

pytestmark = pytest.mark.django_db


def lobby_form(**overrides) -> dict:
    data = {
        "seat0_kind": "person",
        "seat0_faction0": "Aliens",
        "seat0_faction1": "Ninjas",
        "seat1_kind": "bot",
        "seat1_faction0": "",
        "seat1_faction1": "",
        "seat2_kind": "none",
        "seat2_faction0": "",
        "seat2_faction1": "",
        "seat3_kind": "none",
        "seat3_faction0": "",
        "seat3_faction1": "",
        "base_sets": "factions",
        "specials": "fast",
        "sit": "on",
        "your_name": "Ada",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def seat_link(game: Game, index: int) -> str:
    return f"/play/s/{services.seat_link_token(game.seats.get(index=index))}/"


# ---------------------------------------------------------------------------------- lobby --------
def test_lobby_page_offers_seats_factions_bases_and_specials(client):
    html = client.get("/play/").content.decode()
    for name in ("seat0_kind", "seat3_faction1", "base_sets", "specials", "your_name", "sit"):
        assert f'name="{name}"' in html
    assert '<option value="Aliens"' in html and '<option value="" selected>Random</option>' in html
    assert client.head("/play/").status_code == 200


def test_creating_a_table_with_a_bot_seats_me_and_starts(client):
    response = client.post("/play/", lobby_form())
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/play/g/{game.public_id}/"
    assert game.status == "active" and game.created_by is None
    assert game.seats.get(index=0).guest_name == "Ada" and game.seats.get(index=1).is_bot
    html = client.get(response["Location"]).content.decode()
    assert status_attrs(html)["seat"] == "0"
    assert 'id="hand"' in html and "Your hand" in html


def test_creating_a_table_for_two_people_waits_in_the_lobby(client):
    response = client.post("/play/", lobby_form(seat1_kind="person"))
    game = Game.objects.get()
    assert response["Location"] == f"/play/t/{game.public_id}/" and game.is_lobby
    assert client.get(f"/play/g/{game.public_id}/")["Location"] == f"/play/t/{game.public_id}/"


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"seat1_kind": "none"}, "2 to 4 seats"),
        ({"your_name": ""}, "Enter your name"),
        ({"seat0_faction1": "Aliens"}, "two different factions"),
        ({"seat0_kind": "bot"}, "make one seat a person"),
        ({"specials": "never"}, "Select a valid choice"),
    ],
)
def test_the_lobby_form_explains_its_errors(client, overrides, message):
    response = client.post("/play/", lobby_form(**overrides))
    assert response.status_code == 200 and message in response.content.decode()
    assert not Game.objects.exists()


def test_a_logged_in_user_sits_under_their_name_and_sees_their_games(client):
    ada = get_user_model().objects.create_user("ada", password="pw")
    client.force_login(ada)
    client.post("/play/", lobby_form(your_name=""))
    game = Game.objects.get()
    assert game.created_by == ada and game.seats.get(index=0).user == ada
    assert f"Table {game.code}" in client.get("/play/").content.decode()


# ---------------------------------------------------------------------------------- table --------
def test_the_table_page_shares_code_link_qr_and_seat_links_with_its_creator(client):
    client.post("/play/", lobby_form(seat1_kind="person"))
    game = Game.objects.get()
    html = client.get(f"/play/t/{game.public_id}/").content.decode()
    assert game.code in html
    assert f"http://testserver/play/t/{game.public_id}/" in html
    assert html.count('<svg class="qr"') == 3  # the table, and a link per person seat
    assert "/play/s/" in html and "Sit here" in html and "Start now" in html
    # Someone else sees the table and a free seat, but no seat links.
    other = Client().get(f"/play/t/{game.public_id}/").content.decode()
    assert game.code in other and "Sit here" in other
    assert "/play/s/" not in other and "Start now" not in other and other.count('<svg class="qr"') == 1


def test_joining_by_code_sitting_down_and_the_seats_poll(client):
    client.post("/play/", lobby_form(seat1_kind="person"))
    game = Game.objects.get()
    bob = Client()
    assert (
        bob.get("/play/join/", {"code": f" {game.code.lower()} "})["Location"] == f"/play/t/{game.public_id}/"
    )
    missing = bob.get("/play/join/", {"code": "ZZZZZZ"})
    assert missing.status_code == 404 and "No game has the code ZZZZZZ" in missing.content.decode()
    assert bob.get("/play/join/").status_code == 200
    # The table page polls the seats: nothing changed, nothing to swap.
    html = bob.get(f"/play/t/{game.public_id}/").content.decode()
    key = re.search(r"seats/\?since=(\w+)", html).group(1)
    poll = f"/play/t/{game.public_id}/seats/?since={key}"
    assert bob.get(poll, HTTP_HX_REQUEST="true").status_code == 204
    # Bob sits down: the game starts, and the poll sends the seated players to the game.
    response = bob.post(f"/play/t/{game.public_id}/sit/1/", {"name": "Bob"})
    assert response["Location"] == f"/play/g/{game.public_id}/"
    game.refresh_from_db()
    assert game.is_active and game.config["players"][1]["name"] == "Bob"
    moved = client.get(poll, HTTP_HX_REQUEST="true")
    assert moved.status_code == 204 and moved["HX-Redirect"] == f"/play/g/{game.public_id}/"
    watcher = Client().get(poll, HTTP_HX_REQUEST="true")
    assert watcher.status_code == 200 and "The game is on" in watcher.content.decode()
    # A taken seat cannot be taken again.
    eve = Client()
    response = eve.post(f"/play/t/{game.public_id}/sit/1/", {"name": "Eve"}, follow=True)
    assert "already taken by Bob" in response.content.decode()


def test_start_now_is_for_the_creator_only(client):
    client.post("/play/", lobby_form(seat1_kind="person"))
    game = Game.objects.get()
    assert Client().post(f"/play/t/{game.public_id}/start/").status_code == 403
    assert client.post(f"/play/t/{game.public_id}/start/")["Location"] == f"/play/g/{game.public_id}/"
    game.refresh_from_db()
    assert game.is_active and game.seats.get(index=1).is_bot


def test_seat_links(client):
    game = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=3)
    # A free seat: the link asks for a name, then seats you.
    link = seat_link(game, 0)
    assert "Take this seat" in client.get(link).content.decode()
    assert "Enter a name" in client.post(link, {"name": " "}).content.decode()
    assert client.post(link, {"name": "Ada"})["Location"] == f"/play/t/{game.public_id}/"
    seat = game.seats.get(index=0)
    assert seat.claimed and seat.taken and seat.guest_name == "Ada"
    # Opening it again on her own browser takes her to her table; anywhere else it is dead.
    assert client.get(link)["Location"] == f"/play/t/{game.public_id}/"
    phone = Client()
    response = phone.get(link)
    assert response.status_code == 403 and "taken this seat" in response.content.decode()
    # Her own link opens her seat on her phone, once confirmed there.
    own = resume_path(game, 0)
    assert linked_seats(client.get(f"/play/t/{game.public_id}/").content.decode()) == {0}
    assert "Play my seat on this device" in phone.get(own).content.decode()
    assert phone.post(own)["Location"] == f"/play/t/{game.public_id}/"
    services.claim_seat(game.pk, 1, guest_name="Bob")
    html = phone.get(f"/play/g/{game.public_id}/").content.decode()
    assert status_attrs(html)["seat"] == "0"
    # A forged link.
    forged = client.get("/play/s/not-a-link/")
    assert forged.status_code == 403 and "not valid" in forged.content.decode()
    assert client.get("/play/r/not-a-link/").status_code == 403


def test_a_seat_link_of_a_seat_given_to_a_bot_is_refused(client):
    game = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=3)
    services.claim_seat(game.pk, 0, guest_name="Ada")
    old = seat_link(game, 1)
    services.start_game(game.pk)
    response = client.get(old)  # its secret was replaced when the bot took the seat
    assert response.status_code == 403 and "played by a bot" in response.content.decode()
    response = client.get(seat_link(game, 1))  # signed with the current secret: still a bot's seat
    assert response.status_code == 403 and "played by a bot" in response.content.decode()
    html = client.get(f"/play/g/{game.public_id}/").content.decode()
    assert status_attrs(html)["seat"] == "" and 'id="hand"' not in html  # a spectator, nothing more


def seat_rows(game: Game) -> list[tuple]:
    game.refresh_from_db()
    rows = [(s.kind, s.claimed, s.taken, s.guest_name, s.token, s.user_id) for s in game.seats.all()]
    return [game.status, game.version] + rows


def test_the_creator_cannot_open_a_seat_someone_took(client):
    """The audit's case: the creator kept the links of every seat and, once the others had taken
    theirs and the game had started, opened an opponent's seat and saw their hand. Now the creator's
    page offers links only for free seats, a taken seat's link opens nothing (GET or POST), and the
    creator's browser acts only for its own seat."""
    client.post("/play/", lobby_form(seat1_kind="person"))  # Ada sets up the table and sits at seat 1
    game = Game.objects.get()
    table = f"/play/t/{game.public_id}/"
    html = client.get(table).content.decode()
    kept = re.search(r'value="http://testserver(/play/s/[^"]+/)"', html).group(1)  # seat 2's link
    assert linked_seats(html, "s") == {1} and html.count("/play/s/") == 1  # not her own seat's
    bob = Client()
    assert "Take this seat" in bob.get(kept).content.decode()
    assert bob.post(kept, {"name": "Bob"})["Location"] == f"/play/g/{game.public_id}/"
    game.refresh_from_db()
    assert game.is_active
    # The creator's table page: her own link only, no link or QR code for Bob's seat.
    html = client.get(table).content.decode()
    assert "/play/s/" not in html and linked_seats(html) == {0}
    assert html.count('<svg class="qr"') == 2  # the table's, and her own link's
    # The link she kept opens nothing, by GET or by POST, and changes nothing.
    before = seat_rows(game)
    for response in (client.get(kept), client.post(kept, {"name": "Ada"}), Client().get(kept)):
        assert response.status_code == 403 and "taken this seat" in response.content.decode()
    assert seat_rows(game) == before
    # Her game page is her seat's view; Bob's hand is in his page only.
    with services.engine_game(game) as engine:
        bobs_hand = set(engine.players[1].hand)
    mine = client.get(f"/play/g/{game.public_id}/?seat=1").content.decode()
    assert status_attrs(mine)["seat"] == "0" and not html_card_ids(mine) & bobs_hand
    assert html_card_ids(bob.get(f"/play/g/{game.public_id}/").content.decode()) & bobs_hand
    # Bob's own link is on his pages only.
    assert linked_seats(bob.get(f"/play/g/{game.public_id}/").content.decode()) == {1}
    assert linked_seats(client.get(f"/play/g/{game.public_id}/").content.decode()) == {0}


def test_opening_a_link_changes_nothing_and_taking_a_seat_needs_a_csrf_token():
    """A page of another site can make a browser GET a seat link (an image, a redirect) but cannot
    POST with this site's CSRF token: a GET only shows the seat, and the POST that takes it (or
    that resumes it on this device) is refused without the token."""
    game = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=3)
    services.claim_seat(game.pk, 0, guest_name="Ada")
    visitor = Client(enforce_csrf_checks=True)
    before = seat_rows(game)
    for path in (seat_link(game, 1), resume_path(game, 0)):
        assert visitor.get(path).status_code == 200
        assert visitor.post(path, {"name": "Eve"}).status_code == 403  # no CSRF token
    assert seat_rows(game) == before
    assert not visitor.session.get("play_seats")
    html = visitor.get(f"/play/t/{game.public_id}/").content.decode()
    assert "(you)" not in html
    # With the token from the page, the form works.
    page = visitor.get(seat_link(game, 1)).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = visitor.post(seat_link(game, 1), {"name": "Eve", "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert game.seats.get(index=1).guest_name == "Eve"


# ---------------------------------------------------------------------------------- each picks ---
def seats_of(game: Game) -> list[tuple]:
    game.refresh_from_db()
    return [game.status] + [(s.kind, s.claimed, s.guest_name, list(s.factions)) for s in game.seats.all()]


def test_a_table_where_each_player_picks_from_the_lobby_to_the_start(client):
    form = lobby_form(factions_mode="pick", seat0_faction0="Ninjas", seat0_faction1="Aliens")
    form.update(seat1_kind="person", seat2_kind="bot")
    response = client.post("/play/", form)
    game = Game.objects.get()
    assert response["Location"] == f"/play/t/{game.public_id}/" and game.player_picks and game.is_lobby
    assert seats_of(game)[1:] == [
        ("person", True, "Ada", ["Ninjas", "Aliens"]),
        ("person", False, "", []),
        ("bot", False, "", []),
    ]
    # The table page: Bob's sit form asks for his two factions; Ada may change hers.
    bob = Client()
    html = bob.get(f"/play/t/{game.public_id}/").content.decode()
    assert 'name="faction0"' in html and 'name="faction1"' in html
    assert '<option value="Aliens" data-blurb=' in html
    assert "random at the start" in html and "Change my factions" not in html
    mine = client.get(f"/play/t/{game.public_id}/").content.decode()
    assert "Change my factions" in mine and '<option value="Ninjas" selected data-blurb=' in mine
    response = client.post(
        f"/play/t/{game.public_id}/factions/", {"seat": "0", "faction0": "Aliens", "faction1": "Ninjas"}
    )
    assert response["Location"] == f"/play/t/{game.public_id}/"
    assert seats_of(game)[1][3] == ["Aliens", "Ninjas"]
    # A faction Ada holds is refused (each faction once per game) and nothing changes.
    before = seats_of(game)
    clash = {"name": "Bob", "faction0": "Robots", "faction1": "Ninjas"}
    refused = bob.post(f"/play/t/{game.public_id}/sit/1/", clash, follow=True)
    # Picks are secret until the start: the refusal names the faction, never the seat (issue 26).
    assert "Ninjas is already taken at this table: each faction" in refused.content.decode()
    assert "(seat 1)" not in refused.content.decode()
    assert seats_of(game) == before and game.is_lobby
    # Bob sits with his own pick: the game starts, the bot with random factions.
    bobs = {"name": "Bob", "faction0": "Pirates", "faction1": "Robots"}
    response = bob.post(f"/play/t/{game.public_id}/sit/1/", bobs)
    assert response["Location"] == f"/play/g/{game.public_id}/"
    game.refresh_from_db()
    assert game.is_active
    players = game.config["players"]
    assert players[0]["factions"] == ["Aliens", "Ninjas"] and players[1]["factions"] == ["Pirates", "Robots"]
    # The bot's random pair avoids both people's factions.
    assert len({f for p in players for f in p["factions"]}) == 6


def seats_panel(html: str) -> str:
    return html.split('<section id="seats"')[1].split("</section>")[0]


def test_picks_stay_hidden_from_the_others_until_everyone_has_picked(client):
    """Nobody may wait for the others' picks and pick against them: until the game starts, a pick
    shows on its own seat holder's pages only (the others see that it is made), and the seats
    panel's change key does not move for them when a pick changes."""
    form = lobby_form(factions_mode="pick", seat0_faction0="Ninjas", seat0_faction1="Aliens")
    form.update(seat1_kind="person", seat2_kind="person")
    client.post("/play/", form)
    game = Game.objects.get()
    table = f"/play/t/{game.public_id}/"
    bob, carl, watcher = Client(), Client(), Client()
    bob.post(f"{table}sit/1/", {"name": "Bob", "faction0": "Pirates", "faction1": "Robots"})
    game.refresh_from_db()
    assert game.is_lobby
    picks = {"Ninjas + Aliens": client, "Pirates + Robots": bob}
    for pick, owner in picks.items():
        for viewer in (client, bob, carl, watcher):
            panel = seats_panel(viewer.get(table).content.decode())
            assert (pick in panel) == (viewer is owner), (pick, viewer is owner)
        assert "picked (shown when the game starts)" in seats_panel(watcher.get(table).content.decode())
    # Ada changes her pick: the others' seats panel has nothing new to show them.
    html = watcher.get(table).content.decode()
    key = re.search(r"seats/\?since=(\w+)", html).group(1)
    client.post(f"{table}factions/", {"seat": "0", "faction0": "Aliens", "faction1": "Ninjas"})
    assert game.seats.get(index=0).factions == ["Aliens", "Ninjas"]
    poll = f"{table}seats/?since={key}"
    assert watcher.get(poll, HTTP_HX_REQUEST="true").status_code == 204
    mine = client.get(f"{table}seats/", HTTP_HX_REQUEST="true").content.decode()
    assert "Aliens + Ninjas" in seats_panel(f'<section id="seats"{mine.split("<section id=", 1)[1]}')
    # Carl, the last to pick, starts the game: now everyone sees every pick.
    carl.post(f"{table}sit/2/", {"name": "Carl", "faction0": "Wizards", "faction1": "Zombies"})
    game.refresh_from_db()
    assert game.is_active
    panel = seats_panel(watcher.get(table).content.decode())
    assert [panel.count(p) for p in ("Aliens + Ninjas", "Pirates + Robots", "Wizards + Zombies")] == [1, 1, 1]


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"seat0_faction0": "", "seat0_faction1": ""}, "Your seat: Pick two factions"),
        ({"seat0_faction1": "Aliens"}, "Your seat: You picked Aliens twice"),
        ({"seat0_faction1": "Vikings"}, "Select a valid choice"),
    ],
)
def test_the_lobby_asks_the_creator_who_sits_for_their_own_pick(client, overrides, message):
    response = client.post("/play/", lobby_form(factions_mode="pick", seat1_kind="person", **overrides))
    assert response.status_code == 200 and message in response.content.decode()
    assert not Game.objects.exists()


def test_picking_through_a_seat_link_and_bad_picks_change_nothing(client):
    game = services.create_game(
        [services.SeatSpec("person"), services.SeatSpec("person")], seed=3, player_picks=True
    )
    link = seat_link(game, 1)
    html = client.get(link).content.decode()
    assert "you pick your own two" in html and 'name="faction0"' in html and 'name="faction1"' in html
    before = seats_of(game)
    for form, message in [
        ({"name": "Bob", "faction0": "Aliens", "faction1": "Aliens"}, "You picked Aliens twice"),
        ({"name": "Bob", "faction0": "Aliens", "faction1": "Vikings"}, "no faction called"),
        ({"name": "Bob"}, "Pick your two factions"),
        ({"name": "Bob", "faction0": "Aliens"}, "Pick two factions"),
    ]:
        response = client.post(link, form)
        text = response.content.decode()
        assert response.status_code == 200 and message.replace("'", "&#x27;") in text, form
        assert seats_of(game) == before
    response = client.post(link, {"name": "Bob", "faction0": "Ninjas", "faction1": "Aliens"})
    assert response["Location"] == f"/play/t/{game.public_id}/"
    assert seats_of(game)[2] == ("person", True, "Bob", ["Ninjas", "Aliens"])


def test_nobody_picks_for_another_seat_through_the_pages(client):
    game = services.create_game(
        [services.SeatSpec("person"), services.SeatSpec("person"), services.SeatSpec("person")],
        seed=3,
        player_picks=True,
        base_sets="all",
    )
    client.post(seat_link(game, 0), {"name": "Ada", "faction0": "Aliens", "faction1": "Ninjas"})
    Client().post(seat_link(game, 1), {"name": "Bob", "faction0": "Pirates", "faction1": "Robots"})
    before = seats_of(game)
    url = f"/play/t/{game.public_id}/factions/"
    # Ada (seat 0) tries to set Bob's seat, a free seat, and a seat that does not exist.
    for seat in ("1", "2", "7", "x"):
        response = client.post(url, {"seat": seat, "faction0": "Aliens", "faction1": "Ninjas"}, follow=True)
        text = response.content.decode()
        assert "your own seat" in text or "no seat" in text or "must be a whole number" in text, seat
        assert seats_of(game) == before
    # ...or sits down at Bob's seat with her pick; a stranger cannot change Ada's.
    adas = {"name": "Ada", "faction0": "Aliens", "faction1": "Ninjas"}
    response = client.post(f"/play/t/{game.public_id}/sit/1/", adas, follow=True)
    assert "already taken by Bob" in response.content.decode()
    response = Client().post(url, {"seat": "0", "faction0": "Ninjas", "faction1": "Aliens"}, follow=True)
    assert "your own seat" in response.content.decode()
    assert seats_of(game) == before


# ---------------------------------------------------------------------------------- game page ----
def test_the_game_page_for_a_seat(client):
    game = two_person_game()
    seat = game.pending_seat
    seated_client(game, seat, client)
    html = client.get(f"/play/g/{game.public_id}/").content.decode()
    attrs = status_attrs(html)
    assert (
        attrs["seat"] == str(seat) and attrs["decision"] == game.pending_decision and attrs["version"] == "0"
    )
    assert f'ws-connect="/ws/games/{game.public_id}/"' in html and 'hx-ext="ws"' in html
    assert "/static/js/play.js" in html and "/static/css/play.css" in html
    # The decision: a form sent over the socket (ws-send) or POSTed, with the sequence number.
    assert "ws-send" in html and f'action="/play/g/{game.public_id}/choice/"' in html
    assert '<input type="hidden" name="seq" value="0">' in html
    assert option_values(html) and "Your decision" in html
    # The board: bases with breakpoint, VP, their text; the hand with card texts; the players; the log.
    with services.engine_game(game) as engine:
        view = engine.view(seat)
        texts = engine.card_texts()
    for base in view["bases"]:
        assert base["name"] in html and texts[base["name"]].replace("'", "&#x27;") in html
    for card in view["hand"]:
        assert f'data-card="{card["id"]}"' in html
    assert 'role="log"' in html and 'aria-live="polite"' in html
    assert "Hand" in html and "Deck" in html and "Discard" in html
    # Nothing hidden from this seat.
    with services.engine_game(game) as engine:
        assert not html_card_ids(html) & hidden_from(engine, seat)


def test_the_game_page_for_a_spectator_hides_every_hand():
    game = two_person_game()
    html = Client().get(f"/play/g/{game.public_id}/").content.decode()
    assert status_attrs(html)["seat"] == ""
    assert 'id="hand"' not in html and not option_values(html) and "spectator" in html
    with services.engine_game(game) as engine:
        assert not html_card_ids(html) & hidden_from(engine, None)
    assert Client().get("/play/g/nosuchgame/").status_code == 404


def test_the_hidden_card_scans_read_every_way_a_page_or_message_names_a_card():
    """The scans behind the leak tests must see a card however it is named, or a leak would pass."""
    assert html_card_ids('<li data-card="7">') == {7}
    assert html_card_ids('<details id="m-45">') == {45}
    for value, card in [("m45", 45), ("m45@2", 45), ("a12", 12), ("c9", 9), ("t3", 3), ("s73:0", 73)]:
        assert html_card_ids(f'<button name="options" value="{value}">') == {card}, value
    # Base slots, players, decisions and form values name no card.
    no_cards = '<button value="b3"> <i value="p1"> <i value="d7"> <i value="12"> <i value="choice">'
    assert html_card_ids(no_cards) == set()
    options = [{"id": "s73:0"}, {"id": "m45@2"}, {"id": "b2"}]
    view = {"pending": {"id": "d4", "source": 31, "options": options}}
    assert card_ids_in(view) == {31, 73, 45}
    assert card_ids_in({"hand": [{"id": 5}], "options": [{"id": "x", "card": 6}]}) == {5, 6}


# ---------------------------------------------------------------------------------- POST fallback -
def test_a_choice_can_be_posted_without_the_socket(client):
    game = two_person_game()
    seat = game.pending_seat
    seated_client(game, seat, client)
    html = client.get(f"/play/g/{game.public_id}/").content.decode()
    option = option_values(html)[0]
    url = f"/play/g/{game.public_id}/choice/"
    form = {"type": "choice", "seq": "0", "decision": game.pending_decision, "options": option}
    # htmx: the fragments come back out of band.
    response = client.post(url, form, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert error_code(body) == "ok" and status_attrs(body)["version"] == "1" and 'hx-swap-oob="true"' in body
    # The same again is stale: 409 and a clear error, nothing changed.
    response = client.post(url, form, HTTP_HX_REQUEST="true")
    assert response.status_code == 409 and error_code(response.content.decode()) == "stale"
    game.refresh_from_db()
    assert game.version == 1
    # A spectator may not choose.
    response = Client().post(url, {**form, "seq": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 403 and error_code(response.content.decode()) == "spectator"


def test_a_plain_form_post_redirects_back_with_a_message(client):
    game = two_person_game()
    seat = game.pending_seat
    seated_client(game, seat, client)
    html = client.get(f"/play/g/{game.public_id}/").content.decode()
    url = f"/play/g/{game.public_id}/choice/"
    response = client.post(
        url, {"seq": "0", "decision": game.pending_decision, "options": "nope"}, follow=True
    )
    assert "That choice is not allowed" in response.content.decode()
    response = client.post(
        url, {"seq": "0", "decision": game.pending_decision, "options": option_values(html)[0]}
    )
    assert response.status_code == 302 and response["Location"] == f"/play/g/{game.public_id}/"
    game.refresh_from_db()
    assert game.version == 1


# ---------------------------------------------------------------------------------- replay -------
def test_the_replay_opens_when_the_game_is_over(client):
    """`?as=N` shows any seat's hand: only once hidden information is over. A game in the lobby or in
    play is refused, whatever the query asks, and the answer names no card."""
    game = two_person_game()
    lobby = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=3)
    for row in (game, lobby):
        url = f"/play/g/{row.public_id}/replay/"
        for query in ({}, {"as": 1}, {"as": 0, "step": 0}, {"as": 1, "step": 10**6}):
            response = client.get(url, query)
            html = response.content.decode()
            assert response.status_code == 409 and "when the game is over" in html, (row, query)
            assert 'id="hand"' not in html and not html_card_ids(html)


@pytest.mark.django_db(transaction=True)
def test_the_replay_steps_through_a_finished_game(client):
    with eager_bots():
        game = services.create_game([services.SeatSpec("bot"), services.SeatSpec("bot")], seed=13)
    game.refresh_from_db()
    assert game.is_finished
    url = f"/play/g/{game.public_id}/replay/"
    first = client.get(url, {"step": 0}).content.decode()
    assert f"Choice <strong>0</strong> of {game.version}" in first and 'id="hand"' not in first
    third = client.get(url, {"step": 3}).content.decode()
    assert "Choice 3:" in third and 'rel="next" href' not in third and "?step=4" in third
    opened = client.get(url).content.decode()  # a replay opens at the start, and plays (replay.js)
    assert "Choice <strong>0</strong>" in opened and 'data-autoplay="1"' in opened
    last = client.get(url, {"step": game.version}).content.decode()
    assert f"Choice <strong>{game.version}</strong>" in last and "wins" in last and 'data-autoplay=""' in last
    # One step without the page around it (replay.js swaps it in); the whole log, turn by turn.
    part = client.get(url, {"step": 3, "part": "body"}).content.decode()
    assert part.startswith('<div id="replay-body"') and "<html" not in part
    assert 'class="log-lines whole"' in opened and 'data-turn="2"' in opened
    assert client.get(url, {"step": 10**6}).status_code == 200  # clamped
    assert client.get(url, {"step": "x"}).status_code == 400  # a number, or nothing (the end)
    as_seat = client.get(url, {"step": 5, "as": 1}).content.decode()
    assert 'id="hand"' in as_seat and "Bot 2's hand" in as_seat
    # The game page of a finished game links to the replay, gives the final scores and shows
    # nobody as having the turn.
    page = client.get(f"/play/g/{game.public_id}/").content.decode()
    assert url in page
    with services.engine_game(game) as engine:
        vps = sorted((p.vp for p in engine.players), reverse=True)
    scores = page.split('class="final-places"')[1].split("</ol>")[0]
    assert [int(v) for v in re.findall(r"<strong>(\d+)</strong> VP", scores)] == vps
    assert 'class="tag turn"' not in page


def test_final_places_share_a_tied_place():
    players = [{"seat": 0, "name": "A", "vp": 9}, {"seat": 1, "name": "B", "vp": 15},
               {"seat": 2, "name": "C", "vp": 9}, {"seat": 3, "name": "D", "vp": 4}]
    places = render.final_places(players, seat=2)
    assert [(p["place"], p["name"], p["is_me"]) for p in places] == [
        (1, "B", False), (2, "A", False), (2, "C", True), (4, "D", False)
    ]


# ---------------------------------------------------------------------------------- home ---------
def test_the_home_page_has_a_join_by_code_form_and_a_way_to_play(client):
    html = client.get("/").content.decode()
    assert 'action="/play/join/"' in html and 'name="code"' in html and 'href="/play/"' in html


def test_play_assets_are_served(client):
    for path in ("/static/css/play.css", "/static/js/play.js"):
        response = client.get(path)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert response.status_code == 200 and len(body) > 500, path
