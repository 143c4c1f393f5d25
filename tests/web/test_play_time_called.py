"""Time called on a live game (services.call_time) on the real PostgreSQL: a Choice row with no seat in
the record, the game page says so, undo never crosses it, the replay page steps over it, a game that
finishes tells other apps once (signals.game_finished)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from smashup.engine import replay
from smashup.engine.bots import heuristic_choice
from smashup.engine.game import CALL_TIME
from smashup.play import services
from smashup.play.models import Choice, Game
from smashup.play.signals import game_finished

from .play_helpers import snapshot, two_person_game

ADA, BOB = 0, 1


def record_of(game: Game) -> dict:
    rows = list(game.choices.in_record().order_by("seq"))
    return {
        **game.record_head(),
        "choices": [c.as_record() for c in rows],
        "hashes": [c.state_hash for c in rows],
    }


def play(game: Game, seat: int, option: str) -> Game:
    game.refresh_from_db()
    services.submit_choice(game.pk, seat, game.version, game.pending_decision, [option])
    game.refresh_from_db()
    return game


def play_heuristically(game: Game, moves: int, rng: random.Random) -> Game:
    """Both seats (people) answer with the heuristic bot's choice, `moves` times or to the end."""
    for _ in range(moves):
        game.refresh_from_db()
        if not game.is_active:
            break
        with services.engine_game(game) as engine:
            ids = heuristic_choice(engine, rng)
        services.submit_choice(game.pk, game.pending_seat, game.version, game.pending_decision, ids)
    game.refresh_from_db()
    return game


@pytest.fixture
def finished_calls():
    calls = []

    def receiver(sender, **kwargs):
        calls.append(kwargs)

    game_finished.connect(receiver, weak=False)
    yield calls
    game_finished.disconnect(receiver)


# ---------------------------------------------------------------------------------- the record ---
@pytest.mark.django_db
def test_time_called_is_a_row_of_the_record_and_keeps_the_open_decision():
    game = two_person_game(seed=7)
    decision, seat, version = game.pending_decision, game.pending_seat, game.version
    outcome = services.call_time(game.pk)
    assert outcome is not None and outcome.version == version + 1
    game.refresh_from_db()
    row = Choice.objects.get(game=game, seq=version)
    assert (row.seat, row.decision, row.options) == (None, CALL_TIME, [])
    assert row.is_time_call and not row.undoable and not row.by_bot
    assert (game.pending_decision, game.pending_seat, game.status) == (decision, seat, Game.Status.ACTIVE)
    assert services.time_called(game)
    # The stored record replays (hash by hash), cold from the database too.
    engine = replay(record_of(game))
    assert engine.time_called and engine.digest() == game.state_hash
    services.cache.clear()
    with services.engine_game(game) as rebuilt:
        assert rebuilt.time_called and rebuilt.digest() == game.state_hash


@pytest.mark.django_db
def test_calling_time_twice_or_on_a_game_not_in_play_does_nothing():
    game = two_person_game(seed=7)
    services.call_time(game.pk)
    before = snapshot(game)
    assert services.call_time(game.pk) is None
    assert snapshot(game) == before
    lobby = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=3)
    assert services.call_time(lobby.pk) is None
    lobby.refresh_from_db()
    assert lobby.is_lobby and lobby.choices.count() == 0
    with pytest.raises(services.GameNotFound):
        services.call_time(10**9)


@pytest.mark.django_db
def test_players_play_on_after_time_is_called_and_the_game_ends_on_the_vp():
    game = two_person_game(seed=7)
    game = play_heuristically(game, 15, random.Random(3))
    services.call_time(game.pk)
    game = play_heuristically(game, 3000, random.Random(4))
    assert game.is_finished
    with services.engine_game(game) as engine:
        top = max(p.vp for p in engine.players)
        leaders = [p.seat for p in engine.players if p.vp == top]
        assert engine.end_reason == "time"
        assert engine.turn <= engine.final_turn + len(engine.players)
        assert (leaders == [game.winner]) if game.winner is not None else engine.shared_winners == leaders


@pytest.mark.django_db
def test_a_players_move_sent_before_time_was_called_is_stale_after_it():
    game = two_person_game(seed=7)
    seen_version = game.version
    services.call_time(game.pk)
    before = snapshot(game)
    with pytest.raises(services.StaleChoice):
        services.submit_choice(game.pk, ADA, seen_version, game.pending_decision, ["m5@1"])
    assert snapshot(game) == before
    # A seat cannot forge a time call through the choice path either.
    game.refresh_from_db()
    with pytest.raises(services.PlayError):
        services.submit_choice(game.pk, ADA, game.version, CALL_TIME, [])
    assert snapshot(game) == before


# ---------------------------------------------------------------------------------- undo ---------
@pytest.mark.django_db
def test_undo_never_takes_back_across_a_time_call():
    game = two_person_game(seed=7)
    game = play(game, ADA, "m5@1")  # Scout: a choice Ada could take back
    assert services.may_undo(game, ADA)
    services.call_time(game.pk)
    game.refresh_from_db()
    assert game.undo_seat is None and not services.may_undo(game, ADA)
    before = snapshot(game)
    with pytest.raises(services.UndoRefused, match="Time has been called"):
        services.undo_choice(game.pk, ADA, game.version)
    assert snapshot(game) == before
    # A choice made after the time call can be taken back, back to the time call and no further.
    game = play(game, ADA, game_option(game, "a19"))
    services.undo_choice(game.pk, ADA, game.version)
    game.refresh_from_db()
    assert game.choices.in_record().order_by("-seq").first().is_time_call
    assert game.undo_seat is None


def game_option(game: Game, wanted: str) -> str:
    with services.engine_game(game) as engine:
        ids = [o.id for o in engine.pending.options]
    assert wanted in ids, ids
    return wanted


# ---------------------------------------------------------------------------------- timers -------
@pytest.mark.django_db
def test_the_open_decisions_timer_keeps_the_time_it_had_left():
    game = two_person_game(seed=7, turn_seconds=600)
    game.refresh_from_db()
    deadline = game.deadline
    assert deadline is not None and game.deadline_seq == game.version
    services.call_time(game.pk)
    game.refresh_from_db()
    assert game.deadline_seq == game.version
    assert abs((game.deadline - deadline).total_seconds()) < 1


@pytest.mark.django_db
def test_a_nearly_spent_timer_gets_a_few_seconds_after_the_time_call():
    game = two_person_game(seed=7, turn_seconds=600)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(seconds=1))
    services.call_time(game.pk)
    game.refresh_from_db()
    assert game.deadline >= timezone.now() + timedelta(seconds=5)


# ---------------------------------------------------------------------------------- pages --------
@pytest.mark.django_db
def test_the_game_page_says_that_time_has_been_called(client: Client):
    game = two_person_game(seed=7)
    page = client.get(f"/play/g/{game.public_id}/").content.decode()
    assert "Time has been called" not in page
    services.call_time(game.pk)
    page = client.get(f"/play/g/{game.public_id}/").content.decode()
    assert "Time has been called." in page and "Turn 1 is the last" in page


@pytest.mark.django_db
def test_the_replay_page_steps_over_the_time_call(client: Client):
    game = two_person_game(seed=7)
    game = play_heuristically(game, 10, random.Random(1))
    at = game.version
    services.call_time(game.pk)
    game = play_heuristically(game, 3000, random.Random(2))
    assert game.is_finished
    page = client.get(f"/play/g/{game.public_id}/replay/?step={at + 1}")
    assert page.status_code == 200
    text = page.content.decode()
    assert "<strong>Time is called</strong>" in text and "Time has been called." in text
    assert client.get(f"/play/g/{game.public_id}/replay/?step={at + 2}").status_code == 200
    last = client.get(f"/play/g/{game.public_id}/replay/")
    assert last.status_code == 200


# ---------------------------------------------------------------------------------- signal -------
@pytest.mark.django_db(transaction=True)
def test_a_bot_game_with_time_called_finishes_and_says_so_once(finished_calls):
    game = services.create_game([services.SeatSpec("bot"), services.SeatSpec("bot")], seed=11)
    game.refresh_from_db()
    services.run_bots(game.pk, game.version, max_moves=12)
    game.refresh_from_db()
    assert game.is_active and not finished_calls
    services.call_time(game.pk)  # schedules the bot at the new version; play it here
    game.refresh_from_db()
    services.run_bots(game.pk, game.version)
    game.refresh_from_db()
    assert game.is_finished
    assert len(finished_calls) == 1
    call = finished_calls[0]
    with services.engine_game(game) as engine:
        assert call["vp"] == [p.vp for p in engine.players]
        assert call["winner"] == engine.winner == game.winner
        assert call["shared_winners"] == engine.shared_winners
    assert call["game_id"] == game.pk
    assert services.final_vp(game) == call["vp"]
    # Nothing more is sent for a finished game: no move lands, time is not called again.
    assert services.call_time(game.pk) is None and services.bot_move(game.pk, game.version) is None
    assert len(finished_calls) == 1


@pytest.mark.django_db(transaction=True)
def test_a_failing_receiver_does_not_break_the_game(finished_calls):
    def broken(sender, **kwargs):
        raise RuntimeError("the receiver is broken")

    game_finished.connect(broken, weak=False)
    try:
        game = services.create_game([services.SeatSpec("bot"), services.SeatSpec("bot")], seed=5)
        game.refresh_from_db()
        services.call_time(game.pk)
        game.refresh_from_db()
        services.run_bots(game.pk, game.version)
    finally:
        game_finished.disconnect(broken)
    game.refresh_from_db()
    assert game.is_finished and len(finished_calls) == 1
