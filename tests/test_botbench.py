"""bench_bots (smashup/botbench.py): seats rotated, shared wins split, Wilson intervals, the command.
A few games only: these check that the bench counts right, not how strong any bot is."""

from __future__ import annotations

import json
from collections import Counter
from types import SimpleNamespace

import pytest
from django.core.management import CommandError, call_command

from smashup import botbench
from smashup.botregistry import BOTS, expert_available, random_bot
from smashup.engine.turns import winners


def recording_bots(seen: Counter) -> dict:
    """Two bots that play at random and note which seat each played."""

    def named(name):
        def bot(game, seat, rng, budget=None):
            seen[(name, seat)] += 1
            return random_bot(game, seat, rng, budget)

        return bot

    return {"left": named("left"), "right": named("right")}


def test_wilson_interval_matches_the_formula():
    low, high = botbench.wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert botbench.wilson(0, 10)[0] == 0.0 and round(botbench.wilson(0, 10)[1], 4) == 0.2775
    assert botbench.wilson(10, 10)[1] == pytest.approx(1.0)
    # More games, a narrower interval around the same rate.
    assert botbench.wilson(90, 100)[1] - botbench.wilson(90, 100)[0] < 0.13
    assert botbench.wilson(900, 1000)[1] - botbench.wilson(900, 1000)[0] < 0.04


@pytest.mark.parametrize(("players", "games", "played"), [(2, 3, 4), (4, 4, 4)])
def test_each_bot_plays_each_seat_equally_and_every_game_has_its_winners(players, games, played):
    seen: Counter = Counter()
    result = botbench.bench("left", "right", players=players, games=games, seed=3, bots=recording_bots(seen))
    assert result.games == played  # rounded up to a multiple of the seats
    for seat in range(players):
        assert seen[("left", seat)] > 0 and seen[("right", seat)] > 0
    assert result.a.games == result.b.games == played
    assert result.a.seats_per_game == 1 and result.b.seats_per_game == players - 1
    assert sum(result.a.wins_by_seat.values()) == pytest.approx(result.a.wins)
    # Every game has its win shared out whole between the two sides.
    assert result.a.wins + result.b.wins == pytest.approx(played)
    assert result.a.decisions == sum(n for (name, _), n in seen.items() if name == "left")
    assert result.b.decisions == sum(n for (name, _), n in seen.items() if name == "right")
    assert result.average_turns > players and result.choices > 0


def test_the_lineups_rotate_bot_a_round_the_table(monkeypatch):
    lineups = []
    real_play = botbench.play

    def noting(config, seed, lineup, bots, budget, searched=None):
        lineups.append((seed, tuple(lineup)))
        return real_play(config, seed, lineup, bots, budget, searched)

    monkeypatch.setattr(botbench, "play", noting)
    botbench.bench("random", "heuristic", players=4, games=8, seed=2)
    first, second = lineups[:4], lineups[4:]
    for deal in (first, second):
        assert len({seed for seed, _ in deal}) == 1  # one deal, played once per seat of bot A
        assert [lineup.index("random") for _, lineup in deal] == [0, 1, 2, 3]
        assert all(lineup.count("heuristic") == 3 for _, lineup in deal)
    assert first[0][0] != second[0][0]


def test_the_same_seed_plays_the_same_games():
    one = botbench.bench("heuristic", "random", players=2, games=2, seed=5, mode="bigbase").as_dict()
    two = botbench.bench("heuristic", "random", players=2, games=2, seed=5, mode="bigbase").as_dict()
    for figures in (one, two):
        figures.pop("seconds")
        for side in ("a", "b"):
            for timing in ("seconds", "seconds_per_decision"):
                figures[side].pop(timing)
    assert one == two
    other = botbench.bench("heuristic", "random", players=2, games=2, seed=6, mode="bigbase").as_dict()
    assert other["choices"] != one["choices"] or other["a"]["vp"] != one["a"]["vp"]


def test_a_shared_win_is_split_and_a_game_without_a_winner_goes_to_the_most_vp():
    players = [SimpleNamespace(seat=s, vp=vp) for s, vp in enumerate([12, 15, 15])]
    assert winners(SimpleNamespace(winner=2, shared_winners=[], players=players)) == [2]
    assert winners(SimpleNamespace(winner=None, shared_winners=[0, 2], players=players)) == [0, 2]
    assert winners(SimpleNamespace(winner=None, shared_winners=[], players=players)) == [1, 2]


def test_bad_arguments_are_refused():
    with pytest.raises(botbench.BenchError, match="unknown bot 'nobody'"):
        botbench.bench("nobody", "random")
    with pytest.raises(botbench.BenchError, match="2 to 4 players"):
        botbench.bench("random", "random", players=5)
    with pytest.raises(botbench.BenchError, match="modes"):
        botbench.bench("random", "random", mode="giant")


def test_the_command_prints_json_and_lines(capsys):
    call_command(
        "bench_bots", "--a", "heuristic", "--b", "random", "--players", "2", "--games", "2", "--json"
    )
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and data["a"]["name"] == "heuristic" and data["b"]["name"] == "random"
    assert 0 <= data["a"]["ci95"][0] <= data["a"]["win_rate"] <= data["a"]["ci95"][1] <= 1
    assert data["a"]["fair_share"] == 0.5 and data["a"]["decisions"] > 0
    call_command(
        "bench_bots", "--a", "easy", "--b", "random", "--players", "4", "--games", "4", "--mode", "bigbase"
    )
    out = capsys.readouterr().out
    assert "4 games, 4 players, bigbase" in out and "B random (3 seats)" in out
    with pytest.raises(CommandError, match="unknown bot"):
        call_command("bench_bots", "--a", "expert-nobody", "--b", "random")
    assert "expert-nobody" not in BOTS


@pytest.mark.skipif(not expert_available(), reason="no expert bot yet (Game.determinize, issue 23)")
@pytest.mark.parametrize(("players", "mode"), [(2, "standard"), (4, "bigbase")])
def test_the_command_benches_the_expert_at_a_small_iteration_cap(capsys, players, mode):
    """CI's run of the expert through bench_bots: whole games, seats rotated, JSON out; correctness
    (every answer legal, the searches counted), not strength."""
    call_command(
        "bench_bots", "--a", "expert", "--b", "heuristic", "--players", str(players), "--games",
        str(players), "--mode", mode, "--iterations", "4", "--json",
    )  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == players and data["mode"] == mode
    expert, heuristic = data["a"], data["b"]
    assert expert["name"] == "expert" and heuristic["seats_per_game"] == players - 1
    assert expert["decisions"] > 0 and expert["iterations"] > 0 and expert["playouts_per_second"] > 0
    assert heuristic["iterations"] == 0  # a bot that does not search makes none
    assert expert["wins"] + heuristic["wins"] == pytest.approx(players)
