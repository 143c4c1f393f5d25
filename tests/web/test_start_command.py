"""`python manage.py start` for real: a subprocess that serves the site and stops every child cleanly.

It runs the embedded setup exactly as a newcomer gets it (no DATABASE_URL, no REDIS_URL), with its
SQLite file and embedded Redis in a temporary SMASHUP_VAR_DIR and daphne on a free port.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from smashup.core import launcher
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

    def wait_healthy(self) -> str:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        last = None
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"start exited early:\n{self.output()}"
            try:
                status, body = get(self.base + "/healthz")
                last = (status, body)
                if status == 200:
                    return body.decode()
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
        # The workers of issue 28: the quick work, the people's bots, the bots-only tables.
        "--hostname=main@%h",
        "--hostname=bots@%h",
        "--hostname=bots-only@%h",
    ):
        assert expected in commands, f"{expected!r} not running; children: {commands}"
    return pids


def test_start_serves_the_site_and_stops_everything_on_sigint(tmp_path):
    site = Site(tmp_path)
    pids: set[int] = set()
    try:
        assert site.wait_healthy() == "ok"  # database, the embedded Redis and the channel layer

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


def wait_for_output(site: Site, pattern: str, timeout: float = 30) -> re.Match:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(pattern, site.output())
        if found:
            return found
        assert site.proc.poll() is None, f"start exited:\n{site.output()}"
        time.sleep(0.2)
    pytest.fail(f"{pattern!r} never appeared in the output:\n{site.output()}")


def test_start_restarts_a_child_that_dies_and_keeps_serving(tmp_path):
    """A worker killed outright (as the OOM killer or a crash would) and then daphne: each is started
    again after its back-off and the log says so; the others run on; nothing is left behind."""
    site = Site(tmp_path)
    pids: set[int] = set()
    try:
        site.wait_healthy()
        pids = snapshot_children(site)
        # The main worker itself (a direct child of start), not one of its pool processes.
        parents = children_of(site.proc.pid)
        worker = next(
            p
            for p in pids
            if parents.get(p) == site.proc.pid and " worker " in cmdline(p) and "main@" in cmdline(p)
        )
        os.kill(worker, signal.SIGKILL)
        wait_for_output(
            site,
            rf"celery worker \(pid {worker}\) exited with code -9 after \d+s; "
            r"starting it again in 1s",
        )
        restarted = wait_for_output(site, r"restarted celery worker \(pid (\d+), restart 1\)")
        new_worker = int(restarted.group(1))
        assert alive(new_worker) and new_worker != worker
        assert get(site.base + "/healthz")[0] == 200, "the site kept serving meanwhile"

        daphne = next(p for p in pids if "daphne" in cmdline(p) and "smashup.asgi" in cmdline(p))
        os.kill(daphne, signal.SIGKILL)
        wait_for_output(site, r"restarted daphne \(pid \d+, restart 1\)")
        assert site.wait_healthy() == "ok"
        pids |= descendants(site.proc.pid)
        assert site.proc.poll() is None

        site.proc.send_signal(signal.SIGINT)
        assert site.wait_exit() == 0, site.output()
        assert_all_gone(pids, site)
    finally:
        site.cleanup(pids)


def test_the_back_off_doubles_for_a_child_that_keeps_dying_and_starts_again_after_a_long_run(tmp_path):
    """The supervisor alone, with real short-lived children: each quick death waits twice as long as
    the one before (up to the longest), a death after a long run waits the first delay again."""
    lines: list[str] = []
    supervisor = launcher.Supervisor(
        env=dict(os.environ),
        cwd=tmp_path,
        log=lines.append,
        backoff=launcher.Backoff(first=0.2, factor=2, longest=0.8, stable=5),
    )
    dies = [sys.executable, "-c", "import sys; sys.exit(3)"]
    child = supervisor.start("flaky", dies, stage=1)
    waits = []
    try:
        while child.restarts < 4:
            child.proc.wait(10)
            before = child.restarts
            supervisor.tend()
            waits.append(child.restart_at - time.monotonic())
            while child.restarts == before:
                time.sleep(0.02)
                supervisor.tend()
        assert [round(w, 1) for w in waits] == [0.2, 0.4, 0.8, 0.8]
        # It ran "long enough" before this death: the first delay again.
        child.proc.wait(10)
        child.started_at -= 10
        supervisor.tend()
        assert round(child.restart_at - time.monotonic(), 1) == 0.2
        assert sum("exited with code 3" in line for line in lines) == 5
        assert [line for line in lines if line.startswith("restarted")][-1].endswith("restart 4)")
    finally:
        supervisor.stop_all(timeout=5)


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
