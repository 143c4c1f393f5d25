"""`manage.py cards [--json]`: every card and base of the three boxes and whether it is implemented."""
import json

from django.core.management.base import BaseCommand

from smashup.catalog import listing


class Command(BaseCommand):
    help = ("List every card and base of the Core Set, What Were We Thinking? and It's Your Fault! "
            "(set, faction, type, power, copies, breakpoint, VP) and whether it is implemented.")

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="one JSON list instead of a table")
        parser.add_argument("--missing", action="store_true", help="only what is not implemented")

    def handle(self, *args, **opts):
        import smashup.cards  # noqa: F401  (declares every implemented card)
        from smashup.engine import REGISTRY

        rows = listing(REGISTRY)
        done, total = sum(r["implemented"] for r in rows), len(rows)
        if opts["missing"]:
            rows = [r for r in rows if not r["implemented"]]
        if opts["json"]:
            self.stdout.write(json.dumps(rows, indent=1))
            return
        for r in rows:
            if r["type"] == "base":
                numbers = f"breakpoint {r['breakpoint']}, VP {'/'.join(map(str, r['vp']))}"
            elif r["type"] == "minion":
                numbers = f"power {r['power']}, x{r['copies']}"
            else:
                numbers = f"x{r['copies']}"
            mark = "yes" if r["implemented"] else "no "
            self.stdout.write(
                f"{mark}  {r['set']:<5} {r['faction']:<14} {r['type']:<7} {r['name']:<32} {numbers}")
        self.stdout.write(f"{done} of {total} implemented")
