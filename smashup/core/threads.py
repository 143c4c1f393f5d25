"""Where the synchronous work of the server runs, so that a flood of other requests cannot slow live
play (issue 12: a flood of replay pages and event sockets slowed every table from 8 ms to 270-670 ms).

- **Live play's database work** (the game socket's reads, choices, undos, renders) runs on a small
  pool of threads of its own (``live_play``; ``PLAY_DB_THREADS`` threads per process, each with its
  own database connection), never on Channels' one shared database thread, where every other
  socket's work (event sockets, the session and user look-up of every new socket) queues.
  ``PLAY_DB_THREADS = 0`` puts it back on the shared thread (to measure the difference).
- **Heavy pages** (a replay rebuilds a game from its record with the engine: all CPU, holding the
  GIL) run at most ``HEAVY_PAGES`` at a time per process (``heavy_work``). Each HTTP request has a
  thread of its own under daphne, so a flood of them was that many threads taking turns at the GIL
  with the live-play threads: each of a choice's steps then waited behind all of them. The others
  wait without holding the GIL, and a page that cannot start within ``HEAVY_PAGES_WAIT`` seconds
  gets a 503 asking to try again, rather than piling up threads. ``HEAVY_PAGES = 0``: no bound.
- **The GIL's switch interval** of a web server process (``SERVER_SWITCH_INTERVAL`` seconds, set by
  ``smashup.asgi``; None leaves Python's 0.005): how long a thread that wants the GIL waits before
  the one holding it must let go. Each step of a choice (a query's answer, a send) waits that long
  behind a busy page thread.
"""

from __future__ import annotations

import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings

DEFAULT_DB_THREADS = 2
DEFAULT_HEAVY_PAGES = 1
DEFAULT_HEAVY_WAIT = 10.0

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pool_size = 0
_heavy: threading.BoundedSemaphore | None = None
_heavy_size = 0


def _live_pool() -> ThreadPoolExecutor | None:
    global _pool, _pool_size
    size = int(getattr(settings, "PLAY_DB_THREADS", DEFAULT_DB_THREADS))
    if size <= 0:
        return None
    with _lock:
        if _pool is None or _pool_size != size:  # a changed setting (a test's) gets its own pool
            _pool = ThreadPoolExecutor(max_workers=size, thread_name_prefix="live-play-db")
            _pool_size = size
        return _pool


def live_play(func):
    """`func` as a coroutine function run on live play's own threads (closing stale database
    connections before and after, as Channels' `database_sync_to_async` does)."""
    pool = _live_pool()
    if pool is None:
        return database_sync_to_async(func)
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=pool)


def close_live_play() -> None:
    """Close the database connection of every live-play thread and stop the pool (a test's end, a
    process's shutdown): a thread keeps its connection between calls, so a pool left alone holds its
    connections for as long as the process runs (and kept the test database from being dropped)."""
    global _pool, _pool_size
    from django.db import connections

    with _lock:
        pool, size = _pool, _pool_size
        _pool, _pool_size = None, 0
    if pool is None:
        return
    # One call per thread: each waits at the barrier until all have started, so no thread runs two.
    barrier = threading.Barrier(size)

    def close() -> None:
        try:
            barrier.wait(10)
        except threading.BrokenBarrierError:  # fewer threads were ever started: each still closes
            pass
        connections.close_all()

    for future in [pool.submit(close) for _ in range(size)]:
        future.result()
    pool.shutdown(wait=True)


class Busy(Exception):
    """Too many heavy pages are being made at once: try again in a moment."""


@contextmanager
def heavy_work():
    """Hold one of the process's ``HEAVY_PAGES`` places for heavy page work, waiting up to
    ``HEAVY_PAGES_WAIT`` seconds for one; `Busy` when none came free."""
    global _heavy, _heavy_size
    size = int(getattr(settings, "HEAVY_PAGES", DEFAULT_HEAVY_PAGES))
    if size <= 0:
        yield
        return
    with _lock:
        if _heavy is None or _heavy_size != size:
            _heavy = threading.BoundedSemaphore(size)
            _heavy_size = size
        gate = _heavy
    if not gate.acquire(timeout=float(getattr(settings, "HEAVY_PAGES_WAIT", DEFAULT_HEAVY_WAIT))):
        raise Busy
    try:
        yield
    finally:
        gate.release()


def apply_switch_interval() -> float:
    """Set this process's GIL switch interval from ``SERVER_SWITCH_INTERVAL``; the interval now."""
    value = getattr(settings, "SERVER_SWITCH_INTERVAL", None)
    if value is not None:
        sys.setswitchinterval(float(value))
    return sys.getswitchinterval()
