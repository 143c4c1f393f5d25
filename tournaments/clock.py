"""The round clock: a database row with a deadline, moved by organizers, fired by Celery.

``RoundClock`` is the truth: ``status`` (ready, running, paused, called), ``deadline`` while running,
``remaining`` seconds while ready or paused, the warnings (seconds before the end) and which of them
were given (``fired``), and a ``version`` bumped by every change.

Organizer actions (start, pause, resume, extend, call time now) change the row in a transaction that
holds the event, then, after the commit, schedule one Celery task per upcoming event of the clock
(each warning, and the deadline): ``clock_tick(clock, version)`` with an ETA. The task calls
``advance(clock, version)``, which applies whatever is due at that moment, under the same lock:

- a task whose version is not the clock's any more (paused, extended, ...) does nothing;
- a warning already in ``fired`` is not given again, and time is called once (the status changes),
  so a task that runs twice, a duplicate, or a worker that restarts and redelivers, applies once;
- ``sweep()``, run by Celery beat every few seconds, calls ``advance`` for every running clock whose
  next event is due, so an event whose task was lost (broker down at scheduling time, a worker that
  died with it) still happens, a few seconds late at most.

Pages never count on their own: they show ``deadline`` (or ``remaining``) as sent by the server and
count down locally from it (``static/js/tournaments.js``).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import Event, Round, RoundClock
from .services import Conflict, Invalid, _changed, _lock, require_manager

logger = logging.getLogger(__name__)

TOLERANCE = 0.5  # seconds: a task may run this much before its moment and still count
MAX_EXTEND = 60 * 60


def _lock_clock(clock: RoundClock | int) -> tuple[Event, RoundClock]:
    pk = clock.pk if isinstance(clock, RoundClock) else clock
    event_id = RoundClock.objects.filter(pk=pk).values_list("round__event_id", flat=True).first()
    if event_id is None:
        raise Invalid("There is no such clock.")
    event = _lock(event_id)
    return event, RoundClock.objects.select_related("round").select_for_update(of=("self",)).get(pk=pk)


def refuse_if_over(event: Event, clock: RoundClock) -> None:
    """A finished event or a round with every result in has no clock to run (issue 14): refuse."""
    if event.is_finished:
        raise Conflict("The event is over: its clock stays stopped.")
    if clock.round.is_finished:
        raise Conflict(f"Every result of {clock.round.label.lower()} is in: its clock stays stopped.")


def stop(rnd: Round) -> None:
    """Inside the event's transaction, when a round finishes (or the event): a running clock stops
    where it is and its scheduled tasks go stale (the version moves), so nothing is called or warned
    any more. A clock whose time was called keeps that state; the pages stop showing it anyway."""
    clock = RoundClock.objects.select_for_update().filter(round=rnd).first()
    if clock is None or clock.status != RoundClock.Status.RUNNING:
        return
    clock.remaining = left(clock)
    clock.deadline = None
    clock.status = RoundClock.Status.PAUSED
    clock.version += 1
    clock.save(update_fields=["remaining", "deadline", "status", "version"])


def left(clock: RoundClock, now=None) -> float:
    """Seconds left on the clock now (never below zero)."""
    if clock.status == RoundClock.Status.RUNNING and clock.deadline is not None:
        now = now or timezone.now()
        return max(0.0, (clock.deadline - now).total_seconds())
    if clock.status == RoundClock.Status.CALLED:
        return 0.0
    return max(0.0, clock.remaining)


def _bump(clock: RoundClock, event: Event, by, action: str, message: str, **data) -> None:
    clock.version += 1
    clock.save()
    _changed(event, by, action, f"{clock.round.label}: {message}", round=clock.round.number, **data)
    if clock.status == RoundClock.Status.RUNNING:
        pk, version, moments = clock.pk, clock.version, upcoming(clock)
        transaction.on_commit(lambda: schedule(pk, version, moments))


def start(clock: RoundClock | int, by) -> RoundClock:
    with transaction.atomic():
        event, clock = _lock_clock(clock)
        require_manager(by, event)
        refuse_if_over(event, clock)
        if clock.status != RoundClock.Status.READY:
            raise Conflict("The clock has already started.")
        now = timezone.now()
        clock.status = RoundClock.Status.RUNNING
        clock.started_at = now
        clock.deadline = now + timedelta(seconds=clock.remaining)
        clock.fired = [w for w in clock.warnings if w >= clock.remaining]  # no "10 minutes left" at 8
        rnd = clock.round
        if rnd.status == Round.Status.PAIRED:
            rnd.status = Round.Status.PLAYING
            rnd.save(update_fields=["status"])
        from .drafting import start_timers

        start_timers(rnd)  # the pick timers run from the start of the round, not from its pairing
        _bump(clock, event, by, "clock", f"started the clock ({_mmss(clock.remaining)}).")
    return clock


def pause(clock: RoundClock | int, by) -> RoundClock:
    with transaction.atomic():
        event, clock = _lock_clock(clock)
        require_manager(by, event)
        if clock.status != RoundClock.Status.RUNNING:
            raise Conflict("The clock is not running.")
        clock.remaining = left(clock)
        clock.deadline = None
        clock.status = RoundClock.Status.PAUSED
        _bump(clock, event, by, "clock", f"paused the clock at {_mmss(clock.remaining)}.")
    return clock


def resume(clock: RoundClock | int, by) -> RoundClock:
    with transaction.atomic():
        event, clock = _lock_clock(clock)
        require_manager(by, event)
        refuse_if_over(event, clock)
        if clock.status != RoundClock.Status.PAUSED:
            raise Conflict("The clock is not paused.")
        clock.deadline = timezone.now() + timedelta(seconds=clock.remaining)
        clock.status = RoundClock.Status.RUNNING
        _bump(clock, event, by, "clock", f"resumed the clock at {_mmss(clock.remaining)}.")
    return clock


def extend(clock: RoundClock | int, seconds: int, by) -> RoundClock:
    """Add time (also after time was called: the clock runs again). Warnings that are ahead again
    will be given again."""
    try:
        seconds = int(seconds)
    except (TypeError, ValueError):
        raise Invalid("Extend by a whole number of minutes.") from None
    if not 0 < seconds <= MAX_EXTEND:
        raise Invalid(f"Extend by 1 to {MAX_EXTEND // 60} minutes.")
    with transaction.atomic():
        event, clock = _lock_clock(clock)
        require_manager(by, event)
        refuse_if_over(event, clock)
        now = timezone.now()
        if clock.status == RoundClock.Status.RUNNING:
            clock.deadline += timedelta(seconds=seconds)
        elif clock.status == RoundClock.Status.CALLED:
            clock.status = RoundClock.Status.RUNNING
            clock.deadline = now + timedelta(seconds=seconds)
            clock.called_at = None
        else:
            clock.remaining += seconds
        clock.duration += seconds
        ahead = left(clock, now)
        clock.fired = [w for w in clock.fired if w >= ahead]
        _bump(clock, event, by, "clock", f"extended the clock by {_mmss(seconds)} ({_mmss(ahead)} left).")
    return clock


def call_time(clock: RoundClock | int, by) -> RoundClock:
    """The organizer calls time now (whatever the clock says)."""
    with transaction.atomic():
        event, clock = _lock_clock(clock)
        require_manager(by, event)
        refuse_if_over(event, clock)
        if clock.status == RoundClock.Status.CALLED:
            raise Conflict("Time is already called.")
        _call(clock)
        _bump(clock, event, by, "clock", "called time.")
    return clock


def _call(clock: RoundClock) -> None:
    now = timezone.now()
    clock.status = RoundClock.Status.CALLED
    clock.called_at = now
    clock.remaining = 0
    clock.deadline = clock.deadline or now
    clock.fired = sorted(set(clock.fired) | set(clock.warnings), reverse=True)
    rnd = clock.round
    if rnd.status == Round.Status.PAIRED:
        rnd.status = Round.Status.PLAYING
        rnd.save(update_fields=["status"])
    from .in_app import on_time_called

    on_time_called(rnd)  # after the commit: time is called in the round's games played in the app


def upcoming(clock: RoundClock) -> list:
    """The moments (datetimes) of the clock's events still to come: warnings not given, the deadline."""
    if clock.status != RoundClock.Status.RUNNING or clock.deadline is None:
        return []
    moments = [clock.deadline - timedelta(seconds=w) for w in clock.warnings if w not in clock.fired]
    return sorted(moments) + [clock.deadline]


def due(clock: RoundClock, now=None) -> list[str]:
    """The events of a running clock that are due at `now`: "warn:<seconds>" and/or "call"."""
    if clock.status != RoundClock.Status.RUNNING or clock.deadline is None:
        return []
    ahead = ((clock.deadline - (now or timezone.now())).total_seconds()) - TOLERANCE
    events = [f"warn:{w}" for w in clock.warnings if w not in clock.fired and ahead <= w]
    if ahead <= 0:
        events.append("call")
    return events


def advance(clock_id: int, version: int | None = None) -> list[str]:
    """Apply what is due on the clock now; return what was applied ([] when nothing was: a stale
    task, a duplicate, an early one). `version`: the clock version the task was scheduled for
    (None: the sweep, which applies whatever is due)."""
    with transaction.atomic():
        try:
            event, clock = _lock_clock(clock_id)
        except Invalid:
            return []
        if version is not None and clock.version != version:
            return []
        if event.is_finished or clock.round.is_finished:
            return []  # nothing is called or warned in a round that is over
        events = due(clock)
        if not events:
            return []
        label = clock.round.label
        if "call" in events:
            _call(clock)
            message = f"{label}: time is called."
        else:
            given = sorted((int(e.split(":")[1]) for e in events), reverse=True)
            clock.fired = sorted(set(clock.fired) | set(given), reverse=True)
            message = f"{label}: {_mmss(min(given))} left."
        clock.save()  # the version stays: tasks scheduled for it still apply what comes later
        _changed(event, "clock", "clock", message, round=clock.round.number, events=events)
    return events


def sweep(now=None) -> int:
    """Catch every clock event that is due but was not applied (a lost task). Returns how many clocks
    moved. Run by Celery beat (CELERY_BEAT_SCHEDULE['tournaments-sweep'])."""
    now = now or timezone.now()
    moved = 0
    for clock in RoundClock.objects.filter(status=RoundClock.Status.RUNNING, deadline__isnull=False):
        if due(clock, now):
            moved += bool(advance(clock.pk))
    return moved


def catch_up(clock: RoundClock | None) -> RoundClock | None:
    """Before showing a clock: apply what is due and was missed (no beat running, a lost task), so a
    page never shows a running clock past its deadline. No query unless something is due."""
    if clock is not None and due(clock):
        advance(clock.pk)
        return RoundClock.objects.select_related("round").get(pk=clock.pk)
    return clock


def schedule(clock_id: int, version: int, moments) -> None:
    """One Celery task per upcoming moment of the clock, for this version."""
    from smashup.core.schedule import send_at

    from .tasks import clock_tick

    options = {}
    queue = getattr(settings, "TOURNAMENT_QUEUE", None)
    if queue:
        options["queue"] = queue
    for moment in moments:
        try:
            send_at(clock_tick, (clock_id, version), moment, **options)  # relays past the ETA horizon
        except Exception:  # broker down: the beat sweep catches the moment
            logger.exception("could not schedule clock %s at %s", clock_id, moment)


def warning_given(clock: RoundClock | None) -> int | None:
    """The latest warning given (seconds before the end) while the round still runs, for the pages'
    alert ("less than 10 minutes left"); None before any warning and once time is called. A warning
    counts as given once it is in `fired` (a round started with less time left than a warning has
    it there from the start: the alert is still true)."""
    if clock is None or clock.status not in (RoundClock.Status.RUNNING, RoundClock.Status.PAUSED):
        return None
    return min(clock.fired) if clock.fired else None


def state(clock: RoundClock | None, now=None) -> dict:
    """The clock as JSON for pages and the WebSocket: they count down from `deadline` themselves."""
    if clock is None:
        return {"status": "none"}
    now = now or timezone.now()
    return {
        "id": clock.pk,
        "round": clock.round.label,
        "status": clock.status,
        "deadline": clock.deadline.isoformat() if clock.status == RoundClock.Status.RUNNING else None,
        "remaining": round(left(clock, now), 1),
        "duration": clock.duration,
        "warnings": list(clock.warnings),
        "fired": list(clock.fired),
        "warned": warning_given(clock),
        "version": clock.version,
        "now": now.isoformat(),
    }


def _mmss(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds % 60 == 0:
        minutes = seconds // 60
        return f"{minutes} minute{'s' * (minutes != 1)}"
    return f"{seconds // 60}:{seconds % 60:02d}"
