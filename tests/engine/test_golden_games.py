"""Seeded games play exactly as written in tests/engine/fixtures/golden_games.json: the same
choices, state hashes and words (labels, log lines, views). See tests/engine/golden.py for what
is written and how to rewrite it after a change that is meant to change games."""
import copy
import json

import pytest

from .golden import FIXTURE, first_difference, golden_tables, play

WRITTEN = json.loads(FIXTURE.read_text())["games"]
TABLES = golden_tables()


def test_the_written_games_are_the_golden_tables():
    """The fixture holds exactly the tables golden.py deals (a table changed without rewriting
    the file would compare nothing)."""
    assert sorted(WRITTEN) == sorted(name for name, _, _ in TABLES)
    for name, config, seed in TABLES:
        assert WRITTEN[name]["config"] == config
        assert WRITTEN[name]["seed"] == seed
        assert len(WRITTEN[name]["choices"]) > 50


@pytest.mark.parametrize("name,config,seed", TABLES, ids=[t[0] for t in TABLES])
def test_golden_game_plays_as_written(name, config, seed):
    assert first_difference(WRITTEN[name], play(config, seed)) is None


def test_a_drift_is_named_at_its_first_choice():
    """The comparison itself can fail: a game whose 12th choice differs, or whose words differ
    at one checkpoint, is reported there."""
    written = WRITTEN[TABLES[0][0]]
    drifted = copy.deepcopy(written)
    drifted["choices"][11][2] = ["forged"]
    assert first_difference(written, drifted).startswith("choice 12:")
    reworded = copy.deepcopy(written)
    reworded["words"][2] = "0" * 24
    assert first_difference(written, reworded) == "words differ by choice 30 (checkpoint 3)"
    assert first_difference(written, copy.deepcopy(written)) is None
