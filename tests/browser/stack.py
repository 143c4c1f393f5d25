"""The real stack for the browser tests: daphne and a Celery worker as subprocesses.

Both run ``stack_settings`` (the test settings) against the test process's own test database, which
pytest-django has created; the tests use ``transactional_db`` so that what the server commits is
flushed afterwards. The processes get a channel-layer prefix and a bot queue of their own, so parallel
runs on one Redis never meet. They are stopped (SIGTERM, then SIGKILL of their process group) before
pytest-django drops the database.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from smashup.core.launcher import free_port

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
STARTUP_TIMEOUT = 60
STOP_TIMEOUT = 15


@dataclass
class Process:
    name: str
    proc: subprocess.Popen
    log: Path
    argv: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)

    def tail(self, lines: int = 40) -> str:
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


@dataclass
class Stack:
    base_url: str
    db_name: str
    processes: list[Process] = field(default_factory=list)

    def wait_healthy(self, failure: str) -> None:
        """Until /healthz answers; `failure` (and the logs) if a process died or it took too long."""
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not _healthy(self.base_url):
            if self.dead() or time.monotonic() > deadline:
                why = ", ".join(self.dead()) or "timeout"
                raise RuntimeError(f"{failure} ({why}):\n{self.logs()}")
            time.sleep(0.1)

    def dead(self) -> list[str]:
        return [
            f"{p.name} exited with {p.proc.returncode}" for p in self.processes if p.proc.poll() is not None
        ]

    def logs(self, lines: int = 40) -> str:
        return "\n".join(f"----- {p.name} ({p.log}) -----\n{p.tail(lines)}" for p in self.processes)

    def stop(self) -> None:
        for p in self.processes:
            if p.proc.poll() is None:
                _signal_group(p.proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        for p in self.processes:
            try:
                p.proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            _signal_group(p.proc.pid, signal.SIGKILL)  # and whatever it left in its group
            p.proc.wait()

    def process(self, name: str) -> Process:
        return next(p for p in self.processes if p.name == name)

    def kill(self, name: str) -> None:
        """Kill one process (and its group) at once, as a crash or a lost machine would: no close
        frames, its connections just drop."""
        p = self.process(name)
        _signal_group(p.proc.pid, signal.SIGKILL)
        p.proc.wait(STOP_TIMEOUT)

    def start_again(self, name: str) -> None:
        """Start a killed process again with the same command (daphne on the same port); returns once
        /healthz answers."""
        p = self.process(name)
        assert p.proc.poll() is not None, f"{name} is still running"
        p.proc = _spawn(p.argv, p.env, p.log, append=True)
        self.wait_healthy(f"{name} did not come back")


def _signal_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _spawn(argv: list[str], env: dict[str, str], log: Path, append: bool = False) -> subprocess.Popen:
    out = open(log, "ab" if append else "wb")  # noqa: SIM115 - the child keeps it
    try:
        return subprocess.Popen(
            argv, env=env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    finally:
        out.close()


def start_stack(
    db_name: str,
    log_dir: Path,
    bot_delay: float = 0.0,
    production_limits: bool = False,
    env: dict[str, str] | None = None,
) -> Stack:
    """daphne on a free loopback port and a Celery worker for the bots; returns once /healthz answers.

    By default bots answer at once and the socket's message limit is far above what a test sends.
    `production_limits`: the settings' own bot delay and message limit instead, for a test that must
    see the game at a person's pace. `env`: more environment variables for both (e.g. VAPID keys)."""
    port = free_port()
    tag = uuid.uuid4().hex[:10]
    extra = dict(env or {})
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="stack_settings",
        PYTHONPATH=os.pathsep.join([str(HERE), str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        PYTHONUNBUFFERED="1",
        BROWSER_TEST_DB=db_name,
        BROWSER_TEST_PREFIX=f"smashup-browser-{tag}",
        BROWSER_TEST_QUEUE=f"browser-bots-{tag}",
        BROWSER_TEST_BOT_DELAY=str(bot_delay),
    )
    if production_limits:
        env["BROWSER_TEST_PRODUCTION_LIMITS"] = "1"
    env.update(extra)
    for name in ("DATABASE_URL", "REDIS_URL", "DEBUG"):  # the settings module says it all
        env.pop(name, None)
    log_dir.mkdir(parents=True, exist_ok=True)
    commands = {
        "daphne": [
            sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "smashup.asgi:application",
        ],
        "celery": [
            sys.executable, "-m", "celery", "-A", "smashup.celery", "worker", "--pool=solo",
            f"--queues={env['BROWSER_TEST_QUEUE']}", "--loglevel=warning", "--without-heartbeat",
            "--without-mingle", "--without-gossip",
        ],
    }  # fmt: skip
    stack = Stack(base_url=f"http://127.0.0.1:{port}", db_name=db_name)
    try:
        for name, argv in commands.items():
            log = log_dir / f"{name}.log"
            stack.processes.append(Process(name, _spawn(argv, env, log), log, argv, env))
        stack.wait_healthy("the test server did not come up")
    except BaseException:
        stack.stop()
        raise
    return stack


def _healthy(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(base_url + "/healthz", timeout=2) as response:
            return response.status == 200
    except (OSError, urllib.error.URLError):
        return False
