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
    standings(event)                                    # tournaments.standings, recomputed

Who may do what: ``can_manage`` (organizer, co-organizers, superusers) for everything that changes an
event; a player only for their own registration, their own table's result and their own draft pick.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date as date_type

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils import timezone

from smashup import draft as kiq
from tournaments import topcut
from tournaments.pairing import PairingOptions, PastRound, Player, evaluate, pair_round
from tournaments.pairing.cost import TableReport
from tournaments.standings import TIEBREAKERS, Standing, StandingsOptions, compute_standings
from tournaments.standings import Game as PlayedGame

from .models import AuditEntry, Bye, Draft, Entrant, Event, Round, RoundClock, Seat, Table

MAX_NAME = 40
MAX_VP = 999


# ---------------------------------------------------------------------------------- errors -------
class TournamentError(Exception):
    """A refused request. `str(err)` is for people, `err.code` for programs. Nothing was changed."""

    code = "error"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self)


class NotAllowed(TournamentError):
    code = "forbidden"


class Conflict(TournamentError):
    code = "conflict"


class Invalid(TournamentError):
    code = "invalid"


# ---------------------------------------------------------------------------------- who ----------
def can_manage(user, event: Event) -> bool:
    """The organizer, a co-organizer or a superuser."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser or event.organizer_id == user.pk:
        return True
    return event.co_organizers.filter(pk=user.pk).exists()


def require_manager(user, event: Event) -> None:
    if not can_manage(user, event):
        raise NotAllowed("Only the organizers of this event can do that.")


def entrant_for(event: Event, user=None, session=None) -> Entrant | None:
    """The entrant this logged-in user or this browser session is, if any."""
    if user is not None and getattr(user, "is_authenticated", False):
        found = event.entrants.filter(user=user).first()
        if found is not None:
            return found
    token = ((session or {}).get("tournament_entries") or {}).get(str(event.pk))
    if isinstance(token, str) and token:
        return event.entrants.filter(token=token).first()
    return None


def remember_entrant(session, entrant: Entrant) -> None:
    """This browser session acts for `entrant` from now on (what a sign-up or a private link gives)."""
    held = dict(session.get("tournament_entries") or {})
    held[str(entrant.event_id)] = entrant.token
    session["tournament_entries"] = held


def _actor(by) -> tuple[object | None, str]:
    """(user or None, display name) of whoever acts: a user, an entrant (a player) or None (the server)."""
    if by is None:
        return None, "server"
    if isinstance(by, str):
        return None, by
    if isinstance(by, Entrant):
        return by.user, f"{by.name} (player)"
    return by, by.get_username()


# ---------------------------------------------------------------------------------- plumbing -----
def _lock(event: Event | int) -> Event:
    pk = event.pk if isinstance(event, Event) else event
    try:
        return Event.objects.select_for_update().get(pk=pk)
    except Event.DoesNotExist:
        raise TournamentError("There is no such event.", "not_found") from None


def _changed(event: Event, by, action: str, message: str, **data) -> AuditEntry:
    """Inside the event's transaction: write the audit entry, bump the version, notify after commit."""
    user, actor = _actor(by)
    entry = AuditEntry.objects.create(
        event=event, user=user, actor=actor[:80], action=action, message=message, data=data
    )
    touch(event)
    return entry


def touch(event: Event) -> None:
    """Bump the event's version (the event row must be locked) and tell its pages after the commit."""
    event.version += 1
    Event.objects.filter(pk=event.pk).update(version=event.version, updated_at=timezone.now())
    pk, version = event.pk, event.version
    transaction.on_commit(lambda: notify(pk, version))


def notify(event_id: int, version: int) -> None:
    from .live import notify_event

    notify_event(event_id, version)


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
    "in_app_base_limit", "min_factions_per_player",
)  # fmt: skip


def check_settings(values: Mapping) -> None:
    """Refuse settings the pure modules would refuse later (a draft pool too small, ...)."""
    tiebreakers = list(values.get("tiebreakers") or [])
    unknown = [t for t in tiebreakers if t not in TIEBREAKERS]
    if unknown or len(set(tiebreakers)) != len(tiebreakers):
        raise Invalid(f"Tie-breakers: choose each of {', '.join(TIEBREAKERS)} at most once.")
    one_v_one = int(values.get("table_size") or 4) == 2
    if one_v_one and int(values.get("top_cut") or 0) not in (0, *topcut.ONE_V_ONE_CUTS):
        raise Invalid("A 1v1 event's top cut is a top 4: two semifinals, then the final.")
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
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise TypeError(f"unknown event fields {sorted(unknown)}")
    with transaction.atomic():
        event = _lock(event)
        changes = {k: v for k, v in fields.items() if getattr(event, k) != v}
        if not changes:
            return event
        check_settings({**{f: getattr(event, f) for f in EVENT_FIELDS}, **changes})
        if event.rounds_set.exists():
            locked = {"table_size", "mode"} & set(changes)
            if locked:
                raise Conflict("The table size and the format cannot change once a round is paired.")
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


# ---------------------------------------------------------------------------------- entrants -----
def clean_name(name) -> str:
    name = " ".join(str(name or "").split())
    if not name:
        raise Invalid("Enter a name.")
    if len(name) > MAX_NAME:
        raise Invalid(f"A name has at most {MAX_NAME} characters.")
    return name


def latest_round(event: Event) -> Round | None:
    return event.rounds_set.order_by("-number").first()


def register(event: Event, name: str = "", *, user=None, by=None, checked_in: bool | None = None) -> Entrant:
    """Sign a player up. `by` None or the entrant's own user: a self sign-up (registration must be
    open); `by` an organizer: they add the player, checked in at once (they are at the desk).

    After round 1 was paired this is a late entry: the player is paired from the next round on, or
    the organizer seats them into a short table of the current round (`seat_late`)."""
    organizer = by is not None and by is not user and can_manage(by, event)
    if user is not None and not getattr(user, "is_authenticated", False):
        user = None
    if not name and user is not None:
        name = user.get_username()
    name = clean_name(name)
    with transaction.atomic():
        event = _lock(event)
        if event.is_finished:
            raise Conflict("This event is over.")
        if not organizer and not event.registration_open:
            raise Conflict("Registration for this event is closed; ask an organizer.")
        if user is not None and event.entrants.filter(user=user).exists():
            raise Conflict("You are already signed up for this event.")
        if event.entrants.filter(name__iexact=name).exists():
            raise Conflict(f"Someone called {name} is already signed up; add something to tell you apart.")
        last = latest_round(event)
        if checked_in is None:
            checked_in = organizer
        try:
            with transaction.atomic():
                entrant = Entrant.objects.create(
                    event=event,
                    name=name,
                    user=user,
                    checked_in=checked_in,
                    checked_in_at=timezone.now() if checked_in else None,
                    late_round=last.number if last else None,
                )
        except IntegrityError:
            raise Conflict(f"{name} is already signed up.") from None
        late = f" (late entry, during {last.label.lower()})" if last else ""
        who = "Added" if organizer else "Signed up"
        _changed(event, by or user or entrant, "register", f"{who} {name}{late}.", entrant=entrant.pk)
    return entrant


def _lock_entrant(entrant: Entrant | int) -> tuple[Event, Entrant]:
    pk = entrant.pk if isinstance(entrant, Entrant) else entrant
    event_id = Entrant.objects.filter(pk=pk).values_list("event_id", flat=True).first()
    if event_id is None:
        raise TournamentError("There is no such player.", "not_found")
    event = _lock(event_id)
    return event, Entrant.objects.get(pk=pk)


def check_in(entrant: Entrant | int, by, checked_in: bool = True) -> Entrant:
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        require_manager(by, event)
        if entrant.checked_in == checked_in:
            return entrant
        if entrant.dropped and checked_in:
            raise Conflict(f"{entrant.name} has dropped; reinstate them first.")
        entrant.checked_in = checked_in
        entrant.checked_in_at = timezone.now() if checked_in else None
        entrant.save(update_fields=["checked_in", "checked_in_at"])
        verb = "Checked in" if checked_in else "Undid the check-in of"
        _changed(event, by, "check_in", f"{verb} {entrant.name}.", entrant=entrant.pk, checked_in=checked_in)
    return entrant


def drop(entrant: Entrant | int, by) -> Entrant:
    """Drop from the next round on: a table the player sits at now keeps them (and their result)."""
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        own = isinstance(by, Entrant) and by.pk == entrant.pk
        if not own:
            require_manager(by, event)
        if entrant.dropped:
            raise Conflict(f"{entrant.name} has already dropped.")
        last = latest_round(event)
        entrant.dropped = True
        entrant.dropped_after = last.number if last else 0
        entrant.save(update_fields=["dropped", "dropped_after"])
        when = f"after {last.label.lower()}" if last else "before the first round"
        _changed(
            event,
            by,
            "drop",
            f"{entrant.name} dropped ({when}).",
            entrant=entrant.pk,
            after=entrant.dropped_after,
        )
    return entrant


def reinstate(entrant: Entrant | int, by) -> Entrant:
    """Undo a drop: the player is paired again from the next round on (the rounds missed stay missed)."""
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        require_manager(by, event)
        if not entrant.dropped:
            raise Conflict(f"{entrant.name} has not dropped.")
        entrant.dropped = False
        entrant.dropped_after = None
        entrant.save(update_fields=["dropped", "dropped_after"])
        _changed(event, by, "reinstate", f"Reinstated {entrant.name}.", entrant=entrant.pk)
    return entrant


def rename(entrant: Entrant | int, name: str, by) -> Entrant:
    name = clean_name(name)
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        require_manager(by, event)
        if event.entrants.filter(name__iexact=name).exclude(pk=entrant.pk).exists():
            raise Conflict(f"Someone called {name} is already signed up.")
        old = entrant.name
        entrant.name = name
        entrant.save(update_fields=["name"])
        _changed(event, by, "rename", f"Renamed {old} to {name}.", entrant=entrant.pk, before=old)
    return entrant


def set_factions(entrant: Entrant | int, factions: Iterable[str], by) -> Entrant:
    """The organizer sets a player's pair (no draft, or a late entrant in an event draft). Copied to
    the player's seats in rounds without results yet."""
    factions = [f for f in factions if f]
    if len(factions) != 2 or factions[0] == factions[1] or any(f not in kiq.FACTIONS for f in factions):
        raise Invalid("Choose two different factions.")
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        require_manager(by, event)
        entrant.factions = factions
        entrant.save(update_fields=["factions"])
        Seat.objects.filter(entrant=entrant, table__state=Table.State.OPEN).filter(
            table__draft__isnull=True
        ).update(factions=factions)
        _changed(
            event,
            by,
            "factions",
            f"Set the factions of {entrant.name}: {' + '.join(factions)}.",
            entrant=entrant.pk,
        )
    return entrant


def active_entrants(event: Event) -> list[Entrant]:
    """Who is paired in the next round: not dropped and (when the event asks for it) checked in."""
    qs = event.entrants.filter(dropped=False)
    if event.require_check_in:
        qs = qs.filter(checked_in=True)
    return list(qs)


def seat_late(entrant: Entrant | int, table: Table | int, by) -> Seat:
    """Seat a late entrant at a short table of the round in progress (before any result there)."""
    with transaction.atomic():
        event, entrant = _lock_entrant(entrant)
        require_manager(by, event)
        table = (
            Table.objects.select_related("round")
            .filter(pk=table.pk if isinstance(table, Table) else table)
            .first()
        )
        if table is None:
            raise Invalid("Choose a table.")
        rnd = table.round
        if rnd.event_id != event.pk:
            raise Invalid("That table is not in this event.")
        if rnd != latest_round(event) or rnd.is_finished:
            raise Conflict("Late entrants join a table of the round in progress only.")
        if entrant.dropped:
            raise Conflict(f"{entrant.name} has dropped.")
        if (
            Seat.objects.filter(round=rnd, entrant=entrant).exists()
            or rnd.byes.filter(entrant=entrant).exists()
        ):
            raise Conflict(f"{entrant.name} already plays in {rnd.label.lower()}.")
        seats = list(table.seats.all())
        if len(seats) >= event.table_size:
            raise Conflict(f"Table {table.number} is full.")
        if table.state != Table.State.OPEN:
            raise Conflict(f"Table {table.number} has already reported a result.")
        if table.game_id is not None:
            # The game's seats are fixed when it starts; its result is recorded by seat position.
            raise Conflict(f"Table {table.number} is playing in the app; seat {entrant.name} elsewhere.")
        draft = Draft.objects.filter(table=table).first()
        if draft is not None and draft.version > 0:
            raise Conflict(f"The draft at table {table.number} has started; seat {entrant.name} elsewhere.")
        seat = Seat.objects.create(
            table=table, round=rnd, entrant=entrant, position=len(seats), factions=list(entrant.factions)
        )
        if not entrant.checked_in:
            entrant.checked_in, entrant.checked_in_at = True, timezone.now()
            entrant.save(update_fields=["checked_in", "checked_in_at"])
        if draft is not None:
            draft.delete()
            _start_draft(event, table, [s.entrant_id for s in [*seats, seat]])
        if rnd.stage == Round.Stage.SWISS:
            # The table's explanation follows its new players (no longer short, who met whom...).
            numbers = list(rnd.tables.order_by("number").values_list("number", flat=True))
            report = named_pairing(rnd)[0].tables[numbers.index(table.number)]
            Table.objects.filter(pk=table.pk).update(report=named_report(report, {}))
        _changed(
            event,
            by,
            "seat_late",
            f"Seated {entrant.name} (late entry) at table {table.number} of {rnd.label.lower()}.",
            entrant=entrant.pk,
            table=table.pk,
        )
    return seat


# ---------------------------------------------------------------------------------- standings ----
@dataclass(frozen=True)
class Row:
    """One line of the standings: the pure module's `Standing` with the entrant it is about."""

    entrant: Entrant
    standing: Standing

    def __getattr__(self, name):
        return getattr(self.standing, name)


def standings_options(event: Event) -> StandingsOptions:
    return StandingsOptions(
        preset=event.scoring,
        tiebreakers=tuple(event.tiebreakers or ()),
        table_size=event.table_size,
        seed=event.seed,
    )


def standings(
    event: Event, *, before_round: int | None = None, entrants: list[Entrant] | None = None
) -> list[Row]:
    """The Swiss standings from the confirmed results (three queries whatever the size of the event).

    Listed: everyone who played a game or had a bye, and everyone still active (dropped players
    stay, flagged). `before_round`: only the rounds before that number (what a pairing saw)."""
    if entrants is None:
        entrants = list(Entrant.objects.filter(event=event))
    seats = Seat.objects.filter(
        round__event=event, round__stage=Round.Stage.SWISS, table__state=Table.State.CONFIRMED
    )
    byes = Bye.objects.filter(round__event=event, round__stage=Round.Stage.SWISS)
    if before_round is not None:
        seats = seats.filter(round__number__lt=before_round)
        byes = byes.filter(round__number__lt=before_round)
    tables: dict[int, tuple[int, dict]] = {}
    for table_id, number, entrant_id, vp in seats.values_list(
        "table_id", "round__number", "entrant_id", "vp"
    ):
        tables.setdefault(table_id, (number, {}))[1][entrant_id] = vp or 0
    bye_list = list(byes.values_list("round__number", "entrant_id"))
    games = [PlayedGame(number, vp) for number, vp in tables.values()]
    played = {e for _, vp in tables.values() for e in vp} | {e for _, e in bye_list}
    shown = [
        e for e in entrants
        if e.pk in played or (not e.dropped and (e.checked_in or not event.require_check_in))
    ]  # fmt: skip
    by_pk = {e.pk: e for e in shown}
    rows = compute_standings(
        list(by_pk),
        games,
        byes=bye_list,
        dropped={e.pk for e in shown if e.dropped},
        options=standings_options(event),
    )
    return [Row(by_pk[s.player], s) for s in rows]


# ---------------------------------------------------------------------------------- pairing ------
def pairing_options(event: Event) -> PairingOptions:
    # With a per-event draft each round-1 table drafted from its own pool and the pairs are kept all
    # event, so later tables must not gather more holders of a faction than the copies allow. In the
    # other modes factions are drafted at each table (or brought by the players): nothing to check.
    copies = event.faction_copies if event.draft_mode == Event.DraftMode.EVENT else None
    return PairingOptions(table_size=event.table_size, layout=event.layout, faction_copies=copies)


def history(event: Event, before_round: int) -> list[PastRound]:
    """Who sat at which table, seat order, in the Swiss rounds before `before_round`."""
    rounds: dict[int, dict] = {}
    seats = (
        Seat.objects.filter(
            round__event=event, round__stage=Round.Stage.SWISS, round__number__lt=before_round
        )
        .order_by("round__number", "table__number", "position")
        .values_list("round__number", "table_id", "entrant_id")
    )
    for number, table_id, entrant_id in seats:
        rounds.setdefault(number, {"tables": {}, "byes": []})["tables"].setdefault(table_id, []).append(
            entrant_id
        )
    byes = Bye.objects.filter(
        round__event=event, round__stage=Round.Stage.SWISS, round__number__lt=before_round
    )
    for number, entrant_id in byes.values_list("round__number", "entrant_id"):
        rounds.setdefault(number, {"tables": {}, "byes": []})["byes"].append(entrant_id)
    return [PastRound(tables=list(r["tables"].values()), byes=r["byes"]) for _, r in sorted(rounds.items())]


def pairing_players(event: Event, before_round: int, entrants: list[Entrant]) -> list[Player]:
    """`entrants` as pairing players, with their points and tie-breakers before `before_round`."""
    rows = {r.entrant.pk: r for r in standings(event, before_round=before_round)}
    players = []
    for e in entrants:
        row, held = rows.get(e.pk), tuple(e.factions or ())
        if row is None:
            players.append(Player(e.pk, factions=held))
        else:
            players.append(Player(e.pk, points=row.points, tiebreaks=row.tiebreaks, factions=held))
    return players


def named_report(report: TableReport, names: Mapping[int, str]) -> dict:
    """A table's pairing cost as JSON, with names instead of ids (and its lines for people)."""

    def n(pid):
        return names.get(pid, str(pid))

    shown = replace(
        report,
        players=tuple(n(p) for p in report.players),
        repeats=tuple((n(a), n(b), k) for a, b, k in report.repeats),
        fairness=tuple((n(p), k) for p, k in report.fairness),
        first_seat=(n(report.first_seat[0]), report.first_seat[1]),
        clashes=tuple((f, tuple(n(p) for p in holders), copies) for f, holders, copies in report.clashes),
    )
    return {
        "cost": report.cost,
        "repeats": [list(r) for r in shown.repeats],
        "spread": report.spread,
        "short": report.short,
        "fairness": [list(f) for f in shown.fairness],
        "first_seat": list(shown.first_seat),
        "clashes": [[f, list(holders), copies] for f, holders, copies in shown.clashes],
        "lines": [line.strip() for line in shown.lines()[1:]],
    }


def generate_round(event: Event, by) -> Round:
    """Pair the next Swiss round with tournaments.pairing (round 1: random, seeded from the event
    and the round number), create its tables, seats, byes, clock and drafts."""
    with transaction.atomic():
        event = _lock(event)
        require_manager(by, event)
        if event.is_finished:
            raise Conflict("This event is over.")
        last = latest_round(event)
        if last is not None and last.stage != Round.Stage.SWISS:
            raise Conflict("The top cut has started: no more Swiss rounds.")
        if last is not None and not last.is_finished:
            left = last.tables.exclude(state=Table.State.CONFIRMED).count()
            raise Conflict(
                f"{last.label} is not finished: {left} table{'s' * (left != 1)} "
                f"still need{'s' * (left == 1)} a confirmed result."
            )
        number = (last.number if last else 0) + 1
        entrants = active_entrants(event)
        if len(entrants) < 2:
            hint = " (check players in first)" if event.require_check_in else ""
            raise Conflict(f"A round needs at least two active players{hint}.")
        players = pairing_players(event, number, entrants)
        pairing = pair_round(players, history(event, number), number, event.seed, pairing_options(event))
        rnd = _create_round(event, number, Round.Stage.SWISS, pairing.method, pairing.lines()[0], entrants)
        names = {e.pk: e.name for e in entrants}
        by_pk = {e.pk: e for e in entrants}
        _create_tables(
            event,
            rnd,
            [
                (report.number, [by_pk[p] for p in report.players], named_report(report, names))
                for report in pairing.tables
            ],
        )
        Bye.objects.bulk_create(Bye(round=rnd, entrant_id=bye.player) for bye in pairing.byes)
        if event.status == Event.Status.REGISTRATION:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status", "updated_at"])
        byes = ", ".join(names[b.player] for b in pairing.byes)
        _changed(
            event,
            by,
            "pair",
            f"Paired {rnd.label.lower()}: {len(pairing.tables)} tables ({pairing.method}), "
            f"{pairing.repeats} repeat meetings"
            + (f", {pairing.clashes} faction clash{'es' * (pairing.clashes > 1)}" if pairing.clashes else "")
            + (f", bye: {byes}" if byes else "")
            + ".",
            round=rnd.number,
            cost=pairing.cost,
            # A random draw is checked by drawing again: who was drawn (see published_draw).
            **({"drawn": sorted(p.id for p in players)} if pairing.method == "random" else {}),
        )
    return rnd


def published_draw(rnd: Round) -> dict | None:
    """What anyone needs to draw a random round again and compare (tournaments.pairing.pair_round
    with no history): the event's seed, the players drawn (entrant numbers and names) and the table
    options. The seed is published only once the round is paired: before, it would tell a player
    who signs up last where everyone will sit."""
    if rnd.method != "random":
        return None
    entry = (
        AuditEntry.objects.filter(event_id=rnd.event_id, action="pair", data__round=rnd.number)
        .order_by("-at", "-pk")
        .first()
    )
    if entry is None or "drawn" not in entry.data:
        return None
    drawn = list(entry.data["drawn"])
    names = dict(Entrant.objects.filter(pk__in=drawn).values_list("pk", "name"))
    event = rnd.event
    options = PairingOptions(table_size=event.table_size, layout=event.layout)
    again = pair_round([Player(pk) for pk in drawn], [], rnd.number, event.seed, options)
    now = [[s.entrant_id for s in t.seats.all()] for t in round_tables(rnd)]
    byes = sorted(rnd.byes.values_list("entrant_id", flat=True))
    return {
        "seed": event.seed,
        "round": rnd.number,
        "players": [(pk, names.get(pk, "?")) for pk in drawn],
        "ids": ", ".join(map(str, drawn)),
        "table_size": event.table_size,
        "layout": event.layout,
        # False after a swap or a late entrant at a short table (both are in the log).
        "matches": again.seats() == now and sorted(again.bye_players()) == byes,
    }


def _create_round(event, number, stage, method, summary, entrants) -> Round:
    rnd = Round.objects.create(event=event, number=number, stage=stage, method=method, summary=summary[:200])
    seconds = event.round_minutes * 60
    RoundClock.objects.create(round=rnd, duration=seconds, remaining=seconds, warnings=event.warnings_seconds)
    return rnd


def _drafts_at(event: Event, rnd: Round) -> bool:
    if event.draft_mode == Event.DraftMode.TABLE:
        return True
    return event.draft_mode == Event.DraftMode.EVENT and rnd.number == 1


def _create_tables(event: Event, rnd: Round, layout: list[tuple[int, list[Entrant], dict]]) -> list[Table]:
    """The round's tables and seats, each in one INSERT whatever the size of the event (a 1,024-player
    round took 527 queries one table at a time); then the drafts the tables need."""
    tables = Table.objects.bulk_create(
        Table(round=rnd, number=number, report=report) for number, _, report in layout
    )
    Seat.objects.bulk_create(
        (
            Seat(table=table, round=rnd, entrant=e, position=i, factions=list(e.factions))
            for table, (_, entrants, _) in zip(tables, layout, strict=True)
            for i, e in enumerate(entrants)
        ),
        batch_size=2000,
    )
    for table, (_, entrants, _) in zip(tables, layout, strict=True):
        drafting = _drafts_at(event, rnd)
        if (
            drafting
            and event.draft_mode == Event.DraftMode.EVENT
            and all(len(e.factions) == 2 for e in entrants)
        ):
            drafting = False  # everyone at this table already has their pair
        if drafting:
            _start_draft(event, table, [e.pk for e in entrants])
    return tables


def _start_draft(event: Event, table: Table, players: list[int]) -> Draft:
    """`players` in seat order. The first seat picks first: the pairing rotates that seat fairly
    ("first player, first pick", pairing/seats.py), and in a top cut it is the best seed."""
    from .drafting import start_draft

    return start_draft(event, table, players, first=players[0])


def unpair_round(event: Event, by) -> int:
    """Take back the latest round while nothing happened in it yet (no result, clock not started,
    no draft pick): e.g. to pair again after a late check-in. Returns its number."""
    with transaction.atomic():
        event = _lock(event)
        require_manager(by, event)
        rnd = latest_round(event)
        if rnd is None:
            raise Conflict("There is no round to take back.")
        if rnd.status != Round.Status.PAIRED or rnd.tables.exclude(state=Table.State.OPEN).exists():
            raise Conflict(f"{rnd.label} has started; it can no longer be taken back.")
        if Draft.objects.filter(table__round=rnd, version__gt=0).exists():
            raise Conflict(f"The draft of {rnd.label.lower()} has started; it can no longer be taken back.")
        number, label = rnd.number, rnd.label
        rnd.delete()
        if not event.rounds_set.exists():
            event.status = Event.Status.REGISTRATION
            event.save(update_fields=["status", "updated_at"])
        _changed(event, by, "unpair", f"Took back the pairing of {label.lower()}.", round=number)
    return number


# ---------------------------------------------------------------------------------- results ------
def clean_vp(table: Table, vps: Mapping) -> dict[int, int]:
    """{entrant pk: VP} for exactly the players of `table`, whole numbers 0..MAX_VP."""
    seated = list(table.seats.values_list("entrant_id", flat=True))
    cleaned = {}
    for key, value in vps.items():
        try:
            pk = int(key)
            vp = int(str(value).strip()) if not isinstance(value, int) else value
        except (TypeError, ValueError):
            raise Invalid("Enter the VP of every player as a whole number.") from None
        if isinstance(value, bool) or not 0 <= vp <= MAX_VP:
            raise Invalid(f"VP are whole numbers from 0 to {MAX_VP}.")
        cleaned[pk] = vp
    if sorted(cleaned) != sorted(seated):
        raise Invalid("Enter the VP of every player at the table (and nobody else).")
    return cleaned


def _lock_table(table: Table | int) -> tuple[Event, Table]:
    pk = table.pk if isinstance(table, Table) else table
    event_id = Table.objects.filter(pk=pk).values_list("round__event_id", flat=True).first()
    if event_id is None:
        raise TournamentError("There is no such table.", "not_found")
    event = _lock(event_id)
    return event, Table.objects.select_related("round").get(pk=pk)


def _seat_of(table: Table, entrant: Entrant | None) -> Seat:
    seat = None if entrant is None else table.seats.filter(entrant_id=entrant.pk).first()
    if seat is None:
        raise NotAllowed("Only the players of this table (and the organizers) can do that.")
    return seat


def _vp_text(table: Table, vps: Mapping[int, int]) -> str:
    names = dict(table.seats.values_list("entrant_id", "entrant__name"))
    return ", ".join(f"{names[pk]} {vp}" for pk, vp in vps.items())


def report_result(table: Table | int, entrant: Entrant, vps: Mapping) -> Table:
    """A player of the table enters everyone's VP; the others then confirm or dispute."""
    with transaction.atomic():
        event, table = _lock_table(table)
        seat = _seat_of(table, entrant)
        if table.state == Table.State.CONFIRMED:
            raise Conflict("This result is confirmed; ask an organizer to correct it.")
        if table.state == Table.State.DISPUTED:
            raise Conflict("This result is disputed; an organizer will settle it.")
        cleaned = clean_vp(table, vps)
        for s in table.seats.all():
            s.vp = cleaned[s.entrant_id]
            s.confirmed = s.pk == seat.pk
            s.save(update_fields=["vp", "confirmed"])
        table.state = Table.State.REPORTED
        table.result_version += 1
        table.reported_by = seat.entrant
        table.reported_at = timezone.now()
        table.save(update_fields=["state", "result_version", "reported_by", "reported_at"])
        _changed(
            event,
            entrant,
            "report",
            f"Table {table.number} of {table.round.label.lower()}: reported {_vp_text(table, cleaned)}.",
            table=table.pk,
            vp={str(k): v for k, v in cleaned.items()},
        )
        _maybe_confirm(event, table)
    return table


def confirm_result(table: Table | int, entrant: Entrant, result_version) -> Table:
    """A player of the table agrees with the VP as reported (the version they saw)."""
    with transaction.atomic():
        event, table = _lock_table(table)
        seat = _seat_of(table, entrant)
        if table.state != Table.State.REPORTED:
            raise Conflict("There is no reported result waiting for confirmation at this table.")
        if str(result_version) != str(table.result_version):
            raise Conflict("The reported result changed since you looked at it; check it again.", "stale")
        if not seat.confirmed:
            seat.confirmed = True
            seat.save(update_fields=["confirmed"])
            _changed(
                event,
                entrant,
                "confirm",
                f"Table {table.number} of {table.round.label.lower()}: {entrant.name} confirmed the result.",
                table=table.pk,
            )
            _maybe_confirm(event, table)
    return table


def dispute_result(table: Table | int, entrant: Entrant, note: str = "") -> Table:
    """A player of the table says the reported VP are wrong: an organizer settles it."""
    note = " ".join(str(note or "").split())[:500]
    with transaction.atomic():
        event, table = _lock_table(table)
        _seat_of(table, entrant)
        if table.state not in (Table.State.REPORTED, Table.State.DISPUTED):
            raise Conflict("There is no reported result to dispute at this table.")
        table.state = Table.State.DISPUTED
        table.dispute_note = f"{entrant.name}: {note}" if note else f"{entrant.name} disputes the result."
        table.save(update_fields=["state", "dispute_note"])
        _changed(
            event,
            entrant,
            "dispute",
            f"Table {table.number} of {table.round.label.lower()}: {entrant.name} disputed the result"
            + (f" ({note})" if note else "")
            + ".",
            table=table.pk,
        )
    return table


def set_result(table: Table | int, vps: Mapping, by) -> Table:
    """An organizer enters, settles or corrects a table's result: it is confirmed at once."""
    with transaction.atomic():
        event, table = _lock_table(table)
        require_manager(by, event)
        _confirm_result(event, table, clean_vp(table, vps), by)
    return table


def record_app_result(table: Table | int, vps: Mapping, game_code: str) -> Table | None:
    """The app reports the result of the in-app game played at `table` (tournaments.in_app): the VP
    are entered and confirmed as an organizer's result would be, and the log says the app reported
    them. A table whose result is already confirmed (an organizer was quicker, or this report came
    twice) is left alone: returns None. Organizers can still correct it with `set_result`."""
    with transaction.atomic():
        event, table = _lock_table(table)
        if table.state == Table.State.CONFIRMED:
            return None
        cleaned = clean_vp(table, vps)
        _confirm_result(event, table, cleaned, "app", app_game=game_code)
    return table


def _confirm_result(event: Event, table: Table, cleaned: dict[int, int], by, app_game: str = "") -> None:
    """Inside the event's transaction: store `cleaned` VP as the table's confirmed result."""
    seats = list(table.seats.all())
    before = {s.entrant_id: s.vp for s in seats}
    was = table.state
    for s in seats:
        s.vp = cleaned[s.entrant_id]
        s.confirmed = True
        s.save(update_fields=["vp", "confirmed"])
    table.state = Table.State.CONFIRMED
    table.result_version += 1
    table.decided_by = by if not isinstance(by, str) else None
    table.confirmed_at = timezone.now()
    table.save(update_fields=["state", "result_version", "decided_by", "confirmed_at"])
    if app_game:
        verb = f"the app reported the result of game {app_game}:"
    elif was == Table.State.CONFIRMED:
        old = _vp_text(table, before)
        verb = f"corrected the result from {old} to"
    elif was == Table.State.DISPUTED:
        verb = "settled the dispute:"
    else:
        verb = "entered the result:"
    extra = {"game": app_game} if app_game else {}
    _changed(
        event,
        by,
        "app_result" if app_game else "result",
        f"Table {table.number} of {table.round.label.lower()}: {verb} {_vp_text(table, cleaned)}.",
        table=table.pk,
        before={str(k): v for k, v in before.items()},
        after={str(k): v for k, v in cleaned.items()},
        **extra,
    )
    _maybe_finish_round(event, table.round)


def _maybe_confirm(event: Event, table: Table) -> None:
    if table.state == Table.State.REPORTED and not table.seats.filter(confirmed=False).exists():
        table.state = Table.State.CONFIRMED
        table.confirmed_at = timezone.now()
        table.save(update_fields=["state", "confirmed_at"])
        _maybe_finish_round(event, table.round)


def _maybe_finish_round(event: Event, rnd: Round) -> None:
    if rnd.is_finished or rnd.tables.exclude(state=Table.State.CONFIRMED).exists():
        return
    rnd.status = Round.Status.FINISHED
    rnd.finished_at = timezone.now()
    rnd.save(update_fields=["status", "finished_at"])


# ---------------------------------------------------------------------------------- top cut ------
def start_top_cut(event: Event, by) -> Round:
    """The top cut (tournaments.topcut) from the final Swiss standings: a final table for a top 4,
    four snake-seeded semifinal tables for a top 16, two semifinals of 2 for a 1v1 top 4. Drafts as
    configured, best seed picks first."""
    with transaction.atomic():
        event = _lock(event)
        require_manager(by, event)
        if event.top_cut not in topcut.CUT_SIZES:
            raise Conflict("This event has no top cut (set one in the settings).")
        last = latest_round(event)
        if last is None or last.stage != Round.Stage.SWISS:
            raise Conflict(
                "The top cut comes after the Swiss rounds." if last is None else "The top cut has started."
            )
        if not last.is_finished:
            raise Conflict(f"{last.label} is not finished yet.")
        ranked = [r.entrant for r in standings(event) if not r.entrant.dropped]
        try:
            tables = topcut.top_cut([e.pk for e in ranked], event.top_cut, event.table_size)
        except ValueError as exc:
            raise Conflict(f"No top cut: {exc}.") from None
        stage = Round.Stage.FINAL if len(tables) == 1 else Round.Stage.SEMIFINAL
        by_pk = {e.pk: e for e in ranked}
        seed = {e.pk: i + 1 for i, e in enumerate(ranked)}
        rnd = _create_round(event, last.number + 1, stage, "top cut", f"Top {event.top_cut}", ranked)
        for i, table in enumerate(tables, 1):
            _create_cut_table(event, rnd, i, [by_pk[p] for p in table], seed)
        _changed(
            event, by, "top_cut", f"Started the top {event.top_cut}: {rnd.label.lower()}.", round=rnd.number
        )
    return rnd


def _create_cut_table(event: Event, rnd: Round, number: int, entrants: list[Entrant], seed: Mapping) -> Table:
    report = {
        "lines": [", ".join(f"{e.name} (seed {seed[e.pk]})" for e in entrants)],
        "seeds": [seed[e.pk] for e in entrants],
    }
    table = Table.objects.create(round=rnd, number=number, report=report)
    Seat.objects.bulk_create(
        Seat(table=table, round=rnd, entrant=e, position=i, factions=list(e.factions))
        for i, e in enumerate(entrants)
    )
    if event.draft_mode == Event.DraftMode.TABLE:
        _start_draft(event, table, [e.pk for e in entrants])
    return table


def table_winner(table: Table, seed: Mapping[int, int]) -> int:
    """The player with the most VP; a tie goes to the better seed (the standings' order)."""
    seats = list(table.seats.all())
    return min(seats, key=lambda s: (-(s.vp or 0), seed.get(s.entrant_id, 10**6))).entrant_id


def start_final(event: Event, by) -> Round:
    """After the semifinals (of a top 16, or of a 1v1 top 4): the winners (most VP, ties to the
    better seed) meet at the final table, seated by their original seed."""
    with transaction.atomic():
        event = _lock(event)
        require_manager(by, event)
        last = latest_round(event)
        if last is None or last.stage != Round.Stage.SEMIFINAL:
            raise Conflict("The final follows the semifinals.")
        if not last.is_finished:
            raise Conflict("The semifinals are not finished yet.")
        ranked = [r.entrant for r in standings(event) if not r.entrant.dropped]
        seed = {e.pk: i + 1 for i, e in enumerate(ranked)}
        winners = [table_winner(t, seed) for t in last.tables.prefetch_related("seats")]
        order = topcut.final_table(winners, [e.pk for e in ranked])
        by_pk = {e.pk: e for e in Entrant.objects.filter(pk__in=order)}
        rnd = _create_round(
            event, last.number + 1, Round.Stage.FINAL, "top cut", "Final", list(by_pk.values())
        )
        _create_cut_table(event, rnd, 1, [by_pk[p] for p in order], seed)
        names = ", ".join(by_pk[p].name for p in order)
        _changed(event, by, "top_cut", f"Started the final: {names}.", round=rnd.number)
    return rnd


# ---------------------------------------------------------------------------------- swaps --------
def named_pairing(rnd: Round):
    """The round's tables as a tournaments.pairing `Pairing`, explained against the standings and
    history before it. Players are named by their entrant names (unique in an event), so the pure
    module's explanations and warnings read as they are. Returns (pairing, players, history, pks)."""
    event = rnd.event
    names, factions = {}, {}
    for pk, name, held in Entrant.objects.filter(event=event).values_list("pk", "name", "factions"):
        names[pk], factions[name] = name, tuple(held or ())
    tables = [
        [names[s.entrant_id] for s in t.seats.all()]
        for t in rnd.tables.prefetch_related("seats").order_by("number")
    ]
    byes = [names[pk] for pk in rnd.byes.values_list("entrant_id", flat=True)]
    placed = {n for t in tables for n in t} | set(byes)
    rows = standings(event, before_round=rnd.number)
    points = {r.entrant.name: r for r in rows}
    players = [
        Player(n, points=points[n].points, tiebreaks=points[n].tiebreaks, factions=factions[n])
        if n in points
        else Player(n, factions=factions[n])
        for n in sorted(placed)
    ]
    past = [
        PastRound([[names[p] for p in t] for t in r.tables], [names[p] for p in r.byes])
        for r in history(event, rnd.number)
    ]
    pairing = evaluate(tables, byes, players, past, rnd.number, event.seed, pairing_options(event))
    return pairing, players, past, {n: pk for pk, n in names.items()}


def check_swap(rnd: Round, a: int, b: int):
    """tournaments.pairing.check_swap for two entrants of a round: a preview, nothing changes."""
    from tournaments.pairing import check_swap as pure_check_swap

    pairing, players, past, pks = named_pairing(rnd)
    names = {pk: n for n, pk in pks.items()}
    try:
        return pure_check_swap(
            pairing,
            names.get(int(a)),
            names.get(int(b)),
            players,
            past,
            rnd.event.seed,
            pairing_options(rnd.event),
        )
    except ValueError as exc:
        raise Invalid(f"Those two players cannot be swapped: {exc}.") from None


def swap_players(rnd: Round | int, a: int, b: int, by) -> list[str]:
    """Swap two players' seats (or a seat and a bye) in a Swiss round that has not started. Returns
    the warnings of the swap (repeats, fairness, spread), which go to the audit log too."""
    rnd_pk = rnd.pk if isinstance(rnd, Round) else rnd
    with transaction.atomic():
        event = _lock(Round.objects.filter(pk=rnd_pk).values_list("event_id", flat=True).first() or 0)
        require_manager(by, event)
        rnd = Round.objects.select_related("event").get(pk=rnd_pk)
        if rnd.stage != Round.Stage.SWISS or rnd.status != Round.Status.PAIRED:
            raise Conflict("Players can be swapped only in a Swiss round that has not started.")
        if Table.objects.filter(round=rnd).exclude(state=Table.State.OPEN).exists():
            raise Conflict("A table of this round has reported a result already.")
        if Draft.objects.filter(table__round=rnd, version__gt=0).exists():
            raise Conflict("The draft of this round has started.")
        if Table.objects.filter(round=rnd, game__isnull=False).exists():
            # An app game's result is recorded by seat position: moving players would misattribute it.
            raise Conflict("A table of this round is playing in the app; players can no longer be swapped.")
        a, b = int(a), int(b)
        if a == b:
            raise Invalid("Choose two different players.")
        check = check_swap(rnd, a, b)
        seats = {
            s.entrant_id: s
            for s in Seat.objects.filter(round=rnd, entrant_id__in=[a, b]).select_related("table")
        }
        entrants = {e.pk: e for e in Entrant.objects.filter(pk__in=[a, b])}
        where = {pk: f"table {seats[pk].table.number}" if pk in seats else "a bye" for pk in (a, b)}
        _swap(rnd, entrants[a], entrants[b], seats.get(a), seats.get(b))
        # The explanations of the tables follow the new arrangement; drafts not begun restart.
        for report in check.pairing.tables:
            Table.objects.filter(round=rnd, number=report.number).update(report=named_report(report, {}))
        for table in {s.table for s in seats.values()}:
            draft = Draft.objects.filter(table=table).first()
            if draft is not None:
                draft.delete()
                _start_draft(
                    event, table, list(table.seats.order_by("position").values_list("entrant_id", flat=True))
                )
        warnings = list(check.warnings)
        _changed(
            event,
            by,
            "swap",
            f"{rnd.label}: swapped {entrants[a].name} ({where[a]}) and {entrants[b].name} ({where[b]})"
            + (f"; warnings: {'; '.join(warnings)}" if warnings else "")
            + ".",
            round=rnd.number,
            a=a,
            b=b,
            delta=check.delta,
        )
    return warnings


def _swap(rnd: Round, a: Entrant, b: Entrant, seat_a: Seat | None, seat_b: Seat | None) -> None:
    """Exchange the places of a and b (a seat each, or a seat and a bye)."""
    if seat_a is None and seat_b is None:
        return  # two byes
    places = []
    for seat, other in ((seat_a, b), (seat_b, a)):
        if seat is not None:
            places.append((seat.table_id, seat.position, other))
            seat.delete()  # (round, entrant) is unique: free both places before filling them
    if seat_a is None or seat_b is None:
        rnd.byes.filter(entrant__in=[a, b]).delete()
        Bye.objects.create(round=rnd, entrant=b if seat_a is None else a)
    for table_id, position, entrant in places:
        Seat.objects.create(
            table_id=table_id, round=rnd, entrant=entrant, position=position, factions=list(entrant.factions)
        )


# ---------------------------------------------------------------------------------- pages --------
def round_tables(rnd: Round) -> list[Table]:
    """The tables of a round with their seats and entrants (two queries)."""
    return list(
        rnd.tables.order_by("number").prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entrant").order_by("position"))
        )
    )


def points_of(table: Table, event: Event) -> dict[int, float]:
    """Tournament points of each player at a table with VP (tournaments.scoring)."""
    from tournaments.scoring import table_points

    seats = list(table.seats.all())
    if any(s.vp is None for s in seats):
        return {}
    return table_points({s.entrant_id: s.vp for s in seats}, event.scoring)


def vp_by_table(seats: Iterable[Seat]) -> dict[int, dict[int, int]]:
    out: dict[int, dict[int, int]] = defaultdict(dict)
    for s in seats:
        if s.vp is not None:
            out[s.table_id][s.entrant_id] = s.vp
    return out
