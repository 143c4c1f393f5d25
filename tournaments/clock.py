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
- a table with extra time (a judge call, ``extend_table``) has its own moment, the round's deadline
  plus its extra seconds (``extensions`` on the row): when the round's time is called it plays on,
  and ``advance`` calls time at that table alone when its moment comes ("table:<pk>"); the
  organizer's "call time now" ends every table at once;
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
    moments = upcoming(clock)
    if moments:
        pk, version = clock.pk, clock.version
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
            clock.extensions_called = []  # the whole room plays on, extended tables too
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
        if clock.status == RoundClock.Status.CALLED and not pending_extensions(clock):
            raise Conflict("Time is already called.")
        if clock.status == RoundClock.Status.CALLED:  # only extended tables still played: end them
            _call_tables(clock, list(pending_extensions(clock)))
        else:
            _call(clock, everyone=True)
        _bump(clock, event, by, "clock", "called time" + (" at every table." if clock.extensions else "."))
    return clock


def _call(clock: RoundClock, everyone: bool = False) -> None:
    """Time is called for the round: at every table, or (`everyone` False: the deadline passed) at
    every table but those with extra time still to play (judge calls), which the clock calls later."""
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

    if everyone:
        clock.extensions_called = sorted(clock.extensions)
    # After the commit: time is called in the round's games played in the app (not at extended tables).
    on_time_called(rnd, skip=[int(pk) for pk in pending_extensions(clock)])


def _call_tables(clock: RoundClock, table_pks: list) -> None:
    """The extra time of these tables is over: time is called at them (and in their app games)."""
    from .in_app import on_table_time_called

    clock.extensions_called = sorted(set(clock.extensions_called) | {str(pk) for pk in table_pks})
    for pk in table_pks:
        on_table_time_called(int(pk))


# ---------------------------------------------------------------------------------- judge calls --
def pending_extensions(clock: RoundClock | None) -> dict[str, int]:
    """{table pk (str): extra seconds} of the tables whose extra time is still to come or running."""
    if clock is None:
        return {}
    called = set(clock.extensions_called or ())
    return {pk: extra for pk, extra in (clock.extensions or {}).items() if pk not in called}


def table_called(clock: RoundClock | None, table_pk: int) -> bool:
    """Whether time is called at this table: the round's time is, and it has no extra time left."""
    if clock is None or clock.status != RoundClock.Status.CALLED:
        return False
    return str(table_pk) not in pending_extensions(clock)


def table_left(clock: RoundClock, table_pk: int, now=None) -> float:
    """Seconds left at one table: the round's time plus the table's extra time."""
    extra = (clock.extensions or {}).get(str(table_pk), 0)
    if table_called(clock, table_pk):
        return 0.0
    if clock.status in (RoundClock.Status.RUNNING, RoundClock.Status.CALLED) and clock.deadline is not None:
        now = now or timezone.now()
        return max(0.0, (clock.deadline + timedelta(seconds=extra) - now).total_seconds())
    return max(0.0, clock.remaining) + extra


def table_state(clock: RoundClock | None, table, now=None) -> dict | None:
    """The clock of one table with extra time, as `state` gives the round's (None without extra
    time): the player's page and the projector count down from it. The table runs on while the
    round's time is called and its extra time is not over."""
    if clock is None or str(table.pk) not in (clock.extensions or {}):
        return None
    now = now or timezone.now()
    extra = clock.extensions[str(table.pk)]
    if table_called(clock, table.pk):
        status = RoundClock.Status.CALLED
    elif clock.status == RoundClock.Status.CALLED:
        status = RoundClock.Status.RUNNING
    else:
        status = clock.status
    running = status == RoundClock.Status.RUNNING and clock.deadline is not None
    return {
        "table": table.number,
        "extra": extra,
        "extra_text": _mmss(extra),
        "status": status,
        "deadline": (clock.deadline + timedelta(seconds=extra)).isoformat() if running else None,
        "remaining": round(table_left(clock, table.pk, now), 1),
        "now": now.isoformat(),
    }


def extend_table(table, seconds, by) -> RoundClock:
    """A judge call: `seconds` more for one table only, beyond the round's time. Shown on the
    projector, the dashboard and the players' pages; the clock calls time at that table when its
    extra time is over (a Celery task per moment, as for the round; the sweep catches a lost one)."""
    from .models import Table

    try:
        seconds = int(seconds)
    except (TypeError, ValueError):
        raise Invalid("Extend by a whole number of minutes.") from None
    if not 0 < seconds <= MAX_EXTEND:
        raise Invalid(f"Extend by 1 to {MAX_EXTEND // 60} minutes.")
    pk = table.pk if isinstance(table, Table) else table
    clock_id = RoundClock.objects.filter(round__tables=pk).values_list("pk", flat=True).first()
    if clock_id is None:
        raise Invalid("There is no such table.")
    with transaction.atomic():
        event, clock = _lock_clock(clock_id)
        require_manager(by, event)
        refuse_if_over(event, clock)
        table = Table.objects.get(pk=pk)
        if table.state == Table.State.CONFIRMED:
            raise Conflict(f"Table {table.number} has its result: it needs no more time.")
        if table_called(clock, table.pk):
            raise Conflict(f"Time is already called at table {table.number}: give extra time before it is.")
        extensions = dict(clock.extensions or {})
        extensions[str(table.pk)] = extensions.get(str(table.pk), 0) + seconds
        if extensions[str(table.pk)] > MAX_EXTEND:
            raise Invalid(f"A table gets at most {MAX_EXTEND // 60} extra minutes in all.")
        clock.extensions = extensions
        total = extensions[str(table.pk)]
        _bump(
            clock,
            event,
            by,
            "table_time",
            f"gave table {table.number} {_mmss(seconds)} more ({_mmss(total)} extra in all).",
            table=table.pk,
            seconds=seconds,
        )
    return clock


def upcoming(clock: RoundClock) -> list:
    """The moments (datetimes) of the clock's events still to come: warnings not given, the deadline,
    the end of each table's extra time (still to come after the round's time is called)."""
    if clock.deadline is None or clock.status not in (RoundClock.Status.RUNNING, RoundClock.Status.CALLED):
        return []
    tables = sorted({clock.deadline + timedelta(seconds=s) for s in pending_extensions(clock).values()})
    if clock.status == RoundClock.Status.CALLED:
        return tables
    moments = [clock.deadline - timedelta(seconds=w) for w in clock.warnings if w not in clock.fired]
    return sorted(moments) + [clock.deadline] + tables


def due(clock: RoundClock, now=None) -> list[str]:
    """The events of a running clock that are due at `now`: "warn:<seconds>", "call" and/or
    "table:<pk>" (a table's extra time is over; also once the round's time is called)."""
    if clock.deadline is None or clock.status not in (RoundClock.Status.RUNNING, RoundClock.Status.CALLED):
        return []
    ahead = ((clock.deadline - (now or timezone.now())).total_seconds()) - TOLERANCE
    events = []
    if clock.status == RoundClock.Status.RUNNING:
        events = [f"warn:{w}" for w in clock.warnings if w not in clock.fired and ahead <= w]
        if ahead <= 0:
            events.append("call")
    events += [f"table:{pk}" for pk, extra in sorted(pending_extensions(clock).items()) if ahead + extra <= 0]
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
        tables = [e.split(":")[1] for e in events if e.startswith("table:")]
        warnings = [e for e in events if e.startswith("warn:")]
        if "call" in events:
            _call(clock)
            extended = len(pending_extensions(clock)) - len(tables)
            later = f" (not yet at {extended} table{'s' * (extended != 1)} with extra time)"
            message = f"{label}: time is called{later if extended > 0 else ''}."
        elif warnings:
            given = sorted((int(e.split(":")[1]) for e in warnings), reverse=True)
            clock.fired = sorted(set(clock.fired) | set(given), reverse=True)
            message = f"{label}: {_mmss(min(given))} left."
        else:
            message = ""
        if tables:
            from .models import Table

            _call_tables(clock, tables)
            numbers = sorted(Table.objects.filter(pk__in=tables).values_list("number", flat=True))
            called = f"time is called at table{'s' * (len(numbers) != 1)} {', '.join(map(str, numbers))}"
            if message:
                message = f"{message[:-1]}; {called}."
            else:
                message = f"{label}: {called} (extra time over)."
        clock.save()  # the version stays: tasks scheduled for it still apply what comes later
        _changed(event, "clock", "clock", message, round=clock.round.number, events=events)
    return events


def sweep(now=None) -> int:
    """Catch every clock event that is due but was not applied (a lost task). Returns how many clocks
    moved. Run by Celery beat (CELERY_BEAT_SCHEDULE['tournaments-sweep'])."""
    now = now or timezone.now()
    moved = 0
    clocks = RoundClock.objects.filter(
        status__in=(RoundClock.Status.RUNNING, RoundClock.Status.CALLED), deadline__isnull=False
    ).exclude(status=RoundClock.Status.CALLED, extensions={})
    clocks = clocks.exclude(round__status=Round.Status.FINISHED).exclude(
        round__event__status=Event.Status.FINISHED
    )
    for clock in clocks:
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
        "extended": sorted(int(pk) for pk in pending_extensions(clock)),
        "now": now.isoformat(),
    }


def _mmss(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds % 60 == 0:
        minutes = seconds // 60
        return f"{minutes} minute{'s' * (minutes != 1)}"
    return f"{seconds // 60}:{seconds % 60:02d}"
