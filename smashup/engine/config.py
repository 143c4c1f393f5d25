"""A game's config, checked and filled with its defaults before anything is dealt.

Rules implemented here: the community page's "Setup" (2 to 4 players, each with two different
factions, "Choose 2 Factions"; a mulligan, "Mulligan"; who goes first, "Determine the First Player";
which bases are in the base deck, "Build the Base Deck"), the project's one copy of each faction
(issue 9) and the tournament options (`end_after_bases`). A mode (Big Base) checks its own config
and calls `normalize_config` for the shared part (`Game.normalize`).
"""
from __future__ import annotations

from .core import ConfigError
from .registry import Registry

# The most bases a tournament game may be set to end after (`end_after_bases`).
MAX_END_AFTER_BASES = 50


def require_factions_once(config: dict) -> None:
    """Each faction is in a game once (issue 9: the app has one copy of every faction, so two
    players never hold the same one). ConfigError naming both players otherwise."""
    holder: dict[str, int] = {}
    for i, player in enumerate(config["players"]):
        for f in player["factions"]:
            if f in holder:
                raise ConfigError(f"{f} is held by player {holder[f]} and player {i}: "
                                  "each faction is in a game once")
            holder[f] = i


def normalize_config(config: dict, registry: Registry) -> dict:
    """Check a game config and fill its defaults. Raises ConfigError with a clear message."""
    if not isinstance(config, dict):
        raise ConfigError("config must be a mapping")
    seats = config.get("players")
    if not isinstance(seats, list) or not 2 <= len(seats) <= 4:
        raise ConfigError("a game has 2 to 4 players")
    players = []
    for i, seat in enumerate(seats):
        factions = seat.get("factions") if isinstance(seat, dict) else None
        if not isinstance(factions, list) or len(factions) != 2:
            raise ConfigError(f"player {i} needs exactly two factions")
        if not all(isinstance(f, str) for f in factions):
            raise ConfigError(f"player {i}: a faction is given by its name")
        if factions[0] == factions[1]:
            raise ConfigError(f"player {i} has the same faction twice")
        for f in factions:
            registry.faction(f)
        bot = seat.get("bot")
        if bot not in (None, "random", "heuristic"):
            raise ConfigError(f"player {i}: unknown bot {bot!r}")
        players.append({"name": str(seat.get("name") or f"Player {i + 1}"),
                        "factions": list(factions), "bot": bot})
    mode = config.get("mode", "standard")
    if mode != "standard":
        raise ConfigError(f"unknown mode {mode!r}")
    specials = config.get("specials", "fast")
    if specials not in ("fast", "ask"):
        raise ConfigError("specials must be 'fast' or 'ask'")
    base_sets = config.get("base_sets", "factions")
    if base_sets not in ("factions", "all") and not (
        isinstance(base_sets, list) and all(isinstance(s, str) for s in base_sets)
    ):
        raise ConfigError("base_sets is 'factions', 'all' or a list of set names")
    if isinstance(base_sets, list):
        known_sets = {b.set for b in registry.bases.values()}
        unknown = [s for s in base_sets if s not in known_sets]
        if unknown or not base_sets:
            raise ConfigError(f"unknown base set {unknown[0]!r} (known: {', '.join(sorted(known_sets))})"
                              if unknown else "base_sets names at least one set")
        base_sets = list(base_sets)  # the game's own: its config is never changed in place
    bases = config.get("bases")  # the base deck by name (written by new_game; see setup.py)
    if bases is not None:
        if not isinstance(bases, list) or not bases or not all(isinstance(b, str) for b in bases):
            raise ConfigError("bases is a list of base names")
        if len(set(bases)) != len(bases):
            raise ConfigError("bases names each base once")
        unknown = [b for b in bases if b not in registry.bases]
        if unknown:
            raise ConfigError(f"unknown base {unknown[0]!r}")
    first = config.get("first_player")
    # bool is an int in Python; True is not a seat number.
    if first is not None and (
        not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(players)
    ):
        raise ConfigError("first_player must be a seat number")
    mulligan = config.get("mulligan", True)
    if not isinstance(mulligan, bool):
        raise ConfigError("mulligan must be true or false")
    end_after_bases = config.get("end_after_bases")
    if end_after_bases is not None and (
        not isinstance(end_after_bases, int) or isinstance(end_after_bases, bool)
        or not 1 <= end_after_bases <= MAX_END_AFTER_BASES
    ):
        raise ConfigError(f"end_after_bases is a number of bases from 1 to {MAX_END_AFTER_BASES}")
    out = {
        "mode": mode,
        "players": players,
        "specials": specials,
        "base_sets": base_sets,
        "first_player": first,
        "mulligan": mulligan,
        "end_after_bases": end_after_bases,
    }
    if bases is not None:  # only when named, so older records' configs keep their shape
        out["bases"] = list(bases)
    return out
