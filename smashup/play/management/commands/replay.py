"""`manage.py replay FILE`: rebuild a game from its JSON record and print its final summary."""

import json
import time

from django.core.management.base import BaseCommand, CommandError

from smashup.engine import EngineError, replay


class Command(BaseCommand):
    help = "Rebuild a game from its record (JSON: config, seed, choices[, hashes])."

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to the record, or - for standard input")
        parser.add_argument("--json", action="store_true", help="print one JSON line")

    def handle(self, *args, **opts):
        try:
            if opts["file"] == "-":
                import sys

                record = json.load(sys.stdin)
            else:
                with open(opts["file"], encoding="utf-8") as fh:
                    record = json.load(fh)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read the record: {exc}") from exc
        if not isinstance(record, dict) or "choices" not in record:
            raise CommandError("a record is a JSON object with config, seed and choices")
        started = time.perf_counter()
        try:
            game = replay(record)
        except (EngineError, KeyError, TypeError, ValueError) as exc:
            raise CommandError(f"the record does not replay: {exc}") from exc
        summary = game.summary()
        summary["replay_ms"] = round((time.perf_counter() - started) * 1000, 2)
        summary["players"] = [
            {"seat": p.seat, "name": p.name, "factions": p.factions, "vp": p.vp} for p in game.players
        ]
        if opts["json"]:
            self.stdout.write(json.dumps(summary))
            return
        state = "over" if game.over else f"waiting for seat {game.pending.seat}"
        self.stdout.write(
            f"{len(game.choices)} choices replayed in {summary['replay_ms']} ms; turn {game.turn}, {state}"
        )
        for p in summary["players"]:
            mark = "  (winner)" if game.winner == p["seat"] else ""
            self.stdout.write(f"  {p['name']} ({' + '.join(p['factions'])}): {p['vp']} VP{mark}")
        self.stdout.write(f"digest {summary['digest']}")
