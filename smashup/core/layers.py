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
"""

from __future__ import annotations

import asyncio
import logging
import uuid

from channels_redis import pubsub
from channels_redis.utils import _wrap_close
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


# What a lost or refused Redis connection raises through redis-py's asyncio client.
UNREACHABLE = (OSError, asyncio.TimeoutError, RedisError)


class _LoopLayer(pubsub.RedisPubSubLoopLayer):
    async def new_channel(self, prefix="specific."):
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        try:
            await self._subscribe_to_channel(channel)  # makes the local queue first, then subscribes
        except UNREACHABLE as exc:
            self.channels.setdefault(channel, asyncio.Queue())
            logger.warning(
                "channel layer unreachable (%s: %s): a new connection will join its group later",
                type(exc).__name__,
                exc,
            )
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
