"""Tournament tables played in the app: start a table as a live game, take its result from the game,
and call time in its game when the round's clock calls time.

- ``start_table(table, by)`` (organizers): a ``play.Game`` for the table, its players in seat order
  (position 0 plays first), their factions (the seat's, from the table's draft, else the pair the
  player keeps all event), and the event's base limit (``Event.in_app_base_limit``: BASE_LIMITS).
  Every seat is reserved for its player from the start, so the game begins at once: a player with
  an account reaches the seat by logging in (``/play/g/<id>/``), one without by the seat link that
  the organizers see on their dashboard until someone takes the seat with it (the link then stops
  working; the player's game page gives them their own link for another device). ``Table.game``
  links the two.
- When the game finishes, play sends ``smashup.play.signals.game_finished`` after its commit
  (play never imports tournaments); ``game_finished`` here records the VP per seat through
  ``services.record_app_result``, which confirms the result as an organizer's result would be (the
  log says the app reported it; standings follow; an organizer can still correct it).
- When the round clock calls time (``clock._call``, by its task, the sweep or an organizer), after
  the commit every in-app game of that round still in play gets time called
  (``play.services.call_time``: idempotent, so a duplicate task or a second sweep does nothing).
- ``sweep()`` (Celery beat, with the clock sweep) catches what a lost signal or a crash between
  commits missed: finished games whose table has no confirmed result, and games still in play
  in a round whose time is called.
"""

from __future__ import annotations

import logging

from django.db import transaction

from smashup.play import services as play

from . import services
from .models import BASE_LIMITS, Draft, Event, Round, RoundClock, Table

logger = logging.getLogger(__name__)


def base_limit(event: Event, players: int) -> int | None:
    if event.mode == Event.Mode.BIGBASE:  # a Big Base game ends after its scoring periods
        return None
    return BASE_LIMITS.get(players) if event.in_app_base_limit else None


def game_mode(event: Event) -> tuple[str, dict | None]:
    """The app's mode and board for the event's games: ("standard", None), or ("bigbase", the
    event's board as plain data, read from the database now: the game keeps its own copy)."""
    if event.mode != Event.Mode.BIGBASE:
        return "standard", None
    from bigbase.boards import UnknownBoard, board_config

    try:
        return "bigbase", board_config(event.board)
    except UnknownBoard:
        raise services.Invalid(
            f"The event's Big Base board ({event.board or 'none'}) is not offered in the database; "
            "offer it again in the admin (Big Base boards) to start tables in the app."
        ) from None


def playable_factions() -> set[str]:
    return set(play.factions_available())


def seat_pairs(seats) -> list[tuple[str, list[str]]]:
    """(player name, factions) of each seat, in seat order: the seat's own (set from the draft at
    the table or from the player's pair), else the pair the player keeps all event."""
    return [(seat.entrant.name, list(seat.factions or seat.entrant.factions or [])) for seat in seats]


def app_refusal(number: int, pairs: list[tuple[str, list[str]]], known: set[str]) -> str | None:
    """Why table `number` with these (name, factions) cannot be played in the app, or None: every
    seat needs two factions, all of them ones the app plays, and each faction once at the table
    (the app's rule, issue 9: two players with one faction play it with cards from two boxes)."""
    for name, pair in pairs:
        if len(pair) != 2:
            return f"{name} has no two factions yet: set them first."
    missing = sorted({f for _, pair in pairs for f in pair if f not in known})
    if missing:
        return f"The app cannot play {', '.join(missing)} yet; table {number} plays with cards."
    holders: dict[str, list[str]] = {}
    for name, pair in pairs:
        for f in pair:
            holders.setdefault(f, []).append(name)
    shared = sorted(f for f, names in holders.items() if len(names) > 1)
    if shared:
        names = holders[shared[0]]
        who = (f"{names[0]} and {names[1]} both" if len(names) == 2
               else ", ".join(names[:-1]) + f" and {names[-1]} all")
        return (f"{who} hold {shared[0]}: the app plays each faction once per game; "
                f"table {number} plays with cards.")
    return None


def table_factions(table: Table) -> list[list[str]]:
    """Each seat's two factions, in seat order (`seat_pairs`). Refuses a table whose draft is still
    open and one the app cannot play (`app_refusal`)."""
    draft = Draft.objects.filter(table=table).first()
    if draft is not None and draft.status != Draft.Status.DONE:
        raise services.Conflict(f"Table {table.number} is still drafting; start it once the draft is done.")
    pairs = seat_pairs(table.seats.select_related("entrant").order_by("position"))
    refusal = app_refusal(table.number, pairs, playable_factions())
    if refusal:
        raise services.Invalid(refusal)
    return [pair for _, pair in pairs]


def start_table(table: Table | int, by):
    """An organizer starts `table` as a game in the app. Returns the ``play.Game``."""
    with transaction.atomic():
        event, table = services._lock_table(table)
        services.require_manager(by, event)
        _check_startable(event, table)
        game = _create_game(event, table)
        table.game = game
        table.save(update_fields=["game"])
        services._changed(
            event,
            by,
            "in_app",
            f"Table {table.number} of {table.round.label.lower()}: started in the app (game {game.code}).",
            table=table.pk,
            game=game.public_id,
        )
        if _time_is_called(table):  # started after its time ran out: time is called at once
            game_pk = game.pk
            transaction.on_commit(lambda: _call_time_in([game_pk]))
    return game


def start_round(rnd: Round | int, by) -> tuple[int, list[str]]:
    """An organizer starts every table of a round that can start in the app. Returns how many started
    and why the others did not (one line each)."""
    rnd_pk = rnd.pk if isinstance(rnd, Round) else rnd
    event_id = Round.objects.filter(pk=rnd_pk).values_list("event_id", flat=True).first()
    if event_id is None:
        raise services.TournamentError("There is no such round.", "not_found")
    event = Event.objects.get(pk=event_id)
    services.require_manager(by, event)
    started, skipped = 0, []
    tables = Table.objects.filter(round_id=rnd_pk, game__isnull=True, state=Table.State.OPEN)
    for table in tables.order_by("number"):
        try:
            start_table(table.pk, by)
        except services.NotAllowed:
            raise
        except services.TournamentError as exc:
            skipped.append(exc.message)
        else:
            started += 1
    if not started and not skipped:
        raise services.Conflict("Every table of this round already plays in the app or has a result.")
    return started, skipped


def _check_startable(event: Event, table: Table) -> None:
    if event.mode not in (Event.Mode.STANDARD, Event.Mode.BIGBASE):
        raise services.Conflict("Only standard and Big Base games can be played in the app.")
    if event.is_finished or table.round.is_finished:
        raise services.Conflict("This round is over.")
    if table.game_id is not None:
        raise services.Conflict(f"Table {table.number} already plays in the app.")
    if table.state != Table.State.OPEN:
        raise services.Conflict(f"Table {table.number} already has a result.")
    if not 2 <= table.seats.count() <= 4:
        raise services.Conflict(f"Table {table.number} needs 2 to 4 players to play in the app.")


def _create_game(event: Event, table: Table):
    seats = list(table.seats.select_related("entrant__user").order_by("position"))
    pairs = table_factions(table)
    mode, board = game_mode(event)
    specs = [
        play.SeatSpec("person", pair, name=seat.entrant.name, user=seat.entrant.user)
        for seat, pair in zip(seats, pairs, strict=True)
    ]
    try:
        return play.create_game(
            specs,
            base_sets="factions",  # the rules' base deck: the sets of the drafted factions
            first_player=0,  # seat order: position 0 plays first
            end_after_bases=base_limit(event, len(seats)),
            mode=mode,
            board=board,
        )
    except play.PlayError as exc:
        raise services.Invalid(f"Table {table.number} cannot start in the app: {exc.message}") from None


# ---------------------------------------------------------------------------------- results ------
def game_finished(sender=None, *, game_id: int, vp: list[int], **kwargs) -> bool:
    """Receiver of ``smashup.play.signals.game_finished``: the table of this game (if any) gets its
    result. True when a result was recorded."""
    table = Table.objects.filter(game_id=game_id).select_related("game").first()
    if table is None:
        return False
    seats = list(table.seats.order_by("position").values_list("entrant_id", flat=True))
    if len(seats) != len(vp):  # a player was swapped out of the table since: the organizer decides
        logger.error("table %s: game %s has %s seats, the table %s", table.pk, game_id, len(vp), len(seats))
        return False
    vps = dict(zip(seats, vp, strict=True))
    return services.record_app_result(table.pk, vps, table.game.code) is not None


# ---------------------------------------------------------------------------------- time ---------
def _time_is_called(table: Table) -> bool:
    """Whether time is called at this table: the round's time is, and the table has no extra time
    still to play (a judge call, clock.extend_table)."""
    from .clock import table_called

    clock = RoundClock.objects.filter(round_id=table.round_id).first()
    return table_called(clock, table.pk)


def time_called_in_round(round_id: int, skip=()) -> int:
    """After the round's clock called time: time is called in every in-app game of the round still
    in play, except at the tables in `skip` (extra time from a judge call: the clock calls them when
    it is over). Returns in how many games it was called now (0 when all already had it)."""
    games = list(
        Table.objects.filter(round_id=round_id, game__status="active")
        .exclude(pk__in=list(skip))
        .values_list("game_id", flat=True)
    )
    return _call_time_in(games)


def _call_time_in(game_ids) -> int:
    called = 0
    for game_id in game_ids:
        try:
            called += play.call_time(game_id) is not None
        except play.PlayError:  # one broken game must not keep time from the others
            logger.exception("could not call time in game %s", game_id)
    return called


def on_time_called(rnd: Round, skip=()) -> None:
    """Inside the clock's transaction that called time: call it in the round's games after the commit
    (not at the tables in `skip`, which still have extra time)."""
    round_id, skip = rnd.pk, list(skip)
    transaction.on_commit(lambda: time_called_in_round(round_id, skip))


def on_table_time_called(table_id: int) -> None:
    """Inside the clock's transaction: a table's extra time is over; call time in its game (if it
    plays in the app) after the commit."""

    def call():
        game = Table.objects.filter(pk=table_id, game__status="active").values_list("game_id", flat=True)
        _call_time_in(list(game))

    transaction.on_commit(call)


def sweep() -> dict:
    """Catch what was missed: finished games without their table's result, games still in play in a
    round whose time is called. Run by Celery beat with the clock sweep."""
    recorded = 0
    unreported = Table.objects.filter(game__status="finished").exclude(state=Table.State.CONFIRMED)
    for table in unreported.select_related("game"):
        try:
            vp = play.final_vp(table.game)
            recorded += game_finished(game_id=table.game_id, vp=vp)
        except (play.PlayError, services.TournamentError):
            logger.exception("could not record the result of table %s", table.pk)
    from .clock import table_called

    late = Table.objects.filter(
        game__status="active", round__clock__status=RoundClock.Status.CALLED
    ).select_related("round__clock")
    late = [t.game_id for t in late if table_called(t.round.clock, t.pk)]  # extra time still runs
    return {"recorded": recorded, "time_called": _call_time_in(late)}


# ---------------------------------------------------------------------------------- pages --------
def organizer_panel(
    event: Event, rnd: Round | None, absolute, clock=None, shown=None, tables=None
) -> dict | None:
    """The organizers' view of the round's in-app tables: which can start, each game and its seat
    links (`absolute` makes a full URL of a path: the links are handed out or shown as QR codes),
    and the clock of a table with extra time (`clock`: the round's, clock.table_state).
    `shown`: the pks of the tables to list one by one (the dashboard's page of tables; None:
    every table); the others are only counted (`startable`, `with_cards`). `tables`: the round's
    tables in number order with their seats and entrants, when the page has read them already."""
    from django.db.models import Prefetch
    from django.urls import reverse

    from smashup.play.models import Game as PlayGame
    from smashup.play.models import Seat as PlaySeat

    from .clock import table_state
    from .models import Seat

    if rnd is None or event.mode not in (Event.Mode.STANDARD, Event.Mode.BIGBASE):
        return None
    if tables is None:
        tables = rnd.tables.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entrant").order_by("position"))
        ).order_by("number")
    tables = list(tables)
    # The games (and their seats) of the tables that play in the app, in one query each.
    games = PlayGame.objects.filter(pk__in=[t.game_id for t in tables if t.game_id]).prefetch_related(
        Prefetch("seats", queryset=PlaySeat.objects.select_related("game").order_by("index"))
    )
    games = {game.pk: game for game in games}
    for table in tables:
        if table.game_id:
            table.game = games[table.game_id]
    drafting_tables = set(
        Draft.objects.filter(table__round=rnd)
        .exclude(status=Draft.Status.DONE)
        .values_list("table_id", flat=True)
    )
    known = playable_factions()
    rows, startable, with_cards = [], 0, []
    for table in tables:
        open_table = table.game_id is None and table.state == Table.State.OPEN and not rnd.is_finished
        # "Start this table in the app" only where the app can play the table's factions.
        why_not = None
        if open_table:
            why_not = (
                "still drafting"
                if table.pk in drafting_tables
                else app_refusal(table.number, seat_pairs(table.seats.all()), known)
            )
        can_start = open_table and why_not is None
        startable += can_start
        if table.game_id is None and not can_start and why_not is None:
            with_cards.append(table.number)  # nothing to say but "plays with cards": one line for all
            continue
        if shown is not None and table.pk not in shown:
            continue
        row = {
            "table": table,
            "game": table.game,
            "can_start": can_start,
            "why_not": why_not,
            "seats": [],
        }
        if table.game is not None:
            row["url"] = reverse("play:game", args=[table.game.public_id])
            row["display_url"] = reverse("play:display", args=[table.game.public_id])
            row["time_called"] = table.game.is_active and play.time_called(table.game)
            row["overridden"] = result_overrides_game(table)
            row["extra"] = table_state(clock, table) if table.game.is_active else None
            play_seats = list(table.game.seats.all())
            for seat, play_seat in zip(table.seats.all(), play_seats, strict=False):
                # A link only while nobody has taken the seat: the first to confirm it plays the
                # seat, and from then on the link is dead (organizers cannot open a player's hand).
                link = None
                if not play_seat.taken and not play_seat.is_bot:
                    link = absolute(reverse("play:seat_link", args=[play.seat_link_token(play_seat)]))
                row["seats"].append(
                    {
                        "name": seat.entrant.name,
                        "account": seat.entrant.user_id is not None,
                        "taken": play_seat.taken,
                        "link": link,
                    }
                )
        rows.append(row)
    return {
        "tables": rows,
        "startable": startable,
        "with_cards": with_cards,
        "more": shown is not None,
        "base_limit": "" if event.mode == Event.Mode.BIGBASE else event.base_limit_rule,
        "board": event.board_name,
    }



# ---------------------------------------------------------------------------------- game page ----
OVERRIDDEN = (
    "An organizer entered this table's result in the tournament ({event}), so the game was ended "
    "there: its own result is ignored."
)


def game_notes(sender=None, *, game, page: bool = True, **kwargs) -> dict | None:
    """Receiver of ``smashup.play.signals.game_notes``: what the page of a game played at a
    tournament table says of it: why it ended, when an organizer's result ended it, and (the whole
    page) the table's part: the event, round and table, and the clock the table plays to (the
    round's, or the table's own with extra time: `game_table`)."""
    from django.template.loader import render_to_string

    table = Table.objects.filter(game_id=game.pk).select_related("round__event", "round__clock").first()
    if table is None:
        return None
    out = {}
    if game.stopped_at is not None and result_overrides_game(table):
        out["ended"] = OVERRIDDEN.format(event=table.round.event.name)
    if page:
        out["html"] = render_to_string("tournaments/_game_page.html", game_table(table, game))
    return out


def game_table(table: Table, game=None) -> dict:
    """The context of a game page's tournament part (`_game_table.html`, refreshed every half
    minute by itself): the table's clock while its game plays."""
    from .clock import state, table_state

    rnd = table.round
    game = game if game is not None else table.game
    clock = getattr(rnd, "clock", None)
    playing = game is not None and game.is_active and not rnd.is_finished
    extra = table_state(clock, table) if playing else None
    return {
        "event": rnd.event,
        "round": rnd,
        "table": table,
        "playing": playing,
        "clock": clock if playing and extra is None else None,
        "clock_state": state(clock) if playing and clock is not None else None,
        "x": extra,
        "overridden": result_overrides_game(table),
    }


def result_overrides_game(table: Table) -> bool:
    """Whether the table's result was entered by an organizer (not reported by its app game): the
    game's own result is then ignored (services.set_result calls time in a game still running)."""
    return table.state == Table.State.CONFIRMED and table.decided_by_id is not None


def play_seat_of(table: Table, entrant_id: int):
    """The app seat of `entrant_id` at `table`'s game (the table's seats in position order are the
    game's seats in index order), or None."""
    positions = list(table.seats.order_by("position").values_list("entrant_id", flat=True))
    if entrant_id not in positions or table.game_id is None:
        return None
    return table.game.seats.filter(index=positions.index(entrant_id)).first()


def player_panel(table: Table | None, me, session_seats=None, clock=None) -> dict | None:
    """A player's view of their table's in-app game: where to play it. `seat`: "account" (they
    log in), "free" (their seat waits: "Play your game" takes it in this browser), "here" (this
    browser holds it) or "elsewhere" (taken on another device: its game page gave a link there)."""
    from django.urls import reverse

    from .clock import table_state

    if table is None or table.game_id is None:
        return None
    game = table.game
    play_seat = play_seat_of(table, me.pk)
    if me.user_id is not None:
        state = "account"
    elif play_seat is None:
        state = "elsewhere"
    elif not play_seat.taken:
        state = "free"
    elif play_seat.index in play.held_seats(game, session_seats=session_seats):
        state = "here"
    else:
        state = "elsewhere"
    return {
        "game": game,
        "url": reverse("play:game", args=[game.public_id]),
        "account": me.user_id is not None,
        "seat": state,
        "username": me.user.get_username() if me.user_id is not None else "",
        "time_called": game.is_active and play.time_called(game),
        "overridden": result_overrides_game(table),
        "extra": table_state(clock, table) if game.is_active else None,
    }


def take_my_seat(event: Event, me, session) -> object:
    """The player `me` (who this browser is, by their account or private link: nobody else's seat
    can be reached here) takes their own free seat at their table's in-app game in this browser.
    Returns the ``play.Game``. Refused (nothing changes) without such a game or once the seat is
    taken: then only the holder's own link (shown on their game page) reaches it, so organizers,
    who also hold the player's private link, cannot open a hand in play."""
    if me is None:
        raise services.NotAllowed("Open your player link first: only you can take your seat.")
    rnd = event.rounds_set.order_by("-number").first()
    table = (
        Table.objects.filter(round=rnd, seats__entrant=me, game__isnull=False).select_related("game").first()
        if rnd is not None
        else None
    )
    if table is None:
        raise services.Conflict("Your table does not play in the app.")
    play_seat = play_seat_of(table, me.pk)
    if play_seat is None:
        raise services.Conflict("Your seat is not in your table's game any more: ask the organizer.")
    if me.user_id is not None:
        raise services.Conflict("Your seat is played with your account: log in and open your game.")
    if play_seat.taken:
        if play_seat.index in play.held_seats(table.game, session_seats=session.get("play_seats")):
            return table.game
        raise services.Conflict(
            "Your seat was taken on another device; play there, or use the personal link its game page shows."
        )
    try:
        seat = play.claim_seat(table.game_id, play_seat.index, link_token=play_seat.token)
    except play.PlayError as exc:
        raise services.Conflict(exc.message) from None
    play.remember_seat(session, seat)
    return table.game
