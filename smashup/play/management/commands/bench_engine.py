"""`manage.py bench_engine`: the engine's speed figures (games/s, replay of a 1,000-choice game)."""
import json

from django.core.management.base import BaseCommand

from smashup.engine.simulate import bench


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
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **opts):
        result = bench(opts["games"], opts["players"], opts["seed"], opts["repeats"], opts["rng"],
                       opts["mode"], opts["sets"])
        if opts["json"]:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(
            f"{result['players']} players, {result['mode']} mode, mixes of {result['factions']} "
            f"factions, random bots, one process ({result['frozen_at_start_up']} start-up objects "
            f"frozen), {result['engine']} engine, "
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
