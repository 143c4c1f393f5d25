"""Which Celery queue each kind of task goes to, and which worker consumes which (issue 28; README
"Workers and queues").

A worker runs the tasks it has fetched one after the other per pool process, and it fetches every task
with an ETA at once (every bot move and turn timer has one), so a priority between queues that one
worker reads would not hold: whatever it holds runs in the order of the ETAs. So each kind of work has
a queue AND a worker of its own:

- ``default`` (Celery's own queue, ``celery``): pings, anything without a route;
- ``timers`` (``PLAY_TIMER_QUEUE``): turn timers running out (``smashup.play.turn_timeout``);
- ``sweeps`` (``SWEEP_QUEUE``): Celery beat's sweeps (routed by ``route``);
- ``tournaments`` (``TOURNAMENT_QUEUE``): round clocks and pick timers;
- ``bots`` (``PLAY_BOT_QUEUE``): bot moves at tables with at least one person;
- ``bots_only`` (``PLAY_BOT_ONLY_QUEUE``): bot moves at tables of bots only (staff's).

``manage.py start`` runs three workers (``site_workers``): one for the first four (quick work: a timer
is answered by the quick heuristic bot), one pool for the bots of tables with people, and one process
at a lower CPU priority for the bots of tables without people. So a bot that thinks for seconds never
delays a timer, and a table of bots only never delays a person's bot. A setting left unset (None)
falls back: ``timers`` and ``bots_only`` to ``bots`` (where they went before issue 28; the test
settings do that, so a test's one worker on one queue of its own runs them all), the others to Celery's
default queue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings

ROLES = ("default", "timers", "sweeps", "tournaments", "bots", "bots_only")
SETTING = {
    "timers": "PLAY_TIMER_QUEUE",
    "sweeps": "SWEEP_QUEUE",
    "tournaments": "TOURNAMENT_QUEUE",
    "bots": "PLAY_BOT_QUEUE",
    "bots_only": "PLAY_BOT_ONLY_QUEUE",
}
FALLBACK = {"timers": "bots", "bots_only": "bots"}
DEFAULT_QUEUE = "celery"

# Tasks that carry no queue of their own when sent (Celery beat sends the sweeps by name).
TASK_ROLES = {
    "smashup.play.timer_sweep": "sweeps",
    "smashup.play.bot_sweep": "sweeps",
    "tournaments.sweep": "sweeps",
    "smashup.play.turn_timeout": "timers",
    "tournaments.clock_tick": "tournaments",
    "tournaments.draft_timeout": "tournaments",
}


def default_queue() -> str:
    return getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", None) or DEFAULT_QUEUE


def queue(role: str) -> str:
    """The queue of `role` under the current settings (see the module's docstring)."""
    if role == "default":
        return default_queue()
    name = getattr(settings, SETTING[role], None)
    if name:
        return name
    return queue(FALLBACK[role]) if role in FALLBACK else default_queue()


def configured() -> dict[str, str]:
    """Every role's queue under the current settings."""
    return {role: queue(role) for role in ROLES}


def route(name, args=None, kwargs=None, options=None, task=None, **kw):
    """A Celery router (``CELERY_TASK_ROUTES``): the queue of a task sent without one. A queue given
    when sending wins over it."""
    role = TASK_ROLES.get(name)
    return {"queue": queue(role)} if role else None


@dataclass(frozen=True)
class Worker:
    """One Celery worker of the site: its name in ``start``'s log, its node name (``-n NODE@host``),
    the queues it reads, its pool's processes and its CPU priority (``nice``, 0 the usual)."""

    name: str
    node: str
    queues: tuple[str, ...]
    concurrency: int
    nice: int = 0


BOT_ONLY_NICE = 10  # tables of bots only get the CPU that nothing else wants


def layout(names: Mapping[str, str], bot_concurrency: int = 2) -> list[Worker]:
    """The workers that serve the queues `names` (role -> queue), as ``start`` runs them: the bots'
    queues first claim their own worker, the quick work shares the first. A queue two roles share is
    read by one worker only; a worker left with no queue is not run."""
    claimed: set[str] = set()

    def take(*roles: str) -> tuple[str, ...]:
        mine = []
        for role in roles:
            name = names[role]
            if name not in claimed:
                claimed.add(name)
                mine.append(name)
        return tuple(mine)

    bots, bots_only = take("bots"), take("bots_only")
    quick = take("default", "timers", "sweeps", "tournaments")
    workers = [
        Worker("celery worker", "main", quick, 1),
        Worker("celery bot worker", "bots", bots, max(1, bot_concurrency)),
        Worker("celery bot-only worker", "bots-only", bots_only, 1, BOT_ONLY_NICE),
    ]
    return [w for w in workers if w.queues]
