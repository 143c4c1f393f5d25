"""`Game.fork()` in Big Base mode: the flow is asked again from the current player's Play Cards
phase (`_rounds("play")`); forks and their game play alike to the end, for tables holding every
faction."""
import random

import pytest

from smashup.engine.forks import is_quiet
from tests.engine.fork_support import lockstep, new_table, play_on, shared_mutables, tables


@pytest.mark.parametrize("index", range(len(tables("bigbase"))))
def test_a_big_base_fork_and_its_game_play_alike_to_the_end(index):
    game = new_table("bigbase", index)
    rng = random.Random(index)
    quiet = other = 0
    while game.pending is not None and len(game.choices) < 70:
        fork = game.fork()
        assert fork.digest() == game.digest()
        assert shared_mutables(game, fork) == []
        quiet += is_quiet(game)
        other += not is_quiet(game)
        play_on(game, rng, 1)
    assert quiet and other
    assert lockstep(game, game.fork(), rng) > 30


def test_playing_a_big_base_fork_out_leaves_its_game_unchanged():
    game = new_table("bigbase", 0)
    rng = random.Random(11)
    play_on(game, rng, 45)
    before, record = game.digest(), game.record()
    play_on(game.fork(), random.Random(12))
    assert game.digest() == before and game.record() == record
