"""`manage.py bench_stats`: what the statistics, ratings, profile and series pages cost on the simulated
64-player, 3-event series (tournaments/simulate_series.py), on the configured database.

Builds the series inside a transaction that is rolled back (nothing stays) and measures, each
`--repeat` times (medians printed as JSON, milliseconds): every page's whole request (view and
template), computed (the cache cleared first) and, for the faction statistics, from their cache;
wall and CPU time and queries; then rating everything from nothing, and the refresh after an
organizer corrects a result of the first event (which re-rates everything after it).
"""

from __future__ import annotations

import json
import statistics
import time

from django.conf import settings
from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings

from tournaments import simulate_series
from tournaments.services import rating_store


class _Rollback(Exception):
    pass


def _timed(fn) -> tuple[object, float, float, int]:
    """`fn()`, its wall and CPU milliseconds and its query count."""
    with CaptureQueriesContext(connection) as queries:
        start, start_cpu = time.perf_counter(), time.process_time()
        result = fn()
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return result, wall * 1000, cpu * 1000, len(queries)


class Command(BaseCommand):
    help = "Time the statistics, ratings, profile and series pages on a simulated 64-player, 3-event series."

    def add_arguments(self, parser):
        parser.add_argument("--repeat", type=int, default=5)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, **opts):
        if opts["repeat"] < 1:
            raise CommandError("--repeat must be at least 1")
        out = {}
        storages = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        try:
            with transaction.atomic(), override_settings(ALLOWED_HOSTS=["testserver"], STORAGES=storages):
                out = self._measure(opts)
                raise _Rollback
        except _Rollback:
            pass
        self.stdout.write(json.dumps(out))

    def _measure(self, opts) -> dict:
        start = time.perf_counter()
        sim = simulate_series.build(seed=opts["seed"])
        result = {"build_s": round(time.perf_counter() - start, 1)}
        _, wall, cpu, queries = _timed(rating_store.rerate_all)
        result.update(
            rerate_all_ms=round(wall, 1), rerate_all_cpu_ms=round(cpu, 1), rerate_all_queries=queries
        )
        client = Client()
        event = sim.events[1]
        pages = {
            "event_stats": f"/tournaments/{event.pk}/stats/",
            "all_stats": "/tournaments/stats/",
            "series_stats": f"/tournaments/series/{sim.series.pk}/stats/",
            "series": f"/tournaments/series/{sim.series.pk}/",
            "profile": f"/tournaments/players/{sim.users[0].pk}/",
            "ratings": "/tournaments/ratings/",
            "event_stats_csv": f"/tournaments/{event.pk}/stats/pairs.csv",
            "all_stats_json": "/tournaments/stats.json",
            "series_csv": f"/tournaments/series/{sim.series.pk}/standings.csv",
        }
        for url in pages.values():
            client.get(url)  # templates compiled
        for name, url in pages.items():
            for cached in (False, True) if "stats" in name else (False,):
                walls, cpus, counts = [], [], []
                for _ in range(opts["repeat"]):
                    if not cached:
                        cache.clear()
                    response, wall, cpu, queries = _timed(lambda url=url: client.get(url))
                    assert response.status_code == 200, (url, response.status_code)
                    walls.append(wall)
                    cpus.append(cpu)
                    counts.append(queries)
                key = f"{name}_cached" if cached else name
                result[f"{key}_ms"] = round(statistics.median(walls), 1)
                result[f"{key}_cpu_ms"] = round(statistics.median(cpus), 1)
                result[f"{key}_queries"] = int(statistics.median(counts))
            result[f"{name}_bytes"] = len(response.content)
        # A correction of the first event's round 1: everything after it is rated again.
        simulate_series.correct_a_result(sim, event_index=0, round_number=1)
        done, wall, cpu, queries = _timed(rating_store.refresh)
        result.update(
            refresh_after_early_correction_ms=round(wall, 1),
            refresh_after_early_correction_cpu_ms=round(cpu, 1),
            refresh_after_early_correction_queries=queries,
            refresh_after_early_correction_changes=done.changes,
        )
        _, wall, cpu, queries = _timed(rating_store.refresh)
        result.update(refresh_nothing_changed_ms=round(wall, 1), refresh_nothing_changed_queries=queries)
        return result
