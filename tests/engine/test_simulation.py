"""The safety net: seeded random-bot games with every invariant checked after every step.

CI plays 2,000 games (2, 3 and 4 players, cycling) in chunks so pytest-xdist can share them out.
A failing chunk prints the seed and choice number of the first violation: a reproducible bug.
"""
import itertools
import random

import pytest

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import REGISTRY, invariants, new_game
from smashup.engine.simulate import play_game, simulate, tables

CHUNKS = 20
GAMES_PER_CHUNK = 75  # 20 x 75 = 1,500 games, beside one game per pair of factions below
CORE = sorted(name for name, faction in REGISTRY.factions.items() if faction.set == "core")


def pair_table(pair: tuple[str, str], players: int, seed: int) -> dict:
    """Seat 1 holds `pair`; the other seats hold two factions each from the rest, none held twice
    at the table (the rules: each faction once per game)."""
    rest = [f for f in CORE if f not in pair]
    random.Random(seed).shuffle(rest)
    hands = [list(pair)] + [rest[2 * i:2 * i + 2] for i in range(players - 1)]
    return {"players": [{"name": f"Bot {i + 1}", "factions": h, "bot": "random"}
                        for i, h in enumerate(hands)],
            "specials": "fast", "base_sets": "all"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_pair_of_core_factions_plays_clean(players):
    """Every pair of implemented Core Set factions on one seat, at 2, 3 and 4 players: one seeded
    random-bot game each, invariants checked after every choice."""
    assert len(CORE) == 8  # the whole Core Set is implemented
    for n, pair in enumerate(itertools.combinations(CORE, 2)):
        seed = 1000 * players + n
        game, violations = play_game(pair_table(pair, players, seed), seed)
        assert violations == [], (pair, violations)
        assert game.pending is None  # the game ended


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(chunk):
    result = simulate(GAMES_PER_CHUNK, [2, 3, 4], seed=chunk, bots="random")
    assert result["violations"] == 0, result["violation_details"]
    assert result["games"] == GAMES_PER_CHUNK


def test_the_seeded_games_hold_every_faction_at_every_table_size():
    """What the chunks above cover, counted from the tables they deal (not played here): every
    implemented faction of the three boxes in at least 100 games, at 2, 3 and 4 players each."""
    factions = sorted(REGISTRY.factions)
    assert len(factions) == 17  # every faction of the three boxes
    held = {(f, n): 0 for f in factions for n in (2, 3, 4)}
    for chunk in range(CHUNKS):
        for config, _ in tables(GAMES_PER_CHUNK, [2, 3, 4], chunk, "random", factions):
            for seat in config["players"]:
                for f in seat["factions"]:
                    held[f, len(config["players"])] += 1
    for f in factions:
        assert sum(held[f, n] for n in (2, 3, 4)) >= 100, f
        assert all(held[f, n] >= 20 for n in (2, 3, 4)), (f, held)


def test_ask_everyone_mode_games_keep_every_invariant():
    result = simulate(30, [2, 3, 4], seed=99, bots="random", specials="ask")
    assert result["violations"] == 0, result["violation_details"]


def test_same_arguments_give_the_same_digest():
    first = simulate(6, [2, 3], seed=7, check=False)
    second = simulate(6, [2, 3], seed=7, check=False)
    other = simulate(6, [2, 3], seed=8, check=False)
    assert first["digest"] == second["digest"]
    assert first["choices"] == second["choices"]
    assert other["digest"] != first["digest"]


def test_every_simulated_game_ends_with_a_single_leader_at_15_or_more():
    for seed in range(10):
        config = {"players": [{"factions": ["Aliens", "Ninjas"], "bot": "random"},
                              {"factions": ["Pirates", "Robots"], "bot": "random"}],
                  "base_sets": "all"}
        game, violations = play_game(config, seed)
        assert not violations
        assert game.over
        top = max(p.vp for p in game.players)
        assert top >= 15
        assert [p.vp for p in game.players].count(top) == 1
        assert game.players[game.winner].vp == top


def test_heuristic_bot_beats_the_random_bot_in_most_games():
    wins = 0
    games = 40
    for i in range(games):
        heuristic_seat = i % 2
        players = [{"factions": ["Aliens", "Ninjas"], "bot": "random"},
                   {"factions": ["Pirates", "Robots"], "bot": "random"}]
        players[heuristic_seat]["bot"] = "heuristic"
        game, violations = play_game({"players": players, "base_sets": "all"}, 5000 + i)
        assert not violations
        wins += game.winner == heuristic_seat
    assert wins >= 0.7 * games, f"heuristic won only {wins} of {games}"


def test_the_invariant_checker_catches_a_card_in_two_zones():
    game = new_game({"players": [{"factions": ["Aliens", "Ninjas"]},
                                 {"factions": ["Pirates", "Robots"]}]}, 3)
    assert invariants.check(game) == []
    stolen = game.players[1].deck[0]
    game.players[0].hand.append(stolen)  # corrupt the state on purpose
    problems = invariants.check(game)
    assert any("is in" in p for p in problems)
    assert any("hidden cards" in p for p in problems)  # seat 0's view now shows a deck card


def test_the_invariant_checker_catches_lost_vp():
    game = new_game({"players": [{"factions": ["Aliens", "Ninjas"]},
                                 {"factions": ["Pirates", "Robots"]}]}, 4)
    game.players[0].vp = 2
    assert any("lost VP" in p for p in invariants.check(game, [3, 0]))


def test_bots_only_ever_send_legal_choices():
    from smashup.engine.bots import heuristic_choice, random_choice

    for chooser in (random_choice, heuristic_choice):
        pairs = [["Aliens", "Ninjas"], ["Pirates", "Robots"], ["Wizards", "Zombies"]]
        game = new_game({"players": [{"factions": pair} for pair in pairs],
                         "base_sets": "all"}, 11)
        rng = random.Random(0)
        for _ in range(300):
            if game.pending is None:
                break
            d = game.pending
            game.apply(d.seat, d.id, chooser(game, rng))  # raises IllegalChoice if not legal
