"""A connection renders a ping after a choice from the engine game its process holds, without reading
the game row (the ping carries the row's changing fields), and falls back to the database when it
cannot. The socket tests (test_play_consumer.py) cover both paths end to end; these pin the rule."""

from __future__ import annotations

import json

import pytest

from smashup.play import services
from smashup.play.consumers import GameConsumer
from smashup.play.models import Game

from .play_helpers import two_person_game


def connection(game: Game, seat: int | None, *, json_mode: bool) -> GameConsumer:
    """A consumer as after its first render (the row it read then is kept)."""
    consumer = GameConsumer()
    consumer.game_pk = game.pk
    consumer.seat = seat
    consumer.json_mode = json_mode
    consumer.shown_version = consumer.shown_undos = -1
    consumer.shown_status = consumer.shown_log = None
    consumer.row = None
    assert consumer._render(True) is not None
    return consumer


def choose_first(game: Game) -> dict:
    """Play the open decision's first option (its after-commit work done: the engine game is cached
    at the new version); the ping's row fields afterwards."""
    from django.test import TestCase

    with services.engine_game(game) as engine:
        d = engine.pending
        seat, decision, options = d.seat, d.id, [o.id for o in d.options[: max(d.min_count, 1)]]
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.submit_choice(game.pk, seat, game.version, decision, options)
    game.refresh_from_db()
    return services.live_fields(game)


@pytest.mark.django_db
@pytest.mark.parametrize("json_mode", [True, False])
def test_a_ping_renders_from_the_cached_game_without_a_query(django_assert_num_queries, json_mode):
    game = two_person_game()
    conns = [connection(game, seat, json_mode=json_mode) for seat in (0, 1, None)]
    fields = choose_first(game)
    for conn in conns:
        with django_assert_num_queries(0):
            text = conn._render_from_ping(fields)
        assert text is not None
        assert conn.shown_version == game.version == 1
        # The same text as a render that reads the row.
        again = connection(game, conn.seat, json_mode=json_mode)
        if json_mode:
            assert json.loads(text) == json.loads(again._render(True))
    if json_mode:
        state = json.loads(conns[0]._render(True))
        assert state["version"] == 1 and state["view"]["pending"] is not None


@pytest.mark.django_db
def test_a_ping_falls_back_to_the_database_when_it_cannot_render_alone():
    game = two_person_game()
    conn = connection(game, 0, json_mode=True)
    fields = choose_first(game)
    assert conn._render_from_ping(None) is None  # a ping without row fields (a claim, an undo)
    services.cache.clear()  # another process applied the choice: this one has no game at version 1
    assert conn._render_from_ping(fields) is None
    assert conn.shown_version == 0  # nothing was shown
    assert json.loads(conn._render(False))["version"] == 1  # the database path shows it
    # A page whose log has lines of the server's own (turn timers, undos) reads the choice rows.
    timed = two_person_game(seed=8, turn_seconds=60)
    page = connection(timed, 0, json_mode=False)
    fields = choose_first(timed)
    assert page._render_from_ping(fields) is None


def test_deferred_notifications_are_collected_not_sent(monkeypatch):
    import channels.layers

    def no_layer():
        raise AssertionError("nothing may be sent while notifications are deferred")

    monkeypatch.setattr(channels.layers, "get_channel_layer", no_layer)
    with services.deferred_notifications() as outer:
        services.notify(5, 3, "active", live={"version": 3})
        with services.deferred_notifications() as inner:
            services.notify(6, 1, "active", undos=2)
        services.notify(7, 2, "finished")
    ping = {"type": "game.changed", "version": 1, "status": "active", "undos": 2}
    # The players' group first, then the watchers' (the spectators are served after the players).
    assert inner == [("play.game.6", ping), ("play.game.6.watch", ping)]
    assert [group for group, _ in outer] == [
        "play.game.5", "play.game.5.watch", "play.game.7", "play.game.7.watch",
    ]  # fmt: skip
    assert outer[0][1]["row"] == {"version": 3}


@pytest.mark.django_db
def test_the_public_part_of_a_json_view_is_built_once_per_version_and_shared(monkeypatch):
    from smashup.play import render

    game = two_person_game(seed=5)
    fields = choose_first(game)
    key = (game.pk, fields["undos"], fields["version"])
    with services.engine_game(game) as engine:
        expected = {seat: json.dumps(engine.view(seat)) for seat in (0, 1, None)}
        built = []
        real = engine.public_view
        monkeypatch.setattr(engine, "public_view", lambda: built.append(1) or real())
        for seat in (0, 1, None):
            assert render.view_json(key, engine, seat) == expected[seat]  # the very same text
        assert len(built) == 1
    # Another version is another entry: nothing stale is ever shown.
    other = (game.pk, fields["undos"], fields["version"] + 1)
    assert render.public_views.get(other) is None
