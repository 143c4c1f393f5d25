"""The business logic of tournaments, as plain functions. Views, consumers and tasks stay thin.

Every change to an event runs in one transaction that holds the event row (SELECT ... FOR UPDATE),
so two organizers (or an organizer and a player) never interleave half-done changes. Each change
writes an ``AuditEntry``, bumps ``Event.version`` and, only after the commit, tells the event's
channel group (``live.notify``) so open pages refresh. A refused request raises a
``TournamentError`` (a message for people, a ``code`` for programs) and changes nothing.

    event = create_event(organizer, name="Friday Smash", date=date.today())
    ada = register(event, "Ada")                        # a player signs up (or the organizer adds one)
    check_in(ada, by=organizer)
    rnd = generate_round(event, by=organizer)           # tournaments.pairing: round 1 seeded random
    report_result(table, ada, {ada.pk: 15, bob.pk: 9})  # a player of the table enters the VP
    confirm_result(table, bob, table.result_version)    # the others confirm (or dispute_result)
    set_result(table, {...}, by=organizer)              # the organizer enters or corrects any result
    correction_effects(table)                           # what a correction does not redo, in words
    mark_no_show(table, entrant, by=organizer)          # 0 VP, a loss; dropped unless keep=True
    next_round_check(event)                             # whole tables the next pairing seats again
    standings(event)                                    # tournaments.standings, recomputed

Who may do what: ``can_manage`` (organizer, co-organizers, superusers) for everything that changes an
event; a player only for their own registration, their own table's result and their own draft pick.

Modules by what they serve (each imports only those before it; no circle): ``changes`` (errors,
permissions, the lock and the audit), ``checkin`` (self check-in by QR code), ``entrants``,
``results`` (and standings), ``rounds`` (pairing, tables, drafts at the tables), ``rematches``
(whole tables seated again), ``knockout`` (top cut, final, results that change a seated stage),
``swaps`` (swapping players, late seats), ``lifecycle`` (settings, finishing), ``judging`` (judge
calls, penalties), ``importing`` (a list of players), ``manual`` (moving a player, pairing a table
again, tables kept for accessible seats).
This package re-exports them all.
Across events, imported by name (``from tournaments.services import records``): ``rating_store``
(the stored ratings, refreshed after every confirmed result; before ``results``), ``records``
(what the statistics, profile and ratings pages read) and ``leagues`` (series).
"""

from .changes import (  # noqa: F401
    MAX_NAME,
    MAX_VP,
    Conflict,
    Invalid,
    NotAllowed,
    TournamentError,
    _actor,
    _changed,
    _lock,
    can_manage,
    entrant_for,
    notify,
    remember_entrant,
    require_manager,
    touch,
)
from .checkin import (  # noqa: F401
    STALE_CODE,
    check_in_code_valid,
    rotate_check_in_code,
    self_check_in,
    set_self_check_in,
)
from .entrants import (  # noqa: F401
    _lock_entrant,
    active_entrants,
    check_in,
    clean_name,
    drop,
    has_started,
    latest_round,
    move_on_waitlist,
    promote,
    register,
    reinstate,
    rename,
    set_factions,
    set_player_cap,
    waitlist,
)
from .importing import ImportLine, ImportResult, import_players, preview_import  # noqa: F401
from .judging import (  # noqa: F401
    MAX_NOTE,
    MAX_VP_LOSS,
    call_judge,
    clean_note,
    give_penalty,
    handle_call,
    my_open_call,
    open_calls,
    penalties_of,
    revoke_penalty,
    withdraw_call,
)
from .knockout import (  # noqa: F401
    AdvancingChanged,
    _create_cut_table,
    create_final,
    next_stage_name,
    semifinal_seeds,
    set_result,
    start_final,
    start_top_cut,
    undo_no_show,
)
from .lifecycle import (  # noqa: F401
    EVENT_FIELDS,
    _plain,
    add_co_organizer,
    archive_event,
    bigbase_refusal,
    check_mode,
    check_settings,
    create_event,
    finish_event,
    planned_rounds,
    remove_co_organizer,
    suggested_rounds,
    update_event,
)
from .manual import (  # noqa: F401
    MAX_TABLE_NUMBER,
    check_move,
    check_repair,
    free_tables,
    move_player,
    repair_table,
    set_fixed_table,
)
from .rematches import (  # noqa: F401
    RematchCheck,
    earlier_tables,
    next_round_check,
    repeated_tables,
    whole_table_repeats,
)
from .results import (  # noqa: F401
    Placed,
    PlainEntrant,
    Row,
    Unusual,
    _confirm_result,
    _lock_table,
    _maybe_confirm,
    _maybe_finish_round,
    _seat_of,
    _vp_text,
    cached_standings,
    clean_vp,
    confirm_result,
    correction_effects,
    dispute_result,
    final_standings,
    mark_no_show,
    penalties_in_force,
    plain_entrants,
    points_of,
    ranked,
    record_app_result,
    report_result,
    round_correction_effects,
    round_tables,
    standings,
    standings_options,
    vp_by_table,
)
from .rounds import (  # noqa: F401
    _create_round,
    _create_tables,
    _drafts_at,
    _start_draft,
    generate_round,
    history,
    keep_numbers,
    named_report,
    pairing_options,
    pairing_players,
    published_draw,
    unpair_round,
)
from .swaps import _swap, check_swap, named_pairing, seat_late, swap_players  # noqa: F401
