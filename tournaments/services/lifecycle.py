"""The event's life: settings, co-organizers, finishing.

Part of ``tournaments.services`` (see its docstring); import from there."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import date as date_type

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from smashup import draft as kiq
from tournaments import topcut
from tournaments.standings import TIEBREAKERS

from ..models import Event, Round
from .changes import Conflict, Invalid, _changed, _lock, require_manager
from .entrants import active_entrants, set_player_cap


# ---------------------------------------------------------------------------------- events -------
def suggested_rounds(players: int, table_size: int = 4) -> int:
    """Swiss rounds for `players`: enough rounds for a clear leader to emerge, one more at multiplayer
    tables (a table of four sorts four players per game, so log4 rounds separate everyone). At
    least 2, 3 from 5 players at tables of 3-4."""
    if players <= table_size:
        return 1 if players <= 2 else 2
    if table_size <= 2:
        return max(2, math.ceil(math.log2(players)))
    return max(3, math.ceil(math.log(players, table_size)) + 1)


def planned_rounds(event: Event, players: int | None = None) -> int:
    if event.rounds:
        return event.rounds
    if players is None:
        players = len(active_entrants(event)) or event.entrants.filter(dropped=False).count()
    return suggested_rounds(players, event.table_size)


EVENT_FIELDS = (
    "name", "date", "place", "description", "mode", "table_size", "layout", "rounds", "round_minutes",
    "warning_minutes", "end_rule", "faction_pool", "faction_copies", "draft_mode", "bans_per_player",
    "pick_seconds", "scoring", "tiebreakers", "top_cut", "require_check_in", "registration_open",
    "in_app_base_limit", "min_factions_per_player", "player_cap", "board", "short_tables", "avoid_clubs",
)  # fmt: skip


def check_settings(values: Mapping, board_changed: bool = True) -> None:
    """Refuse settings the pure modules would refuse later (a draft pool too small, ...).
    `board_changed` False: the mode and board stay as they are (a board the database has stopped
    offering since does not keep the organizer from changing other settings)."""
    tiebreakers = list(values.get("tiebreakers") or [])
    unknown = [t for t in tiebreakers if t not in TIEBREAKERS]
    if unknown or len(set(tiebreakers)) != len(tiebreakers):
        raise Invalid(f"Tie-breakers: choose each of {', '.join(TIEBREAKERS)} at most once.")
    size, cut = int(values.get("table_size") or 4), int(values.get("top_cut") or 0)
    allowed = topcut.CUTS_BY_TABLE.get(size, ())
    if cut and cut not in allowed:
        if size == 2:
            raise Invalid(
                "A 1v1 event's top cut is a top 4, 8 or 16: a bracket of tables of 2 down to the final."
            )
        raise Invalid(
            f"At tables of {size} the top cut is a top {', a top '.join(map(str, allowed[:-1]))} or a top "
            f"{allowed[-1]}, played at tables of {size}."
        )
    if values.get("short_tables", Event.ShortTables.STRICT) not in Event.ShortTables.values:
        raise Invalid("Short tables are strict or soft.")
    if not isinstance(values.get("avoid_clubs", False), bool):
        raise Invalid("Keeping clubs apart in round 1 is on or off.")
    cap = values.get("player_cap")
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 2):
        raise Invalid("A player cap is at least 2 players (or empty: no cap).")
    if board_changed:
        check_mode(values)
    pool = list(values.get("faction_pool") or [])
    bad = [f for f in pool if f not in kiq.FACTIONS]
    if bad:
        raise Invalid(f"Unknown factions in the pool: {', '.join(bad)}.")
    minimum = values.get("min_factions_per_player", kiq.FACTIONS_EACH)
    if isinstance(minimum, bool) or not isinstance(minimum, int) or not kiq.FACTIONS_EACH <= minimum <= 8:
        raise Invalid(f"The minimum pool is {kiq.FACTIONS_EACH} to 8 factions per player.")
    if values.get("draft_mode", Event.DraftMode.EVENT) != Event.DraftMode.NONE:
        size = int(values.get("table_size") or 4)
        try:
            kiq.new_draft(
                list(range(size)),
                seed=0,
                pool=pool,
                copies=int(values.get("faction_copies") or 1),
                bans_per_player=int(values.get("bans_per_player") or 0),
                min_per_player=minimum,
            )
        except kiq.DraftError as exc:
            raise Invalid(f"The faction pool does not work for a table of {size}: {exc}.") from None


def bigbase_refusal() -> str | None:
    """Why an event cannot be a Big Base event now, or None: its games need a board from the
    database (the organizers keep them in the admin: Big Base boards)."""
    from bigbase.boards import offered_boards

    if not offered_boards():
        return "Big Base needs a board, and the database offers none (admin: Big Base boards)."
    return None


def check_mode(values: Mapping) -> None:
    """A Big Base event plays on a board the database offers, and ends after its scoring periods (no
    base limit); a standard event has no board."""
    mode, board = values.get("mode") or Event.Mode.STANDARD, values.get("board") or ""
    if mode == Event.Mode.STANDARD:
        if board:
            raise Invalid("Only a Big Base event has a board.")
        return
    if mode != Event.Mode.BIGBASE:
        raise Invalid("An event is standard or Big Base.")
    refusal = bigbase_refusal()
    if refusal:
        raise Invalid(refusal)
    from bigbase.boards import offered_boards

    if board not in dict(offered_boards()):
        raise Invalid("Choose one of the Big Base boards offered.")
    if values.get("in_app_base_limit"):
        raise Invalid("A Big Base game ends after its scoring periods: the base limit is for standard games.")


def create_event(organizer, **fields) -> Event:
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise TypeError(f"unknown event fields {sorted(unknown)}")
    fields.setdefault("date", timezone.localdate())
    defaults = {f.name: f.get_default() for f in Event._meta.fields if f.name in EVENT_FIELDS}
    check_settings({**defaults, **fields})
    with transaction.atomic():
        event = Event.objects.create(organizer=organizer, **fields)
        _changed(event, organizer, "create", f"Created the event {event.name}.")
    return event


def update_event(event: Event, by, **fields) -> Event:
    """Change settings; a new player cap goes through `set_player_cap` (never below the players who
    have a place; a raise lets the waitlist in), all in one transaction."""
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise TypeError(f"unknown event fields {sorted(unknown)}")
    cap_given = "player_cap" in fields
    cap = fields.pop("player_cap", None)
    with transaction.atomic():
        event = _update_settings(event, by, **fields)
        if cap_given:
            event = set_player_cap(event, cap, by)
    return event


def _update_settings(event: Event, by, **fields) -> Event:
    with transaction.atomic():
        event = _lock(event)
        changes = {k: v for k, v in fields.items() if getattr(event, k) != v}
        if not changes:
            return event
        check_settings(
            {**{f: getattr(event, f) for f in EVENT_FIELDS}, **changes},
            board_changed=bool({"mode", "board", "in_app_base_limit"} & set(changes)),
        )
        if event.rounds_set.exists():
            locked = {"table_size", "mode", "board"} & set(changes)
            if locked:
                raise Conflict(
                    "The table size, the format and the board cannot change once a round is paired."
                )
        before = {k: _plain(getattr(event, k)) for k in changes}
        for key, value in changes.items():
            setattr(event, key, value)
        event.save(update_fields=[*changes, "updated_at"])
        names = ", ".join(Event._meta.get_field(k).verbose_name for k in changes)
        _changed(
            event,
            by,
            "settings",
            f"Changed {names}.",
            before=before,
            after={k: _plain(v) for k, v in changes.items()},
        )
    return event


def _plain(value):
    if isinstance(value, date_type):
        return value.isoformat()
    return value


def add_co_organizer(event: Event, username: str, by) -> object:
    user = get_user_model().objects.filter(username__iexact=(username or "").strip()).first()
    if user is None:
        raise Invalid(f"There is no user called {username!r}; they need an account first.")
    with transaction.atomic():
        event = _lock(event)
        if user.pk == event.organizer_id or event.co_organizers.filter(pk=user.pk).exists():
            raise Conflict(f"{user.get_username()} already organizes this event.")
        event.co_organizers.add(user)
        _changed(event, by, "co_organizer", f"Added {user.get_username()} as a co-organizer.", user=user.pk)
    return user


def remove_co_organizer(event: Event, user_id: int, by) -> None:
    with transaction.atomic():
        event = _lock(event)
        user = event.co_organizers.filter(pk=user_id).first()
        if user is None:
            raise Invalid("That user is not a co-organizer of this event.")
        event.co_organizers.remove(user)
        _changed(
            event, by, "co_organizer", f"Removed {user.get_username()} from the co-organizers.", user=user.pk
        )


def archive_event(event: Event, by, archived: bool = True) -> Event:
    """Archive an event (or bring it back): it leaves the lists of events, and everything it holds
    stays, its results and audit log included. What an organizer does in place of deleting an event
    with results, which is refused (models.ARCHIVE_INSTEAD)."""
    with transaction.atomic():
        event = _lock(event)
        require_manager(by, event)
        if event.is_archived == archived:
            raise Conflict("The event is already archived." if archived else "The event is not archived.")
        event.archived_at = timezone.now() if archived else None
        event.save(update_fields=["archived_at", "updated_at"])
        if archived:
            _changed(event, by, "archive", "Archived the event: it is no longer listed.")
        else:
            _changed(event, by, "archive", "Brought the event back from the archive: it is listed again.")
    return event


def finish_event(event: Event, by) -> Event:
    with transaction.atomic():
        event = _lock(event)
        if event.is_finished:
            raise Conflict("The event is already finished.")
        open_round = event.rounds_set.exclude(status=Round.Status.FINISHED).first()
        if open_round is not None:
            raise Conflict(f"{open_round.label} still has tables without a confirmed result.")
        event.status = Event.Status.FINISHED
        event.registration_open = False
        event.save(update_fields=["status", "registration_open", "updated_at"])
        _changed(event, by, "finish", "Finished the event.")
    return event
