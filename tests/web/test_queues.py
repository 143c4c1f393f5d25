"""Queues that a flood of bots cannot block (issue 28): bot moves of tables with people, bot moves of
tables of bots only, turn timers, beat's sweeps and tournament clocks each go to a queue of their own,
and `start` runs a worker for the quick work, a pool for the people's bots and a low-priority one for
the bots-only tables. Real Redis; a real worker for the flood."""

from __future__ import annotations

import json
import threading
import uuid
from datetime import timedelta

import pytest
import redis
from celery.contrib.testing.worker import start_worker
from django.utils import timezone

from smashup import settings as production
from smashup.celery import app as celery_app
from smashup.core import launcher, queues
from smashup.play import services, tasks, timers
from smashup.play.models import Game
from tournaments.tasks import sweep as tournaments_sweep

from .play_helpers import person_vs_bot

ROLES_TO_SETTINGS = {
    "bots": "PLAY_BOT_QUEUE",
    "bots_only": "PLAY_BOT_ONLY_QUEUE",
    "timers": "PLAY_TIMER_QUEUE",
    "sweeps": "SWEEP_QUEUE",
    "tournaments": "TOURNAMENT_QUEUE",
}


@pytest.fixture
def own_queues(settings, redis_url):
    """A queue of this test's own for every role (the production layout, other names), emptied after."""
    tag = uuid.uuid4().hex[:10]
    names = {role: f"test-{role}-{tag}" for role in ROLES_TO_SETTINGS}
    for role, setting in ROLES_TO_SETTINGS.items():
        setattr(settings, setting, names[role])
    client = redis.Redis.from_url(redis_url)
    yield names, client
    client.delete(*names.values())
    client.close()


def messages(client: redis.Redis, queue: str) -> list[tuple[str, str]]:
    """(task name, its arguments as sent) of each message waiting in a Redis queue, oldest first."""
    found = []
    for raw in reversed(client.lrange(queue, 0, -1)):
        headers = json.loads(raw)["headers"]
        found.append((headers["task"], headers["argsrepr"]))
    return found


# ---------------------------------------------------------------------------------- settings -----
def test_production_gives_each_kind_of_work_its_own_queue_and_tests_share_one():
    names = {setting: getattr(production, setting) for setting in ROLES_TO_SETTINGS.values()}
    assert all(names.values()) and len(set(names.values())) == len(names), names
    assert "celery" not in names.values()  # Celery's default queue carries only what has no route
    assert production.CELERY_TASK_ROUTES == ("smashup.core.queues.route",)
    # The test settings (and a setting left unset) send timers and bots-only tables where the bots
    # go, as before issue 28: a test's one worker on PLAY_BOT_QUEUE runs them all.
    assert queues.queue("timers") == queues.queue("bots_only") == queues.queue("bots")
    assert queues.queue("sweeps") == queues.queue("tournaments") == queues.default_queue() == "celery"


def test_the_router_sends_beats_sweeps_and_clocks_to_their_queues(own_queues):
    names, _ = own_queues
    route = celery_app.amqp.router.route
    for task, role in [
        ("smashup.play.timer_sweep", "sweeps"),
        ("smashup.play.bot_sweep", "sweeps"),
        ("tournaments.sweep", "sweeps"),
        ("smashup.play.turn_timeout", "timers"),
        ("tournaments.clock_tick", "tournaments"),
    ]:
        assert route({}, task)["queue"].name == names[role], task
    assert route({}, "smashup.ping")["queue"].name == "celery"
    assert route({"queue": "elsewhere"}, "smashup.play.bot_sweep")["queue"].name == "elsewhere"


def test_the_start_layout_keeps_bots_away_from_timers_and_bots_only_tables_below_people():
    names = {role: getattr(production, setting) for role, setting in ROLES_TO_SETTINGS.items()}
    names["default"] = "celery"
    main, bots, bots_only = queues.layout(names, bot_concurrency=3)
    assert set(main.queues) == {"celery", names["timers"], names["sweeps"], names["tournaments"]}
    assert bots.queues == (names["bots"],) and bots.concurrency == 3 and bots.nice == 0
    assert bots_only.queues == (names["bots_only"],) and bots_only.concurrency == 1 and bots_only.nice > 0
    assert main.concurrency == 1 and main.nice == 0
    assert len({main.node, bots.node, bots_only.node}) == 3  # one machine may run all three
    # A queue shared by two roles (the test settings) is read by one worker only.
    shared = {**names, "timers": names["bots"], "bots_only": names["bots"]}
    layout = queues.layout(shared)
    assert [w.node for w in layout] == ["main", "bots"]
    assert names["bots"] not in layout[0].queues


def test_start_runs_the_layouts_workers(settings):
    for setting in ROLES_TO_SETTINGS.values():
        setattr(settings, setting, getattr(production, setting))
    workers = launcher.site_workers(bot_concurrency=4)
    assert [w.name for w in workers] == ["celery worker", "celery bot worker", "celery bot-only worker"]
    main, bots, bots_only = (w.argv for w in workers)
    assert f"--queues=celery,{production.PLAY_TIMER_QUEUE}" in " ".join(main)
    assert f"--queues={production.PLAY_BOT_QUEUE}" in bots and "--concurrency=4" in bots
    assert "--hostname=bots@%h" in bots and "--hostname=main@%h" in main
    assert bots_only[:3] == ["nice", "-n", str(queues.BOT_ONLY_NICE)]
    assert f"--queues={production.PLAY_BOT_ONLY_QUEUE}" in bots_only


# ---------------------------------------------------------------------------------- routing ------
@pytest.mark.django_db(transaction=True)
def test_each_task_goes_to_its_queue(own_queues):
    names, client = own_queues
    people = person_vs_bot(seed=3)
    bots_only = services.create_game([services.SeatSpec("bot"), services.SeatSpec("bot")], seed=4)
    for queue in names.values():
        client.delete(queue)
    services.schedule_bot(people.pk, 5, bot_only=False)
    services.schedule_bot(bots_only.pk, 6, bot_only=True)
    timers.schedule(people.pk, 7, timezone.now() + timedelta(seconds=30))
    tasks.bot_sweep.apply_async()  # as beat sends it: no queue of its own
    tasks.timer_sweep.apply_async()
    tournaments_sweep.apply_async()
    assert messages(client, names["bots"]) == [(tasks.play_bot.name, f"({people.pk}, 5)")]
    assert messages(client, names["bots_only"]) == [(tasks.play_bot.name, f"({bots_only.pk}, 6)")]
    assert [name for name, _ in messages(client, names["timers"])] == [tasks.turn_timeout.name]
    assert [name for name, _ in messages(client, names["sweeps"])] == [
        tasks.bot_sweep.name,
        tasks.timer_sweep.name,
        tournaments_sweep.name,
    ]


@pytest.mark.django_db(transaction=True)
def test_a_table_sends_its_bots_moves_to_its_own_kind_of_queue(own_queues):
    names, client = own_queues
    bots_only = services.create_game([services.SeatSpec("bot"), services.SeatSpec("bot")], seed=4)
    assert messages(client, names["bots_only"]) == [(tasks.play_bot.name, f"({bots_only.pk}, 0, 0)")]
    game = person_vs_bot(seed=5)
    while game.pending_seat != 1:  # the person's choices until the bot's turn comes
        with services.engine_game(game) as engine:
            option = engine.pending.options[0].id
        services.submit_choice(game.pk, 0, game.version, game.pending_decision, [option])
        game.refresh_from_db()
    sent = (tasks.play_bot.name, f"({game.pk}, {game.version}, {game.undos})")
    assert sent in messages(client, names["bots"])
    assert messages(client, names["bots_only"]) == [(tasks.play_bot.name, f"({bots_only.pk}, 0, 0)")]


# ---------------------------------------------------------------------------------- the sweep ----
@pytest.mark.django_db(transaction=True)
def test_the_bot_sweep_sends_lost_moves_to_their_queues_and_plays_none_itself(own_queues):
    """Beat's sweep runs beside the turn timers: it must never think for a bot. It sends each lost
    bot task again to its table's queue, and not again while that copy may still be on its way."""
    names, client = own_queues
    people = person_vs_bot(seed=3)
    if people.pending_seat == 0:
        with services.engine_game(people) as engine:
            option = engine.pending.options[0].id
        services.submit_choice(people.pk, 0, people.version, people.pending_decision, [option])
    bots_only = services.create_game([services.SeatSpec("bot"), services.SeatSpec("bot")], seed=4)
    late = timezone.now() - timedelta(minutes=1)
    Game.objects.filter(pk__in=[people.pk, bots_only.pk]).update(updated_at=late)
    for queue in names.values():
        client.delete(queue)  # the tasks are lost
    people.refresh_from_db()
    bots_only.refresh_from_db()
    assert people.pending_seat == 1 and bots_only.version == 0
    before = {g.pk: (g.version, g.state_hash) for g in (people, bots_only)}

    assert services.sweep_bots() == 2
    after = {g.pk: (g.version, g.state_hash) for g in Game.objects.filter(pk__in=before)}
    assert after == before, "the sweep played a move itself"
    sent = (tasks.play_bot.name, f"({people.pk}, {people.version}, {people.undos})")
    assert messages(client, names["bots"]) == [sent]
    assert messages(client, names["bots_only"]) == [(tasks.play_bot.name, f"({bots_only.pk}, 0, 0)")]
    assert services.sweep_bots() == 0  # sent a moment ago: not again
    assert len(messages(client, names["bots"])) == 1


@pytest.mark.django_db(transaction=True)
def test_a_lost_move_the_sweep_could_not_send_is_sent_at_the_next_sweep(own_queues, monkeypatch):
    names, client = own_queues
    game = person_vs_bot(seed=3)
    if game.pending_seat == 0:
        with services.engine_game(game) as engine:
            option = engine.pending.options[0].id
        services.submit_choice(game.pk, 0, game.version, game.pending_decision, [option])
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=1))
    client.delete(names["bots"])
    from smashup.play import bots

    with monkeypatch.context() as broker_away:
        broker_away.setattr(bots, "schedule_bot", lambda *args, **kwargs: False)
        assert services.sweep_bots() == 0
    assert services.sweep_bots() == 1
    assert len(messages(client, names["bots"])) == 1


# ---------------------------------------------------------------------------------- a real flood -
@pytest.mark.django_db(transaction=True)
def test_with_the_bots_only_queue_full_a_persons_timer_and_bot_still_run(own_queues, settings):
    """Twelve tables of bots only fill their queue; a person's table with a one-second turn timer
    plays on: a real worker reading what `start`'s quick worker and people's bot pool read (the
    bots-only worker is busy elsewhere, or not running at all) fires the timer and plays the bot that
    follows, and never a move of the bots-only tables."""
    names, client = own_queues
    settings.PLAY_TURN_SECONDS_MIN = 1
    settings.PLAY_BOT_DELAY = 0.05
    flood = [
        services.create_game([services.SeatSpec("bot") for _ in range(4)], seed=50 + i).pk for i in range(12)
    ]
    assert len(messages(client, names["bots_only"])) == 12
    layout = {w.node: w.queues for w in queues.layout(queues.configured())}
    read = [*layout["main"], *layout["bots"]]
    assert names["bots_only"] not in read
    game = None
    with start_worker(celery_app, perform_ping_check=False, queues=read, shutdown_timeout=30, pool="solo"):
        game = person_vs_bot(seed=11, turn_seconds=1)
        for _ in range(600):  # up to 60 s on a busy machine
            timed_out = game.choices.filter(timed_out=True).order_by("seq").first()
            if (
                timed_out
                and game.choices.filter(by_bot=True, timed_out=False, seat=1, seq__gt=timed_out.seq).exists()
            ):
                break
            threading.Event().wait(0.1)
        # Stop the clock before leaving the worker: no more timers for this game.
        Game.objects.filter(pk=game.pk).update(turn_seconds=None, deadline=None, deadline_seq=None)
    timed_out = game.choices.filter(timed_out=True).order_by("seq").first()
    assert timed_out is not None and timed_out.seat == 0, "the person's timer did not run out"
    assert game.choices.filter(by_bot=True, timed_out=False, seat=1, seq__gt=timed_out.seq).exists()
    assert list(Game.objects.filter(pk__in=flood).values_list("version", flat=True)) == [0] * 12
    assert len(messages(client, names["bots_only"])) == 12  # all still waiting for their own worker
