"""The base card's ability on the board: every side has it, and it works separately for each
side (the Big Base rules: "It works separately for each side; it's possible all 4 sides will
respond to the same trigger")."""
from bigbase_support import scenario

from smashup.engine.testing import choose, labels, play


def _homeworld(resolution=None):
    s = scenario(base="The Homeworld", next_bases=("Jungle Oasis", "Tar Pits"))
    s.hand(0, "Invader", "War Raptor", "Collector")
    s.hand(1, "Zapbot")
    game = s.build()
    if resolution is not None:
        game.resolution = resolution
    play(game, "Invader", base="North")
    choose(game, "slot 1")
    play(game, "War Raptor", base="East")  # North's extra: power 2 or less, anywhere
    choose(game, "slot 1")
    return game


def test_the_homeworld_gives_its_once_per_turn_extra_on_each_side():
    # Issue 24: "once per turn" is counted per side, as each side has the ability separately.
    game = _homeworld()
    # East's Homeworld gives its own extra for the War Raptor played there.
    assert any(label.startswith("Play Collector") for label in labels(game))


def test_a_resolution_2_record_counted_the_homeworld_across_the_board():
    game = _homeworld(resolution=2)
    assert not any(label.startswith("Play Collector") for label in labels(game))
