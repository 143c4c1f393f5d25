"""A finished game holds no reference cycle through its caches (`Game._drop_cycles`): it is freed
as soon as nobody holds it, not by Python's cycle collector, whose full passes over every
finished game left over cost simulations several percent. Power read after the end is rebuilt;
a game dropped mid-play (a bot's look-ahead copy) is freed once closed (`Game.close`)."""
from __future__ import annotations

import gc
import weakref
from random import Random

import pytest

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import REGISTRY, IllegalChoice, new_game
from smashup.engine.bots import random_choice
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
    gone = weakref.ref(game)
    gc.disable()
    try:
        del game
        assert gone() is None, "a closed game is kept alive by a reference cycle"
    finally:
        gc.enable()
