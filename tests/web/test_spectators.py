"""Spectators rendered once, and sockets open at once limited (issue 28), through the real ASGI
application, the real Redis channel layer and the real PostgreSQL.

A crowd of spectators of one table cost one render of their page per connection per move; every
connection without a seat now shares its audience's render (``smashup.play.watching``). Sockets were
limited only as new connections per minute; now they hold a place per address and per game while
open (``smashup.core.opensockets``)."""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from smashup.asgi import application
from smashup.core import opensockets
from smashup.play import services, watching
from smashup.play.consumers import GameConsumer
from smashup.play.models import Game

from .play_helpers import SITE_HEADERS, error_code, status_attrs, two_person_game

pytestmark = [pytest.mark.django_db(transaction=True)]

TIMEOUT = 10
README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.fixture(autouse=True)
def _fast_clients(settings):
    settings.PLAY_WS_RATE = (100_000, 1.0)


async def open_socket(game: Game, query: str = "", address: str = "127.0.0.1") -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/games/{game.public_id}/?{query}", headers=SITE_HEADERS)
    comm.scope["client"] = (address, 50000)
    connected, code = await comm.connect(timeout=TIMEOUT)
    assert connected, code
    return comm


async def seat_query(game: Game, index: int, fmt: str = "html") -> str:
    def sign():
        return services.resume_link_token(game.seats.get(index=index))

    return f"token={await database_sync_to_async(sign)()}&format={fmt}"


def version_of(text: str) -> int | None:
    if text.startswith("{"):
        data = json.loads(text)
        return data.get("version") if data.get("type") == "state" else None
    attrs = status_attrs(text)
    return int(attrs["version"]) if attrs else None


async def until_version(comm: WebsocketCommunicator, version: int) -> str:
    while True:
        text = await comm.receive_from(timeout=TIMEOUT)
        if version_of(text) == version:
            return text


def first_option(game: Game) -> tuple[int, str, list[str]]:
    """The deciding seat, its decision and a legal answer (the first option, or none)."""
    game.refresh_from_db()
    with services.engine_game(game) as engine:
        pending = engine.pending
        return pending.seat, pending.id, [] if pending.may_decline else [pending.options[0].id]


# ---------------------------------------------------------------------------------- one render ---
@pytest.mark.asyncio
async def test_spectators_of_one_version_share_one_render_per_audience(monkeypatch):
    game = await database_sync_to_async(two_person_game)()
    seats = {
        i: await open_socket(game, await seat_query(game, i, "html" if i == 0 else "json")) for i in (0, 1)
    }
    audiences = ["format=html"] * 4 + ["format=json"] * 3 + ["watch=display"] * 2 + ["watch=hotseat"]
    crowd = [await open_socket(game, query) for query in audiences]
    for comm in [*seats.values(), *crowd]:
        assert version_of(await comm.receive_from(timeout=TIMEOUT)) == 0
    shared = watching.watchers()
    # Connecting one after the other, each read the row and all but the first of an audience found
    # their update made already.
    assert shared.renders.made == Counter({"page": 1, "json": 1, "display": 1, "hotseat": 1})
    hub = shared.hubs[game.pk]
    assert len(hub.members) == len(crowd)

    # Who is sent what, in order (the players of the table first).
    sent: list[tuple] = []
    real_send = GameConsumer.send

    async def recording_send(self, text_data=None, bytes_data=None, close=False):
        if text_data is not None and version_of(text_data) is not None:
            sent.append((self.seat, self.audience, version_of(text_data)))
        await real_send(self, text_data=text_data, bytes_data=bytes_data, close=close)

    monkeypatch.setattr(GameConsumer, "send", recording_send)
    for version in (1, 2, 3):
        before, sent_before = Counter(shared.renders.made), hub.sent
        seat, decision, options = await database_sync_to_async(first_option)(game)
        await seats[seat].send_json_to(
            {"type": "choice", "seq": version - 1, "decision": decision, "options": options}
        )
        texts = [await until_version(comm, version) for comm in crowd]
        for comm in seats.values():
            await until_version(comm, version)
        assert shared.renders.made - before == Counter({"page": 1, "json": 1, "display": 1, "hotseat": 1})
        assert hub.sent - sent_before == len(crowd)
        # The very same text for every connection of an audience.
        for kind in sorted(set(audiences)):
            assert len({t for t, q in zip(texts, audiences, strict=True) if q == kind}) == 1, kind
        of_version = [who for who in sent if who[2] == version]
        assert {who[0] for who in of_version[:2]} == {0, 1}, of_version  # the players first
        assert all(who[0] is None for who in of_version[2:])
    for comm in [*seats.values(), *crowd]:
        await comm.disconnect()
    assert game.pk not in shared.hubs  # the last watcher gone, the hub left the group


@pytest.mark.asyncio
async def test_a_crowd_connecting_at_once_reads_the_game_for_all_of_them():
    game = await database_sync_to_async(two_person_game)()
    shared = watching.watchers()
    comms = await asyncio.gather(*(open_socket(game, "format=html") for _ in range(12)))
    texts = [await comm.receive_from(timeout=TIMEOUT) for comm in comms]
    assert len(set(texts)) == 1 and version_of(texts[0]) == 0
    assert shared.renders.made["page"] == 1
    for comm in comms:
        await comm.disconnect()


@pytest.mark.asyncio
async def test_a_watcher_never_goes_back_to_an_older_state():
    """A refresh that joins a read begun before a newer update was sent shows nothing older."""
    game = await database_sync_to_async(two_person_game)()
    comm = await open_socket(game)
    assert version_of(await comm.receive_from(timeout=TIMEOUT)) == 0

    seat, decision, options = await database_sync_to_async(first_option)(game)
    await database_sync_to_async(services.submit_choice)(game.pk, seat, 0, decision, options)
    assert version_of(await comm.receive_from(timeout=TIMEOUT)) == 1
    older = watching.Shown(0, 0, "active", 0, "<div>old</div>")
    hub = watching.watchers().hubs[game.pk]
    (member,) = hub.members
    assert not await member.show_shared(older)
    assert not await member.show_shared(older, full=True)
    assert (member.shown_undos, member.shown_version) == (0, 1)
    assert await comm.receive_nothing(timeout=0.3)
    await comm.disconnect()


# ---------------------------------------------------------------------------------- open sockets --
async def refused(comm: WebsocketCommunicator) -> str | None:
    """The error text when the server refused the connection for the sockets open at once, else
    None (the connection is then left open)."""
    first = await comm.receive_output(timeout=TIMEOUT)
    text = first.get("text", "")
    code = json.loads(text).get("code") if text.startswith("{") else error_code(text)
    if first["type"] != "websocket.send" or code != "too_many_open":
        return None
    assert await comm.receive_output(timeout=TIMEOUT) == {
        "type": "websocket.close",
        "code": opensockets.CLOSE_TOO_MANY_OPEN,
    }
    return text


@pytest.mark.asyncio
async def test_sockets_open_at_once_are_limited_per_address_and_a_closed_one_frees_its_place(settings):
    settings.SOCKET_LIMITS = {"ws_open_address": 3}
    game = await database_sync_to_async(two_person_game)()
    held = [await open_socket(game, address="198.51.100.7") for _ in range(3)]
    for comm in held:
        assert await refused(comm) is None
    text = await refused(await open_socket(game, address="198.51.100.7"))
    assert text is not None and "Too many connections are open from this address (3)" in text
    # Game and event sockets count together.
    from tournaments import services as events
    from tournaments.models import Event

    def an_event() -> int:
        from django.contrib.auth import get_user_model

        organizer = get_user_model().objects.create_user("org")
        return events.create_event(organizer, name="Open sockets").pk

    event_path = f"/ws/events/{await database_sync_to_async(an_event)()}/"
    event_socket = WebsocketCommunicator(application, event_path, headers=SITE_HEADERS)
    event_socket.scope["client"] = ("198.51.100.7", 50000)
    assert (await event_socket.connect(timeout=TIMEOUT))[0]
    answer = json.loads(await event_socket.receive_from(timeout=TIMEOUT))
    assert answer["code"] == "too_many_open"
    assert await event_socket.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4503}
    assert await database_sync_to_async(Event.objects.count)() == 1
    # Another address has its own places; a closed socket gives its place back at once.
    other = await open_socket(game, address="198.51.100.8")
    assert await refused(other) is None
    await held.pop().disconnect()
    again = await open_socket(game, address="198.51.100.7")
    assert await refused(again) is None
    assert opensockets.counts().holding("ws_open_address", "198.51.100.7") == 3
    for comm in (*held, other, again):
        await comm.disconnect()
    assert opensockets.counts().holding("ws_open_address", "198.51.100.7") == 0


@pytest.mark.asyncio
async def test_spectators_of_one_game_are_limited_and_its_players_never_refused(settings):
    settings.SOCKET_LIMITS = {"ws_open_game": 2}
    game = await database_sync_to_async(two_person_game)()
    other_game = await database_sync_to_async(two_person_game)(seed=9)
    watchers = [await open_socket(game, query, address=f"198.51.100.{i}") for i, query in
                enumerate(["format=html", "watch=display"], start=1)]  # fmt: skip
    for comm in watchers:
        assert await refused(comm) is None
    text = await refused(await open_socket(game, "format=json", address="198.51.100.3"))
    assert text is not None and "as many spectators as it can take (2)" in text
    text = await refused(await open_socket(game, address="198.51.100.4"))
    assert text is not None and 'data-code="too_many_open"' in text  # the page's error fragment
    # The seats' own connections (and the other game's spectators) get in.
    players = [await open_socket(game, await seat_query(game, i), address="198.51.100.5") for i in (0, 1)]
    elsewhere = await open_socket(other_game, address="198.51.100.4")
    for comm in (*players, elsewhere):
        assert await refused(comm) is None
    # A refused socket held no place: after one spectator leaves, one more gets in, not two.
    await watchers.pop().disconnect()
    watchers.append(await open_socket(game, address="198.51.100.6"))
    assert await refused(watchers[-1]) is None
    assert await refused(await open_socket(game, address="198.51.100.7")) is not None
    for comm in (*watchers, *players, elsewhere):
        await comm.disconnect()


def readme_default(limit: str) -> str:
    """The default column of `limit`'s row in the README's "Limits per client" table."""
    rows = [line for line in README.read_text().splitlines() if line.startswith("|") and f"`{limit}`" in line]
    assert len(rows) == 1, rows
    return rows[0].split("|")[2].strip()


@pytest.mark.asyncio
async def test_the_open_socket_limits_hold_at_their_documented_defaults():
    """No setting changed: the README's figures are the code's, and the limits trip right there."""
    assert readme_default("ws_open_address") == "200 open at once"
    assert readme_default("ws_open_game") == "500 open at once"
    assert str(opensockets.CLOSE_TOO_MANY_OPEN) in README.read_text()
    counts = opensockets.OpenCounts(opensockets.LocalStore())
    holders = [type("Holder", (), {})() for _ in range(501)]
    for name, who, default in (("ws_open_address", "203.0.113.9", 200), ("ws_open_game", "17", 500)):
        assert all(counts.claim(h, name, who) for h in holders[:default])
        assert not counts.claim(holders[default], name, who)
        counts.release(holders[0])
        assert counts.claim(holders[default], name, who)
        for h in holders:
            counts.release(h)
        assert counts.holding(name, who) == 0


def test_open_counts_on_redis_add_up_over_processes_and_a_dead_process_stops_counting(redis_url):
    import time
    import uuid

    store_prefix = f"smashup-test-open-{uuid.uuid4().hex[:8]}:"
    stores = [opensockets.RedisStore(redis_url, store_prefix, token) for token in ("a", "b")]
    first, second = (opensockets.OpenCounts(store, token) for store, token in zip(stores, "ab", strict=True))
    holders = [type("Holder", (), {})() for _ in range(202)]
    who = "203.0.113.77"
    assert all(first.claim(h, "ws_open_address", who) for h in holders[:150])
    assert all(second.claim(h, "ws_open_address", who) for h in holders[150:200])
    assert not second.claim(holders[200], "ws_open_address", who)  # 150 + 50 open: the default, 200
    assert not first.claim(holders[200], "ws_open_address", who)
    first.release(holders[0])  # written by the first process's own thread, shortly
    deadline = time.monotonic() + TIMEOUT
    while not second.claim(holders[200], "ws_open_address", who):
        assert time.monotonic() < deadline, "a closed socket's place never came back"
        time.sleep(0.05)
    # The first process dies: its field is not renewed, and once past its time it stops counting.
    later = time.time() + opensockets.ttl() + 1
    assert second.claim(holders[201], "ws_open_address", who, now=later)
    key = store_prefix + opensockets.OpenCounts.key("ws_open_address", who)
    assert set(stores[1].client.hgetall(key)) == {b"b"}
    stores[1].client.delete(key)


def test_the_client_page_says_why_it_is_not_live():
    script = (Path(__file__).resolve().parents[2] / "static/js/play.js").read_text()
    assert re.search(r"code === 4503\) setState\(\"Not live: too many connections", script)
