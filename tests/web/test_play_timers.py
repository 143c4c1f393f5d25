"""Turn timers of live games (smashup.play.timers) on the real PostgreSQL and, end to end, a real
Celery worker on Redis."""

from __future__ import annotations

import re
import threading
import uuid
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings as django_settings
from django.utils import timezone

from smashup.celery import app as celery_app
from smashup.play import bots, render, services, tasks, timers
from smashup.play.models import Choice, Game

from .play_helpers import person_vs_bot, seated_client, snapshot, two_person_game


def overdue(game: Game, seconds: float = 5) -> Game:
    """Move the game's deadline into the past (the seq it belongs to stays)."""
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=seconds))
    game.refresh_from_db()
    return game


def page_log(game: Game, seat) -> list[str]:
    game.refresh_from_db()
    with services.engine_game(game) as engine:
        return [line["text"] for line in render.board_context(game, engine, seat)["log"]]


# ---------------------------------------------------------------------------------- the row ------
@pytest.mark.django_db
def test_a_persons_decision_is_timed_and_a_table_without_timer_is_not():
    before = timezone.now()
    game = two_person_game(seed=7, turn_seconds=30)
    assert game.turn_seconds == 30 and game.deadline_seq == game.version == 0
    assert before + timedelta(seconds=29) < game.deadline <= timezone.now() + timedelta(seconds=30)
    assert timers.remaining(game) == pytest.approx(30, abs=2)
    # Each decision gets its own time: after a choice the deadline belongs to the new version.
    with services.engine_game(game) as engine:
        option = engine.pending.options[0].id
    services.submit_choice(game.pk, game.pending_seat, 0, game.pending_decision, [option])
    game.refresh_from_db()
    assert game.deadline_seq == game.version == 1 and game.deadline is not None
    assert Choice.objects.get(game=game, seq=0).deadline is not None  # made under a timer

    plain = two_person_game(seed=7)
    assert plain.turn_seconds is None and plain.deadline is None and plain.deadline_seq is None
    assert timers.remaining(plain) is None


@pytest.mark.django_db
def test_a_bots_decision_is_not_timed():
    game = person_vs_bot(seed=2, turn_seconds=30)
    if game.pending_seat == 1:
        assert game.deadline is None and game.deadline_seq is None
    else:
        assert game.deadline is not None and game.deadline_seq == game.version
        Game.objects.filter(pk=game.pk).update(pending_seat=1)
        game.refresh_from_db()
        timers.arm(game)
        assert game.deadline is None and game.deadline_seq is None


@pytest.mark.django_db
@pytest.mark.parametrize("seconds", [0, 5, 3601, True])
def test_the_timer_length_is_checked(seconds):
    with pytest.raises(services.PlayError, match="turn timer is 10 to 3600 seconds"):
        services.create_game([services.SeatSpec("person"), services.SeatSpec("bot")], turn_seconds=seconds)
    assert not Game.objects.exists()


# ---------------------------------------------------------------------------------- the task -----
@pytest.mark.django_db(transaction=True)
def test_the_task_does_nothing_for_a_stale_seq_a_changed_deadline_or_before_the_deadline(monkeypatch):
    game = two_person_game(seed=7, turn_seconds=30)
    rescheduled = []
    monkeypatch.setattr(timers, "schedule", lambda *args: rescheduled.append(args))
    seq, deadline = game.version, game.deadline
    before = snapshot(game)
    # Not due yet: nothing happens, the task looks again at the deadline.
    assert bots.fire_timer(game.pk, seq, deadline.isoformat()) is None
    assert snapshot(game) == before and rescheduled == [(game.pk, seq, deadline)]
    game = overdue(game)
    # Due, but the task was for another seq (the player answered, or it is for a later decision).
    assert bots.fire_timer(game.pk, seq + 1, game.deadline.isoformat()) is None
    # Due, but the deadline the task carries is not the row's any more (timed again since).
    assert bots.fire_timer(game.pk, seq, deadline.isoformat()) is None
    assert bots.fire_timer(game.pk, seq, (game.deadline - timedelta(seconds=1)).isoformat()) is None
    assert bots.fire_timer(game.pk, seq, "not a date") is None
    assert bots.fire_timer(10**9, seq, game.deadline.isoformat()) is None  # no such game
    assert snapshot(game) == before
    # A deadline that belongs to another version than the row's is stale too.
    Game.objects.filter(pk=game.pk).update(deadline_seq=seq + 5)
    assert bots.fire_timer(game.pk, seq, game.deadline.isoformat()) is None
    assert snapshot(game) == before


@pytest.mark.django_db(transaction=True)
def test_when_due_the_bot_takes_the_seats_decision_and_the_log_says_so():
    game = overdue(two_person_game(seed=7, turn_seconds=30))
    seat, seq, decision = game.pending_seat, game.version, game.pending_decision
    name = services.player_names(game)[seat]
    outcome = bots.fire_timer(game.pk, seq, game.deadline.isoformat())
    assert outcome is not None and outcome.version == seq + 1
    choice = Choice.objects.get(game=game, seq=seq)
    assert choice.seat == seat and choice.decision == decision
    assert choice.by_bot and choice.timed_out and not choice.undoable
    game.refresh_from_db()
    # The next person's decision got a fresh deadline.
    assert game.deadline_seq == game.version and game.deadline > timezone.now()
    line = f"{name} ran out of time: the bot chose for them."
    for viewer in (0, 1, None):
        assert line in page_log(game, viewer)
    # The note sits where the choice was made: before the lines the bot's choice wrote.
    log = page_log(game, None)
    assert log.index(line) < len(log) - 1
    # The bot's answer is what the heuristic bot plays there (reproducible from the record).
    assert choice.options


@pytest.mark.django_db(transaction=True)
def test_running_the_task_twice_applies_once():
    game = overdue(two_person_game(seed=7, turn_seconds=30))
    seq, deadline = game.version, game.deadline.isoformat()
    assert tasks.turn_timeout(game.pk, seq, deadline) == seq + 1
    assert tasks.turn_timeout(game.pk, seq, deadline) is None
    game.refresh_from_db()
    assert game.version == seq + 1 and game.choices.count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_answer_in_time_makes_the_task_a_no_op():
    game = two_person_game(seed=7, turn_seconds=30)
    seq, deadline = game.version, game.deadline
    with services.engine_game(game) as engine:
        option = engine.pending.options[0].id
    services.submit_choice(game.pk, game.pending_seat, seq, game.pending_decision, [option])
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(deadline=deadline - timedelta(seconds=60))  # pretend overdue
    assert bots.fire_timer(game.pk, seq, deadline.isoformat()) is None
    game.refresh_from_db()
    assert game.version == seq + 1 and not game.choices.filter(timed_out=True).exists()


@pytest.mark.django_db(transaction=True)
def test_the_sweep_catches_an_overdue_game_and_leaves_the_others():
    late = overdue(two_person_game(seed=7, turn_seconds=30))
    on_time = two_person_game(seed=8, turn_seconds=30)
    untimed = two_person_game(seed=9)
    assert bots.sweep_timers() == 1
    late.refresh_from_db()
    assert late.version == 1 and late.choices.get(seq=0).timed_out
    assert snapshot(on_time)[0] == 0 and snapshot(untimed)[0] == 0
    assert bots.sweep_timers() == 0  # the new deadline is not due: nothing more
    # The periodic task is the same sweep, and beat runs it every 15 seconds.
    overdue(late)
    assert tasks.timer_sweep() == 1
    entry = django_settings.CELERY_BEAT_SCHEDULE["play-turn-timer-sweep"]
    assert entry["task"] == tasks.timer_sweep.name and entry["task"] in celery_app.tasks
    assert entry["schedule"] <= 15


@pytest.mark.django_db(transaction=True)
def test_a_finished_game_has_no_timer():
    game = overdue(two_person_game(seed=7, turn_seconds=30))
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert bots.fire_timer(game.pk, game.version, game.deadline.isoformat()) is None
    assert bots.sweep_timers() == 0


# ---------------------------------------------------------------------------------- pages --------
@pytest.mark.django_db
def test_the_page_shows_a_countdown_from_the_servers_deadline(client):
    game = two_person_game(seed=7, turn_seconds=45)
    seat = game.pending_seat
    seated_client(game, seat, client)
    html = client.get(f"/play/g/{game.public_id}/").content.decode()
    status = re.search(r'<div id="play-status"[^>]*>', html).group(0)
    assert f'data-deadline="{game.deadline.isoformat()}"' in status
    timer = re.search(r'<span class="timer mine" data-remaining="([\d.]+)" data-seat="(\d)"', html)
    assert timer and 40 <= float(timer.group(1)) <= 45 and int(timer.group(2)) == seat
    assert "Your time" in html
    # The other seat sees whose time runs; the table page says the table is timed.
    other = client_for(game, 1 - seat)
    html = other.get(f"/play/g/{game.public_id}/").content.decode()
    assert '<span class="timer" data-remaining=' in html and "Your time" not in html
    assert "45 s per decision" in client.get(f"/play/t/{game.public_id}/").content.decode()


def client_for(game: Game, seat: int):
    return seated_client(game, seat)


@pytest.mark.django_db
def test_the_lobby_sets_a_turn_timer_or_none(client):
    base = {
        "seat0_kind": "person",
        "seat1_kind": "bot",
        "seat2_kind": "none",
        "seat3_kind": "none",
        "base_sets": "factions",
        "specials": "fast",
        "sit": "on",
        "your_name": "Ada",
    }
    page = client.get("/play/").content.decode()
    assert 'name="turn_seconds"' in page and "Turn timer" in page
    response = client.post("/play/", {**base, "turn_seconds": "5"})
    assert response.status_code == 200 and "at least 10 seconds" in response.content.decode()
    assert not Game.objects.exists()
    response = client.post("/play/", {**base, "turn_seconds": "60"})
    assert response.status_code == 302
    assert Game.objects.get().turn_seconds == 60
    client.post("/play/", {**base, "turn_seconds": ""})
    assert Game.objects.order_by("-pk").first().turn_seconds is None


# ---------------------------------------------------------------------------------- real worker --
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_fires_a_one_second_timer(redis_url, settings):
    """The production path: the timeout task goes to Redis with an ETA and a real worker runs it."""
    settings.PLAY_BOT_QUEUE = queue = f"test-timer-{uuid.uuid4().hex}"
    settings.PLAY_TURN_SECONDS_MIN = 1
    assert celery_app.conf.task_always_eager is False
    with start_worker(celery_app, perform_ping_check=False, queues=[queue], shutdown_timeout=30, pool="solo"):
        game = two_person_game(seed=7, turn_seconds=1)
        seat = game.pending_seat
        assert game.deadline is not None
        for _ in range(300):  # up to 30 s on a busy machine
            game.refresh_from_db()
            if game.version >= 1:
                break
            threading.Event().wait(0.1)
        # Stop the clock before leaving the worker: no more timers for this game.
        Game.objects.filter(pk=game.pk).update(turn_seconds=None, deadline=None, deadline_seq=None)
    first = game.choices.get(seq=0)
    assert first.timed_out and first.by_bot and first.seat == seat
    assert first.created_at - game.started_at >= timedelta(seconds=0.9)
