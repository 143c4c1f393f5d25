"""`manage.py bench_event`: what a large event costs through the app, on the configured database.

Builds a throwaway event inside a transaction that is rolled back (nothing stays in the database) and
measures, each `--repeat` times (medians printed):
- pairing `--pair-entrants` entrants (round 1, then round 2 with history): seconds and queries;
- the standings page (the whole request: view and template) at `--standings-entrants` entrants after
  `--rounds` confirmed rounds: wall and CPU seconds and queries, computed (the cache cleared first)
  and from the standings cache;
- the organizer's dashboard at that size (the whole request, the caches cleared first): wall and CPU
  seconds, queries and bytes of HTML.
"""

from __future__ import annotations

import json
import statistics
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings

from tournaments import services
from tournaments.models import Entrant, Event, Round, Seat, Table


class _Rollback(Exception):
    pass


def _event(organizer, entrants: int, name: str) -> Event:
    event = services.create_event(organizer, name=name, draft_mode=Event.DraftMode.NONE, rounds=8)
    Entrant.objects.bulk_create(
        Entrant(event=event, name=f"Player {i:04d}", checked_in=True) for i in range(entrants)
    )
    return event


def _finish(rnd: Round, seed: int) -> None:
    """Every table of `rnd` confirmed with varied VP (fast: straight to the rows)."""
    seats = list(Seat.objects.filter(round=rnd).order_by("table_id", "position"))
    for i, seat in enumerate(seats):
        seat.vp, seat.confirmed = (i * 7 + seed * 3 + seat.entrant_id) % 19, True
    Seat.objects.bulk_update(seats, ["vp", "confirmed"], batch_size=1000)
    Table.objects.filter(round=rnd).update(state=Table.State.CONFIRMED, result_version=1)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.FINISHED)


def _timed(fn, cpu: list | None = None):
    """`fn()`, its wall-clock seconds and its query count; its CPU seconds appended to `cpu` (on a
    shared, loaded machine the CPU time is the steadier figure: wall time includes waiting for a core)."""
    with CaptureQueriesContext(connection) as queries:
        start, start_cpu = time.perf_counter(), time.process_time()
        result = fn()
        seconds = time.perf_counter() - start
        if cpu is not None:
            cpu.append(time.process_time() - start_cpu)
    return result, seconds, len(queries)


class Command(BaseCommand):
    help = "Time pairing, the standings page and the dashboard of large events (nothing is kept)."

    def add_arguments(self, parser):
        parser.add_argument("--pair-entrants", type=int, default=1024, help="0: pairing not measured")
        parser.add_argument("--standings-entrants", type=int, default=512)
        parser.add_argument("--rounds", type=int, default=6)
        parser.add_argument("--repeat", type=int, default=5)

    def handle(self, *args, **opts):
        if opts["pair_entrants"] != 0 and opts["pair_entrants"] < 2:
            raise CommandError("--pair-entrants must be 0 (no pairing measured) or at least 2")
        if opts["standings_entrants"] < 2 or opts["rounds"] < 1 or opts["repeat"] < 1:
            raise CommandError("--standings-entrants must be at least 2, --rounds and --repeat at least 1")
        out = {}
        try:
            # Plain static storage: the page renders without `collectstatic`'s manifest.
            storages = {
                **settings.STORAGES,
                "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
            }
            with transaction.atomic(), override_settings(ALLOWED_HOSTS=["testserver"], STORAGES=storages):
                out = self._measure(opts)
                raise _Rollback
        except _Rollback:
            pass
        self.stdout.write(json.dumps(out))

    def _measure(self, opts) -> dict:
        User = get_user_model()
        organizer = User.objects.create_user(username="bench-organizer-x", password="x")
        result = {}
        # Pairing through the app (`--pair-entrants 0`: not measured).
        event = _event(organizer, opts["pair_entrants"], "Bench pairing")
        for number in (1, 2) if opts["pair_entrants"] else ():
            times, counts = [], []
            for _ in range(opts["repeat"]):
                rnd, seconds, queries = _timed(lambda: services.generate_round(event, by=organizer))
                times.append(seconds)
                counts.append(queries)
                services.unpair_round(event, by=organizer)
            result[f"pair_round{number}_s"] = round(statistics.median(times), 3)
            result[f"pair_round{number}_queries"] = int(statistics.median(counts))
            _finish(services.generate_round(event, by=organizer), number)
        # Standings page and dashboard.
        event = _event(organizer, opts["standings_entrants"], "Bench standings")
        for number in range(1, opts["rounds"] + 1):
            _finish(services.generate_round(event, by=organizer), number)
        client = Client()
        client.force_login(organizer)
        url = f"/tournaments/{event.pk}/standings/"
        client.get(url)  # templates compiled
        for cached in (False, True):
            times, counts, cpu = [], [], []
            for _ in range(opts["repeat"]):
                if not cached:
                    cache.clear()  # the page computed from the database (the standings cache empty)
                response, seconds, queries = _timed(lambda: client.get(url), cpu)
                assert response.status_code == 200, response.status_code
                times.append(seconds)
                counts.append(queries)
            name = "standings_cached" if cached else "standings"
            result[f"{name}_s"] = round(statistics.median(times), 4)
            result[f"{name}_cpu_s"] = round(statistics.median(cpu), 4)
            result[f"{name}_queries"] = int(statistics.median(counts))
        result["standings_bytes"] = len(response.content)
        # The dashboard (the whole request), after a change: the caches of the event's version empty.
        times, counts, cpu = [], [], []
        for _ in range(opts["repeat"]):
            cache.clear()
            response, seconds, queries = _timed(lambda: client.get(f"/tournaments/{event.pk}/manage/"), cpu)
            assert response.status_code == 200, response.status_code
            times.append(seconds)
            counts.append(queries)
        result["dashboard_s"] = round(statistics.median(times), 4)
        result["dashboard_cpu_s"] = round(statistics.median(cpu), 4)
        result["dashboard_queries"] = int(statistics.median(counts))
        result["dashboard_bytes"] = len(response.content)
        result["dashboard_status"] = response.status_code
        return result
