"""Live pages catch up when pings are lost (issue 12), through the real ASGI application, the real
Redis channel layer and PostgreSQL: a page that asks, the process's watch on a timer, a socket opened
while the layer is unreachable, an event page whose clock runs out with nobody sending a ping.

The whole outage (Redis stopped and started again under a running site) is tests/faults."""

from __future__ import annotations

import asyncio
import datetime
import json
import logging

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.utils import timezone

from smashup.asgi import application
from smashup.core import layers, limits
from smashup.core.launcher import free_port
from smashup.play import services
from smashup.play.models import Game
from tournaments import services as events
from tournaments.models import AuditEntry, Event, RoundClock

from .play_helpers import SITE_HEADERS, status_attrs, two_person_game

TIMEOUT = 10
UNREACHABLE = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PLAY_WS_RATE = (100_000, 1.0)
    settings.LIVE_CHECK_SECONDS = 1


def choose_without_ping(game: Game) -> int:
    """Ada's or Bob's choice is stored, but its ping is never sent (as while Redis is down)."""
    game.refresh_from_db()
    with services.engine_game(game) as engine:
        option = engine.pending.options[0].id
    with services.deferred_notifications():  # collects the pings; nobody sends them
        outcome = services.submit_choice(
            game.pk, game.pending_seat, game.version, game.pending_decision, [option]
        )
    return outcome.version


async def connect(path: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, path, headers=SITE_HEADERS)
    connected, code = await comm.connect(timeout=TIMEOUT)
    assert connected, f"refused ({code})"
    return comm


async def receive_json(comm: WebsocketCommunicator, timeout: float = TIMEOUT) -> dict:
    return json.loads(await comm.receive_from(timeout=timeout))


# ---------------------------------------------------------------------------------- game page ----
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_page_that_asks_gets_what_changed_and_always_an_answer():
    game = await database_sync_to_async(two_person_game)()
    comm = await connect(f"/ws/games/{game.public_id}/?format=json")
    assert (await receive_json(comm))["version"] == 0
    version = await database_sync_to_async(choose_without_ping)(game)
    assert await comm.receive_nothing(timeout=0.3), "no ping was sent"

    await comm.send_json_to({"type": "check"})
    state = await receive_json(comm)
    assert state["type"] == "state" and state["version"] == version
    assert await receive_json(comm) == {"type": "live", "state": "live"}
    # Nothing new: the answer alone, so the page knows its socket is alive.
    await comm.send_json_to({"type": "check"})
    assert await receive_json(comm) == {"type": "live", "state": "live"}
    await comm.disconnect()

    html = await connect(f"/ws/games/{game.public_id}/")
    assert status_attrs(await html.receive_from(timeout=TIMEOUT))["version"] == str(version)
    await html.send_to(text_data=json.dumps({"type": "check", "HEADERS": {}}))
    answer = await html.receive_from(timeout=TIMEOUT)
    assert answer.startswith('<span id="live-state"') and 'data-state="live"' in answer
    assert 'hx-swap-oob="true"' in answer
    await html.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_watch_brings_every_connection_up_to_date_when_a_ping_is_lost():
    game = await database_sync_to_async(two_person_game)()
    seat_json = await connect(f"/ws/games/{game.public_id}/?format=json")
    spectator = await connect(f"/ws/games/{game.public_id}/")
    await seat_json.receive_from(timeout=TIMEOUT)
    await spectator.receive_from(timeout=TIMEOUT)
    version = await database_sync_to_async(choose_without_ping)(game)
    started = asyncio.get_running_loop().time()
    state = await receive_json(seat_json, timeout=5)
    assert state["type"] == "state" and state["version"] == version
    assert status_attrs(await spectator.receive_from(timeout=5))["version"] == str(version)
    assert asyncio.get_running_loop().time() - started < 3  # LIVE_CHECK_SECONDS is 1 here
    # Up to date now: the next checks send nothing.
    assert await seat_json.receive_nothing(timeout=2.5)
    await seat_json.disconnect()
    await spectator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_opened_while_the_layer_is_unreachable_opens_and_says_reconnecting(caplog):
    """Before, the handshake failed with an HTTP 500: Channels subscribes each new connection in
    Redis before the consumer runs."""
    game = await database_sync_to_async(two_person_game)()
    unreachable = {
        "default": {
            "BACKEND": "smashup.core.layers.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [UNREACHABLE], "prefix": "test-unreachable"},
        }
    }
    with override_settings(CHANNEL_LAYERS=unreachable), caplog.at_level(logging.WARNING):
        token = await database_sync_to_async(
            lambda: services.resume_link_token(game.seats.get(index=game.pending_seat))
        )()
        comm = await connect(f"/ws/games/{game.public_id}/?format=json&token={token}")
        state = await receive_json(comm)
        assert state["type"] == "state" and state["version"] == 0 and state["view"]
        assert await receive_json(comm) == {"type": "live", "state": "reconnecting"}
        # It still takes choices: the game is in the database.
        await comm.send_json_to(
            {
                "type": "choice",
                "seq": 0,
                "decision": game.pending_decision,
                "options": [await first_option(game)],
            }
        )
        assert await receive_json(comm) == {"type": "ok", "version": 1}
        await comm.disconnect()
        events_comm = await connect(f"/ws/events/{await database_sync_to_async(an_event)()}/")
        assert (await receive_json(events_comm))["type"] == "state"
        assert await receive_json(events_comm) == {"type": "live", "state": "reconnecting"}
        await events_comm.disconnect()
    assert any("channel layer unreachable" in r.getMessage() for r in caplog.records)
    assert (await database_sync_to_async(Game.objects.get)(pk=game.pk)).version == 1


async def first_option(game: Game) -> str:
    def read():
        with services.engine_game(game) as engine:
            return engine.pending.options[0].id

    return await database_sync_to_async(read)()


@pytest.mark.asyncio
async def test_channels_redis_own_layer_fails_where_ours_gives_a_channel():
    from channels_redis.pubsub import RedisPubSubChannelLayer as Stock

    with pytest.raises(Exception, match="Connect"):
        await Stock(hosts=[UNREACHABLE]).new_channel()
    ours = layers.RedisPubSubChannelLayer(hosts=[UNREACHABLE])
    name = await ours.new_channel()
    assert name.startswith("asgi") and name.count("specific.") == 1
    # The consumer catches this one and tries again later. Redis just failed: not even tried now.
    with pytest.raises(layers.Unreachable):
        await ours.group_add("a-group", name)
    await ours.flush()


@pytest.mark.asyncio
async def test_a_subscription_that_races_the_reading_loop_is_unreachable_not_a_crash(monkeypatch):
    """When Redis comes back, a new socket's subscription can reconnect the connection the layer's
    reading loop is reading too, and asyncio refuses the second reader: that subscription is
    taken as Redis still away (the socket opens and joins its group later), not as a crash of
    the consumer (which closed the socket: CI, tests/faults)."""
    async def raced(self, channel):
        raise RuntimeError("readuntil() called while another coroutine is already waiting for incoming data")

    monkeypatch.setattr(layers.pubsub.RedisSingleShardConnection, "subscribe", raced)
    ours = layers.RedisPubSubChannelLayer(hosts=[UNREACHABLE])
    name = await ours.new_channel()
    assert name.startswith("asgi") and ours.unreachable
    shard = ours._shards[0]
    assert shard.failed  # the next call waits for its retry, as after any failure
    await ours.flush()

    async def broken(self, channel):
        raise RuntimeError("something else")

    monkeypatch.setattr(layers.pubsub.RedisSingleShardConnection, "subscribe", broken)
    other = layers.RedisPubSubChannelLayer(hosts=[UNREACHABLE])
    with pytest.raises(RuntimeError, match="something else"):  # any other error is not hidden
        await other.new_channel()
    await other.flush()


# ---------------------------------------------------------------------------------- event page ---
def an_event(clock_in: float | None = None) -> int:
    org = get_user_model().objects.get_or_create(username="org")[0]
    event = events.create_event(org, name="Catch-up", draft_mode=Event.DraftMode.NONE)
    for i in range(4):
        events.register(event, f"P{i}", by=org)
    rnd = events.generate_round(event, org)
    if clock_in is not None:  # running, ending in `clock_in` seconds, with no task to end it
        RoundClock.objects.filter(round=rnd).update(
            status=RoundClock.Status.RUNNING, deadline=timezone.now() + datetime.timedelta(seconds=clock_in)
        )
    return event.pk


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_event_socket_is_told_time_is_called_with_no_ping_and_no_task():
    """The clock's tasks and beat's sweep cannot get through (Redis down): the watch finds the clock
    due, calls time (once), and sends the page the change."""
    event_id = await database_sync_to_async(an_event)(clock_in=1.5)
    comm = await connect(f"/ws/events/{event_id}/")
    first = await receive_json(comm)
    assert first["type"] == "state" and first["clock"]["status"] == "running"
    changed = await receive_json(comm, timeout=6)
    assert changed["type"] == "changed" and changed["clock"]["status"] == "called"
    assert changed["version"] > first["version"]
    more = []  # time called may change the event once more (the round's games told): then quiet
    while not await comm.receive_nothing(timeout=2.5):
        more.append(await receive_json(comm))
    assert len(more) <= 2 and all(m["clock"]["status"] == "called" for m in more), more
    await comm.disconnect()

    def called():
        messages = AuditEntry.objects.filter(event_id=event_id).values_list("message", flat=True)
        return sum(m.endswith("time is called.") for m in messages)

    assert await database_sync_to_async(called)() == 1


# ---------------------------------------------------------------------------------- limits ------
def test_the_connection_limit_lets_people_in_while_the_cache_is_unreachable(caplog):
    unreachable = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": UNREACHABLE}
    }
    with override_settings(CACHES=unreachable), caplog.at_level(logging.WARNING):
        from django.core.cache import caches

        caches["default"].close()
        assert limits.connection_allowed("ip:127.0.0.1") is True
        limits.mark_flooding("ip:127.0.0.1")  # says so, does not raise
    assert any("cache is unreachable" in r.getMessage() for r in caplog.records)
