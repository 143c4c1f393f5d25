"""The limits' counts on Redis, shared by two server processes (issue 28, finding 10): every other
limit test counts in a per-process memory cache. Two daphne processes run the production cache
settings against the real Redis (TEST_REDIS_URL, a key prefix of their own); failed logins of one
user name from one client, spread over both, are refused at the documented default (5 per 15 minutes
for a user name from one address) by whichever process gets the next one, while the right password
from another address logs in."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest
import redis
from django.contrib.auth import get_user_model
from django.db import connection

from smashup.core.launcher import free_port

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
STARTUP_TIMEOUT = 90

pytestmark = pytest.mark.django_db(transaction=True)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """A browser of its own (cookies) at one address (X-Forwarded-For, believed from 127.0.0.1)."""

    def __init__(self, address: str):
        self.address = address
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )

    def request(self, url: str, data: dict | None = None) -> tuple[int, str]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(url, body, headers={"X-Forwarded-For": self.address})
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def log_in(self, base: str, username: str, password: str) -> int:
        status, page = self.request(base + "/accounts/login/")
        assert status == 200, page[:500]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = {"csrfmiddlewaretoken": token, "username": username, "password": password}
        return self.request(base + "/accounts/login/", form)[0]


def _server(db_name: str, prefix: str, log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL", "DEBUG"):
        env.pop(name, None)
    env.update(
        DJANGO_SETTINGS_MODULE="limits_redis_settings",
        PYTHONPATH=os.pathsep.join([str(HERE), str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        LIMITS_TEST_DB=db_name,
        LIMITS_TEST_PREFIX=prefix,
    )
    argv = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "smashup.asgi:application"]
    with open(log, "wb") as out:
        process = subprocess.Popen(
            argv, env=env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    return process, f"http://127.0.0.1:{port}"


def _wait_healthy(process: subprocess.Popen, base: str, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while True:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(
                f"the server at {base} did not come up:\n{log.read_text(errors='replace')[-3000:]}"
            )
        time.sleep(0.2)


def _stop(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


def test_two_server_processes_share_the_login_counts_on_redis(redis_url, tmp_path):
    get_user_model().objects.create_user("ada", "ada@example.org", "correct horse")
    prefix = f"limits-test-{uuid.uuid4().hex[:10]}"
    store = redis.Redis.from_url(redis_url)
    servers = []
    try:
        for name in ("a", "b"):
            servers.append(
                (*_server(connection.settings_dict["NAME"], prefix, tmp_path / f"{name}.log"), name)
            )
        for process, base, name in servers:
            _wait_healthy(process, base, tmp_path / f"{name}.log")
        (_, first, _), (_, second, _) = servers
        for i in range(5):  # login_pair: 5 per 15 minutes, spread over both processes
            assert Browser("198.51.100.7").log_in((first, second)[i % 2], "ada", "a wrong guess") == 200
        for base in (first, second):
            assert Browser("198.51.100.7").log_in(base, "ada", "correct horse") == 429
        assert Browser("198.51.100.8").log_in(second, "ada", "correct horse") == 302
        counts = store.keys(f"{prefix}:*limits:login_pair:*")
        assert counts, "the counts are not in Redis"
    finally:
        for process, _, _ in servers:
            _stop(process)
        keys = store.keys(f"{prefix}:*")
        if keys:
            store.delete(*keys)
        store.close()
