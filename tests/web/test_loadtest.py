"""``manage.py loadtest``: the pure parts of its load generator, and one small real run (2 tables,
3 seconds) through daphne, the Redis channel layer and a PostgreSQL database of its own. Only the
shape of the report and the absence of errors are checked, never a timing."""

from __future__ import annotations

import io
import json
import random
from collections import Counter

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from smashup.play import loadtest

# ---------------------------------------------------------------------------------- pure parts ---


def test_percentile_is_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert loadtest.percentile(values, 50) == 50.0
    assert loadtest.percentile(values, 95) == 95.0
    assert loadtest.percentile(values, 99) == 99.0
    assert loadtest.percentile(values, 100) == 100.0
    assert loadtest.percentile([7.0], 99) == 7.0
    assert loadtest.percentile([], 50) is None
    assert loadtest.percentile([3.0, 1.0, 2.0], 50) == 2.0  # unsorted input


def test_pick_options_is_always_a_legal_answer():
    rng = random.Random(3)
    options = [{"id": f"o{i}", "label": str(i)} for i in range(6)]
    for low, high in [(1, 1), (0, 1), (2, 2), (0, 6), (1, 3), (3, 9)]:
        pending = {"id": "d1", "options": options, "min": low, "max": high, "may_decline": low == 0}
        for _ in range(50):
            picked = loadtest.pick_options(pending, rng)
            assert len(picked) == len(set(picked))
            assert low <= len(picked) <= min(high, len(options))
            assert set(picked) <= {o["id"] for o in options}
    declines = [loadtest.pick_options({"options": options[:1], "min": 0, "max": 1}, rng) for _ in range(200)]
    assert [] in declines and ["o0"] in declines


def test_think_time_stays_around_its_mean():
    rng = random.Random(1)
    pauses = [loadtest.think_time(1.0, rng) for _ in range(500)]
    assert min(pauses) >= 0.5 and max(pauses) <= 1.5
    assert loadtest.think_time(0, rng) == 0.0


def test_summarize_and_format_report():
    report = loadtest.summarize(
        [10.0, 20.0, 30.0, 40.0], seconds=2.0, errors=Counter({"server:stale": 1}), extra={"tables": 2}
    )
    assert report["choices"] == 4 and report["choices_per_s"] == 2.0 and report["tables"] == 2
    assert report["latency_ms"] == {"p50": 20.0, "p95": 40.0, "p99": 40.0, "max": 40.0, "mean": 25.0}
    assert report["errors"] == 1 and report["errors_by_kind"] == {"server:stale": 1}
    text = loadtest.format_report(report)
    assert "p99 40.0" in text and "errors 1" in text
    empty = loadtest.summarize([], seconds=1.0, errors=Counter())
    assert empty["latency_ms"]["p99"] is None and "p99 -" in loadtest.format_report(empty)


def test_the_clients_only_target_the_loopback_interface():
    plan = [loadtest.TablePlan("abc", ["t0", "t1"])]
    with pytest.raises(ValueError, match="loopback"):
        loadtest.LoadRun(["ws://192.168.1.5:8000"], "http://192.168.1.5:8000", plan, seconds=1)
    with pytest.raises(ValueError, match="loopback"):
        loadtest.LoadRun(["ws://example.org:80"], "http://example.org", plan, seconds=1)
    run = loadtest.LoadRun(["ws://127.0.0.1:1", "ws://127.0.0.1:2"], "http://127.0.0.1:1", plan, seconds=1)
    assert run.connections == 3  # two seats and a spectator, spread over both servers
    urls = [c.url for c in run.tables[0].conns]
    assert urls[0].startswith("ws://127.0.0.1:1/ws/games/abc/?format=json&token=t0")
    assert urls[1].startswith("ws://127.0.0.1:2/") and "token" not in urls[2]
    # Routed by game: every connection of a table goes to one server, the tables alternate.
    plans = [loadtest.TablePlan("abc", ["t0", "t1"]), loadtest.TablePlan("def", ["u0", "u1"])]
    run = loadtest.LoadRun(
        ["ws://127.0.0.1:1", "ws://127.0.0.1:2"], "http://127.0.0.1:1", plans, seconds=1, route="game"
    )
    assert [{c.url.split("/ws/")[0] for c in t.conns} for t in run.tables] == [
        {"ws://127.0.0.1:1"},
        {"ws://127.0.0.1:2"},
    ]
    with pytest.raises(ValueError, match="route"):
        loadtest.LoadRun(["ws://127.0.0.1:1"], "http://127.0.0.1:1", plans, seconds=1, route="seat")


def test_a_big_base_tables_spectators_watch_the_table_display():
    plan = [loadtest.TablePlan("abc", ["t0", "t1"], watch="display")]
    run = loadtest.LoadRun(["ws://127.0.0.1:1"], "http://127.0.0.1:1", plan, seconds=1, spectators=2)
    urls = [c.url for c in run.tables[0].conns]
    assert [u.endswith("&watch=display") for u in urls] == [False, False, True, True]
    assert all("token" not in u for u in urls[2:]) and "watch" not in urls[0]


def test_a_choice_counts_when_every_client_of_its_table_has_a_newer_state():
    """Two choices in flight at once (a fast seat answered again before the others saw its first
    choice): each lands when the slowest client of the table has moved past it."""
    run = loadtest.LoadRun(
        ["ws://127.0.0.1:1"], "http://127.0.0.1:1", [loadtest.TablePlan("g", ["a", "b"])], seconds=1
    )
    table = run.tables[0]
    seat0, seat1, spectator = table.conns
    for conn in table.conns:
        conn.ws = object()
        conn.version = 3
    table.inflight = {3: 0.0, 4: 0.0}

    def state(conn, version):
        run._receive(
            conn, json.dumps({"type": "state", "version": version, "status": "active", "view": None})
        )

    state(seat0, 5)
    state(seat1, 4)
    assert run.latencies == [] and set(table.inflight) == {3, 4}
    state(spectator, 4)  # everyone is past 3, not yet past 4
    assert len(run.latencies) == 1 and set(table.inflight) == {4}
    state(spectator, 5)
    state(seat1, 5)
    assert len(run.latencies) == 2 and table.inflight == {}
    run._receive(seat0, json.dumps({"type": "error", "code": "stale", "message": "..."}))
    assert run.errors == Counter({"server:stale": 1})


def test_a_crowd_watches_the_first_table_only_in_html_by_default():
    plans = [loadtest.TablePlan("abc", ["t0", "t1"]), loadtest.TablePlan("def", ["u0", "u1"])]
    base = ["ws://127.0.0.1:1"]
    run = loadtest.LoadRun(base, "http://127.0.0.1:1", plans, seconds=1, spectators=0, crowd=3)
    first, second = run.tables
    assert first.crowded and not second.crowded
    assert len(first.conns) == len(second.conns) == 2  # the crowd runs in a process of its own
    assert len(run.crowd_urls) == 3 and run.connections == 7
    assert all("/ws/games/abc/?format=html" in url and "token" not in url for url in run.crowd_urls)
    as_json = loadtest.LoadRun(base, "http://127.0.0.1:1", plans, seconds=1, crowd=2, crowd_format="json")
    assert all("format=json" in url for url in as_json.crowd_urls)
    assert loadtest.LoadRun(base, "http://127.0.0.1:1", plans, seconds=1).crowd_urls == []
    for bad in ({"crowd": -1}, {"crowd": loadtest.MAX_CROWD + 1}, {"crowd": 1, "crowd_format": "xml"}):
        with pytest.raises(ValueError):
            loadtest.LoadRun(base, "http://127.0.0.1:1", plans, seconds=1, **bad)


def test_a_crowds_spectator_reads_the_version_of_an_update_and_nothing_more():
    state = json.dumps({"type": "state", "version": 12, "status": "active", "seat": None, "view": {}})
    assert loadtest.head_of(state) == (12, "active")
    page = '<div id="play-status" class="x" data-version="7" data-status="finished" data-seat="">'
    assert loadtest.head_of(page + "<div>" * 100) == (7, "finished")
    assert loadtest.head_of('<div id="play-error" data-code="too_many_open">Full</div>') == "too_many_open"
    assert loadtest.head_of('<div id="play-error" data-code="ok"></div>') is None
    assert loadtest.head_of('{"type": "error", "code": "rate_limited", "message": "..."}') == "rate_limited"
    assert loadtest.head_of('{"type": "live", "state": "live"}') is None
    assert loadtest.head_of("{nonsense") == "bad_json"


def test_the_crowded_tables_latency_ends_when_its_players_and_its_whole_crowd_have_it():
    count = loadtest.CrowdCount(3)
    count.saw(0, 4, 1.0)
    count.saw(1, 5, 2.0)  # skipped version 4: it has it all the same
    assert count.all_at == {}
    count.saw(2, 4, 3.0)
    assert count.all_at == {0: 3.0, 1: 3.0, 2: 3.0, 3: 3.0, 4: 3.0}
    count.saw(0, 3, 9.0)  # an older update changes nothing
    count.saw(0, 5, 4.0)
    count.saw(2, 5, 5.0)
    assert count.all_at[5] == 5.0
    # Choices answered at versions 3 (the crowd had 4 at 3.0, the players at 2.5), 4 (the players
    # last, at 6.0) and 5 (the crowd never had 6).
    landed = [(3, 2.0, 2.5), (4, 3.5, 6.0), (5, 6.5, 7.0)]
    latencies, missed = loadtest.crowd_latencies(landed, count.all_at)
    assert latencies == [1000.0, 2500.0] and missed == 1


def test_the_players_latency_is_counted_apart_on_the_crowded_table():
    plans = [loadtest.TablePlan("g", ["a", "b"]), loadtest.TablePlan("h", ["c", "d"])]
    run = loadtest.LoadRun(
        ["ws://127.0.0.1:1"], "http://127.0.0.1:1", plans, seconds=1, spectators=1, crowd=0
    )
    crowded, other = run.tables
    for table in run.tables:
        for conn in table.conns:
            conn.ws = object()
            conn.version = 3
        table.inflight = {3: 0.0}
        table.sent_at = {3: 0.0} if table.crowded else {}

    def state(conn, version):
        run._receive(
            conn, json.dumps({"type": "state", "version": version, "status": "active", "view": None})
        )

    seat0, seat1, spectator = crowded.conns
    state(seat0, 4)
    state(spectator, 4)
    assert run.player_latencies == {"crowd_table": [], "other_tables": []}
    state(seat1, 4)
    assert len(run.player_latencies["crowd_table"]) == 1 and len(run.latencies) == 1
    assert [v for v, _, _ in run.crowd_landed] == [3]
    for conn in other.conns:
        state(conn, 4)
    assert len(run.player_latencies["other_tables"]) == 1 and len(run.latencies) == 2
    run.crowd_result = {"connected": 0, "all_at": {}, "errors": {}}
    report = run.crowd_report()
    assert report["players_ms"]["crowd_table"]["count"] == 1 and report["crowd_missed"] == 1
    text = loadtest.format_report(
        loadtest.summarize(run.latencies, seconds=1.0, errors=Counter(), extra={"crowd": report})
    )
    assert "crowd: 0/0 spectators on table 1" in text


# ---------------------------------------------------------------------------------- the command --


def test_bad_arguments_are_refused():
    for kwargs in (
        {"tables": 0},
        {"seconds": 0},
        {"seconds": 10_000},
        {"url": "http://10.0.0.1:8000"},
        {"flood": -1},
        {"flood": 1000},
        {"mode": "classic"},
        {"crowd": -1},
        {"crowd": 100_000},
    ):
        with pytest.raises(CommandError):
            call_command("loadtest", **kwargs)


def _databases() -> set[str]:
    db = settings.DATABASES["default"]
    with psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"] or None, dbname="postgres", autocommit=True
    ) as conn:
        return {row[0] for row in conn.execute("SELECT datname FROM pg_database")}


def test_a_small_run_against_a_real_server(django_db_blocker, _require_database, redis_url):
    out, err = io.StringIO(), io.StringIO()
    with django_db_blocker.unblock():
        call_command(
            "loadtest",
            tables=2,
            seconds=3,
            think=0.1,
            flood=1,
            json=True,
            stdout=out,
            stderr=err,
            startup_timeout=120,
        )
    lines = out.getvalue().strip().splitlines()
    assert len(lines) == 1, out.getvalue()  # --json: one line, progress went to stderr
    report = json.loads(lines[0])
    assert report["errors"] == 0, (report["errors_by_kind"], err.getvalue())
    assert report["tables"] == 2 and report["connections"] == 6 and report["server"] == "daphne"
    assert report["choices"] >= 1 and report["sent"] >= report["choices"]
    assert set(report["latency_ms"]) == {"p50", "p95", "p99", "max", "mean"}
    assert all(isinstance(v, int | float) for v in report["latency_ms"].values())
    assert report["choices_per_s"] > 0
    # --flood: replay pages of a finished game and event sockets hit the same server meanwhile.
    flood = report["flood"]
    assert flood["errors"] == {}, flood
    assert flood["replay_pages"] >= 1 and flood["event_sockets"] >= 1
    assert "flood: 1 + 1 loops" in loadtest.format_report(report)
    assert {"server_s", "client_s", "machine_busy_pct", "loadavg"} <= set(report["cpu"])
    assert report["database"].startswith("smashup_load_") and report["database_dropped"] is True
    assert report["database"] not in _databases()
    assert "creating database" in err.getvalue()


def test_a_small_big_base_run_against_a_real_server(django_db_blocker, _require_database, redis_url):
    out, err = io.StringIO(), io.StringIO()
    with django_db_blocker.unblock():
        call_command(
            "loadtest", tables=2, seconds=3, think=0.1, mode="bigbase", json=True, stdout=out, stderr=err,
            startup_timeout=120,
        )  # fmt: skip
    report = json.loads(out.getvalue().strip().splitlines()[-1])
    assert report["errors"] == 0, (report["errors_by_kind"], err.getvalue())
    assert report["mode"] == "bigbase" and report["tables"] == 2 and report["connections"] == 6
    assert report["choices"] >= 1 and report["latency_ms"]["p50"] is not None
    assert "set up 2 bigbase tables" in err.getvalue()
    assert loadtest.format_report(report).startswith("bigbase: server daphne")


def test_a_small_run_with_a_crowd_on_one_table(django_db_blocker, _require_database, redis_url):
    out, err = io.StringIO(), io.StringIO()
    with django_db_blocker.unblock():
        call_command(
            "loadtest", tables=2, seconds=3, think=0.1, spectators=0, crowd=20, json=True, stdout=out,
            stderr=err, startup_timeout=120,
        )  # fmt: skip
    report = json.loads(out.getvalue().strip().splitlines()[-1])
    assert report["errors"] == 0, (report["errors_by_kind"], err.getvalue())
    assert report["connections"] == 24
    crowd = report["crowd"]
    assert crowd["spectators"] == 20 and crowd["connected"] == 20
    assert crowd["players_ms"]["crowd_table"]["count"] >= 1 and crowd["everyone_ms"]["count"] >= 1
    assert crowd["players_ms"]["other_tables"]["count"] >= 1
    assert "20 more on the first" in err.getvalue()
