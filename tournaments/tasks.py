"""Celery tasks of tournaments: the round clock, the draft pick timer, the beat sweep, and the
sending of players' notices by Web Push and e-mail.

Each task re-reads the database row and does nothing if it changed since the task was scheduled, so
duplicates, retries and a restarted worker are harmless (see clock.py and drafting.py).
"""

from celery import shared_task


@shared_task(name="tournaments.clock_tick", ignore_result=True)
def clock_tick(clock_id: int, version: int) -> list:
    """A moment of a round clock (a warning, or the deadline) scheduled for clock `version`."""
    from .clock import advance

    return advance(clock_id, version)


@shared_task(name="tournaments.draft_timeout", ignore_result=True)
def draft_timeout(draft_id: int, version: int) -> bool:
    """The pick timer of a draft at `version` ran out: take the default choice."""
    from .drafting import timeout

    return timeout(draft_id, version)


@shared_task(name="tournaments.sweep", ignore_result=True)
def sweep() -> dict:
    """Run by Celery beat: apply every clock event and pick timeout that is due but was missed, and
    what in-app games missed (a result not recorded, time not called)."""
    from . import clock, drafting, in_app

    return {"clocks": clock.sweep(), "drafts": drafting.sweep(), "in_app": in_app.sweep()}


@shared_task(name="tournaments.deliver_notices", ignore_result=True)
def deliver_notices(event_id: int) -> dict:
    """Send the players of an event who turned on push or e-mail the notices they have not had
    (tournaments.delivery: each moment once, whatever the number of tasks)."""
    from .delivery import deliver

    return deliver(event_id)
