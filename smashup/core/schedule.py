"""Sending a Celery task for a moment ahead, however far: ``send_at(task, args, eta, queue=...)``.

With Redis as the broker, a worker holds a task with an ETA unacknowledged until its moment, and Redis
hands a message that has not been acknowledged within the visibility timeout to a worker again. So
an ETA further ahead than that timeout would be handed out again and again (Celery's "Redis caveats").
The visibility timeout is kept short instead (a worker killed while holding a message loses it only
that long, see settings.py), and no task goes out with an ETA beyond ``TASK_ETA_HORIZON`` seconds: a
later moment is reached through ``smashup.relay`` tasks, each sent at most that far ahead, the last
of which sends the task itself for its exact moment.

Every task sent this way must do nothing when its moment is gone or was handled already (the tasks of
turn timers, round clocks and pick timers all check their row's version), since a relay, like any
message, may arrive twice.

While the broker cannot be reached, each attempt to send costs about a second of retries, on the
thread that committed the change (in daphne, the one that every socket's database work waits for).
So after a failure nothing is sent for ``BROKER_PAUSE`` seconds: ``send_at`` returns False at once,
and beat's sweeps act on whatever was due meanwhile once Redis is back.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

logger = logging.getLogger(__name__)

DEFAULT_HORIZON = 300
BROKER_PAUSE = 5.0  # seconds without sending after the broker could not be reached
_paused_until = 0.0


def eta_horizon() -> float:
    """The furthest ahead (seconds) a task is sent with an ETA."""
    return float(getattr(settings, "TASK_ETA_HORIZON", DEFAULT_HORIZON))


def send_at(task, args: Sequence, eta: datetime, **options) -> bool:
    """Send `task(*args)` to run at `eta`, through relays when `eta` is beyond the horizon. `options`
    are apply_async's (a queue); they go with every relay. Returns False, at once, in the pause after
    the broker could not be reached; raises what apply_async raises when it cannot be reached now
    (callers log it and count on their beat sweep)."""
    global _paused_until
    from smashup.celery import app

    from .tasks import relay

    if time.monotonic() < _paused_until:
        logger.debug("broker paused: %s not sent", task.name)
        return False
    reach = timezone.now() + timedelta(seconds=eta_horizon())
    try:
        if eta <= reach or app.conf.task_always_eager:
            task.apply_async(tuple(args), eta=eta, **options)
        else:
            relay.apply_async((task.name, list(args), eta.isoformat(), options), eta=reach, **options)
    except Exception:
        _paused_until = time.monotonic() + BROKER_PAUSE
        logger.warning("the broker cannot be reached: no task is sent for %g s", BROKER_PAUSE)
        raise
    return True


def resume_sending() -> None:
    """Forget a pause (tests)."""
    global _paused_until
    _paused_until = 0.0


def relay_on(name: str, args: list, eta: str, options: dict) -> bool:
    """The body of the relay task: send the task named `name` on towards `eta`. A name this version
    does not know (a message from an earlier release) or a moment that does not parse is dropped
    without a word: nothing can be done with it. Returns whether something was sent."""
    from smashup.celery import app

    task = app.tasks.get(name)
    try:
        when = datetime.fromisoformat(eta)
    except (TypeError, ValueError):
        return False
    if task is None or not isinstance(args, list) or not isinstance(options, dict):
        return False
    return send_at(task, args, when, **options)
