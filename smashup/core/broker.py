"""The Celery broker transport: kombu's Redis transport, made to survive a Redis outage.

Celery 5.7 / kombu 5.7 (the newest releases, and what ``celery[redis]`` installs) kill the worker when
Redis goes away while the worker holds messages it has not acknowledged yet, and this site's worker
almost always does: every turn timer, round clock warning, pick timer and bot move is a task with an
ETA or a countdown, held by the worker until its moment. On the lost connection the worker first
collects the connection (which closes kombu's transport), then closes it again; that second close
tries to hand the unacknowledged messages back to Redis through the closed transport and fails with
``AttributeError: 'NoneType' object has no attribute 'hostname'``, which is not a connection error, so
the worker stops ("Unrecoverable error"). Reproduced on every 5 s outage (issue 12; celery 5.6.3 does
not close twice and survives).

Handing the messages back cannot work while Redis is down anyway. They stay in Redis's "unacked"
index, from which kombu puts them back in the queue once the visibility timeout has passed
(``CELERY_BROKER_TRANSPORT_OPTIONS``). So the QoS here tries, and when that fails, says so and lets
the worker reconnect. Nothing depends on those messages coming back quickly: every task of the site
re-reads the database and does nothing if its moment has passed or been handled, and Celery beat's
sweeps act on everything overdue (turn timers, bot moves, round clocks, pick timers).

Used through ``CELERY_BROKER_TRANSPORT = "smashup.core.broker:Transport"`` (see settings.py). It keeps
the Redis URL as the broker URL.
"""

from __future__ import annotations

import logging

from kombu.transport import redis as kombu_redis

logger = logging.getLogger(__name__)


class QoS(kombu_redis.QoS):
    def restore_unacked(self, client=None):
        """Give the messages this channel holds back to their queue; when Redis cannot be reached
        (the usual case: the connection was lost), leave them to the visibility timeout."""
        held = len(self._delivered)
        try:
            return super().restore_unacked(client)
        except Exception as exc:  # noqa: BLE001 - any failure here used to stop the worker
            logger.warning(
                "Could not hand %d unacknowledged message(s) back to Redis (%s: %s); they return to "
                "their queue after the visibility timeout, and the beat sweeps act on anything due "
                "before then.",
                held,
                type(exc).__name__,
                exc,
            )
            self._delivered.clear()
            return None


class Channel(kombu_redis.Channel):
    QoS = QoS


class Transport(kombu_redis.Transport):
    Channel = Channel
