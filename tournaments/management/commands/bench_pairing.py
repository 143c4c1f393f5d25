"""`manage.py bench_pairing`: time the pairing over a simulated event and count avoidable repeats."""

import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.pairing.bench import run_bench
from tournaments.pairing.context import SHORT_TABLES
from tournaments.pairing.layout import MODES


class Command(BaseCommand):
    help = "Simulate rounds of random results, pair each with the real pairing, report time and repeats."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--table-size", type=int, default=4, choices=[2, 3, 4])
        parser.add_argument("--layout", choices=MODES, default="even")
        parser.add_argument("--seed", default="0")
        parser.add_argument(
            "--max-evaluations", type=int, default=None, help="the local search's budget (default: its own)"
        )
        parser.add_argument(
            "--faction-copies",
            type=int,
            default=None,
            help="simulate a per-event draft at the round 1 tables with this many copies of each faction "
            "per table, and avoid faction clashes later (default: factions are not checked)",
        )
        parser.add_argument("--drops", type=int, default=0, help="players who drop after each round")
        parser.add_argument("--late", type=int, default=0, help="players who enter before round 2")
        parser.add_argument(
            "--short-tables",
            choices=SHORT_TABLES,
            default="strict",
            help="short-table fairness: strict (a rule) or soft (weighed against rematches)",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON line")

    def handle(self, *args, **opts):
        if opts["players"] < 2:
            raise CommandError("--players must be at least 2")
        if opts["rounds"] < 1:
            raise CommandError("--rounds must be at least 1")
        if opts["faction_copies"] is not None and not 1 <= opts["faction_copies"] <= 4:
            raise CommandError("--faction-copies must be 1 to 4")
        if opts["drops"] < 0 or opts["late"] < 0:
            raise CommandError("--drops and --late cannot be negative")
        result = run_bench(
            opts["players"],
            opts["rounds"],
            opts["table_size"],
            opts["seed"],
            opts["layout"],
            opts["max_evaluations"],
            opts["faction_copies"],
            opts["drops"],
            opts["late"],
            opts["short_tables"],
        )
        if opts["json"]:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(
            f"{result['players']} players"
            + (f" (+{result['late']} late)" if result["late"] else "")
            + (f" ({result['drops']} drop a round)" if result["drops"] else "")
            + f", {result['rounds']} rounds at tables of {result['table_size']} "
            f"({', '.join(result['methods'])}): {result['seconds_median']} s a round (median), "
            f"{result['seconds_max']} s max; CPU {result['cpu_seconds_median']} s (median), "
            f"{result['cpu_seconds_max']} s max (tabu step: {result['tabu_step']})"
        )
        self.stdout.write(
            f"repeat meetings: {result['repeats']} (by round {result['repeats_by_round']}); "
            f"lower bound {result['lower_bound']}; avoidable {result['avoidable']}"
        )
        self.stdout.write(
            f"short tables again before everyone had one ({result['short_tables']} fairness): "
            f"{result['unfair_short_tables']} (by round {result['unfair_by_round']})"
        )
        if "clashes" in result:
            self.stdout.write(
                f"faction clashes ({result['faction_copies']} per table): {result['clashes']} "
                f"(by round {result['clashes_by_round']})"
            )
        if result["unproven_rounds"]:
            self.stdout.write(
                f"  {result['unproven_rounds']} round(s) with no proven minimum: "
                f"at most {result['avoidable_at_most']} avoidable in all"
            )
