"""`manage.py rerate [--check]`: bring the stored ratings up to date, or rate everything again.

Without options: the same refresh that runs after every confirmed result (only what changed).
`--all`: forget every stored rating and rate every finished round from nothing (after changing the
rating model, or to be sure). `--check`: rate everything from nothing inside a transaction that is
rolled back, and fail (exit code 1) if it differs from what is stored: nothing is changed.
"""

from __future__ import annotations

import json
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournaments.services import rating_store


class _Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Update the stored player ratings from the results (--all: from nothing; --check: compare only)."

    def add_arguments(self, parser):
        group = parser.add_mutually_exclusive_group()
        group.add_argument(
            "--all", action="store_true", help="forget the stored ratings and rate everything again"
        )
        group.add_argument(
            "--check", action="store_true", help="compare the stored ratings with a full re-rating"
        )

    def handle(self, *args, **opts):
        start = time.perf_counter()
        if opts["check"]:
            stored = rating_store.snapshot()
            try:
                with transaction.atomic():
                    rating_store.rerate_all()
                    fresh = rating_store.snapshot()
                    raise _Rollback
            except _Rollback:
                pass
            same = stored == fresh
            self.stdout.write(
                json.dumps(
                    {
                        "same": same,
                        "changes": len(fresh["changes"]),
                        "rated_players": len(fresh["current"]),
                        "seconds": round(time.perf_counter() - start, 3),
                    }
                )
            )
            if not same:
                raise CommandError("the stored ratings differ from the results: run `manage.py rerate --all`")
            return
        done = rating_store.rerate_all() if opts["all"] else rating_store.refresh()
        self.stdout.write(
            json.dumps(
                {
                    "events_checked": done.events_checked,
                    "rerated_from": None
                    if done.rerated_from is None
                    else [str(v) for v in done.rerated_from],
                    "rounds_rated": done.rounds_rated,
                    "changes": done.changes,
                    "seconds": round(time.perf_counter() - start, 3),
                }
            )
        )
