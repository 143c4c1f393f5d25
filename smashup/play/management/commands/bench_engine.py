"""`manage.py bench_engine`: the engine's speed figures (games/s, replay of a 1,000-choice game)."""
import json

from django.core.management.base import BaseCommand

from smashup.engine.simulate import bench, bench_forks


class Command(BaseCommand):
    help = "Measure games per second and the replay time of a 1,000-choice game (medians)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--players", type=int, default=4, choices=[2, 3, 4])
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--repeats", type=int, default=3)
        parser.add_argument(
            "--rng", type=int, default=2, choices=[1, 2],
            help="random generator: 2 the keyed one games use (default), 1 the old Mersenne Twister",
        )
        parser.add_argument("--mode", choices=["standard", "bigbase"], default="standard",
                            help="bigbase: Big Base mode on the default board")
        parser.add_argument("--sets", nargs="+", choices=["core", "wwwt", "iyf"],
                            help="only the factions of these boxes (default: every implemented one)")
        parser.add_argument("--fork", action="store_true",
                            help="fork and determinize costs next to a random playout from the same "
                                 "mid-game states (medians), instead of games/s")
        parser.add_argument("--states", type=int, default=40,
                            help="with --fork: how many mid-game states")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **opts):
        if opts["fork"]:
            return self.forks(opts)
        result = bench(opts["games"], opts["players"], opts["seed"], opts["repeats"], opts["rng"],
                       opts["mode"], opts["sets"])
        if opts["json"]:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(
            f"{result['players']} players, {result['mode']} mode, mixes of {result['factions']} "
            f"factions, random bots, one process ({result['frozen_at_start_up']} start-up objects "
            f"frozen, young generation walked every {result['young_generation_threshold']} "
            f"objects), {result['engine']} engine, "
            f"random generator v{result['rng']}: "
            f"{result['games_per_sec_unchecked']} games/s unchecked "
            f"({result['games_per_cpu_sec_unchecked']} per CPU-second), "
            f"{result['games_per_sec_checked']} games/s with every invariant checked "
            f"({result['games_per_cpu_sec_checked']} per CPU-second); "
            f"{result['choices_per_game']} choices a game; "
            f"{result['games_with_a_repeated_faction']} of {opts['games']} tables held a faction twice\n"
            f"replay of a {result['replay_choices']}-choice game: "
            f"median {result['replay_ms_median']} ms ({result['replay_cpu_ms_median']} ms CPU), "
            f"max {result['replay_ms_max']} ms; "
            f"with a state hash checked after every choice: {result['replay_hashed_cpu_ms_median']} ms CPU")

    def forks(self, opts):
        result = bench_forks(opts["states"], opts["players"], opts["seed"], max(opts["repeats"], 3),
                             opts["mode"], opts["sets"])
        if opts["json"]:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(
            f"{result['players']} players, {result['mode']} mode, {result['factions']} factions, "
            f"{result['engine']} engine, {result['states']} mid-game states "
            f"({result['quiet_states']} at a quiet point), medians of {result['repeats']} rounds each:\n"
            f"random playout from the state: {result['playout_ms']} ms "
            f"({result['playout_us_per_choice']} us per choice)\n"
            f"fork: {result['fork_ms']} ms ({result['fork_per_playout']} of a playout; at a quiet point "
            f"{result['fork_quiet_ms']} ms, elsewhere {result['fork_other_ms']} ms); the first fork "
            f"of a restored game {result['first_fork_ms']} ms (elsewhere: {result['first_fork_other_ms']} "
            f"ms, it makes the snapshot)\n"
            f"determinize: {result['determinize_ms']} ms ({result['determinize_per_playout']} of a "
            f"playout; at a quiet point {result['determinize_quiet_ms']} ms, elsewhere "
            f"{result['determinize_other_ms']} ms); the first of a restored game "
            f"{result['first_determinize_ms']} ms (it replays the record to learn what each seat "
            f"knows); dealt in place (the fallback) {result['determinize_dealt_in_place']} of "
            f"{result['determinizations']}")
