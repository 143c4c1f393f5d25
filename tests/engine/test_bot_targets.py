"""The heuristic bot aims harmful choices at other players: an action in play to destroy
(Disenchant) is another player's, a player to choose (Mark of Sleep) is not itself."""
from __future__ import annotations

import random

from smashup.engine import Decision, Option, Scenario
from smashup.engine.bots import heuristic_choice
from smashup.engine.testing import card

from .support import ALIENS_NINJAS, PIRATES_ROBOTS


def test_the_heuristic_bot_destroys_another_players_action_and_chooses_another_player():
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    dojo = s.base("Ninja Dojo")
    s.base_action(dojo, "Infiltrate", owner=0)
    s.base_action(dojo, "Infiltrate", owner=1)
    s.hand(0, "Invader")
    game = s.build()
    mine, theirs = [c for c, d in enumerate(game.defs) if d.name == "Infiltrate"]
    assert game.action_state[mine].controller == 0 and card(game, "Invader") is not None
    game.pending = Decision("dx", 0, "actions", "Destroy which action?",
                            [Option(f"a{mine}", "mine", card=mine),
                             Option(f"a{theirs}", "theirs", card=theirs)])
    assert heuristic_choice(game, random.Random(1)) == [f"a{theirs}"]
    game.pending = Decision("dy", 0, "player", "Who?", [Option("p0", "P0"), Option("p1", "P1")])
    for seed in range(5):
        assert heuristic_choice(game, random.Random(seed)) == ["p1"]
