"""A minion played announces what its base looked like as it entered, before its own ability:
`minion_played` data "powers_here" (every minion's power there, its own included) and "entered"
(its serial of entry into play). Leprechaun compares powers there (2012 card: read at play)."""
from __future__ import annotations

from smashup.engine import Scenario
from smashup.engine.testing import card, choose, play

from .support import ALIENS_NINJAS, PIRATES_ROBOTS, TEST_REGISTRY


def test_minion_played_carries_the_powers_on_its_base_before_its_ability():
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    home = s.base("The Central Brain")  # +1 to every minion here
    s.minion(home, "Invader", owner=1)
    s.hand(0, "Supreme Overlord", "Collector")
    game = s.build(TEST_REGISTRY)
    events = []
    emit = game.emit
    game.emit = lambda e: (events.append(e), emit(e))
    invader, overlord = card(game, "Invader", "minion"), card(game, "Supreme Overlord")
    play(game, "Supreme Overlord", base="The Central Brain")
    choose(game, invader)  # its ability returns the Invader: the snapshot was taken before
    played = [e for e in events if e.kind == "minion_played"]
    assert len(played) == 1
    assert played[0].data["powers_here"] == {invader: 4, overlord: 6}
    assert played[0].data["entered"] == game.minion_state[overlord].entered
