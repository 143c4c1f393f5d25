"""The real stack for the fault tests: daphne, the Celery workers and Celery beat, started with the same
command lines as ``manage.py start`` (smashup.core.launcher), on the test database and on a Redis
server of the test's own that the tests stop and start again (redis_server.py).

It is the browser tests' Stack (tests/browser/stack.py: kill, start again, logs), with beat added and
``python(code)``: run a few lines in the stack's settings (so a task they schedule goes to the stack's
Redis, as one scheduled by the site would).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from smashup.core import launcher
from tests.browser.stack import ROOT, Process, Stack, _spawn

HERE = Path(__file__).resolve().parent


def fault_env(db_name: str, redis_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL", "DEBUG"):  # the settings module says it all
        env.pop(name, None)
    env.update(
        DJANGO_SETTINGS_MODULE="fault_settings",
        PYTHONPATH=os.pathsep.join([str(HERE), str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        PYTHONUNBUFFERED="1",
        FAULT_TEST_DB=db_name,
        FAULT_REDIS_URL=redis_url,
        **extra,
    )
    return env


class FaultStack(Stack):
    env: dict[str, str]

    def python(self, code: str, timeout: float = 60) -> str:
        """Run `code` after django.setup() in the stack's settings; returns what it printed."""
        result = subprocess.run(
            [sys.executable, "-c", "import django; django.setup()\n" + code],
            env=self.env, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip
        if result.returncode != 0:
            raise RuntimeError(f"stack python failed:\n{result.stderr[-4000:]}")
        return result.stdout


WORKER_NAMES = {"main": "worker", "bots": "bot worker", "bots-only": "bot-only worker"}


def site_workers() -> dict[str, list[str]]:
    """The workers of `start` on the queues of the production settings (fault_settings names them
    too): the quick work ("worker"), the people's bots ("bot worker", one process here to spare the
    machine) and the tables of bots only ("bot-only worker"), by their names in this stack."""
    from smashup import settings as production
    from smashup.core import queues

    names = {role: queues.DEFAULT_QUEUE if role == "default" else getattr(production, queues.SETTING[role])
             for role in queues.ROLES}  # fmt: skip
    return {
        WORKER_NAMES[w.node]: launcher.worker_argv(w.queues, w.concurrency, w.node, w.nice)
        for w in queues.layout(names, bot_concurrency=1)
    }


def start_fault_stack(db_name: str, redis_url: str, log_dir: Path, **extra: str) -> FaultStack:
    """daphne on a free loopback port, a worker and beat; returns once /healthz answers."""
    port = launcher.free_port()
    env = fault_env(db_name, redis_url, **extra)
    log_dir.mkdir(parents=True, exist_ok=True)
    commands = {"daphne": launcher.daphne_argv("127.0.0.1", port)}
    commands.update(site_workers())
    commands["beat"] = launcher.beat_argv(log_dir / "celerybeat-schedule")
    stack = FaultStack(base_url=f"http://127.0.0.1:{port}", db_name=db_name)
    stack.env = env
    try:
        for name, argv in commands.items():
            log = log_dir / f"{name}.log"
            stack.processes.append(Process(name, _spawn(argv, env, log), log, argv, env))
        stack.wait_healthy("the fault stack did not come up")
    except BaseException:
        print("healthz said:", _healthz(stack.base_url))
        stack.stop()
        raise
    return stack


def _healthz(base_url: str) -> str:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(base_url + "/healthz", timeout=5) as response:
            return response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.read().decode()
    except OSError as exc:
        return repr(exc)
