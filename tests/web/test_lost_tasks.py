"""Tasks that are lost, late or left over (issue 12): beat's bot sweep sends again the task of a bot
whose task was lost, ETAs beyond the horizon go through relays, and tasks from an earlier run that
match nothing in the database do nothing, quietly. Real PostgreSQL and Redis (a real worker for the
relays)."""

from __future__ import annotations

import json
import logging
import threading
import uuid
from datetime import datetime, timedelta

import pytest
import redis
from celery.contrib.testing.worker import start_worker
from celery.signals import task_prerun
from django.conf import settings as django_settings
from django.utils import timezone

from smashup.celery import app as celery_app
from smashup.core import schedule
from smashup.core.tasks import relay
from smashup.play import services, tasks
from smashup.play.models import Game
from tournaments.tasks import clock_tick, draft_timeout
from tournaments.tasks import sweep as tournaments_sweep

from .play_helpers import person_vs_bot, snapshot, two_person_game


def bot_to_move(seed: int = 7) -> Game:
    """A person-vs-bot game left waiting on the bot, as when its task was lost."""
    game = person_vs_bot(seed=seed)
    while game.pending_seat != 1:
        with services.engine_game(game) as engine:
            option = engine.pending.options[0].id
        services.submit_choice(game.pk, 0, game.version, game.pending_decision, [option])
        game.refresh_from_db()
    return game


def quiet_for(game: Game, seconds: float) -> Game:
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(seconds=seconds))
    game.refresh_from_db()
    return game


# ---------------------------------------------------------------------------------- bot sweep ----
@pytest.fixture
def bot_queue(settings, redis_url):
    """PLAY_BOT_QUEUE on a Redis queue of the test's own, emptied after."""
    settings.PLAY_BOT_QUEUE = queue = f"test-sweep-{uuid.uuid4().hex}"
    client = redis.Redis.from_url(redis_url)
    yield queue, client
    client.delete(queue)
    client.close()


def bot_tasks(client: redis.Redis, queue: str) -> list[str]:
    """The bot tasks waiting in a Redis queue, as their arguments were sent."""
    return [
        json.loads(raw)["headers"]["argsrepr"]
        for raw in client.lrange(queue, 0, -1)
        if json.loads(raw)["headers"]["task"] == tasks.play_bot.name
    ]


@pytest.mark.django_db(transaction=True)
def test_the_bot_sweep_sends_the_task_of_a_bot_whose_task_was_lost_once(bot_queue):
    """The sweep runs with the turn timers (issue 28): it plays no move itself, it sends the lost
    task again to the bots' queue, and the move is made once that task runs."""
    queue, client = bot_queue
    lost = quiet_for(bot_to_move(seed=7), services.bot_delay() + services.BOT_LATE_SECONDS + 1)
    recent = bot_to_move(seed=8)  # its task may still come: not the sweep's business yet
    waiting_for_ada = person_vs_bot(seed=11)
    if waiting_for_ada.pending_seat == 1:
        services.run_bots(waiting_for_ada.pk, waiting_for_ada.version)
    waiting_for_ada = quiet_for(waiting_for_ada, 60)
    assert waiting_for_ada.pending_seat == 0
    client.delete(queue)  # every task so far is lost
    before = {g.pk: snapshot(g) for g in (lost, recent, waiting_for_ada)}
    version, undos = lost.version, lost.undos

    assert services.sweep_bots() == 1
    assert {g.pk: snapshot(g) for g in (lost, recent, waiting_for_ada)} == before
    assert bot_tasks(client, queue) == [f"({lost.pk}, {version}, {undos})"]
    assert services.sweep_bots() == 0  # its copy is on its way: not sent again
    moves = tasks.play_bot(lost.pk, version)  # what a worker does with it
    lost.refresh_from_db()
    assert moves >= 1 and lost.version == version + moves
    assert lost.pending_seat == 0 or lost.status == Game.Status.FINISHED, "the bot played until Ada's turn"
    assert {g.pk: snapshot(g) for g in (recent, waiting_for_ada)} == {
        pk: state for pk, state in before.items() if pk != lost.pk
    }
    # The periodic task is the same sweep, and beat runs it every 5 seconds.
    assert tasks.bot_sweep() == 0
    entry = django_settings.CELERY_BEAT_SCHEDULE["play-bot-sweep"]
    assert entry["task"] == tasks.bot_sweep.name and entry["task"] in celery_app.tasks
    assert entry["schedule"] <= 5


@pytest.mark.django_db(transaction=True)
def test_the_bot_sweep_and_a_late_task_apply_the_move_once(bot_queue):
    game = quiet_for(bot_to_move(seed=7), 30)
    seq = game.version
    assert services.sweep_bots() == 1
    assert tasks.play_bot(game.pk, seq) >= 1  # the sweep's copy
    game.refresh_from_db()
    after = snapshot(game)
    # The lost task turns up after all (a worker restored it): it finds the game moved on.
    assert tasks.play_bot(game.pk, seq) == 0
    assert snapshot(game) == after
    assert game.choices.filter(seq=seq).count() == 1


# ---------------------------------------------------------------------------------- leftovers ----
@pytest.mark.django_db(transaction=True)
def test_tasks_from_an_earlier_run_that_match_nothing_do_nothing_quietly(caplog):
    """A database emptied or replaced since the tasks were sent (a new deployment, a test run): no
    error, no traceback, nothing changed."""
    game = person_vs_bot(seed=7)
    before = snapshot(game)
    missing = 10**9
    later = (timezone.now() + timedelta(seconds=5)).isoformat()
    with caplog.at_level(logging.INFO):
        results = {
            "bot move, no game": tasks.play_bot.apply(args=(missing, 0)).get(),
            "bot move, stale version": tasks.play_bot.apply(args=(game.pk, game.version + 7)).get(),
            "turn timer, no game": tasks.turn_timeout.apply(args=(missing, 0, later)).get(),
            "turn timer, bad moment": tasks.turn_timeout.apply(args=(game.pk, 0, "yesterday")).get(),
            "clock, no clock": clock_tick.apply(args=(missing, 1)).get(),
            "pick timer, no draft": draft_timeout.apply(args=(missing, 1)).get(),
            "relay, unknown task": relay.apply(args=("smashup.gone_since", [1], later, {})).get(),
            "relay, bad moment": relay.apply(args=(tasks.play_bot.name, [missing, 0], "soon", {})).get(),
            "bot sweep": tasks.bot_sweep.apply().get(),
            "timer sweep": tasks.timer_sweep.apply().get(),
            "tournament sweep": tournaments_sweep.apply().get()["clocks"],
        }
    assert results == {
        "bot move, no game": 0,
        "bot move, stale version": 0,
        "turn timer, no game": None,
        "turn timer, bad moment": None,
        "clock, no clock": [],
        "pick timer, no draft": False,
        "relay, unknown task": False,
        "relay, bad moment": False,
        "bot sweep": 0,
        "timer sweep": 0,
        "tournament sweep": 0,
    }
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert loud == [], [r.getMessage() for r in loud]
    assert snapshot(game) == before


# ---------------------------------------------------------------------------------- ETA horizon --
def queued(client: redis.Redis, queue: str) -> list[dict]:
    """The task messages waiting in a Redis queue: name and ETA from their headers."""
    found = []
    for raw in client.lrange(queue, 0, -1):
        headers = json.loads(raw)["headers"]
        found.append({"task": headers["task"], "eta": datetime.fromisoformat(headers["eta"])})
    return found


def test_a_moment_beyond_the_horizon_is_reached_through_a_relay(redis_url, settings):
    """Redis hands an unacknowledged message out again after the visibility timeout, so no ETA may
    be further ahead than it: the relay goes as far as the horizon, and the settings keep the
    visibility timeout longer than the horizon."""
    settings.TASK_ETA_HORIZON = 300
    visibility = django_settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert visibility > schedule.eta_horizon() + 60
    queue = f"test-relay-{uuid.uuid4().hex}"
    client = redis.Redis.from_url(redis_url)
    try:
        now = timezone.now()
        schedule.send_at(tasks.play_bot, (1, 2), now + timedelta(seconds=200), queue=queue)
        schedule.send_at(tasks.play_bot, (1, 3), now + timedelta(hours=3), queue=queue)
        near, far = queued(client, queue)[::-1]  # LPUSH: the newest first
        assert near["task"] == tasks.play_bot.name
        assert abs((near["eta"] - (now + timedelta(seconds=200))).total_seconds()) < 1
        assert far["task"] == relay.name
        assert abs((far["eta"] - (now + timedelta(seconds=300))).total_seconds()) < 5
    finally:
        client.delete(queue)
        client.close()


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_fires_a_timer_through_relays_at_its_moment(redis_url, settings):
    """A 3-second turn timer with a 1-second horizon: relays, then the timeout, at its moment."""
    settings.PLAY_BOT_QUEUE = queue = f"test-relay-{uuid.uuid4().hex}"
    settings.PLAY_TURN_SECONDS_MIN = 1
    settings.TASK_ETA_HORIZON = 1
    ran: list[str] = []

    def note(sender=None, **kwargs):
        ran.append(sender.name)

    task_prerun.connect(note)
    try:
        with start_worker(
            celery_app, perform_ping_check=False, queues=[queue], shutdown_timeout=30, pool="solo"
        ):
            game = two_person_game(seed=7, turn_seconds=3)
            for _ in range(300):  # up to 30 s on a busy machine
                if game.choices.filter(timed_out=True).exists():
                    break
                threading.Event().wait(0.1)
            # Stop the clock before leaving the worker: no more timers for this game.
            Game.objects.filter(pk=game.pk).update(turn_seconds=None, deadline=None, deadline_seq=None)
    finally:
        task_prerun.disconnect(note)
    timed_out = game.choices.get(seq=0)
    assert timed_out.timed_out and timed_out.created_at >= timed_out.deadline, "not before its moment"
    assert ran.count(relay.name) >= 2 and ran.count(tasks.turn_timeout.name) >= 1, ran


def test_after_the_broker_could_not_be_reached_nothing_is_sent_for_a_while(monkeypatch):
    """Each attempt costs about a second of retries on the thread that made the change (in daphne,
    the thread every socket's database work waits for): after one failure, no attempt for a while."""
    from celery import Celery

    from smashup.core.launcher import free_port

    nowhere = Celery("nowhere", broker=f"redis://127.0.0.1:{free_port()}/0", set_as_current=False)

    @nowhere.task(name="tests.nowhere")
    def unreachable_task():  # pragma: no cover - never runs: its broker is not there
        return None

    schedule.resume_sending()
    try:
        with pytest.raises(Exception):  # noqa: B017 - kombu's OperationalError, or redis-py's
            schedule.send_at(unreachable_task, (), timezone.now())
        # In the pause, nothing even tries to reach a broker (each try would cost its timeouts).
        tried = []
        for task in (unreachable_task, tasks.play_bot):
            monkeypatch.setattr(task, "apply_async", lambda *a, **k: tried.append((a, k)))
        assert schedule.send_at(unreachable_task, (), timezone.now()) is False
        assert schedule.send_at(tasks.play_bot, (1, 2), timezone.now()) is False  # any task: one broker
        assert tried == []
    finally:
        schedule.resume_sending()
        nowhere.close()
