"""Records played before resolution 3 (issue 24's corners, core.EXACT_CORNERS) replay as they were
played: the golden tables as the engine played them at resolution 2 (their choices and the state
hash every CHECKPOINT choices, tests/engine/fixtures/resolution2_games.json, written before any of
issue 24's changes) are replayed choice by choice with resolution 2 and must reach the same states.
Words (labels, log lines) may change: a record holds option ids, never words."""

import json
from pathlib import Path

import pytest

from smashup.engine.setup import new_game

from .golden import CHECKPOINT

FIXTURE = Path(__file__).parent / "fixtures" / "resolution2_games.json"
GAMES = json.loads(FIXTURE.read_text())["games"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_resolution_2_record_replays_as_it_was_played(name):
    written = GAMES[name]
    game = new_game(written["config"], written["seed"], resolution=2)
    assert game.resolution == 2
    states = []
    for i, (seat, decision_id, ids) in enumerate(written["choices"]):
        assert game.pending is not None, f"the game ended before choice {i + 1}"
        game.apply(seat, decision_id, ids)
        if (i + 1) % CHECKPOINT == 0 or i + 1 == len(written["choices"]):
            states.append(game.digest())
            assert states[-1] == written["states"][len(states) - 1], (
                f"{name}: the state differs by choice {i + 1}"
            )
    assert game.pending is None or len(written["choices"]) >= 2000
    assert [game.winner, [p.vp for p in game.players]] == written["result"]


def test_a_new_game_plays_by_the_current_resolution():
    from smashup.engine.core import EXACT_CORNERS
    from smashup.engine.state import RESOLUTION

    game = new_game(
        {"players": [{"factions": ["Aliens", "Ninjas"]}, {"factions": ["Robots", "Pirates"]}]}, seed=1
    )
    assert game.resolution == RESOLUTION == EXACT_CORNERS
    assert game.record()["resolution"] == EXACT_CORNERS
