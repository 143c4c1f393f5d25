"""The business logic of live games, as plain functions. Views, consumers and tasks stay thin.

Creating and joining a table::

    game = create_game([SeatSpec("person", ["Aliens", None]), SeatSpec("bot", [None, None])],
                       created_by=user)          # random factions drawn now; a lobby row
    claim_seat(game.pk, 0, user=user)             # or guest_name="Ada"; the last claim starts it
    start_game(game.pk, fill_with_bots=True)      # or start now, bots in the empty seats

With ``player_picks=True`` each person picks their own factions: ``claim_seat(..., factions=[a, b])``
(and ``pick_factions`` to change them before the start); bots get random ones when the game starts.

Playing::

    submit_choice(game.pk, seat, expected_seq, decision_id, option_ids)

runs in one transaction: a row lock on the game (SELECT ... FOR UPDATE), the sequence check (the
client says which version it answered; anything else is stale), the engine's own checks, the new
``Choice`` row with the state hash after it, the version bump and the finished state. Only after the
commit (``transaction.on_commit``) are the game's channel group told and the bot, if the next
decision is a bot's, scheduled. A refused choice raises a ``PlayError`` with a message for people
and a ``code`` for programs, and changes nothing.

The engine's record is the truth: ``engine_game`` rebuilds a game from its row and its choices
(checking every stored state hash). An in-process cache keyed by (game, version) spares the
rebuild; an entry is *taken out* while someone uses it, so no engine object is ever shared between
threads, and a missing or stale entry is simply rebuilt.

Bots play through the same ``submit_choice`` path (``bot_move``). After a commit that leaves a bot's
decision open, a Celery task ``play_bot(game, seq)`` is scheduled with a countdown of
``PLAY_BOT_DELAY`` seconds; it does nothing if the game has moved on from ``seq``, so duplicates,
retries and restarts are harmless, and it survives any number of games (the state is in the database,
not in a waiting thread). See ``run_bots``.
"""

from __future__ import annotations

import functools
import logging
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone

from smashup.core import params
from smashup.engine import ConfigError, EngineError, IllegalChoice, new_game, replay
from smashup.engine import rng as engine_rng
from smashup.engine.bots import BOTS
from smashup.engine.game import CALL_TIME

from . import drafting, timers
from . import undo as undo_rule
from .lru import LRU
from .models import Game, Seat, new_seat_token

logger = logging.getLogger(__name__)

SEAT_LINK_SALT = "smashup.play.seat-link"
RESUME_LINK_SALT = "smashup.play.seat-resume"
TAKEN_LINK = (
    "Someone has taken this seat: its link no longer seats anyone. Whoever took it has their own link."
)
MAX_GUEST_NAME = 40
MAX_OPTIONS = 64  # more option ids than any decision can take: refuse bigger lists unread


# ---------------------------------------------------------------------------------- errors -------
class PlayError(Exception):
    """A refused request. `str(err)` is for people, `err.code` for programs. Nothing was changed."""

    code = "error"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self)


class GameNotFound(PlayError):
    code = "not_found"


class NotStarted(PlayError):
    code = "not_started"


class GameOver(PlayError):
    code = "game_over"


class StaleChoice(PlayError):
    code = "stale"


class NotYourDecision(PlayError):
    code = "not_your_decision"


class SpectatorChoice(PlayError):
    code = "spectator"


class IllegalMove(PlayError):
    code = "illegal"


class BadRequest(PlayError):
    code = "bad_request"


class SeatError(PlayError):
    code = "seat"


class BadSeatLink(PlayError):
    code = "bad_link"


class GameBroken(PlayError):
    """The stored record no longer replays (or replays to a different state). Never the player's fault."""

    code = "broken"


class UndoRefused(PlayError):
    code = "cannot_undo"


class FactionError(PlayError):
    code = "factions"


class _NothingToDo(Exception):
    """Internal: a bot task found that the open decision is not a bot's."""


# ---------------------------------------------------------------------------------- settings -----
def bot_delay() -> float:
    return float(getattr(settings, "PLAY_BOT_DELAY", 0.6))


def celery_eager() -> bool:
    from smashup.celery import app

    return bool(app.conf.task_always_eager)


# ---------------------------------------------------------------------------------- engine cache -
class GameCache:
    """Rebuilt engine games by game pk, each with the version it is at.

    `take` removes the entry (the caller owns the object until it `put`s it back), so two threads
    never hold the same engine game; a miss just means a rebuild from the record. `put` never
    replaces a newer version with an older one.
    """

    def __init__(self, size: int = 256):
        self.size = size
        self._lock = threading.Lock()
        self._games: OrderedDict[int, tuple[int, object]] = OrderedDict()
        self.hits = 0
        self.misses = 0
        self.catch_ups = 0

    def take(self, pk: int, version: int):
        with self._lock:
            entry = self._games.get(pk)
            if entry is not None and entry[0] == version:
                del self._games[pk]
                self.hits += 1
                return entry[1]
            self.misses += 1
            return None

    def take_older(self, pk: int, version):
        """Take the entry of `pk` if it is older than `version`: (its version, the game), else None.
        A newer entry stays (the caller read its row before a later commit)."""
        with self._lock:
            entry = self._games.get(pk)
            if entry is None or not entry[0] < version:
                return None
            del self._games[pk]
            return entry

    def put(self, pk: int, version: int, game) -> None:
        with self._lock:
            current = self._games.get(pk)
            if current is not None and current[0] > version:
                return
            self._games[pk] = (version, game)
            self._games.move_to_end(pk)
            while len(self._games) > self.size:
                self._games.popitem(last=False)

    def drop(self, pk: int) -> None:
        with self._lock:
            self._games.pop(pk, None)

    def clear(self) -> None:
        with self._lock:
            self._games.clear()


cache = GameCache(int(getattr(settings, "PLAY_GAME_CACHE_SIZE", 256)))

# The undo rule's snapshot of a game after a person's choice (`undo_rule.snapshot`), by (game pk,
# undos, version), stored once committed: it is the "before" of the next choice, so a choice takes one
# snapshot rather than two.
undo_snapshots = LRU(int(getattr(settings, "PLAY_GAME_CACHE_SIZE", 256)))


def rebuild(row: Game, version: int | None = None):
    """The engine game of `row` at `row.version` (or an earlier `version`), rebuilt from its stored
    record (hashes checked)."""
    version = row.version if version is None else version
    choices = list(
        row.choices.in_record()
        .filter(seq__lt=version)
        .order_by("seq")
        .values_list("seq", "seat", "decision", "options", "state_hash")
    )
    if [c[0] for c in choices] != list(range(version)):
        raise GameBroken(f"The stored record of game {row.code} has gaps; it cannot be rebuilt.")
    record = {
        **row.record_head(),
        "choices": [[seat, decision, list(options)] for _, seat, decision, options, _ in choices],
        "hashes": [h for *_, h in choices],
    }
    try:
        game = replay(record)
    except EngineError as exc:
        logger.error("game %s (pk %s) does not replay: %s", row.public_id, row.pk, exc)
        raise GameBroken(f"The record of game {row.code} does not replay: {exc}") from exc
    game.track_hashes = True
    game.hashes = [h for *_, h in choices]
    if version == row.version and row.state_hash and game.digest() != row.state_hash:
        raise GameBroken(f"Game {row.code} rebuilds to a different state than was played.")
    return game


def _key(row: Game) -> tuple[int, int]:
    """The cache key of a row's state: an undo takes the version back, so the number of undos
    comes first (a game at version 7 before an undo is not the game at version 7 after it)."""
    return (row.undos, row.version)


def _take(row: Game):
    key = _key(row)
    game = cache.take(row.pk, key)
    if game is not None and len(game.choices) == row.version:
        return game
    older = cache.take_older(row.pk, key)
    if older is not None:
        game = _catch_up(row, *older)
        if game is not None:
            return game
    return rebuild(row)


def _catch_up(row: Game, key: tuple[int, int], game):
    """The cached `game` (at `key`) brought to `row.version` by applying only the choices it lacks,
    each checked against its stored state hash: another server process usually applied them, and
    replaying the whole record for every choice made elsewhere would cost a rebuild per choice.
    None when that cannot be done safely (a choice was taken back since: the record changed below
    the cached version; a gap; a drift), and the caller rebuilds from the whole record."""
    undos, version = key
    if undos != row.undos or len(game.choices) != version or not game.track_hashes:
        return None
    missing = list(
        row.choices.in_record()
        .filter(seq__gte=version, seq__lt=row.version)
        .order_by("seq")
        .values_list("seq", "seat", "decision", "options", "state_hash")
    )
    if [c[0] for c in missing] != list(range(version, row.version)):
        return None
    try:
        for _, seat, decision, options, state_hash in missing:
            game.apply(seat, decision, list(options))
            if game.hashes[-1] != state_hash:
                return None
    except EngineError:
        return None
    cache.catch_ups += 1
    return game


@contextmanager
def engine_game(row: Game) -> Iterator:
    """Use the engine game of an active or finished `row` (at `row.version`) without changing it::

    with engine_game(row) as game:
        view = game.view(seat)
    """
    if row.is_lobby:
        raise NotStarted("The game has not started yet.")
    try:
        game = _take(row)
    except GameBroken:
        # `row` may have been read just before a choice was taken back (the record then ends
        # earlier than its version says): read it again once before calling the game broken.
        fresh = Game.objects.filter(pk=row.pk).values_list("version", "undos").first()
        if fresh is None or fresh == (row.version, row.undos):
            raise
        row.refresh_from_db()
        game = _take(row)
    try:
        yield game
    finally:
        cache.put(row.pk, _key(row), game)


def game_at(row: Game, steps: int):
    """A fresh engine game after the first `steps` choices of `row` (for the replay page)."""
    steps = max(0, min(steps, row.version))
    choices = list(row.choices.in_record().filter(seq__lt=steps).order_by("seq"))
    record = {
        **row.record_head(),
        "choices": [c.as_record() for c in choices],
        "hashes": [c.state_hash for c in choices],
    }
    try:
        return replay(record)
    except EngineError as exc:
        raise GameBroken(f"The record of game {row.code} does not replay: {exc}") from exc


# ---------------------------------------------------------------------------------- lookups ------
def get_game(public_id: str) -> Game:
    try:
        return Game.objects.get(public_id=public_id)
    except Game.DoesNotExist:
        raise GameNotFound("There is no game at this address.") from None


def game_by_code(code: str) -> Game:
    clean = "".join(str(code or "").split()).upper()
    if not clean:
        raise GameNotFound("Enter the code shown at the table.")
    try:
        return Game.objects.get(code=clean)
    except Game.DoesNotExist:
        raise GameNotFound(f"No game has the code {clean}.") from None


def player_names(row: Game) -> dict[int, str]:
    return {i: p.get("name") or f"Player {i + 1}" for i, p in enumerate(row.config.get("players", []))}


def is_bot_seat(row: Game, seat: int | None) -> bool:
    players = row.config.get("players", [])
    return seat is not None and 0 <= seat < len(players) and bool(players[seat].get("bot"))


def factions_available() -> list[str]:
    import smashup.cards  # noqa: F401  (fills the registry)
    from smashup.engine import REGISTRY

    return sorted(REGISTRY.factions)


# ---------------------------------------------------------------------------------- creating -----
@dataclass
class SeatSpec:
    kind: str  # "person" or "bot"
    factions: list = field(default_factory=lambda: [None, None])  # a name, or None for random
    bot: str = "heuristic"
    # A seat reserved for a known person (a tournament table): taken from the start under this name,
    # by this user if they have an account (they reach it by logging in), else by its seat link.
    name: str = ""
    user: object = None


def random_stream(seed, version: int, label: str, legacy: str) -> random.Random:
    """One random stream of a table, for one purpose (`label`). Version 2: the keyed stream `label`
    of the game's secret seed (smashup/engine/rng.py), which nobody at the table can predict.
    Version 1 (games stored before it): the Mersenne Twister seeded with `legacy`, as they drew."""
    if version == engine_rng.LEGACY:
        return random.Random(legacy)
    return engine_rng.KeyedRandom(seed, label)


def table_stream(row: Game, label: str, legacy: str = "") -> random.Random:
    """`random_stream` of a game row (`legacy`: the version 1 seed string, if it ever drew one)."""
    return random_stream(row.engine_seed, row.rng_version, label, legacy)


def draw_factions(specs: list[SeatSpec], rng: random.Random, pool: list[str]) -> list[list[str]]:
    """Each seat's two factions: the chosen ones, random ones for the rest. Random picks avoid
    factions that other seats already have while there are enough to go round."""
    known = set(pool)
    taken: list[str] = [f for s in specs for f in s.factions if f]
    for i, spec in enumerate(specs):
        for f in spec.factions:
            if f is not None and f not in known:
                raise PlayError(f"Seat {i + 1}: there is no faction called {f!r}.", "config")
        if len(spec.factions) != 2:
            raise PlayError(f"Seat {i + 1} needs two factions (or random).", "config")
        if spec.factions[0] and spec.factions[0] == spec.factions[1]:
            raise PlayError(
                f"Seat {i + 1} has {spec.factions[0]} twice; pick two different factions.", "config"
            )
    result = []
    for spec in specs:
        mine = [f for f in spec.factions if f]
        for _ in range(2 - len(mine)):
            fresh = [f for f in pool if f not in taken and f not in mine]
            choices = fresh or [f for f in pool if f not in mine]
            pick = rng.choice(choices)
            mine.append(pick)
            taken.append(pick)
        result.append(mine)
    return result


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
) -> Game:
    """A new table in the lobby (or already started when every seat is a bot). With `draft`, the
    seats' factions are left to a Kickin' It Queensberry draft at the table (see `drafting`): the
    game starts when every seat is filled and has drafted two. With `player_picks`, each person
    picks their own two when they sit down (`claim_seat`), and the bots get random ones when the
    game starts (so they can avoid the people's picks while there are enough to go round).

    `seed`: None draws a new 256-bit secret (the keyed generator, version 2: what every table gets).
    A test may give a secret, or an int for the old generator (version 1), to replay a known game."""
    if not 2 <= len(seats) <= 4:
        raise PlayError("A game has 2 to 4 seats.", "config")
    if draft and player_picks:
        raise PlayError("Factions are drafted or picked by each player, not both.", "config")
    for i, spec in enumerate(seats):
        if spec.kind not in (Seat.Kind.PERSON, Seat.Kind.BOT):
            raise PlayError(f"Seat {i + 1}: a seat is a person or a bot.", "config")
        if spec.kind == Seat.Kind.BOT and spec.bot not in BOTS:
            raise PlayError(f"Seat {i + 1}: unknown bot {spec.bot!r}.", "config")
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
    if draft:
        if len(pool) < 2:
            raise PlayError("A draft needs at least two factions.", "config")
        # Placeholders for the engine's trial setup below; the draft decides the real ones.
        factions = [pool[:2] for _ in seats]
    elif player_picks:
        if len(pool) < 2:
            raise PlayError("Picking needs at least two factions.", "config")
        for i, spec in enumerate(seats):
            if any(spec.factions):
                raise PlayError(
                    f"Seat {i + 1}: when each player picks, the factions are not set in advance.", "config"
                )
        # Placeholders for the trial setup: people pick theirs, bots draw theirs at the start.
        factions = [pool[:2] for _ in seats]
    else:
        factions = draw_factions(seats, rng, pool)
    config = {
        "mode": "standard",
        "players": [
            {
                "name": f"Bot {i + 1}" if spec.kind == Seat.Kind.BOT else f"Seat {i + 1}",
                "factions": pair,
                "bot": spec.bot if spec.kind == Seat.Kind.BOT else None,
            }
            for i, (spec, pair) in enumerate(zip(seats, factions, strict=True))
        ],
        "specials": specials,
        "base_sets": base_sets,
        "first_player": first_player,
        "end_after_bases": end_after_bases,
    }
    try:  # the engine's own check, and a trial setup (enough bases for this many players?)
        config = new_game(config, seed, rng_version=rng_version).config
    except ConfigError as exc:
        hint = " Choose bases from all sets." if "bases" in str(exc) and base_sets != "all" else ""
        raise PlayError(f"This table cannot be set up: {exc}.{hint}", "config") from exc
    with transaction.atomic():
        row = _insert_game(
            config=config,
            rng_version=rng_version,
            **seeds,
            created_by=created_by,
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
        _maybe_start(row)
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


def _lock(game_id: int) -> Game:
    """The game row, locked until the end of the caller's transaction. Every choice starts here, so
    on PostgreSQL the query is written once (`_lock_plan`) rather than built by the ORM each time."""
    from django.db import connection

    if connection.vendor != "postgresql":
        try:
            return Game.objects.select_for_update().get(pk=game_id)
        except Game.DoesNotExist:
            raise GameNotFound("This game no longer exists.") from None
    sql, names, converters = _lock_plan()
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        found = cursor.fetchone()
    if found is None:
        raise GameNotFound("This game no longer exists.")
    values = list(found)
    for index, convert in converters:  # what the ORM does on reading (JSON text to Python)
        values[index] = convert(values[index], None, connection)
    return Game.from_db(connection.alias, names, values)


@functools.cache
def _lock_plan() -> tuple[str, list[str], list[tuple[int, Callable]]]:
    from django.db import connection

    quote = connection.ops.quote_name
    fields = Game._meta.concrete_fields
    sql = (
        f"SELECT {', '.join(quote(f.column) for f in fields)} FROM {quote(Game._meta.db_table)} "
        f"WHERE {quote(Game._meta.pk.column)} = %s FOR UPDATE"
    )
    converters = [
        (index, convert) for index, f in enumerate(fields) for convert in f.get_db_converters(connection)
    ]
    return sql, [f.attname for f in fields], converters


# ---------------------------------------------------------------------------------- seats --------
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
        row = _lock(game_id)
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
        _changed_on_commit(row)
        _maybe_start(row)
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
        row = _lock(game_id)
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
    seat.factions = picked
    seat.save(update_fields=["factions"])
    _changed_on_commit(row)
    _maybe_start(row)


def start_game(game_id: int, *, fill_with_bots: bool = True) -> Game:
    """Start a lobby game now: with `fill_with_bots`, free person seats become heuristic bots."""
    with transaction.atomic():
        row = _lock(game_id)
        if not row.is_lobby:
            raise PlayError("This game has already started.", "started")
        free = [s for s in row.seats.select_for_update() if not s.filled]
        if free and not fill_with_bots:
            raise SeatError("Some seats are still free.")
        for seat in free:
            # A new token revokes the links handed out for the person who never came: the seat is
            # the server's bot now, and an old link must not let anyone play it.
            seat.kind, seat.bot, seat.token = Seat.Kind.BOT, "heuristic", new_seat_token()
            seat.save(update_fields=["kind", "bot", "token"])
        if row.draft is not None:
            drafting.bots_pick(row)  # the new bots draft at once when it is their turn
            _changed_on_commit(row)
        _maybe_start(row)
    return row


def _maybe_start(row: Game) -> bool:
    """Inside a transaction holding the row: start the game if every seat is filled."""
    seats = list(row.seats.order_by("index"))
    if not row.is_lobby or not seats or not all(s.filled for s in seats):
        return False
    if row.draft is not None and not drafting.is_done(row):
        return False  # the faction draft at the table is not over yet
    if row.player_picks:
        if any(not s.is_bot and len(s.factions) != 2 for s in seats):
            return False  # someone seated has not picked yet
        _draw_bot_factions(row, seats)
    config = dict(row.config)
    players = [dict(p) for p in config["players"]]
    for seat, player in zip(seats, players, strict=True):
        # A reserved seat keeps the name it was given (a user's own claim clears guest_name).
        player["name"] = seat.guest_name or seat.display_name
        player["bot"] = (seat.bot or "heuristic") if seat.is_bot else None
        player["factions"] = list(seat.factions)
    config["players"] = players
    try:
        game = new_game(config, row.engine_seed, track_hashes=True, rng_version=row.rng_version)
    except ConfigError as exc:
        raise PlayError(f"The game cannot start: {exc}", "config") from exc
    row.config = game.config
    row.status = Game.Status.ACTIVE
    row.version = 0
    row.started_at = timezone.now()
    _sync_row(row, game)
    row.undo_seat = None
    timers.arm(row)
    row.save()
    outcome = _outcome(row, game)
    transaction.on_commit(lambda: _committed(outcome.game_id, 0, game, outcome, schedule_bots=True))
    return True


def _draw_bot_factions(row: Game, seats: list[Seat]) -> None:
    """At the start of a table where each player picks: random factions for the bot seats (drawn
    from the seed, so the record still says everything), avoiding the people's picks while there are
    enough factions to go round."""
    if all(s.factions for s in seats if s.is_bot):
        return
    specs = [SeatSpec(s.kind, list(s.factions) if s.factions else [None, None]) for s in seats]
    rng = table_stream(row, "lobby:bot-factions", legacy=f"factions:{row.seed}:bots")
    pairs = draw_factions(specs, rng, factions_available())
    for seat, pair in zip(seats, pairs, strict=True):
        if seat.is_bot and not seat.factions:
            seat.factions = pair
            seat.save(update_fields=["factions"])


# ---------------------------------------------------------------------------------- seat links ---
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


# ---------------------------------------------------------------------------------- choices ------
@dataclass(frozen=True)
class Outcome:
    """What a committed change left behind (plain data, safe to pass between threads)."""

    game_id: int
    version: int
    status: str
    pending_seat: int | None
    pending_decision: str
    winner: int | None
    bot_next: bool
    deadline: datetime | None = None  # the turn timer of the decision now open, if any
    undos: int = 0


def _outcome(row: Game, game) -> Outcome:
    return Outcome(
        game_id=row.pk,
        version=row.version,
        status=row.status,
        pending_seat=row.pending_seat,
        pending_decision=row.pending_decision,
        winner=row.winner,
        bot_next=row.is_active and is_bot_seat(row, row.pending_seat),
        deadline=row.deadline if row.deadline_seq == row.version else None,
        undos=row.undos,
    )


def _sync_row(row: Game, game) -> None:
    """Copy what the engine says into the row's denormalised fields."""
    pending = game.pending
    row.pending_seat = pending.seat if pending is not None else None
    row.pending_decision = pending.id if pending is not None else ""
    row.state_hash = game.hashes[-1] if game.hashes else game.digest()
    if pending is None:
        row.status = Game.Status.FINISHED
        row.winner = game.winner
        row.finished_at = timezone.now()


def clean_choice(seq, decision, options) -> tuple[int, str, list[str]]:
    """Check the shape of a choice from outside (numbers may come as strings from forms)."""
    try:
        seq = params.whole_number(seq, "seq")
    except params.BadNumber:
        raise BadRequest("'seq' must be the game version you answered (a number).") from None
    if not isinstance(decision, str) or not decision or len(decision) > 32:
        raise BadRequest("'decision' must be the id of the decision you answer.")
    if options is None:
        options = []
    elif isinstance(options, str):
        options = [options]
    if not isinstance(options, list) or not all(isinstance(o, str) and 0 < len(o) <= 64 for o in options):
        raise BadRequest("'options' must be a list of option ids.")
    if len(options) > MAX_OPTIONS:
        raise BadRequest("Too many options in one choice.")
    return seq, decision, options


def submit_choice(
    game_id: int, seat: int | None, expected_seq, decision_id, option_ids, *, by_bot: bool = False
) -> Outcome:
    """Apply one seat's choice, or raise a PlayError and change nothing. See the module doc."""
    expected_seq, decision_id, option_ids = clean_choice(expected_seq, decision_id, option_ids)
    if seat is None:
        raise SpectatorChoice("Spectators watch; only a player at the table can choose.")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadRequest("'seat' must be a seat number.")

    def pick(game, row):
        pending = game.pending
        if pending.seat != seat:
            names = player_names(row)
            raise NotYourDecision(
                f"This decision is {names.get(pending.seat, 'another player')}'s, not yours."
            )
        if decision_id != pending.id:
            raise StaleChoice("That question has already been answered; here is the current one.")
        return seat, decision_id, option_ids

    return _apply(game_id, expected_seq, pick, by_bot=by_bot, schedule_bots=True)


def _apply(
    game_id: int,
    expected_seq: int,
    pick: Callable,
    *,
    by_bot: bool,
    schedule_bots: bool,
    timed_out: bool = False,
) -> Outcome:
    from .models import Choice

    with transaction.atomic():
        row = _lock(game_id)
        if row.is_lobby:
            raise NotStarted("The game has not started yet.")
        if row.is_finished:
            raise GameOver("The game is over.")
        if expected_seq != row.version:
            raise StaleChoice(
                f"The game has moved on (you answered move {expected_seq}, it is at move {row.version}); "
                "here is the current state."
            )
        game = _take(row)
        try:
            seat, decision_id, ids = pick(game, row)
            log_at = len(game.log_lines)
            # A person's choice may be taken back later: note what everyone knew before it, and
            # whose hands a Special window looked at while it was applied.
            before = None
            if not by_bot:
                before = undo_snapshots.get((row.pk, *_key(row))) or undo_rule.snapshot(game)
            peeked: set = set()
            if before is not None:
                with undo_rule.watching_specials(game) as peeked:
                    game.apply(seat, decision_id, ids)
            else:
                game.apply(seat, decision_id, ids)
        except IllegalChoice as exc:  # the engine guarantees that nothing changed
            cache.put(row.pk, _key(row), game)
            raise IllegalMove(f"That choice is not allowed: {exc}.") from None
        except (PlayError, _NothingToDo):
            cache.put(row.pk, _key(row), game)
            raise
        # Any other error leaves the engine object half-way: it is dropped, never cached.
        after = None
        if before is not None:
            after = undo_rule.snapshot(game)
            block = undo_rule.block_reason(before, game, seat, peeked=peeked, after=after)
        else:
            block = "it was made by the bot" + (" when the time ran out" if timed_out else "")
        choice = Choice(
            game=row,
            seq=row.version,
            seat=seat,
            decision=decision_id,
            options=list(ids),
            state_hash=game.hashes[-1],
            by_bot=by_bot,
            timed_out=timed_out,
            log_at=log_at,
            deadline=row.deadline if row.deadline_seq == row.version else None,
            undoable=not block,
            undo_block=block[:120],
        )
        row.version += 1
        _sync_row(row, game)
        row.undo_seat = seat if not block and row.is_active else None
        timers.arm(row)
        _store_choice(row, choice)
        outcome = _outcome(row, game)
        live = live_fields(row)
        transaction.on_commit(
            lambda: _committed(row.pk, outcome.version, game, outcome, schedule_bots, live, after)
        )
    return outcome


def _store_choice(row: Game, choice) -> None:
    """Insert `choice` and write the row's `CHOICE_FIELDS`, inside the caller's transaction (the row
    is locked). Every choice of every table comes through here, so on PostgreSQL it is one statement
    (the insert in a WITH clause of the update): one round trip, and no ORM query built twice."""
    from django.db import connection

    if connection.vendor != "postgresql":  # SQLite (the embedded default) has no INSERT in WITH
        choice.save(force_insert=True)
        row.save(update_fields=CHOICE_FIELDS)
        return
    from .models import Choice

    now = timezone.now()
    choice.created_at = now  # what auto_now_add and auto_now would set
    row.updated_at = now
    inserted = [f for f in Choice._meta.concrete_fields if not f.primary_key]
    updated = [Game._meta.get_field(name) for name in CHOICE_FIELDS]
    params = [f.get_db_prep_save(getattr(choice, f.attname), connection) for f in inserted]
    params += [f.get_db_prep_save(getattr(row, f.attname), connection) for f in updated]
    params.append(row.pk)
    with connection.cursor() as cursor:
        cursor.execute(_store_choice_sql(), params)
        if cursor.rowcount != 1:
            raise GameNotFound("This game no longer exists.")


@functools.cache
def _store_choice_sql() -> str:
    from django.db import connection

    from .models import Choice

    quote = connection.ops.quote_name
    inserted = [quote(f.column) for f in Choice._meta.concrete_fields if not f.primary_key]
    updated = [quote(Game._meta.get_field(name).column) for name in CHOICE_FIELDS]
    return (
        f"WITH new_choice AS (INSERT INTO {quote(Choice._meta.db_table)} ({', '.join(inserted)}) "
        f"VALUES ({', '.join(['%s'] * len(inserted))})) "
        f"UPDATE {quote(Game._meta.db_table)} SET {', '.join(f'{c} = %s' for c in updated)} "
        f"WHERE {quote(Game._meta.pk.column)} = %s"
    )


def _committed(
    pk: int,
    version: int,
    game,
    outcome: Outcome,
    schedule_bots: bool,
    live: dict | None = None,
    undo_snapshot=None,
) -> None:
    """After a commit (never before): cache the new state, tell the clients, wake the bot, start
    the turn timer; tell other apps when the game has just finished (`signals.game_finished`)."""
    finished = outcome.status == Game.Status.FINISHED
    final = ([p.vp for p in game.players], game.winner, list(game.shared_winners)) if finished else None
    if undo_snapshot is not None:
        undo_snapshots.put((pk, outcome.undos, version), undo_snapshot)
    cache.put(pk, (outcome.undos, version), game)
    notify(pk, version, outcome.status, undos=outcome.undos, live=live)
    if schedule_bots and outcome.bot_next:
        schedule_bot(pk, version)
    if outcome.deadline is not None:
        timers.schedule(pk, version, outcome.deadline)
    if final is not None:
        _send_finished(pk, *final)


def _send_finished(pk: int, vp: list[int], winner: int | None, shared_winners: list[int]) -> None:
    from .signals import game_finished

    for receiver, result in game_finished.send_robust(
        sender=Game, game_id=pk, vp=vp, winner=winner, shared_winners=shared_winners
    ):
        if isinstance(result, Exception):  # the game is over and stored; the receiver's sweep retries
            logger.error("game_finished receiver %r failed for game %s", receiver, pk, exc_info=result)


# ---------------------------------------------------------------------------------- time called --
def call_time(game_id: int) -> Outcome | None:
    """Time is called on an active game (a tournament round's clock ran out, or its organizer called
    time). Stored as a ``Choice`` row with no seat and the decision ``CALL_TIME`` (the engine
    record's ``[None, "call_time", []]``), with the state hash after it like any choice; the open
    decision stays open (its turn timer keeps the time it had left) and the version moves on.

    Idempotent: returns None and changes nothing when the game is not active or time is already
    called. What follows (the last turn, most VP wins, a tie playing on) is the engine's rule, see
    ``Game.call_time``."""
    from .models import Choice

    with transaction.atomic():
        row = _lock(game_id)
        if not row.is_active:
            return None
        game = _take(row)
        if game.time_called:
            cache.put(row.pk, _key(row), game)
            return None
        log_at = len(game.log_lines)
        try:
            game.call_time()
        except IllegalChoice:  # over in the engine but not on the row: left alone, never cached
            logger.error("game %s: time could not be called at version %s", row.pk, row.version)
            return None
        timed = row.deadline if row.deadline_seq == row.version else None
        Choice.objects.create(
            game=row,
            seq=row.version,
            seat=None,
            decision=CALL_TIME,
            options=[],
            state_hash=game.hashes[-1],
            log_at=log_at,
            deadline=timed,
            undoable=False,
            undo_block="time was called",
        )
        row.version += 1
        _sync_row(row, game)
        row.undo_seat = None  # nothing before a time call can be taken back
        if timed is not None:
            timers.arm(row, at_least=timed)
        else:
            timers.arm(row)
        row.save()
        outcome = _outcome(row, game)
        transaction.on_commit(lambda: _committed(row.pk, outcome.version, game, outcome, True))
    return outcome


def time_called(row: Game) -> bool:
    """Whether time has been called on this game (a row of its record says so)."""
    return row.choices.in_record().filter(seat__isnull=True, decision=CALL_TIME).exists()


def final_vp(row: Game) -> list[int]:
    """The VP of each seat of a started game, in seat order (rebuilt from the record)."""
    with engine_game(row) as game:
        return [p.vp for p in game.players]


def group_name(game_id: int) -> str:
    return f"play.game.{game_id}"


# The game row's fields that change with every choice. A ping after a choice carries them (they are
# public: the version, whose decision it is, its deadline, who may take back the last choice), so a
# connection whose process holds the engine game at that version renders without reading the row.
LIVE_FIELDS = (
    "version", "undos", "status", "pending_seat", "pending_decision", "winner",
    "deadline", "deadline_seq", "undo_seat",
)  # fmt: skip


# What a choice changes in the game row (`_apply` writes only these).
CHOICE_FIELDS = (*LIVE_FIELDS, "state_hash", "finished_at", "updated_at")


def live_fields(row: Game) -> dict:
    fields = {name: getattr(row, name) for name in LIVE_FIELDS}
    fields["deadline"] = row.deadline.isoformat() if row.deadline is not None else None
    return fields


def apply_live_fields(row: Game, fields: dict) -> None:
    """Bring a row read earlier up to date with a ping's `live_fields`."""
    for name in LIVE_FIELDS:
        setattr(row, name, fields[name])
    row.deadline = datetime.fromisoformat(fields["deadline"]) if fields["deadline"] else None


_deferred = threading.local()


@contextmanager
def deferred_notifications() -> Iterator[list]:
    """Within the block, `notify` on this thread only collects its (group, event) pairs in the list
    it yields, for an async caller to send itself (`await layer.group_send(...)`) once the block is
    over: sending from a worker thread would hold that thread until the event loop, busy with other
    tables, gets round to the send."""
    collected: list = []
    outer = getattr(_deferred, "events", None)
    _deferred.events = collected
    try:
        yield collected
    finally:
        _deferred.events = outer


def notify(game_id: int, version: int, status: str, undos: int = 0, live: dict | None = None) -> None:
    """Tell every connection of a game that it changed. Only public data goes to the group: each
    connection then renders its own seat's view. (`undos` grows with each choice taken back: the
    version alone would go down then.) `live`: the row's `live_fields` after the change."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    event = {"type": "game.changed", "version": version, "status": status}
    if undos:
        event["undos"] = undos
    if live is not None:
        event["row"] = live
    collecting = getattr(_deferred, "events", None)
    if collecting is not None:
        collecting.append((group_name(game_id), event))
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(game_id), event)
    except Exception:  # the change is committed; clients catch up on their next message or reconnect
        logger.exception("could not notify game %s of version %s", game_id, version)


def _changed_on_commit(row: Game) -> None:
    pk, version, status, undos = row.pk, row.version, row.status, row.undos
    transaction.on_commit(lambda: notify(pk, version, status, undos))


# ---------------------------------------------------------------------------------- undo ---------
def undo_choice(game_id: int, seat: int | None, expected_seq) -> Outcome:
    """Take back `seat`'s last choice, or raise a PlayError and change nothing.

    `expected_seq` is the version the player sees (as for a choice); the choice taken back is the
    last one of the record (seq `expected_seq - 1`). Allowed only when that choice is this seat's
    own (not the bot's or a timeout's), nobody has chosen since, and it revealed and shuffled
    nothing (see `undo`); the rule is checked again here on the game rebuilt without the choice.
    The choice row is marked as taken back (it stays for the audit) and the version goes back.
    """
    from .models import Choice

    try:
        expected_seq = params.whole_number(expected_seq, "seq")
    except params.BadNumber:
        raise BadRequest("'seq' must be the game version you see (a number).") from None
    if seat is None:
        raise SpectatorChoice("Spectators watch; only a player at the table can take back a choice.")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadRequest("'seat' must be a seat number.")
    with transaction.atomic():
        row = _lock(game_id)
        if row.is_lobby:
            raise NotStarted("The game has not started yet.")
        if row.is_finished:
            raise GameOver("The game is over; its choices can no longer be taken back.")
        if expected_seq != row.version:
            raise StaleChoice(
                f"The game has moved on (you saw move {expected_seq}, it is at move {row.version}); "
                "nothing was taken back."
            )
        last = row.choices.in_record().filter(seq=row.version - 1).first() if row.version else None
        if last is None:
            raise UndoRefused("There is no choice to take back yet.")
        names = player_names(row)
        if last.is_time_call:
            raise UndoRefused(
                "Time has been called since; the choices before it can no longer be taken back."
            )
        if last.seat != seat:
            raise UndoRefused(
                f"The last choice was {names.get(last.seat, 'another player')}'s; "
                "you can only take back your own last choice, before anyone else chooses."
            )
        if last.by_bot:
            why = "the time ran out and the bot chose for you" if last.timed_out else "the bot made it"
            raise UndoRefused(f"That choice cannot be taken back: {why}.")
        if not last.undoable:
            raise UndoRefused(f"That choice cannot be taken back: {last.undo_block or 'it was not checked'}.")
        # Check the rule again: rebuild the game without the choice and apply it once more, watching
        # whose hands a Special window looks at (the stored verdict is only the button's hint).
        probe = rebuild(row, row.version - 1)
        seen = undo_rule.snapshot(probe)
        try:
            with undo_rule.watching_specials(probe) as peeked:
                probe.apply(last.seat, last.decision, list(last.options))
        except IllegalChoice as exc:
            raise GameBroken(f"Game {row.code} no longer accepts its own last choice: {exc}.") from None
        if probe.digest() != row.state_hash:
            raise GameBroken(f"Game {row.code} rebuilds to a different state than was played.")
        block = undo_rule.block_reason(seen, probe, seat, peeked=peeked)
        if block:
            raise UndoRefused(f"That choice cannot be taken back: {block}.")
        before = rebuild(row, row.version - 1)
        if before.pending is None or before.pending.seat != seat or before.pending.id != last.decision:
            raise GameBroken(f"Game {row.code} rebuilds to a different decision than was answered.")
        now = timezone.now()
        if Choice.objects.filter(pk=last.pk, undone_at__isnull=True).update(undone_at=now) != 1:
            raise StaleChoice("That choice was already taken back.")
        row.version -= 1
        row.undos += 1
        _sync_row(row, before)
        previous = row.choices.in_record().filter(seq=row.version - 1).first() if row.version else None
        row.undo_seat = previous.seat if previous is not None and previous.undoable else None
        timers.arm(row, keep=last.deadline)  # the clock it had, not a new one (nor any grace)
        row.save()
        outcome = _outcome(row, before)
        transaction.on_commit(lambda: _committed(row.pk, outcome.version, before, outcome, False))
    return outcome


def may_undo(row: Game, seat: int | None) -> bool:
    """Whether `seat` may take back the last choice now (for the Undo button; `undo_choice` checks)."""
    return seat is not None and row.is_active and row.undo_seat is not None and row.undo_seat == seat


# ---------------------------------------------------------------------------------- bots ---------
def bot_move(game_id: int, seq: int, *, force: bool = False, timed_out: bool = False) -> Outcome | None:
    """Let the server's bot answer the decision open at version `seq`, through the same path as a
    person's choice. Does nothing (None) if the game has moved on, is over, or the decision is not
    a bot seat's. `force` lets the bot answer a person's decision (a turn timer running out);
    `timed_out` records it so (the log says so) and schedules the bot seats' answers after it."""

    def pick(game, row):
        pending = game.pending
        if not force and not is_bot_seat(row, pending.seat):
            raise _NothingToDo
        kind = row.config["players"][pending.seat].get("bot") or "heuristic"
        # Reproducible from the record; unpredictable without the game's secret (version 2).
        rng = table_stream(row, f"bot:{seq}", legacy=f"{row.seed}:{seq}")
        return pending.seat, pending.id, BOTS[kind](game, rng)

    try:
        return _apply(game_id, seq, pick, by_bot=True, schedule_bots=timed_out, timed_out=timed_out)
    except (StaleChoice, GameOver, NotStarted, GameNotFound, _NothingToDo):
        return None


def run_bots(game_id: int, seq: int, *, max_moves: int = 100_000) -> int:
    """The body of the bot task: answer bot decisions from version `seq` on. With a delay (and a
    real worker) it makes one move and schedules the next; without, it plays on until a person must
    decide. Returns the number of moves made."""
    moves = 0
    while moves < max_moves:
        outcome = bot_move(game_id, seq)
        if outcome is None:
            break
        moves += 1
        if not outcome.bot_next:
            break
        seq = outcome.version
        if bot_delay() > 0 and not celery_eager():
            schedule_bot(game_id, seq)
            break
    return moves


def schedule_bot(game_id: int, seq: int) -> None:
    """Schedule the bot task for (game, seq) after PLAY_BOT_DELAY seconds."""
    from smashup.core.schedule import send_at

    from .tasks import play_bot

    options: dict = {}
    queue = getattr(settings, "PLAY_BOT_QUEUE", None)
    if queue:
        options["queue"] = queue
    try:
        send_at(play_bot, (game_id, seq), timezone.now() + timedelta(seconds=bot_delay()), **options)
    except Exception:  # broker down: beat's bot sweep (or the next page load) plays it once it is back
        logger.exception("could not schedule the bot for game %s at %s", game_id, seq)


# A bot's decision open this much longer than its delay has lost its task (a worker killed while it
# held it, a broker outage when it was sent): `kick_bots` and `sweep_bots` play it then.
BOT_LATE_SECONDS = 2


def bot_overdue_after() -> timedelta:
    return timedelta(seconds=bot_delay() + BOT_LATE_SECONDS)


def kick_bots(row: Game) -> bool:
    """If a bot's decision has been open for a while (a lost task, a restarted worker), schedule
    the bot again. Duplicates are harmless. Returns whether a task was scheduled."""
    if not row.is_active or not is_bot_seat(row, row.pending_seat):
        return False
    if row.updated_at and timezone.now() - row.updated_at < bot_overdue_after():
        return False
    schedule_bot(row.pk, row.version)
    return True


def sweep_bots(now: datetime | None = None, limit: int = 500) -> int:
    """Celery beat's safety net for bots, as `timers.sweep` is for turn timers: play every bot
    decision that has been open for longer than its delay, as its lost task would have. The same
    `bot_move` path, so a sweep that meets the task (or another sweep) applies the move once.
    Returns the number of moves made."""
    from django.db.models import F

    cutoff = (now or timezone.now()) - bot_overdue_after()
    waiting = list(
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            updated_at__lte=cutoff,
            seats__index=F("pending_seat"),
            seats__kind=Seat.Kind.BOT,
        )
        .order_by("updated_at")
        .values_list("pk", "version")[:limit]
    )
    moves = 0
    for pk, version in waiting:
        try:
            moves += run_bots(pk, version)
        except Exception:  # one broken game must not stop the others
            logger.exception("the bot sweep could not play game %s at %s", pk, version)
    if waiting:
        logger.info("bot sweep: %d game(s) waited on a lost bot task; %d move(s) made", len(waiting), moves)
    return moves
