"""`manage.py simulate`: seeded bot games with the engine's invariants checked after every step."""

import json

from django.core.management.base import BaseCommand, CommandError

from smashup.engine.simulate import bot_report, simulate


class Command(BaseCommand):
    help = "Play seeded bot games, checking every invariant after every step."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument(
            "--players",
            type=int,
            nargs="+",
            default=[2],
            help="players per game; several values cycle (e.g. 2 3 4)",
        )
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--mode", choices=["standard", "bigbase"], default="standard",
                            help="bigbase: Big Base mode on the default board")
        parser.add_argument("--bots", choices=["random", "heuristic"], default="random")
        parser.add_argument(
            "--factions",
            nargs="+",
            default=None,
            help="the faction pool (default: every implemented faction)",
        )
        parser.add_argument("--specials", choices=["fast", "ask"], default="fast")
        parser.add_argument(
            "--no-check", action="store_true", help="skip the invariant checks (to measure raw speed)"
        )
        parser.add_argument("--record", metavar="FILE",
                            help="save the record of the longest game, with a state hash after "
                                 "every choice (`replay` checks them)")
        parser.add_argument("--json", action="store_true", help="print one JSON line")
        parser.add_argument(
            "--bot-report",
            action="store_true",
            help="instead: --games 4-player heuristic-bot games (median turns, median turn of the "
            "first scored base) and duels of one heuristic bot against random bots until each "
            "faction has --duels of them (the heuristic bot's win rate by faction)",
        )
        parser.add_argument("--duels", type=int, default=20,
                            help="with --bot-report: duels each faction needs (default 20)")
        parser.add_argument("--duel-players", type=int, default=2,
                            help="with --bot-report: players at a duel's table, one of them the "
                                 "heuristic bot (default 2)")

    def handle(self, *args, **opts):
        if opts["bot_report"]:
            return self._bot_report(opts)
        for n in opts["players"]:
            if not 2 <= n <= 4:
                raise CommandError("--players takes values from 2 to 4")
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        factions = None
        if opts["factions"]:
            factions = [f for part in opts["factions"] for f in part.split(",") if f]
            # Each faction is in a game once: the largest table needs two different ones a seat.
            needed = 2 * max(opts["players"])
            if len(set(factions)) < needed:
                raise CommandError(f"--factions needs at least {needed} different factions "
                                   f"for {max(opts['players'])} players (each faction once per game)")
        try:
            result = simulate(
                opts["games"],
                opts["players"],
                opts["seed"],
                opts["bots"],
                factions,
                check=not opts["no_check"],
                specials=opts["specials"],
                keep_record=bool(opts["record"]),
                mode=opts["mode"],
            )
        except Exception as exc:  # an engine error in a seeded game is a reproducible bug report
            raise CommandError(f"simulation failed: {exc!r}") from exc
        record = result.pop("record", None)
        if record is not None:
            with open(opts["record"], "w", encoding="utf-8") as fh:
                json.dump(record, fh)
        if opts["json"]:
            self.stdout.write(json.dumps(result))
        else:
            self.stdout.write(
                f"{result['games']} games, {result['choices']} choices in {result['seconds']} s "
                f"({result['games_per_sec']} games/s); violations: {result['violations']}; "
                f"digest {result['digest']}"
            )
            for line in result["violation_details"]:
                self.stdout.write(f"  {line}")
            self.stdout.write(f"wins by faction: {result['wins_by_faction']}")
        if result["violations"]:
            raise CommandError(f"{result['violations']} invariant violation(s)")

    def _bot_report(self, opts):
        if opts["games"] < 1 or opts["duels"] < 1:
            raise CommandError("--games and --duels must be at least 1")
        if not 2 <= opts["duel_players"] <= 4:
            raise CommandError("--duel-players takes values from 2 to 4")
        factions = None
        if opts["factions"]:
            factions = [f for part in opts["factions"] for f in part.split(",") if f]
        try:
            report = bot_report(opts["games"], opts["seed"], factions, opts["duels"],
                                opts["duel_players"])
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        if opts["json"]:
            self.stdout.write(json.dumps(report))
            return
        self.stdout.write(
            f"{report['games_4p_heuristic']} four-player heuristic games: median "
            f"{report['median_turns_4p_heuristic']} turns (range "
            f"{report['turns_4p_heuristic_min_max']}), first base scored on turn "
            f"{report['median_first_score_turn_4p_heuristic']} (median)"
        )
        self.stdout.write(
            f"{report['duel_games']} games of one heuristic bot against "
            f"{report['duel_players'] - 1} random bot(s): it won "
            f"{report['heuristic_win_rate_overall']:.0%} of them"
        )
        for faction, row in report["heuristic_win_rate_vs_random"].items():
            self.stdout.write(f"  {faction}: {row['won']}/{row['played']} ({row['rate']:.0%})")
