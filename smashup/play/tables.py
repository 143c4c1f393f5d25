"""Finding a table and the plain facts about it: lookups, seat names, who is a bot and which bot, the
table's settings (bots' pace, hints), the faction pool, the table's random streams, and the row lock
every change starts with.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from smashup.engine import rng as engine_rng

from .errors import GameNotFound, PlayError
from .models import Game


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


# ---------------------------------------------------------------------------- table settings ----
# What a table's creator chose beyond the engine's rules lives in its config under "table" (the engine
# reads only its own keys, so a record replays the same with or without it):
#
#     {"pace": "normal", "hints": true, "bots": {"1": "easy"}}
#
# "bots": the bot (smashup.botregistry.BOTS) each bot seat plays with. The engine's own "bot" of a
# seat names only the bots it knows (botregistry.engine_bot), so "easy" or "expert" is kept here; a
# seat not listed plays with the bot its engine entry names. "pace": how bots' moves are spaced, by
# name (PACES, times PLAY_BOT_DELAY). "hints": whether a seat may ask for a hint (casual tables; a
# table made without saying so, such as a tournament's, has none). "think": a searching bot's (the
# expert's, "hard") and a hint's seconds per decision, which the lobby asks once the expert exists
# (absent: botregistry.DEFAULT_THINK_SECONDS).
TABLE_KEY = "table"
# A bot's move comes this many times PLAY_BOT_DELAY (1.2 s) after the move before it, whatever its
# thinking took (it thinks meanwhile). "instant": as soon as it has chosen.
PACES = {"instant": 0.0, "quick": 0.5, "normal": 1.0, "slow": 2.0}
PACE_WORDS = {"instant": "Instant", "quick": "Quick", "normal": "Normal", "slow": "Slow"}
DEFAULT_PACE = "normal"


def table_settings(config: dict | None) -> dict:
    value = (config or {}).get(TABLE_KEY)
    return value if isinstance(value, dict) else {}


def with_table_settings(config: dict, settings: dict | None) -> dict:
    """`config` (e.g. as the engine normalised it) carrying the table's `settings` again."""
    if not settings:
        return config
    return {**config, TABLE_KEY: settings}


def table_bot(row: Game, seat: int) -> str:
    """The bot a bot seat plays with (a name of smashup.botregistry.BOTS)."""
    chosen = table_settings(row.config).get("bots") or {}
    players = row.config.get("players", [])
    engine_name = players[seat].get("bot") if 0 <= seat < len(players) else None
    return chosen.get(str(seat)) or engine_name or "heuristic"


def pace_name(config: dict | None) -> str:
    pace = table_settings(config).get("pace")
    return pace if pace in PACES else DEFAULT_PACE


def bot_delay() -> float:
    """PLAY_BOT_DELAY: the seconds between a move and a bot's move after it at the normal pace."""
    from django.conf import settings

    return float(getattr(settings, "PLAY_BOT_DELAY", 1.2))


def pace_choices() -> list[tuple[str, str]]:
    """The paces a lobby offers, each with its seconds under the current PLAY_BOT_DELAY."""
    choices = []
    for name, times in PACES.items():
        seconds = times * bot_delay()
        said = "as soon as they have chosen" if seconds <= 0 else f"about {seconds:.1f} s a move"
        choices.append((name, f"{PACE_WORDS[name]}: {said}"))
    return choices


def pace_seconds(config: dict | None) -> float:
    """The seconds a table's bot's move comes after the move before it (its pace)."""
    return PACES[pace_name(config)] * bot_delay()


def slowest_pace_seconds() -> float:
    return max(PACES.values()) * bot_delay()


def think_seconds(config: dict | None) -> float:
    """A searching bot's thinking time per decision at this table ("think", seconds; clamped)."""
    from smashup.botregistry import DEFAULT_THINK_SECONDS, THINK_SECONDS_RANGE

    value = table_settings(config).get("think")
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return DEFAULT_THINK_SECONDS
    low, high = THINK_SECONDS_RANGE
    return min(high, max(low, float(value)))


def hints_on(config: dict | None) -> bool:
    return table_settings(config).get("hints") is True


def is_bot_only(row: Game) -> bool:
    """Whether every seat of a table is a bot's (nobody at the table waits for its bots)."""
    return config_is_bot_only(row.config)


def config_is_bot_only(config: dict) -> bool:
    players = (config or {}).get("players") or []
    return bool(players) and all(p.get("bot") for p in players)


def factions_available() -> list[str]:
    import smashup.cards  # noqa: F401  (fills the registry)
    from smashup.engine import REGISTRY

    return sorted(REGISTRY.factions)


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
    """Each seat's two factions: the chosen ones, random ones for the rest. Each faction is in a
    game once (issue 9): a faction chosen for two seats is refused, and random picks come from the
    factions nobody at the table has (a PlayError when too few are left)."""
    known = set(pool)
    taken: list[str] = [f for s in specs for f in s.factions if f]
    holder: dict[str, int] = {}
    for i, spec in enumerate(specs):
        for f in spec.factions:
            if f and f in holder and holder[f] != i:
                raise PlayError(
                    f"Seat {holder[f] + 1} and seat {i + 1} both have {f}; each faction is in a game once.",
                    "config",
                )
            if f:
                holder.setdefault(f, i)
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
            if not fresh:
                raise PlayError(
                    f"{len(specs)} seats need {2 * len(specs)} different factions; there are {len(pool)}.",
                    "config",
                )
            pick = rng.choice(fresh)
            mine.append(pick)
            taken.append(pick)
        result.append(mine)
    return result


def lock_game(game_id: int) -> Game:
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
