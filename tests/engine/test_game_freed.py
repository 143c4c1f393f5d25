"""A finished game holds no reference cycle through its caches (`Game._drop_cycles`): it is freed
as soon as nobody holds it, not by Python's cycle collector, whose full passes over every
finished game left over cost simulations several percent. Power read after the end is rebuilt;
a game dropped mid-play (a bot's look-ahead copy) is freed once closed (`Game.close`)."""
from __future__ import annotations

import ast
import gc
import weakref
from pathlib import Path
from random import Random

import pytest

import smashup
import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import REGISTRY, IllegalChoice, new_game
from smashup.engine.bots import random_choice
from smashup.engine.simulate import play_game, tables

CORE = sorted(name for name, faction in REGISTRY.factions.items() if faction.set == "core")


def test_a_finished_game_is_freed_without_the_cycle_collector():
    for config, seed in tables(2, [4, 3], 7, "random", CORE):
        game, violations = play_game(config, seed, check=False)
        assert violations == [] and game.over
        held = [game]
        del game
        assert _freed_on_release(held), "a finished game is kept alive by a reference cycle"


def _freed_on_release(held: list) -> bool:
    """Drop the last reference to the game in `held` with the cycle collector off: whether the
    game was freed at once."""
    gone = weakref.ref(held[0])
    gc.disable()
    try:
        held.clear()
        return gone() is None
    finally:
        gc.enable()


def test_power_read_after_the_end_is_counted_again():
    config, seed = next(tables(1, [4], 11, "random", CORE))
    game, _ = play_game(config, seed, check=False)
    minions = game.all_minions()
    assert minions
    assert [game.power(m) for m in minions] == [game.power_now(m) for m in minions]


def test_a_game_closed_mid_play_is_freed_and_takes_no_more_choices():
    # A bot's look-ahead copy is dropped mid-game: its running flow holds the game.
    config, seed = next(tables(1, [4], 5, "random", CORE))
    game = new_game(config, seed)
    for _ in range(30):
        d = game.pending
        game.apply(d.seat, d.id, random_choice(game, Random(0)))
    d = game.pending
    game.close()
    with pytest.raises(IllegalChoice):
        game.apply(d.seat, d.id, [d.options[0].id])
    held = [game]
    del game
    assert _freed_on_release(held), "a closed game is kept alive by a reference cycle"


def _own_nodes(fn):
    """The nodes of `fn`, with the functions and lambdas nested in it but not their insides."""
    for child in ast.iter_child_nodes(fn):
        yield child
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield from _own_nodes(child)


def test_no_generator_of_the_engine_or_the_cards_keeps_a_nested_function():
    """Compiled (native.py), a generator keeps its locals in a scope object; a function defined
    inside it and kept in a local refers back to that scope: a reference cycle holding the game
    (a finished or dropped game then waits for the cycle collector). Such helpers are module
    functions taking what they read as arguments (Sea Dogs' `_theirs`)."""
    root = Path(smashup.__file__).parent
    found = []
    for path in sorted([*root.glob("engine/*.py"), *root.glob("cards/*.py")]):
        for fn in ast.walk(ast.parse(path.read_text())):
            if not isinstance(fn, ast.FunctionDef):
                continue
            own = list(_own_nodes(fn))
            if not any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own):
                continue
            for n in own:
                kept = (isinstance(n, ast.FunctionDef)
                        or isinstance(n, ast.Assign) and isinstance(n.value, ast.Lambda))
                if kept:
                    found.append(f"{path.name}:{n.lineno} in {fn.name}")
    assert found == []
