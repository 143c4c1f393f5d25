"""The sockets open at once, limited across two real server processes (daphne) that share their counts
through Redis, at the README's default (200 per address), and healed when one of the processes is
killed (issue 28: limits tested at their defaults, once on Redis across two server processes)."""

from __future__ import annotations

import asyncio
import os
import uuid
from pathlib import Path

import pytest
import redis
from django.db import connection

from smashup.core import launcher, opensockets
from tests.browser.stack import ROOT, Process, Stack, _spawn

from .play_helpers import two_person_game

HERE = Path(__file__).resolve().parent
TIMEOUT = 30
DEFAULT = opensockets.DEFAULT_LIMITS["ws_open_address"]


def start_servers(db_name: str, prefix: str, log_dir: Path) -> list[Stack]:
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL", "DEBUG"):  # the settings module says it all
        env.pop(name, None)
    env.update(
        DJANGO_SETTINGS_MODULE="open_sockets_settings",
        PYTHONPATH=os.pathsep.join([str(HERE), str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        PYTHONUNBUFFERED="1",
        OPEN_SOCKETS_TEST_DB=db_name,
        OPEN_SOCKETS_TEST_PREFIX=prefix,
    )
    servers = []
    for name in ("a", "b"):
        port = launcher.free_port()
        argv = launcher.daphne_argv("127.0.0.1", port)
        log = log_dir / f"daphne-{name}.log"
        stack = Stack(base_url=f"http://127.0.0.1:{port}", db_name=db_name)
        stack.processes.append(Process("daphne", _spawn(argv, env, log), log, argv, env))
        servers.append(stack)
    try:
        for stack in servers:
            stack.wait_healthy("a test server did not come up")
    except BaseException:
        for stack in servers:
            stack.stop()
        raise
    return servers


@pytest.fixture
def servers(transactional_db, redis_url, tmp_path):
    prefix = f"smashup-open-{uuid.uuid4().hex[:8]}"
    running = start_servers(connection.settings_dict["NAME"], prefix, tmp_path)
    yield running
    for stack in running:
        stack.stop()
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(f"{prefix}*"))
    if keys:
        client.delete(*keys)


async def open_spectator(base_url: str, public_id: str):
    """A spectator's socket; (socket, None) once its first update came, or (None, the close code and
    the error text) when it was refused."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    ws_url = base_url.replace("http://", "ws://") + f"/ws/games/{public_id}/?format=json"
    ws = await connect(ws_url, origin=base_url, proxy=None, open_timeout=TIMEOUT, ping_interval=None)
    first = await asyncio.wait_for(ws.recv(), TIMEOUT)
    if '"too_many_open"' not in first:
        return ws, None
    try:
        await asyncio.wait_for(ws.recv(), TIMEOUT)
    except ConnectionClosed:
        pass
    return None, (ws.close_code, first)


async def open_many(base_url: str, public_id: str, count: int) -> list:
    gate = asyncio.Semaphore(10)

    async def one():
        async with gate:
            ws, refusal = await open_spectator(base_url, public_id)
            assert refusal is None, refusal
            return ws

    return list(await asyncio.gather(*(one() for _ in range(count))))


async def until_admitted(base_url: str, public_id: str):
    """Try every half second (each try counts as a new socket of the address) until one is let in."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while True:
        ws, refusal = await open_spectator(base_url, public_id)
        if ws is not None:
            return ws
        assert refusal[0] == opensockets.CLOSE_TOO_MANY_OPEN, refusal
        assert loop.time() < deadline, "no place came free"
        await asyncio.sleep(0.5)


def test_two_servers_share_the_sockets_open_at_once_and_a_killed_one_stops_counting(servers):
    game = two_person_game()
    a, b = servers

    async def scenario():
        held_a = await open_many(a.base_url, game.public_id, DEFAULT // 2)
        held_b = await open_many(b.base_url, game.public_id, DEFAULT // 2)
        # The address has its 200 open, 100 on each server: both refuse the next one.
        for stack in (a, b):
            ws, refusal = await open_spectator(stack.base_url, game.public_id)
            assert ws is None and refusal[0] == opensockets.CLOSE_TOO_MANY_OPEN
            assert f"Too many connections are open from this address ({DEFAULT})" in refusal[1]
        # One closes on B: A lets one more in (B writes its count within moments).
        await held_b.pop().close()
        held_a.append(await until_admitted(a.base_url, game.public_id))
        ws, refusal = await open_spectator(b.base_url, game.public_id)
        assert ws is None
        # A dies with its 101 sockets: no close, no count written. B lets new ones in once A's
        # counts are past their time.
        a.kill("daphne")
        for ws in held_a:
            ws.transport.abort()
        held_b.append(await until_admitted(b.base_url, game.public_id))
        held_b.extend(await open_many(b.base_url, game.public_id, 20))  # more than B held alone
        assert len(held_b) == DEFAULT // 2 + 20
        for ws in held_b:
            await ws.close()

    asyncio.run(scenario())
