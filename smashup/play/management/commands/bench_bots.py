"""`manage.py bench_bots`: how often bot A wins against bot B, seats rotated (smashup/botbench.py)."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from smashup.botbench import MODES, BenchError, bench, report_lines
from smashup.botregistry import BOTS, Budget


class Command(BaseCommand):
    help = (
        "Seeded games of bot A in one seat against bot B in every other, A moving round the table: "
        "win rates with 95% confidence intervals, turns a game, seconds per decision."
    )

    def add_arguments(self, parser):
        parser.add_argument("--a", required=True, help=f"bot A, one of: {', '.join(sorted(BOTS))}")
        parser.add_argument("--b", required=True, help="bot B (every other seat)")
        parser.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
        parser.add_argument(
            "--games", type=int, default=20, help="games to play (rounded up to a multiple of --players)"
        )
        parser.add_argument("--mode", choices=MODES, default="standard", help="bigbase: the default board")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--think", type=float, default=None, help="seconds a bot that searches may think per decision"
        )
        parser.add_argument(
            "--iterations",
            type=int,
            default=None,
            help="iterations a bot that searches may make per decision",
        )
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--progress", action="store_true", help="a line on stderr after each game")

    def handle(self, *args, **opts):
        def budget():
            return Budget(seconds=opts["think"], iterations=opts["iterations"])

        def progress(result):
            a = result.a
            sys.stderr.write(f"{result.games} games: {a.name} {a.win_rate:.1%}\n")

        try:
            result = bench(
                opts["a"],
                opts["b"],
                players=opts["players"],
                games=opts["games"],
                mode=opts["mode"],
                seed=opts["seed"],
                budget=budget,
                progress=progress if opts["progress"] else None,
            )
        except BenchError as exc:
            raise CommandError(str(exc)) from None
        if opts["json"]:
            self.stdout.write(json.dumps(result.as_dict()))
            return
        self.stdout.write("\n".join(report_lines(result)))
