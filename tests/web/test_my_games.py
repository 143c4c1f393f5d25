"""My games (issue 26, finding 4): the games of an account or of a guest's browser session, on the
home page and the lobby, one tap each; never another guest's, never a secret seed."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from smashup.play import mygames, services
from smashup.play.models import Game

from .play_helpers import person_vs_bot, seated_client, two_person_game

LISTED = re.compile(r'<li class="my-game[^"]*" data-game="([^"]+)">')


def listed(client: Client, path: str = "/") -> list[str]:
    return LISTED.findall(client.get(path).content.decode())


def quick_game(client: Client) -> Game:
    """What the home page's "Play against bots" button does."""
    fields = {"bots": "2", "seat0_kind": "person", "seat1_kind": "bot", "seat2_kind": "bot",
              "seat3_kind": "none", "base_sets": "factions", "specials": "fast", "your_name": ""}  # fmt: skip
    response = client.post("/play/", fields)
    assert response.status_code == 302
    return services.get_game(response["Location"].split("/")[3])


@pytest.mark.django_db
def test_a_guest_finds_their_game_on_the_home_page_and_the_lobby_and_nobody_else_does():
    ada, eve = Client(), Client()
    assert listed(ada) == [] and 'id="my-games"' not in ada.get("/").content.decode()
    game = quick_game(ada)
    assert listed(ada) == [game.public_id] and listed(ada, "/play/") == [game.public_id]
    html = ada.get("/").content.decode()
    assert f'href="/play/g/{game.public_id}/"' in html  # one tap back into the game
    assert game.secret_seed not in html and "data-card" not in html  # no card, no seed: names and links
    assert listed(eve) == [] and listed(eve, "/play/") == []  # another guest's browser: nothing
    eves = quick_game(eve)
    assert listed(ada) == [game.public_id] and listed(eve) == [eves.public_id]


@pytest.mark.django_db
def test_a_seat_given_to_someone_else_is_no_longer_listed():
    """A session holds a seat by its token: once the seat has a new one (taken again through a
    seat link by its new holder), the old session does not list that game."""
    game = two_person_game(seed=3)
    bob = seated_client(game, 1)
    assert listed(bob) == [game.public_id]
    seat = game.seats.get(index=1)
    seat.token = "another holder"
    seat.save(update_fields=["token"])
    assert listed(bob) == []


@pytest.mark.django_db
def test_an_account_lists_its_seats_and_tables_in_progress_and_finished():
    user = get_user_model().objects.create_user("ada", password="pw-ada-123")
    client = Client()
    client.force_login(user)
    playing = services.create_game(
        [services.SeatSpec("person", ["Aliens", "Ninjas"]), services.SeatSpec("bot", ["Pirates", "Robots"])],
        seed="4a" * 32,
    )
    services.claim_seat(playing.pk, 0, user=user)
    finished = services.create_game(
        [
            services.SeatSpec("person", ["Zombies", "Wizards"]),
            services.SeatSpec("bot", ["Sharks", "Dragons"]),
        ],
        seed="5b" * 32,
    )
    services.claim_seat(finished.pk, 0, user=user)
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED, winner=0)
    someone_elses = person_vs_bot(seed=6)
    html = client.get("/").content.decode()
    assert LISTED.findall(html) == [playing.public_id, finished.public_id]
    assert someone_elses.public_id not in html
    assert f'href="/play/g/{finished.public_id}/replay/"' in html and "You won" in html
    for row in (playing, finished):
        row.refresh_from_db()
        assert len(row.secret_seed) == 64 and row.secret_seed not in html
    # The same account on another device (a new browser) finds the same games.
    other = Client()
    other.force_login(user)
    assert listed(other, "/play/") == [playing.public_id, finished.public_id]


@pytest.mark.django_db
def test_a_table_set_up_by_this_browser_is_listed_with_its_display():
    client = Client()
    fields = {"mode": "standard", "factions_mode": "random", "base_sets": "factions", "specials": "fast",
              "seat0_kind": "person", "seat1_kind": "person", "seat2_kind": "none",
              "seat3_kind": "none"}  # fmt: skip
    response = client.post("/play/", fields)  # nobody sits: a table for others (a display device)
    assert response.status_code == 302
    game = services.get_game(response["Location"].split("/")[3])
    html = client.get("/").content.decode()
    assert LISTED.findall(html) == [game.public_id]
    assert f'href="/play/t/{game.public_id}/"' in html and "you set it up" in html


@pytest.mark.django_db
def test_my_turn_is_marked():
    game = two_person_game(seed=7)  # Ada decides first
    ada = seated_client(game, 0)
    bob = seated_client(game, 1)
    assert "Your turn" in ada.get("/").content.decode()
    assert "Your turn" not in bob.get("/").content.decode()


@pytest.mark.django_db
def test_stale_or_malformed_session_entries_list_nothing():
    found = mygames.my_games(session_seats={"nope": {"0": "x"}, "also": "not a mapping"}, session_created=[3])
    assert found == {"playing": [], "finished": []}
    assert mygames.my_games() == {"playing": [], "finished": []}


def test_the_session_outlives_the_browser():
    """A guest's games are in their session: its cookie must survive closing the browser."""
    assert settings.SESSION_EXPIRE_AT_BROWSER_CLOSE is False
    assert settings.SESSION_COOKIE_AGE >= 30 * 24 * 3600


@pytest.mark.django_db
def test_taking_a_seat_sets_a_lasting_session_cookie():
    client = Client()
    quick_game(client)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    assert int(cookie["max-age"]) == settings.SESSION_COOKIE_AGE and cookie["expires"]
