"""The business logic of live games, as plain functions, in one namespace for views, consumers,
tournaments and tests. Views, consumers and tasks stay thin.

The functions live in modules by concern, layered so that no module imports one above it (checked by
tests/web/test_play_imports.py); this module only gathers them:

- ``errors``     the ``PlayError`` family (a message for people, a ``code`` for programs)
- ``tables``     lookups, names, the faction pool, random streams, the row lock
- ``live``       telling open pages that a game changed (channel groups, pings)
- ``gamecache``  engine games rebuilt from the record, cached, caught up
- ``timers``     turn timers on the row (arming, what is left, scheduling the timeout)
- ``commits``    what follows a committed change (``Outcome``, cache, notify, bot task)
- ``starting``   starting a table once its seats are filled
- ``drafting``   the faction draft at a table
- ``quotas``     who may set up another table (limits on live tables, tables of bots only)
- ``seats``      creating tables, taking seats, picking factions, seat links
- ``choices``    a seat's choice (``submit_choice``), in one transaction
- ``bots``       the server's bots and the timeouts they answer; beat's sweeps
- ``undoing``    taking back one's own last choice (the rule is in ``undo``)
- ``timecall``   time called on a game
- ``stopping``   a staff member ends a table (the admin's action)
- ``tasks``      the Celery tasks, on top of everything

Patch a function where it is used (e.g. ``commits.notify``), not here: this module only names them.
"""

# ruff: noqa: F401  (this module only gathers names)
from __future__ import annotations

from .bots import bot_move, fire_timer, run_bots, sweep_bots, sweep_timers
from .choices import MAX_OPTIONS, apply_choice, clean_choice, submit_choice
from .commits import (
    BOT_LATE_SECONDS,
    Outcome,
    bot_delay,
    bot_overdue_after,
    celery_eager,
    committed,
    kick_bots,
    outcome_of,
    schedule_bot,
    sync_row,
)
from .errors import (
    BadRequest,
    BadSeatLink,
    FactionError,
    GameBroken,
    GameNotFound,
    GameOver,
    IllegalMove,
    NothingToDo,
    NotStarted,
    NotYourDecision,
    PlayError,
    SeatError,
    SpectatorChoice,
    StaleChoice,
    UndoRefused,
)
from .gamecache import (
    GameCache,
    cache,
    engine_game,
    final_vp,
    game_at,
    rebuild,
    state_key,
    take_game,
    undo_snapshots,
)
from .live import (
    CHOICE_FIELDS,
    LIVE_FIELDS,
    _deferred,
    apply_live_fields,
    changed_on_commit,
    deferred_notifications,
    group_name,
    live_fields,
    notify,
    watch_group_name,
)
from .quotas import Creator, TableRefused, creator_of
from .seats import (
    MAX_GUEST_NAME,
    RESUME_LINK_SALT,
    SEAT_LINK_SALT,
    TAKEN_LINK,
    claim_seat,
    clean_factions,
    clean_guest_name,
    create_game,
    held_seats,
    linked_seat,
    pick_factions,
    remember_seat,
    resolve_seat,
    resume_link_token,
    seat_from_link,
    seat_from_resume_link,
    seat_hot_seat_table,
    seat_link_token,
    start_game,
)
from .starting import maybe_start
from .stopping import end_game
from .tables import (
    SeatSpec,
    draw_factions,
    factions_available,
    game_by_code,
    get_game,
    hints_on,
    is_bot_seat,
    lock_game,
    pace_seconds,
    player_names,
    random_stream,
    table_bot,
    table_stream,
    think_seconds,
)
from .timecall import call_time, time_called
from .undoing import may_undo, needs_stored_reason, undo_choice, undo_note

# The names these had when they were private to one module (kept for the callers that use them).
_lock = lock_game
_maybe_start = maybe_start
_changed_on_commit = changed_on_commit
