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

Two more pieces for long outages (issue 28), named by ``CELERY_WORKER_CONSUMER`` and
``CELERY_BEAT_SCHEDULER``:

- ``Consumer``: the worker's consumer, which tries to reach a lost broker every
  ``BROKER_RETRY_SECONDS`` (1) for as long as it takes. Celery's own tries come 2 s, 4 s, 6 s ... apart,
  up to 30 s: after a 2-minute outage the worker came back 12 s after Redis did, after 4 minutes 30 s,
  and the bots and turn timers waited for it. It logs one warning when the broker is lost and one line
  when it is back, not an error line per try.
- ``Scheduler``: beat's scheduler, which logs one warning per outage for the tasks it cannot send
  (Celery logs an error with a traceback and the whole stack for each, every second in all), and one
  line when sending works again. A sweep that could not be sent is sent at its next turn.
"""

from __future__ import annotations

import logging
import time

from celery.beat import PersistentScheduler
from celery.worker.consumer.consumer import Consumer as CeleryConsumer
from celery.worker.state import maybe_shutdown
from kombu.transport import redis as kombu_redis

logger = logging.getLogger(__name__)

DEFAULT_RETRY_SECONDS = 1.0


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


class Outage:
    """One warning when something is lost, one line when it is back: a log that says what happened
    without a line per try."""

    def __init__(self, what: str):
        self.what = what
        self.since: float | None = None

    def failed(self, exc: BaseException, then: str) -> None:
        if self.since is None:
            self.since = time.monotonic()
            logger.warning(
                "%s: the broker cannot be reached (%s: %s); %s", self.what, type(exc).__name__, exc, then
            )

    def worked(self) -> None:
        if self.since is not None:
            logger.info("%s: the broker is back after %.0f s", self.what, time.monotonic() - self.since)
            self.since = None


def retry_seconds() -> float:
    from django.conf import settings

    return float(getattr(settings, "BROKER_RETRY_SECONDS", DEFAULT_RETRY_SECONDS))


class Consumer(CeleryConsumer):
    """The worker's consumer: reconnects to the broker at a steady pace, however long it was gone."""

    def ensure_connected(self, conn):
        if not getattr(self, "_outage", None):
            self._outage = Outage("worker")
        every = retry_seconds()
        conn = conn.ensure_connection(
            lambda exc, interval: self._outage.failed(exc, f"trying again every {every:g} s"),
            self.app.conf.broker_connection_max_retries,
            callback=maybe_shutdown,
            interval_start=every,
            interval_step=0,
            interval_max=every,
        )
        self._outage.worked()
        self.first_connection_attempt = False
        self.broker_connection_retry_attempt = 0
        return conn


class Scheduler(PersistentScheduler):
    """Celery beat's persistent scheduler, with one log line per outage for what it cannot send."""

    def apply_entry(self, entry, producer=None):
        outage = self.__dict__.setdefault("_outage", Outage("beat"))
        try:
            self.apply_async(entry, producer=producer, advance=False)
        except Exception as exc:  # noqa: BLE001 - Celery logs these too, with a traceback each
            outage.failed(exc, "the sweeps are sent again at their next turn")
            logger.debug("beat could not send %s", entry.task, exc_info=True)
        else:
            outage.worked()
            logger.debug("beat sent %s", entry.task)
