"""Helpers for the fork and determinize tests (standard and Big Base): tables that hold every
faction, games played in lockstep, and a walk of a game's state for objects shared with another."""
from __future__ import annotations

import dataclasses
import random

from smashup.engine import new_game
from smashup.engine.bots import random_choice
from smashup.engine.forks import FRESH
from smashup.engine.registry import BaseDef, CardDef
from smashup.engine.rng import derived_secret
from smashup.engine.simulate import factions_of_sets
from smashup.engine.state import GAME_FIELDS

FACTIONS = factions_of_sets()


def tables(mode: str = "standard") -> list[tuple[dict, str]]:
    """4-player tables whose factions, together, are every faction: (config, seed)."""
    order = list(FACTIONS)
    random.Random(23).shuffle(order)
    deals = []
    while order:
        dealt, order = order[:8], order[8:]
        if len(dealt) < 8:  # the last table is filled with factions already dealt
            dealt += [f for f in FACTIONS if f not in dealt][:8 - len(dealt)]
        deals.append(dealt)
    out = []
    for i, dealt in enumerate(deals):
        config = {"players": [{"factions": dealt[2 * s:2 * s + 2]} for s in range(4)],
                  "specials": "ask", "base_sets": "all"}
        if mode != "standard":
            config["mode"] = mode
        out.append((config, derived_secret(f"fork-table:{mode}:{i}")))
    assert {f for config, _ in out for p in config["players"] for f in p["factions"]} == set(FACTIONS)
    return out


def new_table(mode: str, index: int):
    config, seed = tables(mode)[index]
    return new_game(config, seed)


def play_on(game, rng: random.Random, choices: int | None = None) -> None:
    """Random choices until the game ends (or `choices` were made)."""
    made = 0
    while game.pending is not None and (choices is None or made < choices):
        game.apply(game.pending.seat, game.pending.id, random_choice(game, rng))
        made += 1


def lockstep(game, fork, rng: random.Random, limit: int | None = None) -> int:
    """Play both games with the same choices to the end (or for `limit` choices): their
    digests, options and logs agree after every choice. Returns the number of choices made."""
    made = 0
    while game.pending is not None and (limit is None or made < limit):
        assert fork.pending is not None
        assert [o.id for o in fork.pending.options] == [o.id for o in game.pending.options]
        choice = random_choice(game, rng)
        game.apply(game.pending.seat, game.pending.id, choice)
        fork.apply(fork.pending.seat, fork.pending.id, choice)
        assert fork.digest() == game.digest(), f"choice {len(game.choices)}"
        made += 1
    assert (fork.pending is None) == (game.pending is None)
    assert fork.log_lines == game.log_lines
    assert (fork.winner, [p.vp for p in fork.players]) == (game.winner, [p.vp for p in game.players])
    return made


# Objects a fork may share with its game: immutable by design.
_SHARED_TYPES = (CardDef, BaseDef)
_SHARED_FIELDS = {"registry", "config", "scenario", "_snapshot", "_loc_texts", "_state_names",
                  "_special_cards", "_trigger_index", "_minion_play_options", "_card_options",
                  "_play_rows"}


def mutable_ids(game) -> dict[int, str]:
    """id -> where, of every mutable object (list, dict, set, unfrozen dataclass) reachable from
    the game's fields (but those shared by design), and of the generator running its flow."""
    found: dict[int, str] = {}

    def walk(obj, where):
        t = type(obj)
        if (isinstance(obj, (_SHARED_TYPES, type))
                or t in (int, str, bool, float, type(None), bytes)):
            return
        if t in (list, dict, set) or (dataclasses.is_dataclass(obj)
                                      and not t.__dataclass_params__.frozen):
            if id(obj) in found:
                return
            found[id(obj)] = where
        if t in (list, tuple, set, frozenset):
            for i, x in enumerate(obj):
                walk(x, f"{where}[{i}]")
        elif t is dict:
            for k, v in obj.items():
                walk(k, f"{where} key")
                walk(v, f"{where}[{k!r}]")
        elif dataclasses.is_dataclass(obj):
            for f in dataclasses.fields(obj):
                walk(getattr(obj, f.name), f"{where}.{f.name}")

    names = set(GAME_FIELDS) | set(vars(game))
    for name in sorted(names - _SHARED_FIELDS - set(FRESH) - {"rng", "knowledge", "pending",
                                                              "_digest_static"}):
        walk(getattr(game, name), name)
    # The digest's texts of what never changes hold the config and the digest's own tables.
    found[id(game._digest_static)] = "_digest_static"
    if game.knowledge is not None:
        found[id(game.knowledge)] = "knowledge"
        for part in ("known", "lost", "shuffled"):
            walk(getattr(game.knowledge, part), f"knowledge.{part}")
    found[id(game.rng)] = "rng"
    if game._flow is not None:
        found[id(game._flow)] = "_flow"
    return found


def shared_mutables(a, b) -> list[str]:
    mine = mutable_ids(a)
    return sorted(where for key, where in mutable_ids(b).items() if key in mine)
