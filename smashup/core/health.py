"""Health checks as plain functions: is the database answering, is the channel layer / Redis answering.

``health_report()`` is what ``/healthz`` returns. Each check returns a small dict with ``ok`` and
details; a failed check carries the error text, never raises.
"""

from __future__ import annotations

import asyncio
import time

from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import connections

TIMEOUT = 3.0


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
        client = redis.Redis.from_url(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)
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
    message = await asyncio.wait_for(layer.receive(channel), TIMEOUT)
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


def health_report() -> dict:
    checks = {
        "database": check_database(),
        "redis": check_redis(),
        "channel_layer": check_channel_layer(),
    }
    return {"status": "ok" if all(c["ok"] for c in checks.values()) else "fail", **checks}
