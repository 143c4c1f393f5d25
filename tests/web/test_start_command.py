"""`python manage.py start` for real: a subprocess that serves the site and stops every child cleanly.

It runs the embedded setup exactly as a newcomer gets it (no DATABASE_URL, no REDIS_URL), with its
SQLite file and embedded Redis in a temporary SMASHUP_VAR_DIR and daphne on a free port.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from smashup.core.launcher import free_port

ROOT = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT = 90
STOP_TIMEOUT = 45
CLEARED = ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE")


def children_of(pid: int) -> dict[int, int]:
    """ppid of every live process, read from /proc."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # The command name may contain spaces and parentheses: fields start after the last ')'.
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            parents[int(entry)] = int(fields[1])
    return parents


def descendants(pid: int) -> set[int]:
    parents = children_of(pid)
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, pp in parents.items() if pp in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


class Site:
    def __init__(self, tmp_path: Path):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.var = tmp_path / "var"
        self.log_path = tmp_path / "start.log"
        env = {k: v for k, v in os.environ.items() if k not in CLEARED}
        env["SMASHUP_VAR_DIR"] = str(self.var)
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "start", "--port", str(self.port)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")

    def wait_healthy(self) -> dict:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        last = None
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"start exited early:\n{self.output()}"
            try:
                status, body = get(self.base + "/healthz")
                last = (status, body)
                if status == 200:
                    return json.loads(body)
            except OSError as exc:
                last = exc
            time.sleep(0.3)
        pytest.fail(f"/healthz never answered ok (last: {last!r}):\n{self.output()}")

    def wait_exit(self) -> int:
        try:
            return self.proc.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"start did not exit within {STOP_TIMEOUT}s:\n{self.output()}")

    def cleanup(self, pids: set[int]) -> None:
        """Never leave anything behind, whatever the test found."""
        for pid in [self.proc.pid, *pids]:
            if alive(pid):
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        self.proc.wait(10)
        self.log.close()


def assert_all_gone(pids: set[int], site: Site) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.2)
    left = {p: cmdline(p) for p in pids if alive(p)}
    assert not left, f"orphan processes left behind: {left}\n{site.output()}"


def snapshot_children(site: Site) -> set[int]:
    pids = descendants(site.proc.pid)
    commands = " | ".join(cmdline(p) for p in pids)
    for expected in (
        "redis-server",
        "daphne",
        "celery -A smashup.celery worker",
        "celery -A smashup.celery beat",
    ):
        assert expected in commands, f"{expected!r} not running; children: {commands}"
    return pids


def test_start_serves_the_site_and_stops_everything_on_sigint(tmp_path):
    site = Site(tmp_path)
    pids: set[int] = set()
    try:
        health = site.wait_healthy()
        assert health["status"] == "ok"
        assert health["database"]["vendor"] == "sqlite"
        assert health["channel_layer"]["backend"] == "RedisPubSubChannelLayer"  # the embedded Redis

        status, body = get(site.base + "/")
        assert status == 200 and b"Smash Up table" in body and b"htmx-2.min.js" in body
        status, body = get(site.base + "/static/django_htmx/htmx-2.min.js")
        assert status == 200 and len(body) > 10_000
        status, _ = get(site.base + "/static/css/site.css")
        assert status == 200

        pids = snapshot_children(site)
        out = site.output()
        assert f"http://127.0.0.1:{site.port}/" in out
        assert "organizer" in out and "smashup-demo" in out

        site.proc.send_signal(signal.SIGINT)
        assert site.wait_exit() == 0, site.output()
        assert_all_gone(pids, site)
        assert "stopped." in site.output()

        # The demo organizer was created in the embedded SQLite database.
        with sqlite3.connect(site.var / "db.sqlite3") as db:
            row = db.execute(
                "select is_staff, is_superuser from auth_user where username = 'organizer'"
            ).fetchone()
        assert row == (1, 1)
    finally:
        site.cleanup(pids)


def test_start_stops_the_others_and_fails_when_a_child_dies(tmp_path):
    site = Site(tmp_path)
    pids: set[int] = set()
    try:
        site.wait_healthy()
        pids = snapshot_children(site)
        daphne = next(p for p in pids if "daphne" in cmdline(p) and "smashup.asgi" in cmdline(p))
        os.kill(daphne, signal.SIGKILL)
        assert site.wait_exit() != 0
        assert "daphne exited" in site.output()
        assert_all_gone(pids, site)
    finally:
        site.cleanup(pids)


def test_start_stops_everything_on_sigterm(tmp_path):
    site = Site(tmp_path)
    pids: set[int] = set()
    try:
        site.wait_healthy()
        pids = snapshot_children(site)
        site.proc.send_signal(signal.SIGTERM)
        assert site.wait_exit() == 0, site.output()
        assert_all_gone(pids, site)
    finally:
        site.cleanup(pids)


def test_start_refuses_a_port_in_use(tmp_path):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if k not in CLEARED}
        env["SMASHUP_VAR_DIR"] = str(tmp_path)
        result = subprocess.run(
            [sys.executable, "manage.py", "start", "--port", str(port)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode != 0
    assert f"Port {port} on 127.0.0.1 is already in use" in result.stderr
