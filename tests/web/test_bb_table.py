"""The shared table of Big Base (issue 11): the lobby's Big Base tables, the table display, the
phones' compact board, the hot seat, spectators and replays. Nothing hidden on the shared screens."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from bigbase.models import Board
from bigbase.rules import default_board
from smashup.engine.invariants import hidden_from
from smashup.play import services
from smashup.play.models import Game

from .play_helpers import eager_bots, html_card_ids, option_values, seated_client

pytestmark = pytest.mark.django_db

PAIRS = [["Aliens", "Ninjas"], ["Pirates", "Robots"], ["Zombies", "Wizards"], ["Dinosaurs", "Tricksters"]]


def lobby_form(**overrides) -> dict:
    data = {"mode": "bigbase", "board": "default", "base_sets": "factions", "specials": "fast",
            "sit": "on", "your_name": "Ada", "factions_mode": "seat"}
    for i in range(4):
        data[f"seat{i}_kind"] = "person" if i < 2 else "bot"
        data[f"seat{i}_faction0"], data[f"seat{i}_faction1"] = PAIRS[i]
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def big_table(kinds=("person", "person", "person", "person"), seed="ab" * 32, board=None) -> Game:
    specs = [services.SeatSpec(kind, list(PAIRS[i])) for i, kind in enumerate(kinds)]
    return services.create_game(specs, seed=seed, mode="bigbase", board=board or default_board())


def seat_everyone(game: Game) -> Game:
    for seat in game.seats.filter(kind="person"):
        services.claim_seat(game.pk, seat.index, guest_name=f"P{seat.index + 1}")
    game.refresh_from_db()
    return game


def all_hand_ids(game: Game) -> set[int]:
    with services.engine_game(game) as engine:
        return {c for p in engine.players for c in p.hand}


# ---------------------------------------------------------------------------------- lobby --------
def test_the_lobby_offers_big_base_and_the_boards_of_the_database(client):
    Board.objects.create(slug="club", name="Club board", data=Board.objects.get(slug="plain").data)
    html = client.get("/play/").content.decode()
    assert 'value="bigbase"' in html and "Club board" in html and "Default board" in html


def test_a_big_base_table_from_the_lobby_plays_on_the_chosen_board(client):
    row = Board.objects.get(slug="plain")
    row.data["side_bonus_vp"] = 3
    row.save()
    response = client.post("/play/", lobby_form(board="plain"))
    game = Game.objects.get()
    assert response.status_code == 302 and game.mode == "bigbase"
    assert game.config["mode"] == "bigbase" and game.config["board"]["id"] == "plain"
    assert game.config["board"]["side_bonus_vp"] == 3
    # An organizer's later edit does not change the game (its board is in its config).
    row.data["side_bonus_vp"] = 1
    row.save()
    game.refresh_from_db()
    assert game.config["board"]["side_bonus_vp"] == 3


@pytest.mark.parametrize("overrides, words", [
    ({"board": "nowhere"}, "Choose one of the boards offered"),
    ({"seat1_faction0": "Aliens"}, "each faction is in a game once"),
    ({"seat1_kind": "none", "seat2_kind": "none", "seat3_kind": "none"}, "2 to 4 seats"),
])
def test_a_bad_big_base_table_is_refused_and_nothing_is_created(client, overrides, words):
    html = client.post("/play/", lobby_form(**overrides)).content.decode()
    assert words in html and not Game.objects.exists()


def test_a_standard_table_has_no_board():
    with pytest.raises(services.PlayError):
        services.create_game([services.SeatSpec("person"), services.SeatSpec("bot")],
                             board=Board.objects.get(slug="plain").board_data())


# ---------------------------------------------------------------------------------- display ------
def test_the_display_of_a_waiting_table_shows_a_qr_code_per_free_seat_to_its_creator(client):
    client.post("/play/", lobby_form(seat2_kind="person", seat3_kind="person"))
    game = Game.objects.get()
    html = client.get(f"/play/g/{game.public_id}/display/").content.decode()
    # Seat 1 is the creator's own; seats 2 to 4 are free: one QR code each, plus the join code.
    assert html.count('<svg class="qr"') == 4
    assert "Seat 2: scan to sit here" in html and "Seat 4: scan to sit here" in html
    assert "Seat 1: scan" not in html
    other = Client().get(f"/play/g/{game.public_id}/display/").content.decode()
    assert other.count('<svg class="qr"') == 1 and "/play/s/" not in other
    # The waiting screen's poll: nothing changed answers 204; a start refreshes the page.
    key = re.search(r"since=(\w+)", html).group(1)
    poll = f"/play/g/{game.public_id}/display/?part=lobby&since={key}"
    assert client.get(poll).status_code == 204
    services.start_game(game.pk, fill_with_bots=True)
    started = client.get(poll)
    assert started.status_code == 204 and started["HX-Refresh"] == "true"


def test_the_display_shows_the_board_and_no_hidden_card():
    game = seat_everyone(big_table())
    html = Client().get(f"/play/g/{game.public_id}/display/").content.decode()
    for words in ("North", "East", "South", "West", "Base card", "Round", "Period", "1st player",
                  "On occupation: draw 1 card", "VP this period"):
        assert words in html, words
    assert 'ws-connect="/ws/games/' in html and "watch=display" in html
    assert html_card_ids(html).isdisjoint(all_hand_ids(game))
    assert 'id="hand"' not in html and 'id="decision"' not in html


def test_the_display_shows_the_turn_timer_and_the_table_links_to_it():
    specs = [services.SeatSpec("person", list(PAIRS[i])) for i in range(2)]
    game = services.create_game(specs, seed="ab" * 32, mode="bigbase", turn_seconds=60)
    table = Client().get(f"/play/t/{game.public_id}/").content.decode()
    assert f'href="/play/g/{game.public_id}/display/"' in table and "Big Base · Default board" in table
    game = seat_everyone(game)
    html = Client().get(f"/play/g/{game.public_id}/display/").content.decode()
    assert 'role="timer"' in html and ("P1's time" in html or "P2's time" in html)
    assert f'data-deadline="{game.deadline.isoformat()[:19]}' in html


def test_the_display_of_a_creator_holding_a_seat_still_shows_no_hand(client):
    client.post("/play/", lobby_form(seat1_kind="bot"))
    game = Game.objects.get()
    assert game.is_active
    html = client.get(f"/play/g/{game.public_id}/display/").content.decode()
    assert html_card_ids(html).isdisjoint(all_hand_ids(game))
    # The game page of the same browser does show its hand (so the check above can fail).
    page = client.get(f"/play/g/{game.public_id}/").content.decode()
    assert not html_card_ids(page).isdisjoint(all_hand_ids(game))


def test_a_standard_game_has_a_display_too():
    game = services.create_game([services.SeatSpec("bot", ["Aliens", "Ninjas"]),
                                 services.SeatSpec("person", ["Pirates", "Robots"])], seed="cd" * 32)
    services.claim_seat(game.pk, 1, guest_name="Bob")
    game.refresh_from_db()
    html = Client().get(f"/play/g/{game.public_id}/display/").content.decode()
    assert 'class="base-list"' in html and "bb-board" not in html
    assert html_card_ids(html).isdisjoint(all_hand_ids(game))


# ---------------------------------------------------------------------------------- phones -------
def test_a_phone_shows_its_hand_its_decision_and_the_compact_board():
    game = seat_everyone(big_table())
    with services.engine_game(game) as engine:
        seat = engine.pending.seat
        mine = set(engine.players[seat].hand)
        others = {c for p in engine.players if p.seat != seat for c in p.hand}
    phone = seated_client(game, seat)
    html = phone.get(f"/play/g/{game.public_id}/").content.decode()
    assert "bb-board bb-compact" in html and 'id="decision"' in html
    shown = html_card_ids(html)
    assert mine <= shown and shown.isdisjoint(others)
    # Each side is a tap target for a card's play (data-base on the side).
    assert len(re.findall(r'class="base bb-side', html)) == 4


def test_which_slot_is_a_tap_on_the_slot():
    game = seat_everyone(big_table())
    # Play minions until a seat is asked which slot its card goes to.
    for _ in range(200):
        with services.engine_game(game) as engine:
            pending = engine.pending
            if pending.kind == "slot":
                break
            minion = next((o.id for o in pending.options if o.id.startswith("m")), None)
            chosen = [minion] if pending.kind == "play" and minion else \
                [pending.options[0].id] if not pending.may_decline else []
            seq, decision, seat = game.version, pending.id, pending.seat
        services.submit_choice(game.pk, seat, seq, decision, chosen)
        game.refresh_from_db()
    assert pending.kind == "slot"
    html = seated_client(game, pending.seat).get(f"/play/g/{game.public_id}/").content.decode()
    tappable = re.findall(r'data-option="(o\d)"', html)
    assert tappable and set(tappable) == {o.id for o in pending.options}
    assert set(tappable) <= set(option_values(html))


# ---------------------------------------------------------------------------------- hot seat -----
def test_a_hot_seat_table_holds_every_person_seat_on_one_device(client):
    form = lobby_form(hotseat="on", sit=None, seat0_name="Ada", seat1_name="Bob",
                      seat2_kind="person", seat2_name="", seat3_kind="bot")
    response = client.post("/play/", form)
    game = Game.objects.get()
    assert response["Location"] == f"/play/g/{game.public_id}/hotseat/"
    assert game.is_active
    assert [p["name"] for p in game.config["players"]] == ["Ada", "Bob", "Player 3", "Bot 4"]
    assert services.held_seats(game, session_seats=client.session["play_seats"]) == [0, 1, 2]


@pytest.mark.parametrize("factions_mode", ["pick", "draft"])
def test_a_hot_seat_table_sets_its_factions_in_the_lobby(client, factions_mode):
    form = lobby_form(hotseat="on", sit=None, factions_mode=factions_mode)
    html = client.post("/play/", form).content.decode()
    assert "set the factions per seat or at random" in html and not Game.objects.exists()


def test_the_privacy_screen_holds_nothing_private_until_the_seat_taps(client):
    client.post("/play/", lobby_form(hotseat="on", sit=None, seat2_kind="person", seat3_kind="person"))
    game = Game.objects.get()
    with services.engine_game(game) as engine:
        seat = engine.pending.seat
        name = engine.players[seat].name
        hands = {p.seat: set(p.hand) for p in engine.players}
    screen = client.get(f"/play/g/{game.public_id}/hotseat/").content.decode()
    assert f"Pass the device to <strong class=\"hot-name\">{name}</strong>" in screen
    assert html_card_ids(screen).isdisjoint(set().union(*hands.values()))
    assert 'id="hand"' not in screen and "choice-form" not in screen
    # The tap opens that seat's page: its own hand, nobody else's, and the way back.
    tapped = client.get(f"/play/g/{game.public_id}/?seat={seat}&hot=1").content.decode()
    shown = html_card_ids(tapped)
    assert hands[seat] <= shown
    assert shown.isdisjoint(set().union(*(h for s, h in hands.items() if s != seat)))
    assert f'data-hot-return="/play/g/{game.public_id}/hotseat/"' in tapped and "Hide my hand" in tapped
    assert "Play as:" not in tapped  # no link from one seat's hand to another's


# ---------------------------------------------------------------------------------- spectators ---
@pytest.mark.django_db(transaction=True)
def test_a_spectator_and_the_replay_of_a_big_base_game():
    with eager_bots():
        game = services.create_game([services.SeatSpec("bot", list(PAIRS[i])) for i in range(2)],
                                    seed="ef" * 32, mode="bigbase")
    game.refresh_from_db()
    assert game.is_finished and game.mode == "bigbase"
    watcher = Client()
    page = watcher.get(f"/play/g/{game.public_id}/").content.decode()
    assert "bb-board" in page and "Game over" in page
    replay = watcher.get(f"/play/g/{game.public_id}/replay/?step=40").content.decode()
    assert "bb-board" in replay and "North" in replay
    with services.engine_game(game) as engine:
        hidden = hidden_from(engine, None)
    assert hidden and html_card_ids(page).isdisjoint(hidden)
