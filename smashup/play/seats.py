"""Creating tables, taking seats, picking factions, seat links and which seats a visitor holds.

    game = create_game([SeatSpec("person", ["Aliens", None]), SeatSpec("bot", [None, None])],
                       created_by=user)          # random factions drawn now; a lobby row
    claim_seat(game.pk, 0, user=user)             # or guest_name="Ada"; the last claim starts it
    start_game(game.pk, fill_with_bots=True)      # or start now, bots in the empty seats

With ``player_picks=True`` each person picks their own factions: ``claim_seat(..., factions=[a, b])``
(and ``pick_factions`` to change them before the start); bots get random ones when the game starts.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone

from smashup.botregistry import BOTS, THINK_SECONDS_RANGE, engine_bot
from smashup.core import params
from smashup.engine import ConfigError, new_game
from smashup.engine import rng as engine_rng

from . import drafting, quotas, timers
from .errors import BadRequest, BadSeatLink, FactionError, PlayError, SeatError
from .live import changed_on_commit
from .models import Game, Seat, new_seat_token
from .starting import maybe_start
from .tables import (
    DEFAULT_PACE,
    PACES,
    SeatSpec,
    draw_factions,
    factions_available,
    lock_game,
    random_stream,
    with_table_settings,
)

SEAT_LINK_SALT = "smashup.play.seat-link"


RESUME_LINK_SALT = "smashup.play.seat-resume"


TAKEN_LINK = (
    "Someone has taken this seat: its link no longer seats anyone. Whoever took it has their own link."
)


MAX_GUEST_NAME = 40


def create_game(
    seats: list[SeatSpec],
    *,
    created_by=None,
    base_sets: str = "factions",
    specials: str = "fast",
    turn_seconds: int | None = None,
    seed: int | str | None = None,
    draft: bool = False,
    first_player: int | None = None,
    end_after_bases: int | None = None,
    player_picks: bool = False,
    mode: str = "standard",
    board: dict | None = None,
    creator: quotas.Creator | None = None,
    pace: str = DEFAULT_PACE,
    hints: bool = False,
    think: float | None = None,
) -> Game:
    """A new table in the lobby (or already started when every seat is a bot). With `draft`, the
    seats' factions are left to a Kickin' It Queensberry draft at the table (see `drafting`): the
    game starts when every seat is filled and has drafted two. With `player_picks`, each person
    picks their own two when they sit down (`claim_seat`), and the bots get random ones when the
    game starts (so they can avoid the people's picks while there are enough to go round).

    `seed`: None draws a new 256-bit secret (the keyed generator, version 2: what every table gets).
    A test may give a secret, or an int for the old generator (version 1), to replay a known game.

    `mode` "bigbase": a Big Base table (DESIGN.md section 4) on `board`, a board as plain data
    (`bigbase.boards.board_config`; None: the engine's default board). The game keeps its own copy
    of the board, so an organizer's later edit does not change it.

    `creator`: who sets the table up in the lobby (`quotas.Creator`): the limits on live tables and
    on tables of bots only apply (`quotas.TableRefused`, nothing made), and the table remembers its
    address and session for them. None (tournaments, tests, commands): no limit.

    Each bot seat plays with its `SeatSpec.bot` (a name of smashup.botregistry.BOTS); `pace` spaces
    the bots' moves (`tables.PACES`), `hints` lets each person ask for a hint (a casual table's
    choice; off unless asked for) and `think` is a searching bot's (and a hint's) seconds per
    decision (botregistry.THINK_SECONDS_RANGE; None: DEFAULT_THINK_SECONDS, not stored). They are
    kept in the config's table settings (`tables`)."""
    if not 2 <= len(seats) <= 4:
        raise PlayError("A game has 2 to 4 seats.", "config")
    bot_only = all(spec.kind == Seat.Kind.BOT for spec in seats)
    if creator is not None:
        quotas.check(creator, bot_only=bot_only)  # before the work of setting the game up
    if draft and player_picks:
        raise PlayError("Factions are drafted or picked by each player, not both.", "config")
    for i, spec in enumerate(seats):
        if spec.kind not in (Seat.Kind.PERSON, Seat.Kind.BOT):
            raise PlayError(f"Seat {i + 1}: a seat is a person or a bot.", "config")
        if spec.kind == Seat.Kind.BOT and spec.bot not in BOTS:
            raise PlayError(f"Seat {i + 1}: unknown bot {spec.bot!r}.", "config")
    if pace not in PACES:
        raise PlayError(f"A bots' pace is one of {', '.join(PACES)}.", "config")
    if not isinstance(hints, bool):
        raise PlayError("Hints are on or off.", "config")
    low, high = THINK_SECONDS_RANGE
    if think is not None and (
        not isinstance(think, (int, float)) or isinstance(think, bool) or not low <= think <= high
    ):
        raise PlayError(f"A bot thinks {low:g} to {high:g} seconds per decision.", "config")
    if mode not in (Game.Mode.STANDARD, Game.Mode.BIGBASE):
        raise PlayError("A table is a standard game or a Big Base game.", "config")
    if mode == Game.Mode.STANDARD and board is not None:
        raise PlayError("Only a Big Base table has a board.", "config")
    if mode == Game.Mode.BIGBASE and end_after_bases is not None:
        raise PlayError("A Big Base game ends after its scoring periods, not after bases.", "config")
    if base_sets not in ("factions", "all"):
        raise PlayError("Bases come from the chosen factions' sets or from all sets.", "config")
    if specials not in ("fast", "ask"):
        raise PlayError("Specials are 'fast' or 'ask'.", "config")
    low, high = timers.min_turn_seconds(), timers.max_turn_seconds()
    if turn_seconds is not None and (
        not isinstance(turn_seconds, int) or isinstance(turn_seconds, bool) or not low <= turn_seconds <= high
    ):
        raise PlayError(f"A turn timer is {low} to {high} seconds.", "config")
    if seed is None:
        from .models import new_secret_seed

        seed = new_secret_seed()
    try:
        rng_version = engine_rng.version_for(seed)
    except ConfigError as exc:
        raise PlayError(f"Bad seed: {exc}.", "config") from exc
    legacy = rng_version == engine_rng.LEGACY
    seeds = {"seed": seed, "secret_seed": ""} if legacy else {"seed": None, "secret_seed": seed}
    rng = random_stream(seed, rng_version, "lobby:factions", legacy=f"factions:{seed}")
    pool = factions_available()
    if draft or player_picks:
        # Each faction is in a game once: every seat needs two of its own.
        if len(pool) < 2 * len(seats):
            raise PlayError(
                f"{len(seats)} seats need {2 * len(seats)} different factions; the app has {len(pool)}.",
                "config",
            )
        if player_picks:
            for i, spec in enumerate(seats):
                if any(spec.factions):
                    raise PlayError(
                        f"Seat {i + 1}: when each player picks, the factions are not set in advance.",
                        "config",
                    )
        # Placeholders for the engine's trial setup below (different at every seat, as the rule
        # wants); the draft, or each person and the bots at the start, decide the real ones.
        factions = [pool[2 * i : 2 * i + 2] for i in range(len(seats))]
    else:
        factions = draw_factions(seats, rng, pool)
    config = {
        "mode": mode,
        "players": [
            {
                "name": f"Bot {i + 1}" if spec.kind == Seat.Kind.BOT else f"Seat {i + 1}",
                "factions": pair,
                "bot": engine_bot(spec.bot) if spec.kind == Seat.Kind.BOT else None,
            }
            for i, (spec, pair) in enumerate(zip(seats, factions, strict=True))
        ],
        "specials": specials,
        "base_sets": base_sets,
        "first_player": first_player,
        "end_after_bases": end_after_bases,
    }
    if mode == Game.Mode.BIGBASE:
        config["board"] = board
    table = {
        "pace": pace,
        "hints": hints,
        "bots": {str(i): spec.bot for i, spec in enumerate(seats) if spec.kind == Seat.Kind.BOT},
    }
    if think is not None:
        table["think"] = float(think)
    try:  # the engine's own check, and a trial setup (enough bases for this many players?)
        config = with_table_settings(new_game(config, seed, rng_version=rng_version).config, table)
    except ConfigError as exc:
        hint = " Choose bases from all sets." if "bases" in str(exc) and base_sets != "all" else ""
        raise PlayError(f"This table cannot be set up: {exc}.{hint}", "config") from exc
    with transaction.atomic():
        if creator is not None:  # counted again under the lock: parallel requests pass one by one
            quotas.lock(creator)
            quotas.check(creator, bot_only=bot_only)
        row = _insert_game(
            config=config,
            rng_version=rng_version,
            **seeds,
            created_by=created_by,
            created_address=creator.address if creator is not None else "",
            created_session=creator.session if creator is not None else "",
            mode=mode,
            turn_seconds=turn_seconds,
            player_picks=player_picks,
        )
        for i, (spec, pair) in enumerate(zip(seats, factions, strict=True)):
            reserved = spec.kind == Seat.Kind.PERSON and bool(spec.name)
            Seat.objects.create(
                game=row,
                index=i,
                kind=spec.kind,
                bot=spec.bot if spec.kind == Seat.Kind.BOT else "",
                factions=[] if draft or player_picks else pair,
                user=spec.user if reserved else None,
                guest_name=clean_guest_name(spec.name) if reserved else "",
                claimed=reserved,
                claimed_at=timezone.now() if reserved else None,
                # A player with an account reaches the seat by logging in: nobody else may take it.
                # A named guest's seat waits for the first to confirm its link (`claim_seat`).
                taken=reserved and spec.user is not None,
            )
        if draft:
            drafting.begin(row, pool)  # bots pick at once when it is their turn
        maybe_start(row)
    return row


def _insert_game(**fields) -> Game:
    from .models import new_code

    for _ in range(20):  # a code collision is rare (31^6 codes); try another
        try:
            with transaction.atomic():
                return Game.objects.create(code=new_code(), **fields)
        except IntegrityError:
            continue
    raise PlayError("Could not find a free table code; try again.")


def clean_guest_name(name: str) -> str:
    name = " ".join(str(name or "").split())
    if not name:
        raise SeatError("Enter a name to sit at the table.")
    if len(name) > MAX_GUEST_NAME:
        raise SeatError(f"A name has at most {MAX_GUEST_NAME} characters.")
    return name


def clean_factions(factions) -> list[str]:
    """A person's own pick: two different factions of the implemented ones, or a FactionError."""
    if (
        not isinstance(factions, (list, tuple))
        or len(factions) != 2
        or not all(isinstance(f, str) and f.strip() for f in factions)
    ):
        raise FactionError("Pick two factions.")
    picked = [f.strip() for f in factions]
    known = factions_available()
    for name in picked:
        if name not in known:
            raise FactionError(f"There is no faction called {name[:40]!r}; pick from {', '.join(known)}.")
    if picked[0] == picked[1]:
        raise FactionError(f"You picked {picked[0]} twice; pick two different factions.")
    return picked


def _refuse_taken_factions(row: Game, seat: Seat, picked: list[str]) -> None:
    """Each faction is in a game once (issue 9): a pick that another seat at the table holds is
    refused (FactionError, nothing changes). It is called for a player's own pick, which happens
    only while the picks are secret (each player picks, before the start): the refusal says that the
    faction is taken, never by which seat (issue 26), so a pick does not tell who picked what."""
    others = row.seats.exclude(pk=seat.pk)
    clash = [f for f in picked if any(f in (other.factions or []) for other in others)]
    if clash:
        raise FactionError(
            f"{clash[0]} is already taken at this table: each faction is in a game once; pick another."
        )


def claim_seat(
    game_id: int, index: int, *, user=None, guest_name: str = "", factions=None, link_token: str | None = None
) -> Seat:
    """Take a free person seat, as a logged-in user or as a guest with a name. The last free seat
    starts the game. Claiming a seat you already hold with your account is fine (a second device).
    At a table where each player picks (`Game.player_picks`), `factions` are the two the person
    picks (required); elsewhere the factions were set with the table, and giving some is refused.

    `link_token`: the seat's token that a seat link carried (`seat_from_link`), checked again under
    the lock: a link that someone used in the meantime no longer works. With it, a seat reserved for
    a named guest (a tournament table) is taken by the first to confirm its link.

    Taking a seat gives it a new token: every link handed out for it stops working (the creator of
    the table kept them), and the taker's session and resume link carry the new one."""
    with transaction.atomic():
        row = lock_game(game_id)
        seat = _lock_seat(row, index)
        if seat.is_bot:
            raise SeatError(f"Seat {index + 1} is played by a bot.")
        if link_token is not None and (seat.taken or not _same(seat.token, link_token)):
            raise BadSeatLink(TAKEN_LINK if seat.taken else "This seat link is no longer valid.")
        authenticated = user is not None and user.is_authenticated
        if factions is not None and not row.player_picks:
            raise FactionError("At this table the factions were set when it was created.")
        if seat.claimed:
            if authenticated and seat.user_id == user.pk:
                if factions is not None and row.is_lobby:  # my own seat, from another device
                    _set_factions(row, seat, clean_factions(factions))
                return seat
            if link_token is not None and not seat.taken and factions is None:
                # A seat reserved for a named guest: the first to confirm its link plays it.
                seat.token, seat.taken = new_seat_token(), True
                seat.save(update_fields=["token", "taken"])
                return seat
            raise SeatError(f"Seat {index + 1} is already taken by {seat.display_name}.")
        if not row.is_lobby:
            raise SeatError("This game has already started; its free seats were given to bots.")
        picked = None
        if row.player_picks:
            if factions is None:
                raise FactionError("Pick your two factions to sit at this table.")
            picked = clean_factions(factions)
            _refuse_taken_factions(row, seat, picked)
        if authenticated:
            seat.user = user
            seat.guest_name = ""
        else:
            seat.guest_name = clean_guest_name(guest_name)
        if picked is not None:
            seat.factions = picked
        seat.claimed = True
        seat.claimed_at = timezone.now()
        seat.taken = True
        seat.token = new_seat_token()  # the links handed out for the free seat stop working
        seat.save()
        changed_on_commit(row)
        maybe_start(row)
    return seat


def _lock_seat(row: Game, index: int) -> Seat:
    try:
        return row.seats.select_for_update().get(index=index)
    except Seat.DoesNotExist:
        raise SeatError(f"This table has no seat {index + 1}.") from None


def pick_factions(
    game_id: int, index: int, factions, *, user=None, session_seats: Mapping | None = None
) -> Seat:
    """The holder of seat `index` (this user, or this browser session) changes their two factions
    before the game starts, at a table where each player picks. The last missing pick starts it."""
    with transaction.atomic():
        row = lock_game(game_id)
        if not row.player_picks:
            raise FactionError("At this table the factions are not picked by the players.")
        if not row.is_lobby:
            raise FactionError("The game has started: its factions are set.")
        if not isinstance(index, int) or isinstance(index, bool):
            raise BadRequest("'seat' must be a seat number.")
        seat = _lock_seat(row, index)
        if seat.is_bot:
            raise FactionError(f"Seat {index + 1} is a bot's: its factions are drawn when the game starts.")
        if index not in held_seats(row, user=user, session_seats=session_seats):
            raise SeatError("You can only pick the factions of your own seat.", "not_your_seat")
        _set_factions(row, seat, clean_factions(factions))
    return seat


def _set_factions(row: Game, seat: Seat, picked: list[str]) -> None:
    """Inside a transaction holding `row`: store a person's own pick; start the game if it was the
    last thing missing."""
    _refuse_taken_factions(row, seat, picked)
    seat.factions = picked
    seat.save(update_fields=["factions"])
    changed_on_commit(row)
    maybe_start(row)


def start_game(game_id: int, *, fill_with_bots: bool = True, by: quotas.Creator | None = None) -> Game:
    """Start a lobby game now: with `fill_with_bots`, free person seats become heuristic bots.
    `by`: who asks (its creator, from the table page): a table with nobody seated would become one
    of bots only, which only staff may start (`quotas.start_refusal`; nothing changes)."""
    with transaction.atomic():
        row = lock_game(game_id)
        if not row.is_lobby:
            raise PlayError("This game has already started.", "started")
        seats = list(row.seats.select_for_update())
        free = [s for s in seats if not s.filled]
        if free and not fill_with_bots:
            raise SeatError("Some seats are still free.")
        if by is not None:
            refused = quotas.start_refusal(
                by, people_seated=sum(1 for s in seats if not s.is_bot and s.claimed)
            )
            if refused is not None:
                raise refused
        for seat in free:
            # A new token revokes the links handed out for the person who never came: the seat is
            # the server's bot now, and an old link must not let anyone play it.
            seat.kind, seat.bot, seat.token = Seat.Kind.BOT, "heuristic", new_seat_token()
            seat.save(update_fields=["kind", "bot", "token"])
        if row.draft is not None:
            drafting.bots_pick(row)  # the new bots draft at once when it is their turn
            changed_on_commit(row)
        maybe_start(row)
    return row


def seat_link_token(seat: Seat) -> str:
    """A signed, URL-safe token that offers `seat` to whoever confirms it first (a free seat, or one
    reserved for a named guest): its table's creator shares it. Taking the seat revokes it."""
    return signing.dumps([seat.game.public_id, seat.index, seat.token], salt=SEAT_LINK_SALT)


def resume_link_token(seat: Seat) -> str:
    """The personal link of whoever holds `seat`: it lets them play the seat on another device. It
    is shown only to them (their table and game pages) and never seats anyone in a free seat."""
    return signing.dumps([seat.game.public_id, seat.index, seat.token], salt=RESUME_LINK_SALT)


def _signed_seat(signed: str, salt: str, public_id: str | None) -> tuple[Seat, str]:
    """The seat a signed link names (without checking its token), and the token it carries."""
    try:
        value = signing.loads(str(signed), salt=salt)
        link_game, index, token = value
        index = params.whole_number(index, "index")
    except (signing.BadSignature, ValueError, TypeError):
        raise BadSeatLink("This seat link is not valid (it may have been mistyped or forged).") from None
    if public_id is not None and link_game != public_id:
        raise BadSeatLink("This seat link belongs to another game.")
    seat = Seat.objects.select_related("game", "user").filter(game__public_id=link_game, index=index).first()
    if seat is None:
        raise BadSeatLink("This seat link is no longer valid.")
    return seat, token


def seat_from_link(signed: str, public_id: str | None = None) -> Seat:
    """The seat a signed seat link offers. BadSeatLink when forged, revoked, for another game, a
    bot's, or when someone has taken the seat already."""
    seat, token = _signed_seat(signed, SEAT_LINK_SALT, public_id)
    if seat.is_bot:  # only the server plays a bot seat, whatever link someone kept
        raise BadSeatLink(f"Seat {seat.index + 1} is played by a bot; its link does not seat anyone.")
    if seat.taken:
        raise BadSeatLink(TAKEN_LINK)
    if not _same(seat.token, token):
        raise BadSeatLink("This seat link is no longer valid.")
    return seat


def seat_from_resume_link(signed: str, public_id: str | None = None) -> Seat:
    """The seat a holder's personal resume link is for. BadSeatLink when forged, revoked or not a
    taken person seat."""
    seat, token = _signed_seat(signed, RESUME_LINK_SALT, public_id)
    if seat.is_bot:
        raise BadSeatLink(f"Seat {seat.index + 1} is played by a bot; its link does not seat anyone.")
    if not seat.taken or not _same(seat.token, token):
        raise BadSeatLink("This link to a seat is no longer valid.")
    return seat


def linked_seat(signed: str) -> tuple[str, int] | None:
    """(game public id, seat index) that a signed seat or resume link names, whatever its token
    (so a browser that already holds the seat can be sent to it); None for anything else."""
    for salt in (SEAT_LINK_SALT, RESUME_LINK_SALT):
        try:
            link_game, index, _ = signing.loads(str(signed), salt=salt)
            return str(link_game), params.whole_number(index, "index")
        except (signing.BadSignature, ValueError, TypeError):
            continue
    return None


def _same(a: str, b) -> bool:
    from django.utils.crypto import constant_time_compare

    return isinstance(b, str) and constant_time_compare(a, b)


def seat_hot_seat_table(game_id: int, names: list[str]) -> list[Seat]:
    """A hot seat table (one device passed around): every person seat is taken at once under its
    name (`names`, by seat index), for the one browser that set it up; the last claim starts the
    game. The device then shows a privacy screen between seats (views.hotseat)."""
    row = Game.objects.get(pk=game_id)
    taken = []
    for seat in row.seats.filter(kind=Seat.Kind.PERSON).order_by("index"):
        taken.append(claim_seat(game_id, seat.index, guest_name=names[seat.index]))
    return taken


def remember_seat(session, seat: Seat) -> None:
    """Let this browser session act for `seat` (guests: what a seat link or a claim gives)."""
    held = dict(session.get("play_seats") or {})
    mine = dict(held.get(seat.game.public_id) or {})
    mine[str(seat.index)] = seat.token
    held[seat.game.public_id] = mine
    session["play_seats"] = held


def held_seats(row: Game, *, user=None, session_seats: Mapping | None = None) -> list[int]:
    """The seats of `row` that this user or browser session may act for, in seat order."""
    held = set()
    seats = list(row.seats.all())
    if user is not None and getattr(user, "is_authenticated", False):
        held.update(s.index for s in seats if s.user_id == user.pk)
    mine = (session_seats or {}).get(row.public_id) or {}
    if isinstance(mine, Mapping):
        for s in seats:
            token = mine.get(str(s.index))
            if token is not None and not s.is_bot and _same(s.token, token):
                held.add(s.index)
    return sorted(held)


def resolve_seat(
    row: Game,
    *,
    user=None,
    session_seats: Mapping | None = None,
    link: str | None = None,
    wanted: int | None = None,
) -> int | None:
    """Which seat a connection or page acts for: a holder's resume link first (`resume_link_token`;
    never a seat link, which only offers a seat to be taken), then the seats the user or session
    holds (`wanted` picks among several), else None: a spectator."""
    if link:
        try:
            seat = seat_from_resume_link(link, row.public_id)  # refuses a bot seat's link
        except BadSeatLink as refused:
            try:
                signing.loads(str(link), salt=SEAT_LINK_SALT)
            except (signing.BadSignature, ValueError, TypeError):
                raise refused from None
            raise BadSeatLink(
                "That link offers a seat: take the seat on its page in a browser; it plays no seat here."
            ) from None
        return seat.index
    held = held_seats(row, user=user, session_seats=session_seats)
    if wanted is not None and wanted in held:
        return wanted
    return held[0] if held else None
