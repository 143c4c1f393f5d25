"""Live games in the admin (issue 28): staff see the tables waiting or in play (seats, bots, when
made, the last move, who made them and from where) and can end them; the admin never shows a game's
secret seed, its seat tokens or anyone's hidden cards. Ending keeps the record whole and tells the
pages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from smashup.play import services, stopping, tasks
from smashup.play.models import Game
from smashup.play.signals import game_finished

from .play_helpers import person_vs_bot, two_person_game
from .test_play_rng import assert_no_secret

CHANGELIST = "/admin/play/game/"


@pytest.fixture
def admin_client(db):
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-1")
    client = Client()
    client.force_login(user)
    client.user = user
    return client


def hidden_card_names(game: Game) -> set[str]:
    """Names of the cards only their holder may see (hands, decks), that no public view shows."""
    with services.engine_game(game) as engine:
        hidden = set()
        for player in engine.players:
            hidden.update(engine.name(cid) for cid in (*player.hand, *player.deck))
        public = repr(engine.view(None))
    return {name for name in hidden if name not in public}


def assert_nothing_secret(text: str, *games: Game) -> None:
    for game in games:
        game.refresh_from_db()
        assert game.secret_seed, "a test game with an int seed proves nothing here"
        assert_no_secret(text, game.secret_seed, "the admin")
        for seat in game.seats.all():
            assert seat.token not in text
        if game.is_active:
            leaked = {name for name in hidden_card_names(game) if name in text}
            assert not leaked, leaked


def end_action(client, *games: Game):
    """The action on the games chosen from the list of all games (live and finished)."""
    return client.post(
        f"{CHANGELIST}?state=all",
        {"action": "end_selected", "_selected_action": [g.pk for g in games]},
        follow=True,
    )


# ---------------------------------------------------------------------------------- the list -----
@pytest.mark.django_db
def test_the_admin_lists_live_games_without_anything_secret(admin_client):
    people = person_vs_bot(seed=None)  # a secret seed drawn as for every table, not an int
    waiting = services.create_game([services.SeatSpec("person"), services.SeatSpec("bot")])
    Game.objects.filter(pk=waiting.pk).update(created_address="203.0.113.7")
    over = two_person_game(seed=None)
    Game.objects.filter(pk=over.pk).update(status=Game.Status.FINISHED)
    page = admin_client.get(CHANGELIST)
    assert page.status_code == 200
    text = page.content.decode()
    assert people.code in text and waiting.code in text
    assert over.code not in text, "finished games are not listed unless asked for"
    assert "Ada, Bot 2" in text and "1 of 2" in text and "203.0.113.7" in text
    assert_nothing_secret(text, people, waiting, over)
    everything = admin_client.get(CHANGELIST, {"state": "all"}).content.decode()
    assert over.code in everything
    finished = admin_client.get(CHANGELIST, {"state": "finished"}).content.decode()
    assert over.code in finished and people.code not in finished


@pytest.mark.django_db
def test_a_games_page_in_the_admin_is_read_only_and_shows_nothing_secret(admin_client):
    game = person_vs_bot(seed=None)
    url = f"{CHANGELIST}{game.pk}/change/"
    page = admin_client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert game.code in text and "Ada" in text
    assert 'name="_save"' not in text
    assert_nothing_secret(text, game)
    before = (game.version, game.status, game.code)
    admin_client.post(url, {"code": "ZZZZZZ", "status": "finished"})
    game.refresh_from_db()
    assert (game.version, game.status, game.code) == before
    assert admin_client.get(f"{CHANGELIST}add/").status_code == 403
    assert admin_client.post(f"{CHANGELIST}{game.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()


# ---------------------------------------------------------------------------------- ending -------
@pytest.mark.django_db(transaction=True)
def test_ending_games_keeps_their_record_and_tells_their_pages(admin_client, monkeypatch):
    game = person_vs_bot(seed=3, turn_seconds=60)
    lobby = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=4)
    done = two_person_game(seed=6)
    Game.objects.filter(pk=done.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    record = list(game.choices.values_list("seq", "seat", "decision", "options", "state_hash"))
    version, state_hash = game.version, game.state_hash
    pings, results = [], []
    monkeypatch.setattr(stopping, "notify", lambda pk, v, status, undos=0: pings.append((pk, v, status)))

    def receiver(sender, **kwargs):
        results.append((kwargs["game_id"], kwargs["vp"], kwargs["winner"]))

    game_finished.connect(receiver)
    try:
        page = end_action(admin_client, game, lobby, done)
    finally:
        game_finished.disconnect(receiver)
    text = page.content.decode()
    assert "Ended 2 games." in text and "1 game was over already." in text
    game.refresh_from_db()
    lobby.refresh_from_db()
    assert game.is_finished and game.winner is None and game.stopped_by == admin_client.user
    assert game.stopped_at is not None and game.finished_at == game.stopped_at
    assert game.deadline is None and game.deadline_seq is None and game.undo_seat is None
    assert (game.version, game.state_hash) == (version, state_hash)
    assert list(game.choices.values_list("seq", "seat", "decision", "options", "state_hash")) == record
    assert lobby.is_finished and lobby.started_at is None
    assert sorted(pings) == sorted([(game.pk, version, "finished"), (lobby.pk, 0, "finished")])
    assert results == [(game.pk, [0, 0], None)]  # a started game tells the other apps its VP
    # The record still replays to where it stopped, and nothing acts on the game any more.
    with services.engine_game(game) as engine:
        assert engine.digest() == state_hash
    assert tasks.play_bot(game.pk, version) == 0
    assert tasks.turn_timeout(game.pk, version, "2000-01-01T00:00:00+00:00") is None
    game.refresh_from_db()
    assert (game.version, game.status) == (version, "finished")
    assert Client().get(f"/play/g/{game.public_id}/replay/").status_code == 200
    shown = Client().get(f"/play/g/{game.public_id}/").content.decode()
    assert "The site's staff ended this game before its end." in shown
    # Ending it again changes nothing.
    assert stopping.end_game(game.pk) is False


@pytest.mark.django_db
def test_only_staff_allowed_to_change_games_may_end_them(admin_client):
    game = person_vs_bot(seed=3)
    viewer = get_user_model().objects.create_user("viewer", password="pw-viewer-1", is_staff=True)
    client = Client()
    client.force_login(viewer)
    assert client.get(CHANGELIST).status_code == 403  # staff without any permission on games
    viewer.user_permissions.add(Permission.objects.get(codename="view_game"))
    page = client.get(CHANGELIST)
    assert page.status_code == 200 and game.code in page.content.decode()
    assert "end_selected" not in page.content.decode()
    end_action(client, game)
    game.refresh_from_db()
    assert game.is_active
    viewer.user_permissions.add(Permission.objects.get(codename="change_game"))
    end_action(client, game)
    game.refresh_from_db()
    assert game.is_finished and game.stopped_by == viewer
