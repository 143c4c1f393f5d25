"""How a game ends early in tournament play: the base limit (`end_after_bases`) and "time is called"
(`Game.call_time`, a recorded outside event). In both, the turn in progress is the last; then the
most VP wins; a tied lead plays on until a scored base breaks the tie, for at most one more round
of turns, after which the tied leaders share the win."""
from __future__ import annotations

import copy
import json
import random

import pytest

from smashup.engine import ConfigError, IllegalChoice, ReplayMismatch, Scenario, new_game, replay
from smashup.engine.bots import random_choice
from smashup.engine.game import CALL_TIME, TIE_PLAY_ON_ROUNDS
from smashup.engine.invariants import check
from smashup.engine.testing import decline, end_play, snapshot

from .support import ALIENS_NINJAS, PIRATES_ROBOTS, TEST_REGISTRY, config_for, run_random


def log_text(game) -> list[str]:
    return [text for text, to in game.log_lines]


def oasis_scenario(vp=(0, 0)) -> Scenario:
    """Seat 0's Play Cards phase, turn 1. The Jungle Oasis (breakpoint 12, 2 VP to the winner only)
    has seat 0 at 10 power: a Collector (2) from seat 0's hand makes it score. A second Oasis has
    seat 1 at 10 power for seat 1's Collector. Everyone has a hand and a deck, so the game only
    stops at decisions."""
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    mine = s.base("Jungle Oasis")
    theirs = s.base("Jungle Oasis")
    s.base("The Mothership")
    for name in ("Supreme Overlord", "Shinobi", "Collector"):
        s.minion(mine, name, owner=0)
    for name in ("Ninja Master", "Shinobi", "Collector"):
        s.minion(theirs, name, owner=1)
    for seat in (0, 1):
        s.hand(seat, "Collector")
        s.deck(seat, *["Ninja Acolyte"] * 8)
        s.vp(seat, vp[seat])
    s.base_deck("Jungle Oasis", "Jungle Oasis", "Jungle Oasis")
    s.turn(current=0, phase="play")
    return s


def play_collector(game, base_index):
    """The deciding seat plays its Collector on the `base_index`th base and returns nothing."""
    seat, uid = game.pending.seat, game.bases[base_index].uid
    collector = next(c for c in game.players[seat].hand if game.name(c) == "Collector")
    game.apply(seat, game.pending.id, [f"m{collector}@{uid}"])
    decline(game)  # "you may return a minion of power 3 or less here": no


def play_on_until_decision(game, seat):
    """End Play Cards phases (playing nothing) until `seat`'s main decision or the end."""
    while game.pending is not None and not (game.pending.seat == seat and game.pending.kind == "play"):
        end_play(game)


# ------------------------------------------------------------------------------- base limit ----
def test_the_config_checks_the_base_limit():
    assert new_game(config_for(2), 1).config["end_after_bases"] is None
    assert new_game(config_for(3, end_after_bases=5), 1).config["end_after_bases"] == 5
    for bad in (0, -1, True, "5", 5.0, 51):
        with pytest.raises(ConfigError):
            new_game(config_for(2, end_after_bases=bad), 1)


def test_the_turn_in_which_the_last_base_scores_is_finished_then_the_most_vp_wins():
    game = oasis_scenario(vp=(3, 4)).end_after_bases(3, scored=2).build()
    hand_before = len(game.players[0].hand)
    play_collector(game, 0)  # 12/12 on the first Oasis
    # The 3rd base scored (seat 0: +2 VP, 5 against 4); the draw phase was still played.
    assert game.over and game.winner == 0
    assert game.bases_scored == 3 and game.end_reason == "bases" and game.final_turn == 1
    assert len(game.players[0].hand) == hand_before - 1 + 2
    assert [p.vp for p in game.players] == [5, 4]
    assert any("3 bases have scored" in line for line in log_text(game))
    assert game.view(None)["ending"]["reason"] == "bases"


def test_before_the_base_limit_the_game_goes_on():
    game = oasis_scenario().end_after_bases(4, scored=2).build()
    play_collector(game, 0)
    assert not game.over and game.bases_scored == 3 and game.final_turn is None
    assert (game.current, game.pending.seat, game.pending.kind) == (1, 1, "play")


def test_random_games_with_the_base_limit_end_right_after_it():
    for seed in range(6):
        players = 3 if seed % 2 else 2
        limit = players + 2  # the tournament option: 5 at 3 players (6 at 4)
        game = new_game(config_for(players, end_after_bases=limit), seed)
        run_random(game, seed, max_steps=20000)
        assert game.over
        if game.end_reason == "bases":  # (a player may reach 15 VP first)
            assert game.bases_scored >= limit
            assert game.turn <= game.final_turn + TIE_PLAY_ON_ROUNDS * players
            _assert_the_end_follows_the_vp(game)


# ------------------------------------------------------------------------------- time called ---
def test_time_called_keeps_the_open_decision_and_is_recorded():
    game = oasis_scenario().build()
    pending = game.pending.public()
    game.call_time()
    assert game.pending.public() == pending
    assert game.choices[-1] == [None, CALL_TIME, []]
    assert game.time_called and game.final_turn == 1 and game.end_reason == "time"
    for seat in (None, 0, 1):
        view = game.view(seat)
        assert view["ending"]["time_called"] is True
        assert any("Time is called" in line for line in view["log"])


def test_time_called_the_turn_is_finished_and_the_most_vp_wins():
    game = oasis_scenario(vp=(1, 2)).build()
    game.call_time()
    play_collector(game, 0)
    assert game.over and game.winner == 0 and game.turn == 1
    assert any("the most when time was called" in line for line in log_text(game))


def test_time_called_with_the_lead_at_the_end_of_the_turn_wins_without_a_base():
    game = oasis_scenario(vp=(1, 2)).build()
    game.call_time()
    end_play(game)
    assert game.over and game.winner == 1 and game.turn == 1


def test_a_tied_lead_plays_on_until_a_scored_base_breaks_the_tie():
    game = oasis_scenario(vp=(3, 3)).build()
    game.call_time()
    end_play(game)  # end of turn 1: tied, play on
    assert not game.over and game.play_on_until == 1 + TIE_PLAY_ON_ROUNDS * 2
    assert (game.current, game.pending.seat, game.pending.kind) == (1, 1, "play")
    hand_before = len(game.players[1].hand)
    play_collector(game, 1)  # seat 1's Collector on the Oasis where it has 10 power
    # The base scored (seat 1: 5 VP against 3): the game ends at once, before seat 1's draw.
    assert game.over and game.winner == 1 and game.turn == 2
    assert len(game.players[1].hand) == hand_before - 1
    assert game.phase == "over"
    problems = check(game)
    assert not problems


def test_a_tie_that_is_never_broken_is_shared_after_one_more_round():
    game = oasis_scenario(vp=(3, 3)).build()
    game.call_time()
    play_on_until_decision(game, seat=-1)  # nobody plays anything any more
    assert game.over and game.winner is None
    assert game.shared_winners == [0, 1]
    assert game.turn == 1 + TIE_PLAY_ON_ROUNDS * 2
    assert game.view(None)["ending"]["shared_winners"] == [0, 1]
    assert any("share the win" in line for line in log_text(game))


def test_a_tie_at_the_end_of_a_play_on_turn_without_a_base_does_not_end_early():
    game = oasis_scenario(vp=(3, 3)).build()
    game.call_time()
    end_play(game)
    end_play(game)  # turn 2: nothing scored, still tied
    assert not game.over and game.turn == 3 and game.current == 0


# ------------------------------------------------------------------------------- refusals ------
def test_time_cannot_be_called_twice_or_after_the_end():
    game = oasis_scenario(vp=(1, 0)).build()
    game.call_time()
    before = snapshot(game)
    with pytest.raises(IllegalChoice, match="already"):
        game.call_time()
    with pytest.raises(IllegalChoice):
        game.apply(None, CALL_TIME, [])
    assert snapshot(game) == before
    end_play(game)
    assert game.over
    with pytest.raises(IllegalChoice, match="over"):
        game.call_time()


def test_a_forged_time_call_changes_nothing():
    game = oasis_scenario().build()
    before = snapshot(game)
    with pytest.raises(IllegalChoice):
        game.apply(None, CALL_TIME, ["now"])  # a time call has no options
    with pytest.raises(IllegalChoice):
        game.apply(0, CALL_TIME, [])  # a seat cannot call time
    with pytest.raises(IllegalChoice):
        game.apply(None, game.pending.id, ["end"])  # nor can nobody answer a decision
    assert snapshot(game) == before and not game.time_called


def test_time_called_while_the_base_limit_ends_the_game_changes_nothing_else():
    game = oasis_scenario(vp=(3, 5)).end_after_bases(3, scored=2).build()
    play_collector(game, 0)
    assert not game.over and game.end_reason == "bases" and game.play_on_until == 3
    game.call_time()
    assert game.time_called and game.end_reason == "bases" and game.final_turn == 1
    assert game.play_on_until == 3


# ------------------------------------------------------------------------------- records -------
def _assert_the_end_follows_the_vp(game):
    top = max(p.vp for p in game.players)
    leaders = [p.seat for p in game.players if p.vp == top]
    if game.winner is not None:
        assert leaders == [game.winner]
    else:
        assert game.shared_winners == leaders and len(leaders) > 1


def _random_game_with_time_called(players, seed, registry=None):
    config = config_for(players)
    if players == 4:
        config["base_sets"] = ["core", "core-filler"]
    game = new_game(config, seed, registry, track_hashes=True)
    rng = random.Random(seed)
    call_at = rng.randrange(0, 120)
    vp = [p.vp for p in game.players]
    steps = 0
    while game.pending is not None and steps < 20000:
        if steps == call_at:
            game.call_time()
        else:
            d = game.pending
            game.apply(d.seat, d.id, random_choice(game, rng))
        steps += 1
        problems = check(game, vp)
        assert not problems, (seed, steps, problems)
        vp = [p.vp for p in game.players]
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_with_time_called_at_random_moments_keep_the_invariants(players):
    for seed in range(8):
        game = _random_game_with_time_called(players, 100 * players + seed, TEST_REGISTRY)
        assert game.over
        if game.time_called and game.end_reason == "time":
            assert game.turn <= game.final_turn + TIE_PLAY_ON_ROUNDS * players
            _assert_the_end_follows_the_vp(game)
        again = replay(game.record(), TEST_REGISTRY)
        assert again.digest() == game.digest() and again.hashes == game.hashes


def test_a_record_with_a_time_call_replays_from_json_with_its_hashes():
    game = _random_game_with_time_called(3, 7)
    record = json.loads(json.dumps(game.record()))
    assert [None, CALL_TIME, []] in record["choices"]
    again = replay(record)
    assert again.time_called and again.digest() == game.digest()
    assert again.winner == game.winner and again.shared_winners == game.shared_winners


def test_a_record_without_its_time_call_does_not_replay_as_played():
    game = _random_game_with_time_called(2, 4)
    record = copy.deepcopy(game.record())
    index = record["choices"].index([None, CALL_TIME, []])
    del record["choices"][index]
    del record["hashes"][index]
    with pytest.raises((ReplayMismatch, IllegalChoice)):
        replay(record)


def test_a_replay_stops_anywhere_and_calls_time_the_same_way():
    game = new_game(config_for(2), 9, track_hashes=True)
    run_random(game, 9, max_steps=60, checks=False)
    game.call_time()
    partial = replay(game.record())
    assert partial.time_called and partial.digest() == game.digest()
    assert partial.pending.public() == game.pending.public()


@pytest.mark.parametrize("players, seed, digest", [
    (2, 3, "b3a5a46796566169de2cbc9670b4170f"),
    (3, 11, "65bad648cbacb3b0f0726359efb0d15f"),
])
def test_games_without_the_new_rules_keep_their_digests(players, seed, digest):
    # Digests of these seeded games taken before the end rules existed: stored records and their
    # state hashes stay valid. They are version 1 digests (a record keeps the version its hashes
    # were made with, `Game.digest_version`): the same game is still played choice for choice.
    # They were set up before "each faction once per game": seats alternate Aliens/Ninjas and
    # Ninjas/Aliens, as stored records of that time do (`shared_factions`).
    mirror = [["Aliens", "Ninjas"], ["Ninjas", "Aliens"]]
    config = {"players": [{"factions": mirror[i % 2]} for i in range(players)]}
    game = new_game(config, seed, track_hashes=True, shared_factions=True)
    game.digest_version = 1
    run_random(game, seed, max_steps=20000, checks=False)
    assert game.digest() == digest
