"""Live play keeps its own threads (issue 12: a flood of replay pages or event sockets slowed every
table): its database work does not queue behind Channels' shared database thread, and replay pages
are made a bounded number at a time. Speed itself is measured by `manage.py loadtest --flood`."""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async

from smashup.core import threads

from .play_helpers import two_person_game


@pytest.mark.asyncio
async def test_live_play_runs_while_the_shared_database_thread_is_held(settings):
    settings.PLAY_DB_THREADS = 3  # a size of its own: a pool of its own, whatever other tests left
    release = threading.Event()

    def hold():  # an event socket's slow query, or a flood of them, on Channels' shared thread
        release.wait(10)

    held = asyncio.ensure_future(database_sync_to_async(hold)())
    try:
        name = await asyncio.wait_for(threads.live_play(lambda: threading.current_thread().name)(), 30)
        assert name.startswith("live-play-db")
    finally:
        release.set()
        await held
    # Turned off, it is the shared thread again (what the load test's baseline measures).
    settings.PLAY_DB_THREADS = 0
    shared = await database_sync_to_async(lambda: threading.current_thread().name)()
    assert await threads.live_play(lambda: threading.current_thread().name)() == shared


@pytest.mark.django_db
def test_replay_pages_wait_for_their_turn_then_say_the_server_is_busy(client, settings):
    settings.HEAVY_PAGES = 1
    settings.HEAVY_PAGES_WAIT = 0.2
    game = two_person_game()
    url = f"/play/g/{game.public_id}/replay/"
    with threads.heavy_work():  # another replay being made
        response = client.get(url)
    assert response.status_code == 503 and "The server is busy" in response.content.decode()
    assert client.get(url).status_code == 409  # its turn: the page itself (this game is not over)
    settings.HEAVY_PAGES = 0  # no bound
    with threads.heavy_work():
        assert client.get(url).status_code == 409


def test_the_switch_interval_is_a_setting(settings):
    import sys

    before = sys.getswitchinterval()
    try:
        settings.SERVER_SWITCH_INTERVAL = None
        assert threads.apply_switch_interval() == before  # left alone
        settings.SERVER_SWITCH_INTERVAL = 0.001
        assert threads.apply_switch_interval() == pytest.approx(0.001)
    finally:
        sys.setswitchinterval(before)
