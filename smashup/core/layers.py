"""The channel layer: channels_redis's Pub/Sub layer, with connections that open while Redis is down.

Channels gives every consumer a channel of its own before the consumer runs (``new_channel``); the
Pub/Sub layer subscribes to it in Redis there, so while Redis was down every new WebSocket failed
before its consumer could say anything (the handshake got an HTTP 500). This site's consumers get
their messages through groups only, which the layer routes to each connection's local queue in
this process; the connection's own subscription matters only to a direct ``send`` to it, which
nothing here does. So a subscription that fails is logged and the connection goes on: the consumer
then finds that it cannot join its group either, tells its page that live updates are reconnecting,
and catches up from the database until it has joined (``smashup.core.catchup``).

Subscriptions that existed before an outage are renewed by redis-py when the layer's connection
comes back; the pings sent while Redis was down are lost, which the catch-up covers too.

A partition (packets stall, nothing is refused) must not hang anything either (issue 28). The
sockets time out (``socket_timeout`` and ``socket_connect_timeout`` in the host's settings,
``smashup.config.channel_layers``), and every call of the layer gives up after ``timeout`` seconds
(REDIS_TIMEOUT) in all, however long it waited for the connection's lock: the layer has one lock per
process and event loop, and a call stuck behind a stalled publish used to hold every other call of
the process (the pings after each choice, a new socket's subscription, the watch's probe) for as
long as the network stalled. The loop that reads the subscriptions logs once when it loses Redis and
once when it has it back, where channels_redis logs a traceback every second.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid

from channels_redis import pubsub
from channels_redis.utils import _wrap_close
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


# What a lost or refused Redis connection raises through redis-py's asyncio client.
UNREACHABLE = (OSError, asyncio.TimeoutError, RedisError)


RETRY_SECONDS = 1.0  # while Redis is known unreachable, one call in this long really tries


class Unreachable(RedisConnectionError):
    """Redis failed the last call and its next try is not due yet: this call was not even tried."""


def _raced_the_reader(error: RuntimeError) -> bool:
    """asyncio's refusal of a second reader on one stream (StreamReader._wait_for_data)."""
    return "another coroutine is already waiting for incoming data" in str(error)


class _Shard(pubsub.RedisSingleShardConnection):
    """One Redis connection set of the layer, whose calls give up after `timeout` seconds, lock wait
    included, and whose reading loop logs once per outage.

    Once a call has failed, the calls that follow fail at once (`Unreachable`) but for one try at
    a time, at most every RETRY_SECONDS: during a partition each call would otherwise wait its
    timeout (a new socket makes two, and daphne drops a handshake not accepted within 5 s), and the
    catch-up watch's probe, every second, finds out when Redis answers again."""

    def __init__(self, host, channel_layer, timeout: float | None):
        super().__init__(host, channel_layer)
        self.timeout = timeout
        self.failed = False
        self.trying = False
        self.next_try = 0.0

    async def _bounded(self, call):
        if self.failed and (self.trying or time.monotonic() < self.next_try):
            call.close()  # never started
            raise Unreachable("Redis did not answer the last call; the next try is due shortly")
        trial = self.failed
        self.trying = self.trying or trial
        try:
            result = await (call if self.timeout is None else asyncio.wait_for(call, self.timeout))
        except UNREACHABLE:
            self.failed = True
            self.next_try = time.monotonic() + RETRY_SECONDS
            raise
        except RuntimeError as exc:
            if not _raced_the_reader(exc):
                raise
            # Redis came back while this call reconnected the connection the reading loop was
            # reading too (redis-py's check of a new connection reads its answer): no answer for
            # this call, as if Redis were still away. Raised as such, the new socket's consumer
            # goes on and joins its group later, where it used to crash (tests/faults, CI).
            self.failed = True
            self.next_try = time.monotonic() + RETRY_SECONDS
            raise Unreachable(f"Redis was reconnecting under the reading loop ({exc})") from exc
        finally:
            if trial:
                self.trying = False
        self.failed = False
        return result

    async def publish(self, channel, message):
        await self._bounded(super().publish(channel, message))

    async def subscribe(self, channel):
        await self._bounded(super().subscribe(channel))

    async def unsubscribe(self, channel):
        await self._bounded(super().unsubscribe(channel))

    async def _do_receiving(self):
        lost_at = None
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (asyncio.CancelledError, GeneratorExit):
                raise
            except Exception as exc:  # noqa: BLE001 - Redis lost; redis-py reconnects on the next read
                if lost_at is None:
                    lost_at = time.monotonic()
                    logger.warning(
                        "channel layer: lost Redis (%s: %s); renewing its subscriptions every second",
                        type(exc).__name__,
                        exc,
                    )
                await asyncio.sleep(1)
            else:
                if lost_at is not None:
                    logger.info(
                        "channel layer: subscriptions renewed after %.0f s", time.monotonic() - lost_at
                    )
                    lost_at = None


class _LoopLayer(pubsub.RedisPubSubLoopLayer):
    def __init__(self, *args, timeout: float | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self._shards = [_Shard(shard.host, self, timeout) for shard in self._shards]
        self.unreachable = False  # said once: not a warning per new connection while Redis is gone

    async def new_channel(self, prefix="specific."):
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        try:
            await self._subscribe_to_channel(channel)  # makes the local queue first, then subscribes
        except UNREACHABLE as exc:
            self.channels.setdefault(channel, asyncio.Queue())
            if not self.unreachable:
                logger.warning(
                    "channel layer unreachable (%s: %s): new connections will join their groups later",
                    type(exc).__name__,
                    exc,
                )
            self.unreachable = True
        else:
            self.unreachable = False
        return channel


class RedisPubSubChannelLayer(pubsub.RedisPubSubChannelLayer):
    """channels_redis's layer (same name, same settings), whose ``new_channel`` never fails."""

    def _get_layer(self):
        loop = asyncio.get_running_loop()
        try:
            layer = self._layers[loop]
        except KeyError:
            layer = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer
