"""Redis behind a network partition (packets stall, nothing refused; issue 28): every Redis call of the
site gives up after its timeout instead of waiting for TCP to give up, many minutes later.

The test Redis is reached through the fault tests' proxy (tests/faults/proxy.py), stalled for the
test. Each call runs under an outer wait far longer than the timeout: a call that hangs fails the test
there (before the timeouts, every one of these hung). The whole stack under a partition is
tests/faults/test_partition.py; the worker's and beat's reconnects are tested here with stand-ins.
"""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import urlsplit

import pytest

from smashup import config
from smashup.core import broker, health, layers
from tests.faults.proxy import RedisProxy

HANG = 30.0  # seconds an outer wait gives a call that should give up after TIMEOUT
TIMEOUT = 0.5


@pytest.fixture
def stalled(redis_url):
    """A proxy to the test Redis, its connections opened first, then stalled. Yields its URL."""
    parts = urlsplit(redis_url)
    proxy = RedisProxy(parts.port or 6379, host=parts.hostname)
    proxy.start()
    try:
        yield proxy, parts._replace(netloc=f"{parts.hostname}:{proxy.port}").geturl()
    finally:
        proxy.heal()
        proxy.stop()


def layer_for(url: str) -> layers.RedisPubSubChannelLayer:
    settings = config.channel_layers(url, prefix="test-partition", timeout=TIMEOUT)["default"]["CONFIG"]
    return layers.RedisPubSubChannelLayer(**settings)


@pytest.mark.asyncio
async def test_the_channel_layer_gives_up_during_a_partition(stalled):
    proxy, url = stalled
    layer = layer_for(url)
    mine = await layer.new_channel()
    await layer.group_add("table", mine)
    await layer.group_send("table", {"type": "hello"})
    assert (await asyncio.wait_for(layer.receive(mine), HANG))["type"] == "hello"

    proxy.stall()

    async def each_gives_up():
        with pytest.raises(layers.UNREACHABLE):
            await layer.group_send("table", {"type": "lost"})
        # The calls that follow do not wait for their own timeout: Redis is known unreachable, and
        # only the watch's probe (or another call) tries again, once a second.
        results = await asyncio.gather(
            *(layer.group_send("table", {"type": "lost"}) for _ in range(5)), return_exceptions=True
        )
        assert all(isinstance(r, layers.UNREACHABLE) for r in results), results
        with pytest.raises(layers.UNREACHABLE):
            await layer.send(mine, {"type": "lost"})
        # A new connection still gets its channel (its group is joined later, by the catch-up).
        assert (await layer.new_channel()).startswith("test-partition")

    await asyncio.wait_for(each_gives_up(), HANG)
    proxy.heal()

    async def back():  # a try is due again a second after the last failure: it gets through
        while True:
            try:
                await layer.group_send("table", {"type": "back"})
            except layers.Unreachable:
                await asyncio.sleep(0.2)
            else:
                return

    await asyncio.wait_for(back(), HANG)
    # What the partition held (the first "lost" ping had left before it timed out) may come first.
    while (await asyncio.wait_for(layer.receive(mine), HANG))["type"] != "back":
        pass
    await layer.flush()


def test_health_says_redis_and_the_layer_fail_during_a_partition(stalled, settings):
    proxy, url = stalled
    settings.REDIS_URL = url
    settings.REDIS_TIMEOUT = TIMEOUT
    settings.CHANNEL_LAYERS = config.channel_layers(url, prefix="test-partition-health", timeout=TIMEOUT)
    from channels.layers import channel_layers

    channel_layers.backends.clear()  # the layer of these settings
    try:
        assert health.check_redis()["ok"] and health.check_channel_layer()["ok"]
        proxy.stall()
        assert within(HANG, health.check_redis)["ok"] is False
        assert within(HANG, health.check_channel_layer)["ok"] is False
    finally:
        proxy.heal()
        channel_layers.backends.clear()


def within(seconds: float, call):
    """call() on a thread of its own; fails the test if it has not returned after `seconds` (the
    thread is left behind, a daemon)."""
    import threading

    result = []
    thread = threading.Thread(target=lambda: result.append(call()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert result, f"{call.__name__} still waiting after {seconds:g}s: a call without a timeout"
    return result[0]


# ------------------------------------------------------------------------ the worker and beat ----
class _Connection:
    """A stand-in for kombu's Connection: fails `failures` times (calling the errback each time, as
    kombu does between tries), then connects. Records the intervals it was asked to wait."""

    def __init__(self, failures: int):
        self.failures = failures
        self.asked = {}

    def ensure_connection(self, errback, max_retries, callback=None, **intervals):
        self.asked = {"max_retries": max_retries, **intervals}
        for _ in range(self.failures):
            errback(ConnectionRefusedError("refused"), intervals["interval_start"])
        return self


def test_the_worker_tries_every_second_however_long_the_broker_is_gone(caplog, settings):
    """Celery's own back-off grows by 2 s a try up to 30 s; one warning per outage, not a line per try."""
    from smashup.celery import app

    settings.BROKER_RETRY_SECONDS = 1.0
    consumer = broker.Consumer.__new__(broker.Consumer)  # no worker around it: only ensure_connected
    consumer.app = app
    with caplog.at_level(logging.INFO, logger="smashup.core.broker"):
        conn = _Connection(failures=120)
        assert consumer.ensure_connected(conn) is conn
        assert conn.asked == {
            "max_retries": None,
            "interval_start": 1.0,
            "interval_step": 0,
            "interval_max": 1.0,
        }
        consumer.ensure_connected(_Connection(failures=0))  # a later connect: nothing to say
    said = [r.getMessage() for r in caplog.records if r.name == "smashup.core.broker"]
    assert len(said) == 2, said
    assert said[0].startswith("worker: the broker cannot be reached (ConnectionRefusedError: refused)")
    assert said[1].startswith("worker: the broker is back after")


def test_beat_says_once_that_it_cannot_send(caplog):
    class Refusing(broker.Scheduler):
        def __init__(self):
            self.refuse = True

        def apply_async(self, entry, producer=None, advance=True, **kwargs):
            if self.refuse:
                raise ConnectionRefusedError("refused")

    class Entry:
        task = "smashup.play.bot_sweep"

    beat = Refusing()
    with caplog.at_level(logging.INFO, logger="smashup.core.broker"):
        for _ in range(30):
            beat.apply_entry(Entry())
        beat.refuse = False
        beat.apply_entry(Entry())
        beat.apply_entry(Entry())
    said = [r for r in caplog.records if r.name == "smashup.core.broker" and r.levelno >= logging.INFO]
    assert [r.levelname for r in said] == ["WARNING", "INFO"], [r.getMessage() for r in said]
    assert not any(r.exc_info for r in said)
