"""``python manage.py loadtest --tables T --seconds S [--json] [--server daphne|uvicorn]``

A bounded load test of live play on this machine, through the real stack: the game WebSocket served
by daphne (or uvicorn) with the Redis channel layer and PostgreSQL.

Without ``--url`` the command brings its own server: it creates a dedicated PostgreSQL database on
the server of ``DATABASE_URL`` (``smashup_load_<random>``), migrates it, sets up T two-seat tables
whose seats are person seats claimed as guests, starts the web server process(es) on free loopback
ports with a generated settings module (that database, a channel-layer prefix of its own,
``PLAY_WS_RATE`` and ``RATE_LIMIT_SCALE`` raised so that fast clients are not refused, ``DEBUG``
off), runs the clients, stops the servers and drops the database. Redis is ``REDIS_URL`` (an
embedded one when it is unset).

With ``--url http://127.0.0.1:PORT`` it uses a server that is already running; the tables are then
created in the database of ``DATABASE_URL``, which must be that server's, and the seat links are
signed with this process's ``SECRET_KEY``, which must be that server's too. Raise ``PLAY_WS_RATE``
and ``RATE_LIMIT_SCALE`` there or fast clients get ``rate_limited`` errors.

The clients (``smashup.play.loadtest``) play like browsers: one JSON WebSocket per seat with its seat
link, ``--spectators`` more per table, a think time before each answer (``--think``, seconds on
average; 0 answers at once), a random legal answer, and the latency of each choice measured until
every client of its table has the new state. Reported: choices per second, latency p50/p95/p99,
errors, and the CPU seconds the server processes used.

``--flood N`` measures live play under a flood (issue 12): a game played to its end and an event are
set up too, and while the tables play, N loops fetch that game's replay pages (a random step and seat
each) and N loops open, use and close the event's socket, as fast as the server answers. The report
adds what the flood got (pages, sockets, errors); compare the choices' p99 with a run without it.

``--crowd N`` puts N more spectators on the first table only (issue 28: many spectators of one table
must not slow its players, nor other tables): the report adds the players' latency (both seats have
the new state) on that table and on the others, and the crowded table's until its last spectator.
Compare a run with ``--crowd 0``.

Only loopback addresses are ever contacted;
the run stops by itself after ``--seconds`` (plus ``--grace`` for the choices in flight).
"""

from __future__ import annotations

import asyncio
import ctypes
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from contextlib import contextmanager, suppress
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connections
from django.test.utils import override_settings

from smashup.core import launcher
from smashup.play import loadtest

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
MAX_SECONDS = 900
LAYERS = {
    "core": "channels_redis.core.RedisChannelLayer",
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
}


class Command(BaseCommand):
    help = "Load-test live play over WebSockets on this machine (bounded; loopback only)."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=10, help="two-seat tables (default 10)")
        parser.add_argument(
            "--seconds", type=float, default=30.0, help="how long choices are sent (default 30)"
        )
        parser.add_argument("--json", action="store_true", help="print the report as one JSON line")
        parser.add_argument("--server", choices=["daphne", "uvicorn"], default="daphne")
        parser.add_argument("--processes", type=int, default=1, help="web server processes (default 1)")
        parser.add_argument(
            "--route",
            choices=["connection", "game"],
            default="connection",
            help="with several processes: spread every connection round-robin (default), or send all "
            "connections of a game to one process (a balancer hashing the game's URL)",
        )
        parser.add_argument(
            "--url", help="use this running server (http://127.0.0.1:PORT) instead of starting one"
        )
        parser.add_argument(
            "--think",
            type=float,
            default=1.0,
            help="mean seconds a client waits before answering (default 1; 0: at once)",
        )
        parser.add_argument(
            "--spectators", type=int, default=1, help="spectator clients per table (default 1)"
        )
        parser.add_argument(
            "--crowd",
            type=int,
            default=None,
            help="N more spectator clients on the first table only; the report adds the players' "
            "latency there and on the other tables (--crowd 0: the same figures without a crowd)",
        )
        parser.add_argument(
            "--crowd-format",
            choices=["html", "json"],
            default="html",
            help="what the crowd's spectators ask for: HTML fragments as browsers do (default), or JSON",
        )
        parser.add_argument(
            "--grace", type=float, default=5.0, help="seconds for the choices in flight at the end"
        )
        parser.add_argument(
            "--max-choices", type=int, default=None, help="stop sending after this many choices"
        )
        parser.add_argument(
            "--seed", type=int, default=1, help="seed of the games and of the clients' choices"
        )
        parser.add_argument(
            "--layer",
            choices=sorted(LAYERS),
            default="pubsub",
            help="channel layer of the started server (default pubsub, as configured)",
        )
        parser.add_argument(
            "--conn-max-age",
            type=int,
            default=None,
            help="CONN_MAX_AGE of the started server (default: as configured, DB_CONN_MAX_AGE or 60)",
        )
        parser.add_argument(
            "--profile", help="record the first server process with py-spy into this file (collapsed stacks)"
        )
        parser.add_argument(
            "--profile-gil", action="store_true", help="with --profile: only samples that hold the GIL (CPU)"
        )
        parser.add_argument(
            "--flood",
            type=int,
            default=0,
            help="also run N loops fetching a finished game's replay pages and N loops opening event "
            "sockets, as fast as the server answers, while the tables play (default 0: none)",
        )
        parser.add_argument(
            "--mode",
            choices=["standard", "bigbase"],
            default="standard",
            help="standard two-seat tables (default), or Big Base tables of two seats around the "
            "default board, their spectators on the table display's socket (?watch=display)",
        )
        parser.add_argument("--keep-db", action="store_true", help="keep the dedicated database afterwards")
        parser.add_argument("--startup-timeout", type=float, default=60.0)

    # ------------------------------------------------------------------ output -------------------
    def note(self, text: str) -> None:
        """Progress, on stderr (stdout carries only the report)."""
        if self.verbosity > 0:
            self.stderr.write(f"[loadtest] {text}")
            self.stderr.flush()

    def handle(self, *args, **opts):
        self.verbosity = opts["verbosity"]
        tables, seconds = opts["tables"], opts["seconds"]
        if not 1 <= tables <= loadtest.MAX_TABLES:
            raise CommandError(f"--tables must be 1 to {loadtest.MAX_TABLES}.")
        if not 0 < seconds <= MAX_SECONDS:
            raise CommandError(f"--seconds must be more than 0 and at most {MAX_SECONDS}.")
        if not 1 <= opts["processes"] <= 8:
            raise CommandError("--processes must be 1 to 8.")
        if opts.get("mode", "standard") not in ("standard", "bigbase"):
            raise CommandError("--mode is standard or bigbase.")
        if not 0 <= opts["flood"] <= 200:
            raise CommandError("--flood must be 0 to 200 loops.")
        if not 0 <= (opts.get("crowd") or 0) <= loadtest.MAX_CROWD:
            raise CommandError(f"--crowd must be 0 to {loadtest.MAX_CROWD} spectators.")
        if opts["think"] < 0 or opts["spectators"] < 0 or not 0 <= opts["grace"] <= 60:
            raise CommandError("--think and --spectators cannot be negative; --grace is 0 to 60 seconds.")
        try:
            import websockets  # noqa: F401
        except ImportError:
            raise CommandError(
                "The load test needs the websockets package: pip install -e '.[dev]'."
            ) from None
        if opts["url"]:
            report = self.against(opts["url"], opts)
        else:
            report = self.own_stack(opts)
        report["mode"] = opts.get("mode") or "standard"
        if opts["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
        else:
            self.stdout.write(loadtest.format_report(report))

    # ------------------------------------------------------------------ modes --------------------
    def against(self, url: str, opts) -> dict:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or parts.hostname not in LOOPBACK or not parts.port:
            raise CommandError("--url must be a loopback address with a port, such as http://127.0.0.1:8000.")
        host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
        origin = f"http://{host}:{parts.port}"
        plans = self.seed(opts["tables"], opts["seed"], opts.get("mode") or "standard")
        opts["flood_plan"] = self.flood_targets(opts["seed"]) if opts["flood"] else None
        report = self.drive([f"ws://{host}:{parts.port}"], origin, plans, opts, server_pids=[])
        report.update(server="external", processes=1, url=url)
        return report

    def own_stack(self, opts) -> dict:
        db = settings.DATABASES["default"]
        if db["ENGINE"] != "django.db.backends.postgresql":
            raise CommandError(
                "The load test runs on PostgreSQL: set DATABASE_URL to a PostgreSQL server "
                "(a database of its own is created there and dropped afterwards)."
            )
        if opts["server"] == "uvicorn":
            try:
                import uvicorn  # noqa: F401
            except ImportError:
                raise CommandError(
                    "--server uvicorn needs uvicorn: pip install 'uvicorn[standard]'."
                ) from None
        tag = uuid.uuid4().hex[:10]
        name = f"smashup_load_{tag}"
        work = Path(tempfile.mkdtemp(prefix="smashup-loadtest-"))
        processes: list[subprocess.Popen] = []
        created = False
        try:
            redis_url = settings.REDIS_URL
            if redis_url is None:
                redis_url = self.embedded_redis(work, processes, opts["startup_timeout"])
            self.note(f"creating database {name}")
            _admin_sql(db, f'CREATE DATABASE "{name}"')
            created = True
            with use_database(name):
                started = time.monotonic()
                call_command("migrate", interactive=False, verbosity=0)
                self.note(f"migrated in {time.monotonic() - started:.1f} s")
                ports = [launcher.free_port() for _ in range(opts["processes"])]
                module = self.write_settings(work, name, redis_url, f"smashup-load-{tag}", opts)
                env = dict(os.environ)
                env.update(
                    DJANGO_SETTINGS_MODULE=module,
                    PYTHONPATH=os.pathsep.join(
                        p for p in (str(work), str(settings.BASE_DIR), env.get("PYTHONPATH")) if p
                    ),
                    PYTHONUNBUFFERED="1",
                    REDIS_URL=redis_url,
                )
                for i, port in enumerate(ports):
                    log = work / f"server-{i}.log"
                    processes.append(_spawn(server_argv(opts["server"], port), env, log))
                self.note(f"started {opts['server']} x{len(ports)} on ports {', '.join(map(str, ports))}")
                plans = self.seed(opts["tables"], opts["seed"], opts.get("mode") or "standard")
                opts["flood_plan"] = self.flood_targets(opts["seed"]) if opts["flood"] else None
                for port, proc in zip(ports, processes[-len(ports) :], strict=True):
                    self.wait_healthy(port, proc, work, opts["startup_timeout"])
                servers = processes[-len(ports) :]
                report = self.drive(
                    [f"ws://127.0.0.1:{p}" for p in ports],
                    f"http://127.0.0.1:{ports[0]}",
                    plans,
                    opts,
                    server_pids=[p.pid for p in servers],
                    profile=opts["profile"],
                    profile_gil=opts["profile_gil"],
                )
                dead = [p.pid for p in servers if p.poll() is not None]
                if dead:
                    report["errors"] += 1
                    report["errors_by_kind"]["server_died"] = len(dead)
        finally:
            for proc in reversed(processes):
                _stop(proc)
            if created and not opts["keep_db"]:
                _admin_sql(db, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                self.note(f"dropped database {name}")
            elif created:
                self.note(f"kept database {name}")
            shutil.rmtree(work, ignore_errors=True)
        report.update(
            server=opts["server"],
            processes=opts["processes"],
            route=opts["route"],
            layer=opts["layer"],
            # What the server ran with: the option, else the configured value it inherited.
            conn_max_age=(
                opts["conn_max_age"] if opts["conn_max_age"] is not None else db.get("CONN_MAX_AGE", 0)
            ),
            database=name,
            database_dropped=created and not opts["keep_db"],
        )
        return report

    # ------------------------------------------------------------------ pieces -------------------
    def seed(self, count: int, seed: int, mode: str = "standard") -> list[loadtest.TablePlan]:
        """`count` started 2-player games with both seats claimed by guests, and their seat links.
        Their "changed" pings go to an in-process layer: nobody listens to them yet. `mode`
        "bigbase": Big Base games on the default board (the database's, else the engine's), watched
        by the table display's socket."""
        from smashup.engine.rng import derived_secret
        from smashup.play import services

        board, watch = None, ""
        if mode == "bigbase":
            board, watch = bigbase_board(), "display"

        started = time.monotonic()
        plans = []
        with override_settings(
            CHANNEL_LAYERS={"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
        ):
            for i in range(count):
                # The keyed generator of every real table, with secrets that --seed reproduces.
                game = services.create_game(
                    [services.SeatSpec("person"), services.SeatSpec("person")],
                    seed=derived_secret(f"loadtest:{seed}:{i}"),
                    mode=mode,
                    board=board,
                )
                for index in (0, 1):
                    services.claim_seat(game.pk, index, guest_name=f"Load {i + 1}-{index + 1}")
                seats = list(game.seats.order_by("index"))
                links = [services.resume_link_token(s) for s in seats]  # each holder's own way in
                plans.append(loadtest.TablePlan(game.public_id, links, watch=watch))
        self.note(f"set up {count} {mode} tables in {time.monotonic() - started:.1f} s")
        return plans

    def flood_targets(self, seed: int) -> loadtest.FloodPlan:
        """What `--flood` hits: a game played to its end (by the heuristic bot for both seats,
        through `submit_choice`, so its record is a real one) for its replay pages, and an event
        with a round under way for its socket."""
        from django.contrib.auth import get_user_model

        from smashup.engine.bots import heuristic_choice
        from smashup.engine.rng import derived_secret
        from smashup.play import services
        from tournaments import services as events

        started = time.monotonic()
        with override_settings(
            CHANNEL_LAYERS={"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
        ):
            game = services.create_game(
                [services.SeatSpec("person"), services.SeatSpec("person")],
                seed=derived_secret(f"loadtest:{seed}:replay"),
            )
            for index in (0, 1):
                services.claim_seat(game.pk, index, guest_name=f"Replay {index + 1}")
            rng = random.Random(seed)
            for _ in range(20_000):
                game.refresh_from_db()
                if game.is_finished:
                    break
                with services.engine_game(game) as engine:
                    pending = engine.pending
                    options = heuristic_choice(engine, rng)
                services.submit_choice(game.pk, pending.seat, game.version, pending.id, options)
            else:
                raise CommandError("The flood's replay game did not finish in 20000 choices.")
            organizer, _ = get_user_model().objects.get_or_create(username="loadtest-organizer")
            event = events.create_event(organizer, name="Load test flood")
            for i in range(8):
                events.register(event, f"Flood {i + 1}", by=organizer)
            events.generate_round(event, organizer)
        self.note(
            f"flood targets: a finished game of {game.version} choices, an event, "
            f"in {time.monotonic() - started:.1f} s"
        )
        return loadtest.FloodPlan(game.public_id, game.version, len(game.config["players"]), event.pk)

    def write_settings(self, work: Path, database: str, redis_url: str, prefix: str, opts) -> str:
        base = os.environ.get("DJANGO_SETTINGS_MODULE") or "smashup.settings"
        module = f"smashup_loadtest_settings_{prefix.rsplit('-', 1)[-1]}"
        age = "" if opts["conn_max_age"] is None else f', "CONN_MAX_AGE": {int(opts["conn_max_age"])}'
        text = (
            '"""Server settings of one manage.py loadtest run (generated, deleted after it)."""\n'
            f"from {base} import *  # noqa: F403\n"
            f"from {base} import DATABASES\n\n"
            f'DATABASES = {{"default": {{**DATABASES["default"], "NAME": {database!r}{age}}}}}\n'
            "CHANNEL_LAYERS = {'default': {'BACKEND': %r, 'CONFIG': {'hosts': [%r], 'prefix': %r}}}\n"
            "PLAY_WS_RATE = (1_000_000, 1.0)\n"
            "RATE_LIMIT_SCALE = 100_000  # thousands of clients, all from 127.0.0.1\n"
            "DEBUG = False\n"
            "# Pages (the flood's replays) without collectstatic's manifest: the same work, no files.\n"
            "from %s import STORAGES\n"
            "STORAGES = {**STORAGES, 'staticfiles': "
            "{'BACKEND': 'django.contrib.staticfiles.storage.StaticFilesStorage'}}\n"
            'ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]\n'
            'LOGGING = {"version": 1, "disable_existing_loggers": False,\n'
            '           "handlers": {"console": {"class": "logging.StreamHandler"}},\n'
            '           "root": {"handlers": ["console"], "level": "WARNING"}}\n'
        ) % (LAYERS[opts["layer"]], redis_url, prefix, base)
        (work / f"{module}.py").write_text(text)
        return module

    def embedded_redis(self, work: Path, processes: list, timeout: float) -> str:
        port = launcher.free_port()
        url = f"redis://127.0.0.1:{port}/0"
        processes.append(_spawn(launcher.redis_argv(port, work), dict(os.environ), work / "redis-stdout.log"))
        if not launcher.wait_until(lambda: launcher.redis_answers(url), timeout):
            raise CommandError("The embedded Redis did not start.")
        self.note(f"embedded Redis at {url}")
        return url

    def wait_healthy(self, port: int, proc: subprocess.Popen, work: Path, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise CommandError(f"The web server exited with {proc.returncode}:\n{_tail(work)}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                    if response.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.2)
        raise CommandError(f"The web server on port {port} did not answer /healthz:\n{_tail(work)}")

    def drive(self, ws_bases, origin, plans, opts, *, server_pids, profile=None, profile_gil=False) -> dict:
        """Run the clients (tables spread over the server processes) and add CPU figures."""
        spy = None
        if profile and server_pids:
            spy = subprocess.Popen(
                ["py-spy", "record", "--pid", str(server_pids[0]), "--rate", "200", "--format", "raw",
                 "--output", profile, "--nonblocking"] + (["--gil"] if profile_gil else []),
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
        self.note(
            f"{len(plans)} tables, {opts['seconds']:g} s, think {opts['think']:g} s, "
            f"{opts['spectators']} spectator(s) a table"
            + (f", {opts['crowd']} more on the first" if opts.get("crowd") else "")
        )
        window: dict = {}

        def sample(phase: str) -> None:  # CPU counters at the edges of the measured window
            window[phase] = (_cpu(server_pids), _machine(), os.times(), os.getloadavg()[0])

        report = asyncio.run(_run(ws_bases, origin, plans, opts, sample))
        if spy is not None:
            spy.send_signal(signal.SIGINT)
            try:
                spy.wait(30)
            except subprocess.TimeoutExpired:
                spy.kill()
        if "start" in window and "end" in window:
            cpu_before, machine_before, client_before, loadavg = window["start"]
            cpu_after, machine_after, client_after, _ = window["end"]
            server_s = max(0.0, cpu_after - cpu_before)
            busy = machine_after[0] - machine_before[0]
            total = machine_after[1] - machine_before[1]
            client_s = (client_after.user - client_before.user) + (client_after.system - client_before.system)
            report["cpu"] = {
                "server_s": round(server_s, 2),
                "server_ms_per_choice": (
                    round(1000 * server_s / report["choices"], 2)
                    if report["choices"] and server_pids
                    else None
                ),
                "client_s": round(client_s, 2),
                "machine_busy_pct": round(100 * busy / total, 1) if total else None,
                "cores": os.cpu_count(),
                "loadavg": round(loadavg, 2),
            }
        return report


# ---------------------------------------------------------------------------------- helpers ------
async def _run(ws_bases, origin, plans, opts, on_window) -> dict:
    flood = None
    if opts.get("flood_plan") is not None:
        flood = loadtest.Flood(ws_bases, origin, opts["flood_plan"], opts["flood"], seed=opts["seed"])

    def window(phase: str) -> None:
        if phase == "start" and flood is not None:
            flood.start()  # once every client is connected: the flood hits the play, not the set-up
        on_window(phase)

    run = loadtest.LoadRun(
        ws_bases,
        origin,
        plans,
        seconds=opts["seconds"],
        think=opts["think"],
        spectators=opts["spectators"],
        grace=opts["grace"],
        seed=opts["seed"],
        max_choices=opts["max_choices"],
        on_window=window,
        route=opts["route"],
        crowd=opts.get("crowd"),
        crowd_format=opts.get("crowd_format", "html"),
    )
    try:
        report = await run.run()
    finally:
        flood_report = await flood.stop() if flood is not None else None
    if flood_report is not None:
        report["flood"] = flood_report
    return report


def bigbase_board() -> dict:
    """The default Big Base board: the database's row (as the lobby offers it), else the engine's."""
    from bigbase.boards import UnknownBoard, board_config
    from bigbase.rules import default_board

    try:
        return board_config("default")
    except UnknownBoard:
        return default_board()


def server_argv(kind: str, port: int) -> list[str]:
    if kind == "uvicorn":
        return [
            sys.executable, "-m", "uvicorn", "smashup.asgi:application", "--host", "127.0.0.1",
            "--port", str(port), "--log-level", "warning", "--no-access-log", "--lifespan", "off",
        ]  # fmt: skip
    return [
        sys.executable,
        "-m",
        "daphne",
        "-b",
        "127.0.0.1",
        "-p",
        str(port),
        "-v",
        "0",
        "smashup.asgi:application",
    ]


@contextmanager
def use_database(name: str):
    """Point the default connection of this process at database `name` for a while."""
    connection = connections["default"]
    old = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = name
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["NAME"] = old


def _admin_sql(db: dict, sql: str) -> None:
    """Run one statement outside a transaction on the server's maintenance database."""
    import psycopg

    with psycopg.connect(
        host=db["HOST"] or None,
        port=db["PORT"] or None,
        user=db["USER"] or None,
        password=db["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
        connect_timeout=10,
    ) as conn:
        conn.execute(sql)


PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    with suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def _spawn(argv: list[str], env: dict, log: Path) -> subprocess.Popen:
    """A child in its own session that the kernel stops if this process dies."""
    preexec = _die_with_parent if sys.platform.startswith("linux") else None
    with open(log, "wb") as out:
        return subprocess.Popen(
            argv, env=env, cwd=settings.BASE_DIR, stdin=subprocess.DEVNULL, stdout=out,
            stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=preexec,
        )  # fmt: skip


def _stop(proc: subprocess.Popen, timeout: float = 10.0) -> None:
    if proc.poll() is None:
        with suppress(ProcessLookupError):
            proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def _tail(work: Path, lines: int = 30) -> str:
    texts = []
    for log in sorted(work.glob("server-*.log")):
        texts.append("\n".join(log.read_text(errors="replace").splitlines()[-lines:]))
    return "\n".join(texts)


def _cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) used so far by these processes."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def _machine() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs so far, from /proc/stat."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return sum(values) - idle, sum(values)
