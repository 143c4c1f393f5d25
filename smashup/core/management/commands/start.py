"""``python manage.py start``: the whole site in one command.

Migrates, creates the demo organizer (DEBUG only), starts an embedded Redis when REDIS_URL is unset,
then runs daphne, the Celery workers (``launcher.site_workers``: quick work, the bots of tables with
people, the bots of tables without) and Celery beat as child processes until Ctrl-C or SIGTERM. A child
that dies once the site is up is started again after a back-off (1 s, doubling up to 30 s; see
``launcher.Supervisor.tend``), and the log says so; one that dies while the site is still coming up
(a configuration error, most likely) stops the others and the command exits non-zero.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from smashup.core import launcher
from smashup.core.demo import DEMO_PASSWORD, DEMO_USERNAME, ensure_demo_organizer, public_password_warning
from smashup.engine import native

STAGE_REDIS, STAGE_APP = 0, 1


class Command(BaseCommand):
    help = (
        "Run the site: migrate, then daphne + Celery workers + beat "
        "(+ an embedded Redis if REDIS_URL is unset)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--host",
            default="127.0.0.1",
            help="address daphne binds to (default 127.0.0.1: this machine only; another address in the "
            "DEBUG setup is warned about, the demo organizer's password being public)",
        )
        parser.add_argument("--port", type=int, default=8000, help="port daphne listens on (default 8000)")
        parser.add_argument("--no-beat", action="store_true", help="do not run Celery beat")
        parser.add_argument(
            "--bot-concurrency",
            type=int,
            default=None,
            help="processes of the worker that plays the bots of tables with people (default: this "
            "machine's cores, at least 2)",
        )
        parser.add_argument(
            "--startup-timeout", type=float, default=60.0, help="seconds to wait for each service to come up"
        )

    def say(self, text: str, style=None) -> None:
        self.stdout.write(style(text) if style else text)
        self.stdout.flush()

    def handle(self, *args, host, port, no_beat, startup_timeout, bot_concurrency=None, **options):
        if bot_concurrency is not None and not 1 <= bot_concurrency <= 64:
            raise CommandError("--bot-concurrency is 1 to 64.")
        verbosity = options["verbosity"]
        warning = public_password_warning(host) if settings.DEBUG else None
        if warning:
            self.stderr.write(self.style.ERROR(warning))
        probe_host = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
        if launcher.port_open(probe_host, port):
            raise CommandError(f"Port {port} on {host} is already in use; pick another with --port.")
        notice = native.build_notice(native.build_state(), native.disabled())
        if notice:
            self.say(notice)
        self.say("Applying migrations...")
        call_command("migrate", interactive=False, verbosity=max(0, verbosity - 1))
        if not settings.DEBUG:
            self.say("Collecting static files...")
            call_command("collectstatic", interactive=False, verbosity=0)

        demo = settings.DEBUG
        if demo:
            _, created = ensure_demo_organizer()
            if created:
                self.say(f"Created the demo organizer '{DEMO_USERNAME}'.")

        stop = threading.Event()

        def on_signal(signum, frame):
            stop.set()

        previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}

        env = dict(os.environ)
        env.setdefault("DJANGO_SETTINGS_MODULE", os.environ.get("DJANGO_SETTINGS_MODULE", "smashup.settings"))
        env["DEBUG"] = "true" if settings.DEBUG else "false"  # same mode in every child
        env["PYTHONUNBUFFERED"] = "1"
        supervisor = launcher.Supervisor(
            env=env, cwd=settings.BASE_DIR, log=lambda m: self.say(f"[start] {m}")
        )
        exit_code = 0
        try:
            redis_url = settings.REDIS_URL
            if redis_url is None:
                redis_dir = settings.VAR_DIR / "redis"
                redis_dir.mkdir(parents=True, exist_ok=True)
                redis_port = launcher.free_port()
                redis_url = f"redis://127.0.0.1:{redis_port}/0"
                supervisor.start("redis (embedded)", launcher.redis_argv(redis_port, redis_dir), STAGE_REDIS)
                if not launcher.wait_until(
                    lambda: launcher.redis_answers(redis_url), startup_timeout, supervisor, stop.is_set
                ):
                    if stop.is_set():
                        return
                    raise CommandError("The embedded Redis did not start.")
                self.say(f"Embedded Redis at {redis_url}")
            env["REDIS_URL"] = redis_url

            supervisor.start("daphne", launcher.daphne_argv(host, port), STAGE_APP)
            for worker in launcher.site_workers(bot_concurrency):
                supervisor.start(worker.name, worker.argv, STAGE_APP)
            if not no_beat:
                settings.VAR_DIR.mkdir(parents=True, exist_ok=True)
                schedule = settings.VAR_DIR / "celerybeat-schedule"
                supervisor.start("celery beat", launcher.beat_argv(schedule), STAGE_APP)

            if launcher.wait_until(
                lambda: launcher.port_open(probe_host, port), startup_timeout, supervisor, stop.is_set
            ):
                shown = f"[{probe_host}]" if ":" in probe_host else probe_host
                self.say("")
                self.say(f"Smash Up table is running at http://{shown}:{port}/", self.style.SUCCESS)
                if demo:
                    self.say(f"Log in as '{DEMO_USERNAME}' with password '{DEMO_PASSWORD}' (demo organizer).")
                if warning:
                    self.stderr.write(self.style.ERROR(warning))
                self.say("Press Ctrl-C to stop.")
                self.say("")
            else:
                dead = supervisor.exited()
                if dead is not None and not stop.is_set():
                    self.stderr.write(
                        f"[start] {dead.name} exited with code {dead.proc.returncode} while starting; "
                        "stopping the others."
                    )
                    exit_code = 1
            while not stop.is_set() and not exit_code:
                supervisor.tend()  # a child that died is started again, after its back-off
                stop.wait(0.25)
        finally:
            if stop.is_set():
                self.say("[start] shutting down...")
            supervisor.stop_all()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        if exit_code:
            sys.exit(exit_code)
        self.say("[start] stopped.")
