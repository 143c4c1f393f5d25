"""Round trips through the real Redis: the Channels layer (channels-redis) and Celery."""

import asyncio
import uuid

import pytest
from celery.contrib.testing.worker import start_worker
from channels.layers import get_channel_layer

from smashup.celery import app as celery_app
from smashup.core import health
from smashup.core.tasks import ping


@pytest.mark.asyncio
async def test_channel_layer_send_receive_round_trip(redis_url):
    layer = get_channel_layer()
    assert type(layer).__name__ == "RedisPubSubChannelLayer"
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "test.message", "text": "hello"})
    message = await asyncio.wait_for(layer.receive(channel), 5)
    assert message == {"type": "test.message", "text": "hello"}


@pytest.mark.asyncio
async def test_channel_layer_group_round_trip(redis_url):
    layer = get_channel_layer()
    group = f"game-{uuid.uuid4().hex}"
    first, second = await layer.new_channel(), await layer.new_channel()
    await layer.group_add(group, first)
    await layer.group_add(group, second)
    await layer.group_send(group, {"type": "game.changed", "version": 3})
    for channel in (first, second):
        assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "game.changed", "version": 3}
    await layer.group_discard(group, first)
    await layer.group_discard(group, second)


def test_health_check_channel_layer_function(redis_url):
    result = health.check_channel_layer()
    assert result["ok"] is True and result["backend"] == "RedisPubSubChannelLayer"


def test_celery_task_round_trip_through_real_redis(redis_url):
    assert celery_app.conf.broker_url == redis_url
    assert celery_app.conf.task_always_eager is False
    # A queue of its own, so another test run sharing this Redis cannot take the task.
    queue = f"test-{uuid.uuid4().hex}"
    with start_worker(celery_app, perform_ping_check=False, queues=[queue], shutdown_timeout=20):
        result = ping.apply_async(args=["round trip"], queue=queue)
        assert result.get(timeout=20) == "round trip"
    # The result really went through the Redis result backend.
    assert type(result.backend).__name__ == "RedisBackend"


def test_celery_countdown_task(redis_url):
    queue = f"test-{uuid.uuid4().hex}"
    with start_worker(celery_app, perform_ping_check=False, queues=[queue], shutdown_timeout=20):
        result = ping.apply_async(args=["later"], queue=queue, countdown=1)
        assert result.get(timeout=20) == "later"
