"""Record and replay (DESIGN.md section 3): `record()` holds config, seed and choices; `replay()`
rebuilds the same game; with stored state hashes a tampered record is detected."""
from __future__ import annotations

import copy
import json
import random

import pytest

from smashup.engine import IllegalChoice, ReplayMismatch, Scenario, new_game, replay
from smashup.engine.bots import random_choice
from smashup.engine.testing import choose, play

from .support import ALIENS_NINJAS, PIRATES_ROBOTS, TEST_REGISTRY, config_for, run_random


def played(players=3, seed=5, track_hashes=False, steps=400):
    game = new_game(config_for(players), seed, track_hashes=track_hashes)
    run_random(game, seed, max_steps=steps, checks=False)
    assert len(game.choices) == steps or game.over
    return game


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2)])
def test_replay_gives_the_same_game(players, seed):
    game = played(players, seed)
    again = replay(game.record())
    assert again.digest() == game.digest()
    assert again.choices == game.choices
    assert [t for t, _ in again.log_lines] == [t for t, _ in game.log_lines]
    assert (again.pending.public() if again.pending else None) == (
        game.pending.public() if game.pending else None)


def test_a_finished_game_replays_to_the_same_end():
    game = new_game(config_for(2), 3)
    run_random(game, 3, max_steps=20000, checks=False)
    assert game.over
    again = replay(game.record())
    assert again.over and again.winner == game.winner and again.digest() == game.digest()


def test_a_record_is_plain_json_and_replays_from_it():
    game = played(track_hashes=True)
    text = json.dumps(game.record())
    again = replay(json.loads(text))
    assert again.digest() == game.digest()


def test_a_replayed_game_plays_on():
    game = played(steps=100)
    assert game.pending is not None
    again = replay(game.record())
    d = game.pending
    game.apply(d.seat, d.id, [d.options[-1].id])
    again.apply(d.seat, d.id, [d.options[-1].id])
    assert again.digest() == game.digest()


def _asked(game):
    d = game.pending
    if d is None:
        return None
    return (d.public(), [(o.id, o.label, o.card, o.base, o.alike, o.value) for o in d.options],
            d.reveal, d.intent, d.subject)


@pytest.mark.parametrize("players, seed", [(2, 6), (4, 7)])
def test_a_replayed_game_plays_on_as_the_original_to_the_end(players, seed):
    # A replay takes shortcuts a live game does not (options looked up alone, moves between
    # piles and deck refills done at once): from any point, the replayed game must go on asking
    # the same questions and reaching the same states, views and log as the original.
    game = played(players, seed, steps=120)
    again = replay(game.record())
    rng, rng_again = random.Random(seed), random.Random(seed)
    while game.pending is not None:
        assert _asked(again) == _asked(game)
        assert again.digest() == game.digest()
        game.apply(game.pending.seat, game.pending.id, random_choice(game, rng))
        again.apply(again.pending.seat, again.pending.id, random_choice(again, rng_again))
    assert again.over and again.winner == game.winner and again.digest() == game.digest()
    assert again.log_lines == game.log_lines
    assert [again.view(s) for s in (None, *range(players))] == [
        game.view(s) for s in (None, *range(players))]


def test_stored_hashes_check_every_step():
    game = played(track_hashes=True, steps=150)
    record = game.record()
    assert len(record["hashes"]) == len(record["choices"]) == 150
    assert replay(record).digest() == game.digest()


def _first_changeable_choice(record):
    """A choice that can be answered differently (a decision with more than one option)."""
    game = new_game(record["config"], record["seed"])
    for i, (seat, decision_id, ids) in enumerate(record["choices"]):
        d = game.pending
        other = [o.id for o in d.options if [o.id] != ids]
        if d.min_count == d.max_count == 1 and other and i > 3:
            return i, other[0]
        game.apply(seat, decision_id, ids)
    raise AssertionError("no changeable choice")


def test_a_tampered_choice_is_detected():
    game = played(track_hashes=True, steps=150)
    record = copy.deepcopy(game.record())
    i, other = _first_changeable_choice(record)
    record["choices"][i][2] = [other]
    with pytest.raises((ReplayMismatch, IllegalChoice)):
        replay(record)


def test_a_tampered_hash_is_detected():
    game = played(track_hashes=True, steps=150)
    record = copy.deepcopy(game.record())
    record["hashes"][70] = "0" * 32
    with pytest.raises(ReplayMismatch, match="choice 71"):
        replay(record)
    # Without verification the same record replays.
    assert replay(record, verify=False).digest() == game.digest()


def test_a_tampered_seed_is_detected():
    game = played(track_hashes=True, steps=100)
    record = copy.deepcopy(game.record())
    record["seed"] += 1
    with pytest.raises((ReplayMismatch, IllegalChoice)):
        replay(record)


def test_a_scenario_game_replays():
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    s.base("The Homeworld")
    s.base("Temple of Goju")
    s.minion(1, "Scout", owner=1)
    s.hand(0, "Collector", "Invader", "Beam Up")
    s.hand(1, "Shinobi", "Invader")
    s.deck(0, "Ninja Master", "Supreme Overlord", "Tiger Assassin")
    s.deck(1, "Collector", "Collector", "Collector")
    game = s.build()
    play(game, "Invader", base="The Homeworld")
    play(game, "Collector", base="The Homeworld")  # the Homeworld's extra (power 2 or less)
    choose(game, "Invader")  # the Collector returns the Invader
    play(game, "Beam Up")
    choose(game, "Scout")
    record = json.loads(json.dumps(game.record()))
    assert "scenario" in record
    again = replay(record)
    assert again.digest() == game.digest()
    assert [p.vp for p in again.players] == [p.vp for p in game.players] == [1, 0]


def test_a_scenario_game_on_another_registry_replays():
    s = Scenario([("Testers", "Aliens"), PIRATES_ROBOTS])
    s.base("Ninja Dojo")
    s.base("Temple of Goju")
    s.minion(0, "Bookworm", owner=0)
    s.hand(0, "Pep Talk", "Invader")
    s.deck(0, *["Scout"] * 5)
    s.hand(1, "Collector")
    game = s.build(TEST_REGISTRY)
    choose(game, "Bookworm's talent")
    play(game, "Pep Talk")
    again = replay(game.record(), registry=TEST_REGISTRY)
    assert again.digest() == game.digest()
    assert again.power(again.bases[0].minions[0]) == 4
