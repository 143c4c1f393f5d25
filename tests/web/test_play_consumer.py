"""The game WebSocket through the real ASGI application (origin check, sessions, routing), the real
Redis channel layer and the real PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import random
import uuid

import pytest
from celery.contrib.testing.worker import start_worker
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils.html import escape

from smashup.asgi import application
from smashup.celery import app as celery_app
from smashup.engine import new_game
from smashup.engine.bots import heuristic_choice
from smashup.engine.invariants import card_ids_in, hidden_from
from smashup.play import services
from smashup.play.models import Game

from .play_helpers import (
    HOST,
    ORIGIN,
    SITE_HEADERS,
    eager_bots,
    error_code,
    html_card_ids,
    option_card_ids,
    option_values,
    person_vs_bot,
    snapshot,
    status_attrs,
    two_person_game,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TIMEOUT = 10


@pytest.fixture(autouse=True)
def _fast_clients(settings):
    """The tests drive games faster than people can click; the flood test sets its own limit."""
    settings.PLAY_WS_RATE = (100_000, 1.0)


async def connect(
    game: Game,
    *,
    token: str | None = None,
    fmt: str | None = None,
    cookie: str | None = None,
    origin=ORIGIN,
    host=HOST,
    seat: int | None = None,
) -> WebsocketCommunicator:
    query = []
    if token:
        query.append(f"token={token}")
    if fmt:
        query.append(f"format={fmt}")
    if seat is not None:
        query.append(f"seat={seat}")
    path = f"/ws/games/{game.public_id}/" + ("?" + "&".join(query) if query else "")
    headers = [h for h in (origin, host) if h]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=TIMEOUT)
    assert connected, f"refused ({code})"
    return comm


async def link_for(game: Game, index: int) -> str:
    def sign():
        return services.resume_link_token(game.seats.get(index=index))

    return await database_sync_to_async(sign)()


async def until(
    comm: WebsocketCommunicator, predicate, timeout: float = TIMEOUT, log: list | None = None
) -> str:
    """Receive messages until one satisfies `predicate` (each one is appended to `log`)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        remaining = deadline - loop.time()
        assert remaining > 0, "timed out waiting for a message"
        text = await comm.receive_from(timeout=remaining)
        if log is not None:
            log.append(text)
        if predicate(text):
            return text


def is_state(version: int | None = None, status: str | None = None):
    def check(text):
        attrs = status_attrs(text)
        if attrs is None:
            return False
        if version is not None and int(attrs["version"]) != version:
            return False
        return status is None or attrs["status"] == status

    return check


def is_error(code: str | None = None):
    def check(text):
        found = error_code(text)
        return found is not None and found != "ok" and (code is None or found == code)

    return check


async def refresh(game: Game) -> Game:
    await database_sync_to_async(game.refresh_from_db)()
    return game


async def snap(game: Game) -> tuple:
    return await database_sync_to_async(snapshot)(game)


async def drain(comm: WebsocketCommunicator, log: list, quiet: float = 0.3) -> None:
    """Collect messages until none comes for `quiet` seconds (without timing out the consumer)."""
    while not await comm.receive_nothing(timeout=quiet):
        log.append(await comm.receive_from(timeout=TIMEOUT))


# ---------------------------------------------------------------------------------- connecting ---
async def test_a_seat_connects_and_gets_its_own_view_and_decision():
    game = await database_sync_to_async(two_person_game)()
    seat = game.pending_seat
    comm = await connect(game, token=await link_for(game, seat))
    text = await comm.receive_from(timeout=TIMEOUT)
    attrs = status_attrs(text)
    assert attrs == {
        "version": "0",
        "status": "active",
        "seat": str(seat),
        "decision": game.pending_decision,
        "deciding": str(seat),
        "deadline": "",  # no turn timer
    }
    for fragment in ('id="decision"', 'id="bases"', 'id="hand"', 'id="players"', 'id="log-lines"'):
        assert fragment in text
    assert 'hx-swap-oob="true"' in text and 'hx-swap-oob="innerHTML"' in text
    assert option_values(text)  # the decision's buttons
    other = await connect(game, token=await link_for(game, 1 - seat))
    text = await other.receive_from(timeout=TIMEOUT)
    assert status_attrs(text)["decision"] == "" and not option_values(text)
    assert "Waiting for " in text  # who decides now (issue 13: "waiting for Bot 3")
    await comm.disconnect()
    await other.disconnect()


async def test_a_logged_in_user_and_a_guest_session_are_recognised():
    def setup():
        ada = get_user_model().objects.create_user("ada", password="pw-ada-123")
        game = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=9)
        services.claim_seat(game.pk, 0, user=ada)
        user_client = Client()
        user_client.force_login(ada)
        guest_client = Client()
        response = guest_client.post(f"/play/t/{game.public_id}/sit/1/", {"name": "Bob"})
        assert response.status_code == 302
        game.refresh_from_db()
        return game, user_client.cookies["sessionid"].value, guest_client.cookies["sessionid"].value

    game, user_cookie, guest_cookie = await database_sync_to_async(setup)()
    assert game.status == "active"
    ada = await connect(game, cookie=f"sessionid={user_cookie}")
    assert status_attrs(await ada.receive_from(timeout=TIMEOUT))["seat"] == "0"
    bob = await connect(game, cookie=f"sessionid={guest_cookie}")
    assert status_attrs(await bob.receive_from(timeout=TIMEOUT))["seat"] == "1"
    stranger = await connect(game)
    text = await stranger.receive_from(timeout=TIMEOUT)
    assert status_attrs(text)["seat"] == "" and 'id="hand"' not in text
    for comm in (ada, bob, stranger):
        await comm.disconnect()


async def test_refused_connections():
    game = await database_sync_to_async(two_person_game)()
    # Cross-origin: refused at the handshake.
    comm = WebsocketCommunicator(
        application, f"/ws/games/{game.public_id}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert not connected
    # No Origin header at all (not a browser on this site): refused too.
    comm = WebsocketCommunicator(application, f"/ws/games/{game.public_id}/")
    assert not (await comm.connect(timeout=TIMEOUT))[0]
    # An unknown game.
    comm = WebsocketCommunicator(application, "/ws/games/nosuchgame/", headers=SITE_HEADERS)
    connected, code = await comm.connect(timeout=TIMEOUT)
    assert not connected and code == 4404
    # A forged seat link: a clear error, then closed.
    comm = WebsocketCommunicator(
        application, f"/ws/games/{game.public_id}/?token=forged:link", headers=SITE_HEADERS
    )
    assert (await comm.connect(timeout=TIMEOUT))[0]
    text = await comm.receive_from(timeout=TIMEOUT)
    assert error_code(text) == "bad_link" and "not valid" in text
    assert (await comm.receive_output(timeout=TIMEOUT)) == {"type": "websocket.close", "code": 4403}
    # Another game's seat link.
    other = await database_sync_to_async(two_person_game)(seed=99)
    comm = WebsocketCommunicator(
        application, f"/ws/games/{game.public_id}/?token={await link_for(other, 0)}", headers=SITE_HEADERS
    )
    await comm.connect(timeout=TIMEOUT)
    assert "another game" in await comm.receive_from(timeout=TIMEOUT)


async def test_an_old_seat_link_cannot_play_the_bot_that_took_the_seat():
    """The creator started early: the free seat's link (sent to someone who never came) now names a
    bot seat. Connecting with it is refused like any bad link, and the bot's game goes on untouched."""

    def setup():
        game = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=3)
        services.claim_seat(game.pk, 0, guest_name="Ada")
        link = services.seat_link_token(game.seats.get(index=1))
        services.start_game(game.pk)
        game.refresh_from_db()
        return game, link

    game, old_link = await database_sync_to_async(setup)()
    before = await snap(game)
    bot_link = await link_for(game, 1)  # signed with the bot seat's current secret: refused too
    for link in (old_link, bot_link):
        path = f"/ws/games/{game.public_id}/?token={link}"
        comm = WebsocketCommunicator(application, path, headers=SITE_HEADERS)
        assert (await comm.connect(timeout=TIMEOUT))[0]
        text = await comm.receive_from(timeout=TIMEOUT)
        assert error_code(text) == "bad_link", text
        assert (await comm.receive_output(timeout=TIMEOUT)) == {"type": "websocket.close", "code": 4403}
    assert "played by a bot" in text
    assert await snap(game) == before


async def test_the_origin_check_names_hosts_and_trusted_origins_and_ignores_any_host(settings):
    """Even with ALLOWED_HOSTS = ['*'] (refused by smashup.config in production, but a settings file
    could still say it), a page of another site cannot open a game socket; a trusted origin can; and
    the page must have the scheme, host and port the socket was opened on, not just an allowed host."""
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["testserver", "*"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.org"]
    game = await database_sync_to_async(two_person_game)()

    async def handshake(origin: bytes, host: bytes = b"testserver", scheme: str = "ws") -> bool:
        path = f"/ws/games/{game.public_id}/"
        comm = WebsocketCommunicator(application, path, headers=[(b"origin", origin), (b"host", host)])
        comm.scope["scheme"] = scheme
        connected, _ = await comm.connect(timeout=TIMEOUT)
        if connected:
            await comm.disconnect()
        return connected

    assert not await handshake(b"https://evil.example")
    assert not await handshake(b"https://evil.example", host=b"evil.example")  # "*" counts for nothing
    assert await handshake(b"https://play.example.org")
    assert not await handshake(b"http://play.example.org")  # not the trusted scheme
    assert await handshake(b"http://testserver")
    # Scheme, host and port of the page must be those the socket was opened on.
    assert await handshake(b"http://testserver:8000", host=b"testserver:8000")
    assert not await handshake(b"http://testserver:9999", host=b"testserver:8000")  # another port
    assert not await handshake(b"http://testserver:8000")  # the socket came to port 80
    assert not await handshake(b"https://testserver")  # an https page, a plain ws socket
    assert await handshake(b"https://testserver", scheme="wss")
    assert not await handshake(b"http://testserver", scheme="wss")
    # Behind a TLS proxy that says so in the header SECURE_PROXY_SSL_HEADER names.
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    comm = WebsocketCommunicator(
        application,
        f"/ws/games/{game.public_id}/",
        headers=[
            (b"origin", b"https://testserver"),
            (b"host", b"testserver"),
            (b"x-forwarded-proto", b"https"),
        ],
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    await comm.disconnect()


# ---------------------------------------------------------------------------------- bad input ----
async def test_every_bad_message_gets_a_clear_error_and_changes_nothing():
    game = await database_sync_to_async(two_person_game)()
    seat = game.pending_seat
    mine = await connect(game, token=await link_for(game, seat))
    theirs = await connect(game, token=await link_for(game, 1 - seat))
    spectator = await connect(game)
    text = await mine.receive_from(timeout=TIMEOUT)
    await theirs.receive_from(timeout=TIMEOUT)
    await spectator.receive_from(timeout=TIMEOUT)
    decision, option = status_attrs(text)["decision"], option_values(text)[0]
    before = await snap(game)

    good = {"type": "choice", "seq": 0, "decision": decision, "options": [option]}
    cases = [
        (mine, "{not json", "malformed", "not JSON"),
        (mine, "[1, 2]", "malformed", "JSON object"),
        (mine, json.dumps({"type": "shout"}), "unknown_type", "Unknown message type"),
        (mine, json.dumps({"seq": 0}), "unknown_type", "Unknown message type"),
        (mine, "x" * 9000, "too_large", "too large"),
        (mine, json.dumps({**good, "seq": 5}), "stale", "moved on"),
        (mine, json.dumps({**good, "seq": "five"}), "bad_request", "seq"),
        (mine, json.dumps({**good, "decision": "d999"}), "stale", "already been answered"),
        (mine, json.dumps({**good, "options": ["no-such-option"]}), "illegal", "not allowed"),
        (mine, json.dumps({**good, "options": [1, 2]}), "bad_request", "options"),
        (theirs, json.dumps(good), "not_your_decision", "not yours"),
        (spectator, json.dumps(good), "spectator", "Spectators"),
    ]
    for comm, raw, code, words in cases:
        await comm.send_to(text_data=raw)
        text = await until(comm, is_error())
        assert error_code(text) == code, (raw[:60], text)
        assert words in text
        assert 'role="alert"' in text
        assert await snap(game) == before, raw[:60]
        await drain(comm, [], quiet=0.1)  # the resync sent after a stale choice
    await mine.send_to(bytes_data=b"\x00\x01")
    assert error_code(await mine.receive_from(timeout=TIMEOUT)) == "bad_request"
    assert await snap(game) == before
    # Nobody else heard of any of it: no group ping was sent.
    assert await spectator.receive_nothing(timeout=0.3)
    # The right choice, in htmx's form shape (strings, a single option, HEADERS), still lands.
    await mine.send_to(
        text_data=json.dumps(
            {
                "type": "choice",
                "seq": "0",
                "decision": decision,
                "options": option,
                "HEADERS": {"HX-Request": "true"},
            }
        )
    )
    text = await until(mine, lambda t: error_code(t) == "ok")
    assert await until(spectator, is_state(version=1))
    assert (await snap(game))[0] == 1
    for comm in (mine, theirs, spectator):
        await comm.disconnect()


async def test_a_json_connection_gets_json_errors_and_states():
    game = await database_sync_to_async(two_person_game)()
    seat = game.pending_seat
    comm = await connect(game, token=await link_for(game, seat), fmt="json")
    state = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert state["type"] == "state" and state["version"] == 0 and state["seat"] == seat
    pending = state["view"]["pending"]
    assert pending["id"] == game.pending_decision and pending["options"]
    await comm.send_to(text_data="nope")
    assert json.loads(await comm.receive_from(timeout=TIMEOUT)) == {
        "type": "error",
        "code": "malformed",
        "message": "Malformed message: it is not JSON.",
    }
    option = pending["options"][0]["id"]
    await comm.send_to(
        text_data=json.dumps({"type": "choice", "seq": 0, "decision": pending["id"], "options": [option]})
    )
    replies = [json.loads(await comm.receive_from(timeout=TIMEOUT)) for _ in range(2)]
    assert {"type": "ok", "version": 1} in replies
    assert any(r["type"] == "state" and r["version"] == 1 for r in replies)
    await comm.disconnect()


async def test_a_flood_is_refused_with_a_clear_error_then_closed(settings):
    settings.PLAY_WS_RATE = (5, 60.0)
    game = await database_sync_to_async(two_person_game)()
    comm = await connect(game)
    await comm.receive_from(timeout=TIMEOUT)
    before = await snap(game)
    for _ in range(5):
        await comm.send_to(text_data=json.dumps({"type": "shout"}))
        assert error_code(await comm.receive_from(timeout=TIMEOUT)) == "unknown_type"
    await comm.send_to(text_data=json.dumps({"type": "refresh"}))
    text = await comm.receive_from(timeout=TIMEOUT)
    assert error_code(text) == "rate_limited" and "Too many messages" in text
    for _ in range(4):  # more of the same: dropped silently (refusals 2 to 5 of at most 5)
        await comm.send_to(text_data=json.dumps({"type": "refresh"}))
    assert await comm.receive_nothing(timeout=0.3)
    await comm.send_to(text_data="{}")  # the sixth refusal: closed
    text = await comm.receive_from(timeout=TIMEOUT)
    assert error_code(text) == "rate_limited" and "connection is closed" in text
    assert await comm.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4029}
    assert await snap(game) == before


def planned_choices(game: Game, seat: int, count: int) -> list[dict]:
    """Real choices of `seat` from the start of `game` (heuristic, on an engine copy), as messages,
    while the decisions stay that seat's."""
    engine = new_game(game.config, game.seed)
    rng = random.Random(2)
    messages = []
    while engine.pending is not None and engine.pending.seat == seat and len(messages) < count:
        ids = heuristic_choice(engine, rng)
        decision = engine.pending.id
        messages.append({"type": "choice", "seq": len(engine.choices), "decision": decision, "options": ids})
        engine.apply(seat, engine.pending.id, ids)
    return messages


async def test_a_flood_of_real_choices_is_closed_and_only_the_choices_within_the_limit_land(settings):
    """A seat sends its real choices (each one legal when its turn comes), every one many times over,
    as fast as it can. The connection is refused, then closed, with a clear error; what landed is
    exactly a prefix of those choices, no more than the limit, and the game is that prefix's state."""
    settings.PLAY_WS_RATE = (5, 60.0)
    game = await database_sync_to_async(two_person_game)(seed=7)
    seat = game.pending_seat
    plan = await database_sync_to_async(planned_choices)(game, seat, 8)
    assert len(plan) >= 3
    comm = await connect(game, token=await link_for(game, seat), fmt="json")
    await comm.receive_from(timeout=TIMEOUT)
    flood = [message for message in plan for _ in range(2)] * 10  # 2 copies each, all again, 10 times
    for message in flood:
        await comm.send_to(text_data=json.dumps(message))
    received = []
    while True:
        output = await comm.receive_output(timeout=TIMEOUT)
        if output["type"] == "websocket.close":
            assert output["code"] == 4029
            break
        received.append(json.loads(output["text"]))
    errors = [m for m in received if m["type"] == "error"]
    assert errors[-1] == {
        "type": "error",
        "code": "rate_limited",
        "message": "Too many messages: this connection is closed.",
    }
    assert any("at most 5 every 60 seconds" in m["message"] for m in errors)
    landed = [m for m in received if m["type"] == "ok"]
    assert 1 <= len(landed) <= 5
    row = await refresh(game)
    assert row.version == len(landed)

    def record_and_state():
        record = [c.as_record() for c in row.choices.in_record().order_by("seq")]
        engine = new_game(row.config, row.seed)
        for message in plan[: row.version]:
            engine.apply(seat, message["decision"], message["options"])
        return record, engine.digest()

    record, digest = await database_sync_to_async(record_and_state)()
    assert record == [[seat, m["decision"], m["options"]] for m in plan[: row.version]]
    assert row.state_hash == digest
    # Coming back at once with a new connection does not buy a fresh budget: refused, clearly.
    comm = WebsocketCommunicator(
        application,
        f"/ws/games/{game.public_id}/?format=json&token={await link_for(game, seat)}",
        headers=SITE_HEADERS,
    )
    assert (await comm.connect(timeout=TIMEOUT))[0]
    message = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert message["code"] == "rate_limited" and "Too many connections" in message["message"]
    assert await comm.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4029}
    assert await snap(game) == (row.version, row.status, row.state_hash, row.version)


async def test_each_client_may_open_only_so_many_connections(settings):
    settings.RATE_LIMITS = {"ws_connect_address": (3, 60.0)}  # no session: counted by its address
    game = await database_sync_to_async(two_person_game)()

    async def open_from(address: str) -> tuple[WebsocketCommunicator, str]:
        comm = WebsocketCommunicator(application, f"/ws/games/{game.public_id}/", headers=SITE_HEADERS)
        comm.scope["client"] = (address, 50000)
        assert (await comm.connect(timeout=TIMEOUT))[0]
        return comm, await comm.receive_from(timeout=TIMEOUT)

    opened = []
    for _ in range(3):
        comm, text = await open_from("198.51.100.7")
        assert status_attrs(text) is not None  # a spectator's page
        opened.append(comm)
    await opened[0].disconnect()  # closing one does not give it back within the window
    comm, text = await open_from("198.51.100.7")
    assert error_code(text) == "rate_limited" and "Too many connections" in text
    assert await comm.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4029}
    other, text = await open_from("198.51.100.8")  # another address has its own count
    assert status_attrs(text) is not None
    for comm in (*opened[1:], other):
        await comm.disconnect()


# ---------------------------------------------------------------------------------- playing ------
async def test_reconnecting_mid_decision_shows_the_same_decision():
    game = await database_sync_to_async(two_person_game)()
    token = await link_for(game, game.pending_seat)
    first = await connect(game, token=token)
    text = await first.receive_from(timeout=TIMEOUT)
    await first.disconnect()  # the phone drops off...
    second = await connect(game, token=token)  # ...and comes back
    again = await second.receive_from(timeout=TIMEOUT)
    assert status_attrs(again) == status_attrs(text)
    assert option_values(again) == option_values(text)
    # And can answer it.
    await second.send_to(
        text_data=json.dumps(
            {
                "type": "choice",
                "seq": 0,
                "decision": status_attrs(text)["decision"],
                "options": [option_values(text)[0]],
            }
        )
    )
    await until(second, is_state(version=1))
    await second.disconnect()


async def test_a_choice_and_its_pings_never_queue_on_the_database_thread(monkeypatch):
    """Channels' dispatch would hop to its one database thread before every message (to close stale
    connections), and a ping sent from that thread would hold it until the event loop got round to
    it: at a busy server every table then waits behind every other table's queries."""
    import channels.consumer

    hops = []

    async def hop():
        hops.append(1)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", hop)
    sent_from = []
    real_notify = services.notify

    def notify(*args, **kwargs):
        sent_from.append(getattr(services._deferred, "events", None) is not None)
        return real_notify(*args, **kwargs)

    from smashup.play import commits

    monkeypatch.setattr(commits, "notify", notify)  # where the choice calls it
    game = await database_sync_to_async(two_person_game)()
    seat = game.pending_seat
    chooser = await connect(game, token=await link_for(game, seat), fmt="json")
    watcher = await connect(game, fmt="json")
    state = json.loads(await chooser.receive_from(timeout=TIMEOUT))
    await watcher.receive_from(timeout=TIMEOUT)
    sent_from.clear()  # the pings of setting the table up
    pending = state["view"]["pending"]
    await chooser.send_to(
        text_data=json.dumps(
            {"type": "choice", "seq": 0, "decision": pending["id"], "options": [pending["options"][0]["id"]]}
        )
    )
    for comm in (chooser, watcher):
        await until(comm, lambda text: json.loads(text).get("version") == 1)
    assert hops == []
    assert sent_from == [True], "the ping of a choice is collected on the database thread, sent by the loop"
    await chooser.disconnect()
    await watcher.disconnect()


async def test_a_stale_connection_is_told_and_closed_when_its_game_is_deleted():
    game = await database_sync_to_async(two_person_game)()
    comm = await connect(game)
    await comm.receive_from(timeout=TIMEOUT)
    pk = game.pk
    await database_sync_to_async(Game.objects.filter(pk=pk).delete)()
    await database_sync_to_async(services.notify)(pk, 99, "active")
    text = await comm.receive_from(timeout=TIMEOUT)
    assert error_code(text) == "not_found" and "no longer exists" in text
    assert await comm.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4404}


async def test_a_person_plays_a_bot_through_the_consumer_to_the_end():
    with eager_bots():
        game = await database_sync_to_async(person_vs_bot)(seed=4)
        comm = await connect(game, token=await link_for(game, 0))
        spectator = await connect(game)
        rng = random.Random(3)
        text = await comm.receive_from(timeout=TIMEOUT)
        moves = 0
        while True:
            attrs = status_attrs(text) if status_attrs(text) else None
            if attrs and attrs["status"] == "finished":
                break
            if attrs and attrs["decision"]:
                version = int(attrs["version"])
                row = await refresh(game)
                assert row.version == version
                engine = await database_sync_to_async(services.game_at)(row, version)
                ids = heuristic_choice(engine, rng)
                # What the engine offers is on the page (a second copy of a card shares its buttons).
                for option in engine.pending.options:
                    if option.id in ids:
                        assert option.id in option_values(text) or escape(option.label) in text
                await comm.send_to(
                    text_data=json.dumps(
                        {"type": "choice", "seq": version, "decision": attrs["decision"], "options": ids}
                    )
                )
                moves += 1
                assert moves < 2000
            text = await comm.receive_from(timeout=TIMEOUT)
            assert error_code(text) in (None, "ok"), text
        assert "Game over" in text
        row = await refresh(game)
        assert row.is_finished and row.winner is not None
        counts = await database_sync_to_async(
            lambda: (row.choices.filter(by_bot=True).count(), row.choices.filter(by_bot=False).count())
        )()
        assert counts[0] > 0 and counts[1] == moves
        await until(spectator, is_state(status="finished"))
        await comm.disconnect()
        await spectator.disconnect()


async def test_two_bots_play_to_the_end_through_a_real_worker_while_a_spectator_watches(settings, redis_url):
    settings.PLAY_BOT_QUEUE = queue = f"test-play-{uuid.uuid4().hex}"
    settings.PLAY_BOT_DELAY = 0  # one task plays on (the services tests cover one task per move)
    worker = start_worker(
        celery_app, perform_ping_check=False, queues=[queue], shutdown_timeout=30, pool="solo"
    )
    await database_sync_to_async(worker.__enter__)()
    try:
        game = await database_sync_to_async(services.create_game)(
            [services.SeatSpec("bot"), services.SeatSpec("bot")], seed=21
        )
        spectator = await connect(game)
        seen: list[str] = []
        await until(spectator, is_state(status="finished"), timeout=240, log=seen)
        versions = [int(status_attrs(t)["version"]) for t in seen if status_attrs(t)]
        assert versions == sorted(versions) and len(versions) > 1  # it watched the game go by
        await spectator.disconnect()
    finally:
        await database_sync_to_async(worker.__exit__)(None, None, None)
    row = await refresh(game)
    assert row.is_finished and row.winner is not None


async def test_simultaneous_choices_from_two_connections_of_one_seat_land_once():
    game = await database_sync_to_async(two_person_game)()
    token = await link_for(game, game.pending_seat)
    a, b = await connect(game, token=token), await connect(game, token=token)
    text = await a.receive_from(timeout=TIMEOUT)
    await b.receive_from(timeout=TIMEOUT)
    decision, options = status_attrs(text)["decision"], option_values(text)
    await asyncio.gather(
        a.send_to(
            text_data=json.dumps({"type": "choice", "seq": 0, "decision": decision, "options": [options[0]]})
        ),
        b.send_to(
            text_data=json.dumps({"type": "choice", "seq": 0, "decision": decision, "options": [options[-1]]})
        ),
    )
    logs: dict = {"a": [], "b": []}
    await drain(a, logs["a"], quiet=1.0)
    await drain(b, logs["b"], quiet=1.0)
    codes = [error_code(t) for t in logs["a"] + logs["b"] if error_code(t)]
    assert codes.count("ok") == 1 and codes.count("stale") == 1, codes
    assert (await snap(game))[0] == 1


# ---------------------------------------------------------------------------------- hidden cards -
def people_game(seats: int, seed: int, specials: str, end_after_bases: int | None = None) -> Game:
    """A started game of `seats` guests (two Core factions each, none twice), bases from every set."""
    pairs = [["Aliens", "Ninjas"], ["Pirates", "Robots"], ["Wizards", "Zombies"], ["Dinosaurs", "Tricksters"]]
    game = services.create_game(
        [services.SeatSpec("person", pairs[i]) for i in range(seats)],
        seed=seed,
        specials=specials,
        base_sets="all",
        end_after_bases=end_after_bases,
    )
    for i in range(seats):
        services.claim_seat(game.pk, i, guest_name=f"Player {i + 1}")
    game.refresh_from_db()
    return game


@pytest.mark.parametrize(
    "seats, specials, seed, end_after_bases",
    # The bigger tables end after two bases (the tournament rule) to keep the run short.
    [(2, "fast", 12, None), (2, "ask", 14, None), (3, "fast", 6, 2), (4, "ask", 11, 2)],
    ids=["2-fast", "2-ask", "3-fast", "4-ask"],
)
async def test_no_message_to_a_seat_or_a_spectator_ever_names_a_card_it_may_not_see(
    seats, specials, seed, end_after_bases, monkeypatch
):
    """Play a whole game between people, each seat driven over its own socket (HTML for even seats,
    JSON for odd ones), with an HTML and a JSON spectator and the table display watching (the
    watchers share one render per audience, issue 28). Every message each connection receives is
    checked against the engine's hidden set for that connection at the version the message shows:
    every card id it names (data-card, minion element ids, option values, the decision's source; in
    JSON the "id"/"card"/"source" keys and option ids). And every message sent through the channel
    layer's groups (the players' and the watchers') is a public ping: no card, no view."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    real_group_send = layer.group_send
    group_messages: list[tuple[str, dict]] = []

    async def recording_group_send(group, message):
        group_messages.append((group, message))
        await real_group_send(group, message)

    monkeypatch.setattr(layer, "group_send", recording_group_send, raising=False)
    game = await database_sync_to_async(people_game)(seats, seed, specials, end_after_bases)
    fmts = {i: "html" if i % 2 == 0 else "json" for i in range(seats)}
    conns = {}
    for i in range(seats):
        conns[(f"seat{i}", i, fmts[i])] = await connect(game, token=await link_for(game, i), fmt=fmts[i])
    conns[("spec", None, "html")] = await connect(game)
    conns[("specj", None, "json")] = await connect(game, fmt="json")
    display = WebsocketCommunicator(application, f"/ws/games/{game.public_id}/?watch=display", SITE_HEADERS)
    assert (await display.connect(timeout=TIMEOUT))[0]
    conns[("display", None, "html")] = display
    logs: dict = {key: [] for key in conns}
    # The test's own copy of the game, kept in step with the server's, for the hidden sets.
    engine = new_game(game.config, game.seed)
    viewers = [None, *range(seats)]
    hidden: dict[int, dict] = {}

    def remember():
        hidden[len(engine.choices)] = {s: hidden_from(engine, s) for s in viewers}

    remember()
    rng = random.Random(5)
    by_seat = {i: (f"seat{i}", i, fmts[i]) for i in range(seats)}
    while engine.pending is not None:
        version = len(engine.choices)
        key = by_seat[engine.pending.seat]
        comm = conns[key]
        if key[2] == "html":
            await until(
                comm,
                lambda t, v=version: (
                    (status_attrs(t) or {}).get("version") == str(v) and bool(status_attrs(t)["decision"])
                ),
                log=logs[key],
            )
        else:
            await until(
                comm,
                lambda t, v=version: (
                    json.loads(t).get("version") == v
                    and json.loads(t).get("type") == "state"
                    and "options" in (json.loads(t)["view"]["pending"] or {})
                ),
                log=logs[key],
            )
        ids = heuristic_choice(engine, rng)
        await comm.send_to(
            text_data=json.dumps(
                {"type": "choice", "seq": version, "decision": engine.pending.id, "options": ids}
            )
        )
        engine.apply(engine.pending.seat, engine.pending.id, ids)
        remember()
        assert len(engine.choices) < 3000
    for key, comm in conns.items():
        await drain(comm, logs[key], quiet=0.5)
        await comm.disconnect()
    row = await refresh(game)
    assert row.is_finished and row.state_hash == engine.digest()

    scanned = 0
    own_cards_seen = 0
    option_cards_seen = 0
    for (name, seat, fmt), messages in logs.items():
        assert messages, name
        for text in messages:
            if fmt == "html":
                attrs = status_attrs(text)
                if attrs is None:
                    assert not html_card_ids(text), (name, text)  # errors/acks carry no cards
                    continue
                version, ids = int(attrs["version"]), html_card_ids(text)
                option_cards_seen += len(option_card_ids(text))
            else:
                data = json.loads(text)
                if data["type"] != "state":
                    assert not card_ids_in(text)
                    continue
                version, ids = data["version"], card_ids_in(text)
                pending = data["view"]["pending"] or {}
                option_cards_seen += sum(1 for o in pending.get("options", []) if o["id"][0] in "macts")
            leaked = ids & hidden[version][seat]
            assert not leaked, f"{name} saw hidden cards {sorted(leaked)} at version {version}"
            scanned += len(ids)
            if seat is not None:
                # The scan does see hand cards: this seat's own hand is hidden from the next seat.
                own_cards_seen += len(ids & hidden[version][(seat + 1) % seats])
    assert scanned > 1000
    assert own_cards_seen > 100, "the scan never saw a hand card: it could not catch a leak"
    assert option_cards_seen > 100, "the scan never read an option's card: it could not catch a leak"

    # The panels that sum up what happened (issue 26: "since your last turn", scoring summaries) are
    # words, not card ids: no private log line of another seat (what they drew, a hand looked at)
    # may be in any message an HTML connection gets.
    panels = {"since": 0, "scored": 0}
    for (name, seat, fmt), messages in logs.items():
        if fmt != "html":
            continue
        readable = {text for text, to in engine.log_lines if to is None or (seat is not None and seat in to)}
        secret = {escape(text) for text, to in engine.log_lines if to is not None and seat not in to} - {
            escape(text) for text in readable
        }
        assert secret, "no private line to look for: the check could not catch a leak"
        for text in messages:
            panels["since"] += text.count('class="since-turn')
            panels["scored"] += text.count('class="panel scored"')
            leaked = [line for line in secret if line in text]
            assert not leaked, f"{name} was sent another seat's private log lines: {leaked[:3]}"
    assert panels["since"] and panels["scored"], f"the panels were never sent: {panels}"
    # What went through the groups: pings of public fields only, each to the players' group and then
    # the watchers'. Two choices' pings may interleave (each is sent from its own thread), so each
    # ping's groups are read by the ping (`notify` sends one event to both).
    ours = [(group, message) for group, message in group_messages if group.startswith(f"play.game.{game.pk}")]
    sent_to: dict[int, list[str]] = {}
    pings = {}
    for group, message in ours:
        sent_to.setdefault(id(message), []).append(group)
        pings[id(message)] = message
    assert len(pings) > 10
    groups = [f"play.game.{game.pk}", f"play.game.{game.pk}.watch"]
    for key, ping in pings.items():
        assert sent_to[key] == groups, sent_to[key]
        assert set(ping) <= {"type", "version", "status", "undos", "row"} and ping["type"] == "game.changed"
        assert set(ping.get("row") or {}) <= set(services.LIVE_FIELDS)
        assert not card_ids_in(json.dumps(ping))
