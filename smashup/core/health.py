"""Health checks as plain functions: is the database answering, is the channel layer / Redis answering,
is a Celery worker answering.

``health_report()`` is what ``/healthz`` shows staff; everyone else gets only "ok" or "failing" (the
database's type and Redis's host and port are nobody else's business). Each check returns a small
dict with ``ok`` and details; a failed check carries the error text, never raises. Every Redis call
gives up after ``REDIS_TIMEOUT`` seconds, so a partition makes /healthz say "failing", not hang.
"""

from __future__ import annotations

import asyncio
import time

from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import connections

DEFAULT_TIMEOUT = 2.0


def timeout() -> float:
    return float(getattr(settings, "REDIS_TIMEOUT", DEFAULT_TIMEOUT))


def check_database(alias: str = "default") -> dict:
    started = time.monotonic()
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        vendor = connections[alias].vendor
    except Exception as exc:  # noqa: BLE001 - a health check reports every failure
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    return {"ok": True, "vendor": vendor, "ms": round((time.monotonic() - started) * 1000, 1)}


def check_redis(url: str | None = None) -> dict:
    """PING the Redis used as Celery broker and channel layer."""
    url = url if url is not None else getattr(settings, "REDIS_URL", None)
    if not url:
        return {"ok": True, "backend": "none (in-process channel layer, tasks run inline)"}
    import redis

    started = time.monotonic()
    try:
        client = redis.Redis.from_url(url, socket_timeout=timeout(), socket_connect_timeout=timeout())
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:  # noqa: BLE001
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    return {"ok": True, "ms": round((time.monotonic() - started) * 1000, 1)}


async def _layer_round_trip() -> str:
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = await layer.new_channel("healthz.")
    token = f"{time.time_ns()}"
    await layer.send(channel, {"type": "healthz.ping", "token": token})
    message = await asyncio.wait_for(layer.receive(channel), timeout())
    if message.get("token") != token:
        raise RuntimeError(f"channel layer returned a different message: {message!r}")
    return type(layer).__name__


def check_channel_layer() -> dict:
    """Send a message to a fresh channel and read it back through the configured layer."""
    started = time.monotonic()
    try:
        backend = async_to_sync(_layer_round_trip)()
    except Exception as exc:  # noqa: BLE001
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    return {"ok": True, "backend": backend, "ms": round((time.monotonic() - started) * 1000, 1)}


def check_worker() -> dict:
    """Ask the Celery workers to answer a ping (through the broker) within the Redis timeout. Only
    staff see it, and it does not make /healthz fail: the site serves without a worker (bots and
    timers wait, and the beat sweeps catch up once one runs), and `start` restarts a dead one."""
    from smashup.celery import app

    if app.conf.task_always_eager:
        return {"ok": True, "backend": "none (tasks run inline)"}
    started = time.monotonic()
    try:
        replies = app.control.ping(timeout=timeout())
    except Exception as exc:  # noqa: BLE001
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    names = sorted(name for reply in replies for name in reply)
    if not names:
        return {"ok": False, "error": f"no worker answered within {timeout():g}s"}
    return {"ok": True, "workers": names, "ms": round((time.monotonic() - started) * 1000, 1)}


def health_report(worker: bool = False) -> dict:
    """The checks that make the site healthy or not (database, Redis, channel layer) and, with
    `worker`, whether a Celery worker answers (shown, not counted)."""
    checks = {
        "database": check_database(),
        "redis": check_redis(),
        "channel_layer": check_channel_layer(),
    }
    report = {"status": "ok" if all(c["ok"] for c in checks.values()) else "fail", **checks}
    if worker:
        report["worker"] = check_worker()
    return report
