"""`Game.fork()` (forks.py): an independent game at the same decision whose future is the same as
the original's (the same options, the same digest after every choice, the same results), sharing
nothing mutable with it, at a quiet point (a copy of the state, its flow asked again) or anywhere
else (the snapshot at the last quiet point, and the choices since replayed)."""
import random

import pytest

from smashup.engine import Scenario, forks, new_game, replay
from smashup.engine.forks import COPIED, FRESH, SHARED, copy_state, is_quiet
from smashup.engine.state import GAME_FIELDS

from .fork_support import lockstep, new_table, play_on, shared_mutables, tables


def test_every_field_has_a_way_to_be_copied():
    """A new field of the game must say what a fork does with it: shared, copied, made fresh."""
    assert not SHARED & set(FRESH) and not SHARED & COPIED and not COPIED & set(FRESH)
    assert SHARED | set(FRESH) | COPIED == set(GAME_FIELDS)


def test_a_copy_sets_every_field():
    game = new_table("standard", 0)
    play_on(game, random.Random(1), 40)
    while not is_quiet(game):
        play_on(game, random.Random(2), 1)
    copied = copy_state(game)
    for name in GAME_FIELDS:
        assert getattr(copied, name) is not None or getattr(game, name) is None or name in FRESH, name


@pytest.mark.parametrize("index", range(len(tables())))
def test_a_fork_and_its_game_play_alike_to_the_end(index):
    """Tables that hold every faction: forks taken all along the game (at quiet points and
    elsewhere) show the same digest and options; one taken a third of the way in, given the
    same choices as its game, stays digest-identical to the end and ends alike."""
    game = new_table("standard", index)
    rng = random.Random(index)
    quiet = other = 0
    while game.pending is not None and len(game.choices) < 80:
        fork = game.fork()
        assert fork.digest() == game.digest()
        assert [o.id for o in fork.pending.options] == [o.id for o in game.pending.options]
        if is_quiet(game):
            quiet += 1
        else:
            other += 1
        play_on(game, rng, 1)
    assert quiet and other
    fork = game.fork()
    assert lockstep(game, fork, rng) > 50


def test_playing_a_fork_out_leaves_its_game_unchanged():
    game = new_table("standard", 1)
    rng = random.Random(5)
    play_on(game, rng, 57)
    while is_quiet(game):
        play_on(game, rng, 1)
    before, record = game.digest(), game.record()
    fork = game.fork()
    play_on(fork, random.Random(6))
    assert fork.over
    assert game.digest() == before and game.record() == record
    # and it goes on as it would have: as a replay of its record does
    again = replay(record)
    lockstep(game, again, random.Random(7))


def test_a_fork_shares_nothing_mutable():
    game = new_table("standard", 2)
    rng = random.Random(3)
    for _ in range(12):
        play_on(game, rng, 9)
        fork = game.fork()
        assert shared_mutables(game, fork) == []


def test_forks_of_forks_and_of_a_finished_game():
    game = new_table("standard", 0)
    play_on(game, random.Random(8), 33)
    fork = game.fork().fork()
    assert fork.digest() == game.digest()
    lockstep(game, fork, random.Random(9))
    over = game.fork()
    assert over.pending is None and over.digest() == game.digest()


def test_a_snapshot_is_made_once_per_quiet_point():
    """A fork away from a quiet point copies the snapshot there, made by the first such fork
    (from the record, or from the previous snapshot and the choices since) and kept."""
    game = new_table("standard", 1)
    rng = random.Random(4)
    play_on(game, rng, 30)
    while is_quiet(game):
        play_on(game, rng, 1)
    assert game._snapshot is None
    game.fork()
    first = game._snapshot
    assert first[0] == game._quiet_at
    game.fork()
    assert game._snapshot is first  # kept
    while game._quiet_at == first[0] or is_quiet(game):
        play_on(game, rng, 1)
    assert game.fork().digest() == game.digest()
    assert game._snapshot[0] == game._quiet_at > first[0]


def test_a_fork_keeps_the_random_stream_and_the_hashes():
    game = new_game({"players": [{"factions": ["Aliens", "Ninjas"]},
                                 {"factions": ["Pirates", "Robots"]}]}, 12, track_hashes=True)
    play_on(game, random.Random(1), 25)
    fork = game.fork()
    assert fork.rng.getstate() == game.rng.getstate() and fork.rng is not game.rng
    assert fork.hashes == game.hashes and fork.track_hashes
    lockstep(game, fork, random.Random(2))
    assert fork.hashes == game.hashes


def test_a_scenario_game_forks_from_its_record():
    scenario = Scenario([("Aliens", "Ninjas"), ("Pirates", "Robots")])
    for name in ("The Homeworld", "Tortuga", "The Mothership"):
        scenario.base(name)
    scenario.hand(0, "Invader", "Tiger Assassin", "Collector").hand(1, "First Mate", "Zapbot")
    scenario.deck(0, "Ninja Acolyte", "Scout", "Shinobi").deck(1, "Microbot Guard", "Buccaneer")
    game = scenario.build()
    fork = game.fork()
    assert fork.digest() == game.digest()
    lockstep(game, fork, random.Random(3), limit=150)  # Collector's talent never ends it


def test_forks_record_nothing_in_a_normal_game():
    """Normal play pays for forks only by noting where the last quiet point was."""
    game = new_table("standard", 0)
    play_on(game, random.Random(1), 60)
    assert game._snapshot is None and game._quiet_at >= 0
    assert forks.REBUILD is not None
