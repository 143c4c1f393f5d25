"""A finished game holds no reference cycle through its caches (`Game._drop_cycles`): it is freed
as soon as nobody holds it, not by Python's cycle collector, whose full passes over every
finished game left over cost simulations several percent. Power read after the end is rebuilt."""
from __future__ import annotations

import gc
import weakref

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import REGISTRY
from smashup.engine.simulate import play_game, tables

CORE = sorted(name for name, faction in REGISTRY.factions.items() if faction.set == "core")


def test_a_finished_game_is_freed_without_the_cycle_collector():
    for config, seed in tables(2, [4, 3], 7, "random", CORE):
        game, violations = play_game(config, seed, check=False)
        assert violations == [] and game.over
        gone = weakref.ref(game)
        gc.disable()
        try:
            del game
            assert gone() is None, "a finished game is kept alive by a reference cycle"
        finally:
            gc.enable()


def test_power_read_after_the_end_is_counted_again():
    config, seed = next(tables(1, [4], 11, "random", CORE))
    game, _ = play_game(config, seed, check=False)
    minions = game.all_minions()
    assert minions
    assert [game.power(m) for m in minions] == [game.power_now(m) for m in minions]
