"""The simulate and replay management commands (thin wrappers over smashup.engine.simulate)."""
import json

import pytest
from django.core.management import CommandError, call_command

from smashup.core.apps import YOUNG_GENERATION_THRESHOLD


def run(*args):
    from io import StringIO

    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_simulate_prints_one_json_line_with_the_agreed_fields():
    line = run("simulate", "--games", "4", "--players", "2", "--seed", "3", "--json").strip()
    data = json.loads(line)
    for key in ("games", "choices", "seconds", "games_per_sec", "violations", "digest",
                "wins_by_faction"):
        assert key in data
    assert data["games"] == 4 and data["violations"] == 0
    again = json.loads(run("simulate", "--games", "4", "--players", "2", "--seed", "3", "--json"))
    assert again["digest"] == data["digest"]


def test_simulate_refuses_bad_arguments():
    with pytest.raises(CommandError):
        run("simulate", "--players", "5")
    with pytest.raises(CommandError):
        run("simulate", "--factions", "Aliens")
    # Each faction once per game: four players need eight different factions.
    with pytest.raises(CommandError, match="at least 8 different factions"):
        run("simulate", "--players", "4", "--factions", "Aliens,Ninjas,Pirates,Robots,Wizards,Zombies,Aliens")
    with pytest.raises(CommandError):
        run("simulate", "--games", "0")


def test_the_bot_report_gives_game_lengths_and_win_rates_by_faction():
    data = json.loads(run("simulate", "--bot-report", "--games", "3", "--duels", "1", "--seed",
                          "2", "--json"))
    assert data["games_4p_heuristic"] == 3 and data["games_cut_at_max_choices"] == 0
    low, high = data["turns_4p_heuristic_min_max"]
    assert 4 <= low <= data["median_turns_4p_heuristic"] <= high
    assert 1 <= data["median_first_score_turn_4p_heuristic"] <= high
    rates = data["heuristic_win_rate_vs_random"]
    # Every implemented faction, each held by the heuristic bot at least once.
    from smashup.engine.registry import REGISTRY

    assert set(rates) == set(REGISTRY.factions) and all(row["played"] >= 1 for row in rates.values())
    assert all(row["rate"] == round(row["won"] / row["played"], 2) for row in rates.values())
    # Seeded: the same arguments give the same figures.
    again = json.loads(run("simulate", "--bot-report", "--games", "3", "--duels", "1", "--seed",
                           "2", "--json"))
    assert again == data
    text = run("simulate", "--bot-report", "--games", "1", "--duels", "1")
    assert "four-player heuristic games" in text and "Zombies:" in text


def test_the_bot_report_refuses_bad_arguments():
    for args in (("--duels", "0"), ("--duel-players", "5"), ("--games", "0"),
                 ("--factions", "Aliens", "Ninjas")):
        with pytest.raises(CommandError):
            run("simulate", "--bot-report", *args)


def test_a_saved_record_replays_to_the_simulated_games_digest(tmp_path):
    path = tmp_path / "game.json"
    run("simulate", "--games", "2", "--players", "2", "--seed", "5", "--record", str(path))
    record = json.loads(path.read_text())
    from smashup.engine.simulate import play_game

    # The record carries the state hash after every choice, taken while the game was played.
    assert len(record["hashes"]) == len(record["choices"]) > 0
    simulated, violations = play_game(record["config"], record["seed"])
    assert not violations and len(simulated.choices) == len(record["choices"])
    out = json.loads(run("replay", str(path), "--json"))
    assert out["digest"] == simulated.digest() == record["hashes"][-1]
    assert out["choices"] == len(record["choices"])
    assert out["over"] is True
    # The replay checks those hashes: a record whose state drifts from them is refused.
    record["hashes"][len(record["hashes"]) // 2] = "0" * 32
    path.write_text(json.dumps(record))
    with pytest.raises(CommandError, match="does not replay"):
        run("replay", str(path))


def test_replay_refuses_a_broken_record(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(CommandError, match="cannot read"):
        run("replay", str(path))
    path.write_text(json.dumps({"config": {"players": []}, "seed": 1, "choices": []}))
    with pytest.raises(CommandError, match="does not replay"):
        run("replay", str(path))
    with pytest.raises(CommandError, match="cannot read"):
        run("replay", str(tmp_path / "missing.json"))


def test_a_record_saved_before_the_keyed_generator_replays_through_the_command(tmp_path):
    """`simulate --record` files made before version 2 have no "rng": they replay as version 1."""
    from pathlib import Path

    fixture = Path(__file__).parent / "engine" / "fixtures" / "rng_v1_records.json"
    entry = next(e for e in json.loads(fixture.read_text())["records"] if e["name"] == "simulate-record")
    path = tmp_path / "old.json"
    path.write_text(json.dumps(entry["record"]))
    out = json.loads(run("replay", str(path), "--json"))
    assert out["digest"] == entry["final_digest"] and out["choices"] == len(entry["record"]["choices"])


@pytest.mark.parametrize("rng", ["1", "2"])
def test_bench_engine_reports_the_agreed_figures(rng):
    data = json.loads(run("bench_engine", "--games", "4", "--players", "2", "--repeats", "1",
                          "--rng", rng, "--json"))
    assert data["replay_choices"] == 1000 and data["rng"] == int(rng)
    for key in ("games_per_sec_unchecked", "games_per_sec_checked", "replay_ms_median",
                "games_per_cpu_sec_unchecked", "games_per_cpu_sec_checked", "choices_per_game",
                "replay_cpu_ms_median", "replay_hashed_cpu_ms_median"):
        assert data[key] > 0
    assert 0 <= data["games_with_a_repeated_faction"] <= 4
    # A Django process freezes its start-up objects (smashup/core/apps.py); the bench says so.
    assert data["frozen_at_start_up"] > 10_000
    assert data["young_generation_threshold"] == YOUNG_GENERATION_THRESHOLD


def test_bench_engine_can_keep_to_the_core_set():
    data = json.loads(run("bench_engine", "--games", "3", "--players", "4", "--repeats", "1",
                          "--sets", "core", "--json"))
    assert data["factions"] == 8 and data["replay_choices"] == 1000
    assert json.loads(run("bench_engine", "--games", "3", "--players", "2", "--repeats", "1",
                          "--json"))["factions"] == 17


def test_bench_engine_prints_its_figures_in_words():
    out = run("bench_engine", "--games", "3", "--players", "4", "--repeats", "1")
    assert "games/s unchecked" in out and "per CPU-second" in out
    assert "of 3 tables held a faction twice" in out
    assert "with a state hash checked after every choice" in out
    assert "start-up objects frozen" in out


def test_the_long_benchmark_game_is_a_real_replayable_game():
    from smashup.engine import replay
    from smashup.engine.simulate import long_record

    record = long_record(300, seed=2, players=3)
    assert len(record["choices"]) == 300
    game = replay(record)
    assert len(game.choices) == 300


@pytest.mark.parametrize("mode", ["standard", "bigbase"])
def test_bench_engine_measures_forks_next_to_playouts(mode):
    data = json.loads(run("bench_engine", "--fork", "--states", "3", "--players", "2",
                          "--repeats", "1", "--mode", mode, "--json"))
    assert data["states"] == 3 and data["repeats"] == 3 and data["mode"] == mode
    for key in ("fork_ms", "determinize_ms", "playout_ms", "playout_us_per_choice",
                "first_fork_ms", "first_determinize_ms", "fork_per_playout"):
        assert data[key] > 0
    out = run("bench_engine", "--fork", "--states", "2", "--players", "2", "--repeats", "1")
    assert "fork:" in out and "determinize:" in out and "random playout from the state" in out
