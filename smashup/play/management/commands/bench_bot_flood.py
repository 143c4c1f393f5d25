"""``python manage.py bench_bot_flood [--attempts 160] [--rate 4] [--kind bots|timed] [--seconds 60]``

Issue 28: anyone could create tables played only by bots, without limit, and one worker played them
all, so every person's game against a bot waited behind them. This measures that wait through the
real stack, run as ``manage.py start`` runs it: daphne, the Celery worker(s) and beat, on a
PostgreSQL database of its own (created on the server of ``DATABASE_URL``, dropped afterwards) and
an embedded Redis (or ``REDIS_URL``), with the production settings (``DEBUG`` off, the bots' delay,
every limit at its default).

1. A person opens a table against ``--bots`` bots as a visitor does ("Play against bots" in the
   lobby) and plays it over the game's socket (JSON mode), answering each decision after
   ``--think`` seconds with a random legal choice.
2. Meanwhile ``--attempts`` flood attempts post the lobby form from this same address, ``--rate`` a
   second, each as a new anonymous visitor (a new session): tables of bots only (``--kind bots``), or
   a seated person who never plays, three bots and a 10-second turn timer (``--kind timed``).
   ``--staff`` makes them from one logged-in staff session instead (staff may open tables of bots
   only).
3. For ``--seconds`` from the first attempt, every wait of the person for a bot is timed: from the
   person's choice that handed the decision to a bot (or the previous bot answer) to the bot's answer
   on the person's socket (``smashup.play.floodbench.BotWaits``); it includes the bots' delay,
   ``PLAY_BOT_DELAY``.

Reported: the waits (count, median, p95, max) during the flood's attempts and after them, what the
flood got (tables made, refusals by HTTP status), how many moves the flood's tables made, and the
machine's load. Only loopback addresses are contacted.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import os
import random
import shutil
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import Counter
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from smashup.core import launcher
from smashup.play import floodbench, loadtest

from .loadtest import _admin_sql, _spawn, _stop, use_database

STAFF_NAME, STAFF_PASSWORD = "flood-staff", "flood-staff-password-1"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a 302 is an answer to look at, not to follow


class Visitor:
    """A browser without JavaScript: its own cookies (session, CSRF), no redirects followed."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect)

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def request(self, path: str, form: dict | None = None) -> tuple[int, dict]:
        data = None
        headers = {"Referer": self.base + path}
        if form is not None:
            form = {**form, "csrfmiddlewaretoken": self.cookie("csrftoken") or ""}
            data = urllib.parse.urlencode(form).encode()
        try:
            with self.opener.open(urllib.request.Request(self.base + path, data, headers), timeout=60) as r:
                r.read()
                return r.status, dict(r.headers)
        except urllib.error.HTTPError as exc:
            exc.read()
            return exc.code, dict(exc.headers)

    def post_form(self, path: str, form: dict) -> tuple[int, dict]:
        if self.cookie("csrftoken") is None:
            self.request(path)
        return self.request(path, form)


class Command(BaseCommand):
    help = "Measure a person's waits for a bot while the lobby is flooded with new tables (issue 28)."
    # Nothing of this process's own URLs or static files is used (DEBUG off, no collectstatic needed).
    requires_system_checks: list = []

    def add_arguments(self, parser):
        parser.add_argument("--attempts", type=int, default=160, help="flood attempts (default 160)")
        parser.add_argument("--rate", type=float, default=4.0, help="attempts a second (default 4)")
        parser.add_argument("--kind", choices=floodbench.FLOOD_KINDS, default="bots")
        parser.add_argument("--staff", action="store_true", help="flood from one staff session")
        parser.add_argument("--seconds", type=float, default=60.0, help="measured window (default 60)")
        parser.add_argument("--bots", type=int, default=1, choices=[1, 2, 3], help="bots against the person")
        parser.add_argument("--think", type=float, default=0.3, help="the person's mean think time")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", action="store_true", help="print the report as one JSON line")
        parser.add_argument("--startup-timeout", type=float, default=90.0)

    def note(self, text: str) -> None:
        if self.verbosity > 0:
            self.stderr.write(f"[bench_bot_flood] {text}")
            self.stderr.flush()

    def handle(self, *args, **opts):
        self.verbosity = opts["verbosity"]
        if not 0 <= opts["attempts"] <= 1000 or not 0 < opts["rate"] <= 50:
            raise CommandError("--attempts is 0 to 1000, --rate more than 0 and at most 50.")
        if not 5 <= opts["seconds"] <= 900:
            raise CommandError("--seconds is 5 to 900.")
        db = settings.DATABASES["default"]
        if db["ENGINE"] != "django.db.backends.postgresql":
            raise CommandError("Set DATABASE_URL to a PostgreSQL server (the bench makes a database there).")
        try:
            import websockets  # noqa: F401
        except ImportError:
            raise CommandError("The bench needs the websockets package: pip install -e '.[dev]'.") from None
        tag = uuid.uuid4().hex[:10]
        name = f"smashup_flood_{tag}"
        work = Path(tempfile.mkdtemp(prefix="smashup-flood-"))
        processes: list = []
        created = False
        try:
            redis_url = settings.REDIS_URL or self.embedded_redis(work, processes, opts["startup_timeout"])
            _admin_sql(db, f'CREATE DATABASE "{name}"')
            created = True
            with use_database(name):
                call_command("migrate", interactive=False, verbosity=0)
                if opts["staff"]:
                    from django.contrib.auth import get_user_model

                    get_user_model().objects.create_user(STAFF_NAME, password=STAFF_PASSWORD, is_staff=True)
                port = launcher.free_port()
                env = self.environment(work, name, redis_url, f"smashup-flood-{tag}")
                children = self.children(port, work)
                for label, argv in children:
                    processes.append(_spawn(argv, env, work / f"{label.replace(' ', '-')}.log"))
                self.note(f"started {', '.join(label for label, _ in children)}; port {port}")
                self.wait_healthy(port, processes, work, opts["startup_timeout"])
                report = asyncio.run(self.measure(f"http://127.0.0.1:{port}", opts))
                report.update(self.flood_moves(report.pop("_person_game")))
                running = processes[-len(children) :]
                report["dead_processes"] = [
                    label for (label, _), p in zip(children, running, strict=True) if p.poll() is not None
                ]
        finally:
            for proc in reversed(processes):
                _stop(proc)
            if created:
                _admin_sql(db, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            shutil.rmtree(work, ignore_errors=True)
        report.update(
            attempts=opts["attempts"],
            rate=opts["rate"],
            kind=opts["kind"],
            staff=opts["staff"],
            seconds=opts["seconds"],
            bots=opts["bots"],
            cores=os.cpu_count(),
        )
        if opts["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
        else:
            self.stdout.write(format_report(report))

    # ------------------------------------------------------------------ the stack ----------------
    def children(self, port: int, work: Path) -> list[tuple[str, list[str]]]:
        """daphne, the worker(s) and beat, with the command lines of ``manage.py start``."""
        commands = [("daphne", launcher.daphne_argv("127.0.0.1", port))]
        layout = getattr(launcher, "site_workers", None)  # the workers of `start` (issue 28)
        if layout is not None:
            commands += [(worker.name, worker.argv) for worker in layout()]
        else:  # one worker for everything, as `start` ran before issue 28
            commands.append(("celery worker", launcher.worker_argv()))
        commands.append(("celery beat", launcher.beat_argv(work / "celerybeat-schedule")))
        return commands

    def environment(self, work: Path, database: str, redis_url: str, prefix: str) -> dict:
        base = os.environ.get("DJANGO_SETTINGS_MODULE") or "smashup.settings"
        module = f"smashup_flood_settings_{prefix.rsplit('-', 1)[-1]}"
        (work / f"{module}.py").write_text(
            '"""Settings of one bench_bot_flood run (generated, deleted after it)."""\n'
            f"from {base} import *  # noqa: F403\n"
            f"from {base} import DATABASES, STORAGES\n\n"
            f'DATABASES = {{"default": {{**DATABASES["default"], "NAME": {database!r}}}}}\n'
            "CHANNEL_LAYERS = {'default': {\n"
            "    'BACKEND': 'channels_redis.pubsub.RedisPubSubChannelLayer',\n"
            f"    'CONFIG': {{'hosts': [{redis_url!r}], 'prefix': {prefix!r}}}}}}}\n"
            "DEBUG = False\n"
            "STORAGES = {**STORAGES, 'staticfiles': "
            "{'BACKEND': 'django.contrib.staticfiles.storage.StaticFilesStorage'}}\n"
            'ALLOWED_HOSTS = ["127.0.0.1", "localhost"]\n'
            'LOGGING = {"version": 1, "disable_existing_loggers": False,\n'
            '           "handlers": {"console": {"class": "logging.StreamHandler"}},\n'
            '           "root": {"handlers": ["console"], "level": "WARNING"}}\n'
        )
        env = dict(os.environ)
        env.update(
            DJANGO_SETTINGS_MODULE=module,
            PYTHONPATH=os.pathsep.join(
                p for p in (str(work), str(settings.BASE_DIR), env.get("PYTHONPATH")) if p
            ),
            PYTHONUNBUFFERED="1",
            REDIS_URL=redis_url,
        )
        return env

    def embedded_redis(self, work: Path, processes: list, timeout: float) -> str:
        port = launcher.free_port()
        url = f"redis://127.0.0.1:{port}/0"
        processes.append(_spawn(launcher.redis_argv(port, work), dict(os.environ), work / "redis.log"))
        if not launcher.wait_until(lambda: launcher.redis_answers(url), timeout):
            raise CommandError("The embedded Redis did not start.")
        return url

    def wait_healthy(self, port: int, processes: list, work: Path, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            dead = [p for p in processes if p.poll() is not None]
            if dead:
                logs = "\n".join(log.read_text(errors="replace")[-2000:] for log in work.glob("*.log"))
                raise CommandError(f"A process of the stack exited:\n{logs}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.3)
        raise CommandError("The stack did not come up.")

    # ------------------------------------------------------------------ the run ------------------
    async def measure(self, base: str, opts) -> dict:
        from websockets.asyncio.client import connect

        rng = random.Random(opts["seed"])
        person = Visitor(base)
        status, headers = await asyncio.to_thread(
            person.post_form, "/play/", floodbench.person_form(opts["bots"])
        )
        location = headers.get("Location", "")
        if status != 302 or "/play/g/" not in location:
            raise CommandError(f"The person's table was not made (HTTP {status}).")
        public_id = location.rstrip("/").rsplit("/", 1)[-1]
        bot_seats = set(range(1, opts["bots"] + 1))
        waits = floodbench.BotWaits(seat=0)
        ws_base = base.replace("http://", "ws://")
        cookies = "; ".join(f"{c.name}={c.value}" for c in person.jar)
        errors: Counter = Counter()
        finished = asyncio.Event()

        async with connect(
            f"{ws_base}/ws/games/{public_id}/?format=json",
            origin=base,
            additional_headers={"Cookie": cookies},
            proxy=None,
            max_size=4 * 1024 * 1024,
            ping_interval=None,
        ) as socket:

            async def answer(version: int, pending: dict) -> None:
                await asyncio.sleep(loadtest.think_time(opts["think"], rng))
                if waits.version != version:
                    return
                waits.sent(version)
                choice = {"type": "choice", "seq": version, "decision": pending["id"]}
                choice["options"] = loadtest.pick_options(pending, rng)
                await socket.send(json.dumps(choice))

            async def read() -> None:
                async for raw in socket:
                    message = json.loads(raw)
                    if message.get("type") == "error":
                        errors[f"server:{message.get('code')}"] += 1
                        continue
                    if message.get("type") != "state":
                        continue
                    version = int(message.get("version") or 0)
                    pending = (message.get("view") or {}).get("pending") or {}
                    fresh = version > waits.version
                    waits.seen(version, pending.get("seat"), bot_seats)
                    if message.get("status") == "finished":
                        finished.set()
                        return
                    if fresh and "options" in pending and pending.get("seat") == 0:
                        asyncio.get_running_loop().create_task(answer(version, pending))

            reader = asyncio.create_task(read())
            started = time.perf_counter()
            flood = asyncio.create_task(self.flood(base, opts, started))
            try:
                await asyncio.wait_for(finished.wait(), opts["seconds"])
            except TimeoutError:
                pass
            ended = time.perf_counter()
            outcome = await flood
            reader.cancel()
        flood_end = outcome.pop("_ended_at")
        during = [w for w, t in zip(waits.waits_ms, waits.stamps, strict=True) if t <= flood_end]
        after = [w for w, t in zip(waits.waits_ms, waits.stamps, strict=True) if t > flood_end]
        return {
            "person_waits_ms": floodbench.wait_summary(waits.waits_ms),
            "person_waits_during_flood_ms": floodbench.wait_summary(during),
            "person_waits_after_flood_ms": floodbench.wait_summary(after),
            "flood": outcome,
            "measured_s": round(ended - started, 1),
            "person_game_finished": finished.is_set(),
            "errors": dict(errors),
            "loadavg": [round(v, 2) for v in os.getloadavg()],
            "_person_game": public_id,
        }

    async def flood(self, base: str, opts, started: float) -> dict:
        """The attempts, `rate` a second from `started`, each in a thread of its own (a slow answer
        does not hold back the next attempt). Returns the HTTP statuses and when the last ended."""
        statuses: Counter = Counter()
        form = floodbench.flood_form(opts["kind"])
        staff = None
        if opts["staff"]:
            staff = Visitor(base)
            status, _ = await asyncio.to_thread(
                staff.post_form, "/accounts/login/", {"username": STAFF_NAME, "password": STAFF_PASSWORD}
            )
            if status != 302:
                raise CommandError(f"The staff session could not log in (HTTP {status}).")

        def attempt() -> None:
            visitor = staff or Visitor(base)
            try:
                status, headers = visitor.post_form("/play/", form)
            except OSError as exc:
                statuses[f"error:{type(exc).__name__}"] += 1
                return
            statuses[str(status)] += 1
            if status == 429 and headers.get("Retry-After"):
                statuses["with_retry_after"] += 1

        tasks = []
        for i in range(opts["attempts"]):
            delay = started + i / opts["rate"] - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(asyncio.to_thread(attempt)))
        await asyncio.gather(*tasks)
        return {"statuses": dict(sorted(statuses.items())), "_ended_at": time.perf_counter()}

    def flood_moves(self, person_game: str) -> dict:
        """What the tables other than the person's became: how many, how many moves they made."""
        from django.db.models import Sum

        from smashup.play.models import Game

        others = Game.objects.exclude(public_id=person_game)
        return {
            "flood_tables": others.count(),
            "flood_tables_playing": others.filter(status=Game.Status.ACTIVE).count(),
            "flood_moves": others.aggregate(total=Sum("version"))["total"] or 0,
        }


def format_report(report: dict) -> str:
    def waits(name: str) -> str:
        w = report[name]
        return f"{w['count']} waits, median {w['p50']} ms, p95 {w['p95']} ms, max {w['max']} ms"

    lines = [
        f"flood: {report['attempts']} attempts ({report['kind']}{', staff' if report['staff'] else ''}) at "
        f"{report['rate']:g}/s: HTTP {report['flood']['statuses']}; {report['flood_tables']} tables made, "
        f"{report['flood_tables_playing']} playing, {report['flood_moves']} moves by them",
        f"person vs {report['bots']} bot(s), {report['measured_s']} s: {waits('person_waits_ms')}",
        f"  during the attempts: {waits('person_waits_during_flood_ms')}",
        f"  after them: {waits('person_waits_after_flood_ms')}",
        f"errors {report['errors'] or 0}; dead processes {report['dead_processes'] or 'none'}; "
        f"load average {report['loadavg']} on {report['cores']} cores",
    ]
    return "\n".join(lines)
