"""The engine games of live tables, rebuilt from their stored record and kept in an in-process cache.

The engine's record is the truth: `rebuild` replays a game from its row and its choices (checking
every stored state hash). The cache, keyed by (game, undos, version), spares the rebuild; an entry is
*taken out* while someone uses it, so no engine object is ever shared between threads, and a missing or
stale entry is rebuilt, or caught up by applying only the choices it lacks (`_catch_up`).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings

from smashup.engine import EngineError, replay

from .errors import GameBroken, NotStarted
from .lru import LRU
from .models import Game

logger = logging.getLogger(__name__)


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


def state_key(row: Game) -> tuple[int, int]:
    """The cache key of a row's state: an undo takes the version back, so the number of undos
    comes first (a game at version 7 before an undo is not the game at version 7 after it)."""
    return (row.undos, row.version)


def take_game(row: Game):
    key = state_key(row)
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
        game = take_game(row)
    except GameBroken:
        # `row` may have been read just before a choice was taken back (the record then ends
        # earlier than its version says): read it again once before calling the game broken.
        fresh = Game.objects.filter(pk=row.pk).values_list("version", "undos").first()
        if fresh is None or fresh == (row.version, row.undos):
            raise
        row.refresh_from_db()
        game = take_game(row)
    try:
        yield game
    finally:
        cache.put(row.pk, state_key(row), game)


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


def final_vp(row: Game) -> list[int]:
    """The VP of each seat of a started game, in seat order (rebuilt from the record)."""
    with engine_game(row) as game:
        return [p.vp for p in game.players]
