"""Limits per client that cannot be walked around (issue 12): per session AND per address, sockets
of games and events alike, the POST fallback of the game page, logins, anonymous sign-ups; the client's
address from X-Forwarded-For only behind a trusted proxy; and every limit letting people in when the
cache (Redis) fails."""

from __future__ import annotations

import json
import logging

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from smashup.asgi import application
from smashup.core import limits
from tournaments import services as events
from tournaments.models import Entrant

from .play_helpers import (
    SITE_HEADERS,
    error_code,
    option_values,
    seated_client,
    status_attrs,
    two_person_game,
)

TIMEOUT = 10


# ---------------------------------------------------------------------------------- pure parts ---
def test_rates_come_from_the_settings_and_one_knob_scales_them_all(settings):
    settings.PLAY_WS_RATE = (40, 10.0)
    settings.RATE_LIMITS = {"login_username": (3, 60.0)}
    settings.RATE_LIMIT_SCALE = 1
    assert limits.rate("login_username") == (3, 60.0)
    assert limits.rate("signup_address") == limits.DEFAULT_RATES["signup_address"]
    assert limits.rate("ws_connect_session") == (40, 10.0)  # no PLAY_WS_CONNECT_RATE: as messages
    settings.RATE_LIMIT_SCALE = 1000
    assert limits.rate("login_username") == (3000, 60.0)
    assert limits.rate("ws_message") == (40_000, 10.0)
    assert limits.rate("ws_connect_address")[0] == 1000 * limits.DEFAULT_RATES["ws_connect_address"][0]


def test_the_address_is_the_peer_unless_the_peer_is_a_trusted_proxy():
    forwarded = "198.51.100.9, 203.0.113.7"
    # Never trusted by default: anyone can write the header.
    assert limits.client_address("203.0.113.50", forwarded, proxies=[]) == "203.0.113.50"
    # From a proxy that is not ours: the peer, whatever the header says.
    assert limits.client_address("203.0.113.50", forwarded, proxies=["10.0.0.0/8"]) == "203.0.113.50"
    # From our proxy: the last address that is not one of ours, read from the right (what the
    # client wrote itself, further left, is not believed).
    assert limits.client_address("10.0.0.5", forwarded, proxies=["10.0.0.0/8"]) == "203.0.113.7"
    assert limits.client_address("10.0.0.5", "198.51.100.9, 10.0.0.7", proxies=["10.0.0.0/8"]) == (
        "198.51.100.9"
    )
    assert limits.client_address("10.0.0.5", None, proxies=["10.0.0.0/8"]) == "10.0.0.5"
    assert limits.client_address(None, forwarded, proxies=["10.0.0.0/8"]) is None


def test_an_ipv6_client_counts_by_its_64_network():
    assert limits.address_key("2001:db8:1:2:aaaa::1") == limits.address_key("2001:db8:1:2:ffff::9")
    assert limits.address_key("2001:db8:1:2::1") != limits.address_key("2001:db8:1:3::1")
    assert limits.address_key("::ffff:198.51.100.4") == "198.51.100.4"
    assert limits.address_key("198.51.100.4") == "198.51.100.4"
    assert limits.address_key(None) is None


def test_the_message_budget_closes_a_steady_flood_just_over_the_limit():
    """A limit that forgot its refusals at every accepted message never closed a client sending a
    little faster than allowed. The budget keeps them."""
    now = [0.0]
    budget = limits.MessageBudget(40, 10.0, clock=lambda: now[0])
    sent = 0
    while not budget.exhausted:
        budget.take()
        sent += 1
        now[0] += 10.0 / 44  # 44 messages every 10 seconds: 10 % over the limit
        assert sent < 10_000, "never closed"
    assert budget.refused == 41
    # At the limit, a client is never refused, however long it goes on.
    now = [0.0]
    steady = limits.MessageBudget(40, 10.0, clock=lambda: now[0])
    for _ in range(5000):
        assert steady.take()
        now[0] += 10.0 / 40
    # A burst of the whole budget at once is fine; one more is refused, and waiting refills it.
    now = [0.0]
    burst = limits.MessageBudget(5, 10.0, clock=lambda: now[0])
    assert all(burst.take() for _ in range(5)) and not burst.take() and burst.refused == 1
    now[0] += 2.0  # one token back
    assert burst.take() and not burst.take() and burst.refused == 2  # the count was not cleared


class _Session:
    def __init__(self, key):
        self.session_key = key


def _scope(address: str | None, session: str | None = None) -> dict:
    scope: dict = {"headers": []}
    if address:
        scope["client"] = (address, 40000)
    if session:
        scope["session"] = _Session(session)
    return scope


def test_socket_connections_count_per_session_and_per_address_and_slide(settings):
    settings.PLAY_WS_CONNECT_RATE = (3, 60.0)
    settings.RATE_LIMITS = {"ws_connect_address": (5, 60.0)}
    t = 1_000_020.0  # 20 s into a window
    assert all(limits.connection_allowed(_scope("198.51.100.1", "s1"), now=t) for _ in range(3))
    assert not limits.connection_allowed(_scope("198.51.100.1", "s1"), now=t)  # the session's 4th
    # A new session (a seat link's GET makes one) is a fresh session count, not a fresh address count.
    assert limits.connection_allowed(_scope("198.51.100.1", "s2"), now=t)
    assert not limits.connection_allowed(_scope("198.51.100.1", "s3"), now=t)  # the address's 6th
    assert not limits.connection_allowed(_scope("198.51.100.1"), now=t)
    assert limits.connection_allowed(_scope("198.51.100.2", "s9"), now=t)  # another address
    # 50 s later (a new window, the last one mostly still in reach): still refused; a full window
    # after the last attempts: allowed again.
    assert not limits.connection_allowed(_scope("198.51.100.1", "s4"), now=t + 50)
    assert limits.connection_allowed(_scope("198.51.100.1", "s4"), now=t + 125)
    # A client closed for flooding gets no connection for a window.
    limits.mark_flooding(limits.client_key(_scope("198.51.100.3", "s5")))
    assert not limits.connection_allowed(_scope("198.51.100.3", "s5"), now=t + 125)
    assert limits.client_key(_scope("203.0.113.5")) == "ip:203.0.113.5"
    assert limits.client_key(_scope("203.0.113.5", "abc")) == "session:abc"
    assert limits.client_key({}) == "ip:unknown"


def test_a_socket_behind_a_trusted_proxy_counts_by_its_forwarded_address(settings):
    settings.RATE_LIMITS = {"ws_connect_address": (1, 60.0)}

    def scope(forwarded):
        return {"client": ("10.0.0.5", 1), "headers": [(b"x-forwarded-for", forwarded.encode())]}

    assert limits.connection_allowed(scope("198.51.100.1"))
    assert not limits.connection_allowed(scope("198.51.100.2"))  # not trusted: both are 10.0.0.5
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert limits.connection_allowed(scope("198.51.100.3"))
    assert limits.connection_allowed(scope("198.51.100.4"))
    assert not limits.connection_allowed(scope("198.51.100.4"))


class BrokenCache:
    """A cache whose server is gone: every call raises, as django-redis's does during an outage."""

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

        return fail


# ---------------------------------------------------------------------------------- logins ------
def _login(client, username, password, **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def _logged_in(client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.django_db
def test_logins_are_throttled_per_address(settings):
    settings.RATE_LIMITS = {"login_address": (3, 300.0)}
    get_user_model().objects.create_user("ada", password="correct horse")
    client = Client(REMOTE_ADDR="198.51.100.1")
    for name in ("bob", "cy", "dee"):  # three tries, each a different user name
        assert _login(client, name, "guess").status_code == 200  # the form again, with its error
    response = _login(client, "ada", "correct horse")  # the right password, but too many tries
    assert response.status_code == 429 and response["Retry-After"] == "300"
    text = response.content.decode()
    assert "Too many attempts to log in from this address" in text and "5 minutes" in text
    assert not _logged_in(client)  # nothing changed: the password was not even checked
    other = Client(REMOTE_ADDR="198.51.100.2")
    assert _login(other, "ada", "correct horse").status_code == 302 and _logged_in(other)


@pytest.mark.django_db
def test_failed_logins_are_throttled_per_user_name_from_any_address(settings):
    settings.RATE_LIMITS = {"login_username": (3, 900.0)}
    get_user_model().objects.create_user("ada", password="correct horse")
    get_user_model().objects.create_user("bob", password="battery staple")
    for i, name in enumerate(["ada", "ADA", "ada"]):  # spread over addresses, case changed
        assert _login(Client(REMOTE_ADDR=f"198.51.100.{i + 1}"), name, "guess").status_code == 200
    client = Client(REMOTE_ADDR="198.51.100.9")
    response = _login(client, "ada", "correct horse")
    assert response.status_code == 429
    assert "for this user name" in response.content.decode() and not _logged_in(client)
    assert _login(client, "bob", "battery staple").status_code == 302 and _logged_in(client)


@pytest.mark.django_db
def test_x_forwarded_for_counts_only_from_a_trusted_proxy(settings):
    settings.RATE_LIMITS = {"login_address": (2, 300.0)}
    get_user_model().objects.create_user("ada", password="correct horse")
    for i in range(2):
        _login(Client(REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}"), "x", "y")
    refused = _login(
        Client(REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="198.51.100.7"), "ada", "correct horse"
    )
    assert refused.status_code == 429  # a header anyone can write bought nothing
    settings.TRUSTED_PROXIES = ["10.0.0.1"]
    behind = [Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}") for i in range(3)]
    for client in behind[:2]:
        _login(client, "x", "y")
    assert _login(behind[2], "ada", "correct horse").status_code == 302  # another client


# ---------------------------------------------------------------------------------- sign-ups ----
def _event():
    organizer = get_user_model().objects.create_user("org", password="pw-org")
    return events.create_event(organizer, name="Friday Smash")


@pytest.mark.django_db
def test_anonymous_sign_ups_are_limited_per_address(settings):
    settings.RATE_LIMITS = {"signup_address": (2, 3600.0)}
    event = _event()
    url = f"/tournaments/{event.pk}/signup/"
    for name in ("Ada", "Bea"):  # two browsers behind one address
        assert Client(REMOTE_ADDR="198.51.100.1").post(url, {"name": name}).status_code == 302
    response = Client(REMOTE_ADDR="198.51.100.1").post(url, {"name": "Cy"})
    assert response.status_code == 429 and response["Retry-After"] == "3600"
    assert "Too many sign-ups from this address" in response.content.decode()
    htmx = Client(REMOTE_ADDR="198.51.100.1").post(url, {"name": "Cy"}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 429 and 'role="alert"' in htmx.content.decode()
    assert "<html" not in htmx.content.decode()  # a fragment, not a page
    assert sorted(Entrant.objects.filter(event=event).values_list("name", flat=True)) == ["Ada", "Bea"]
    # Another address, and a player with an account, sign up as before.
    assert Client(REMOTE_ADDR="198.51.100.2").post(url, {"name": "Dee"}).status_code == 302
    member = Client(REMOTE_ADDR="198.51.100.1")
    member.force_login(get_user_model().objects.create_user("eve", password="pw-eve"))
    assert member.post(url, {"name": ""}).status_code == 302
    assert Entrant.objects.filter(event=event).count() == 4


# ---------------------------------------------------------------------------------- POST fallback -
@pytest.mark.django_db
def test_the_choice_fallback_is_limited_per_session(settings):
    settings.RATE_LIMITS = {"play_post_session": (2, 60.0)}
    game = two_person_game()
    seat = game.pending_seat
    client = seated_client(game, seat, Client(REMOTE_ADDR="198.51.100.1"))
    option = option_values(client.get(f"/play/g/{game.public_id}/").content.decode())[0]
    url = f"/play/g/{game.public_id}/choice/"
    for _ in range(2):  # two wrong ones use the budget up
        assert client.post(url, {"seq": "5", "decision": "x"}, HTTP_HX_REQUEST="true").status_code == 409
    form = {"seq": "0", "decision": game.pending_decision, "options": option}
    response = client.post(url, form, HTTP_HX_REQUEST="true")
    assert response.status_code == 429 and error_code(response.content.decode()) == "rate_limited"
    assert "Too many choices sent" in response.content.decode() and "60 seconds" in response.content.decode()
    plain = client.post(url, form)
    assert plain.status_code == 429 and "Too many choices sent" in plain.content.decode()
    undo = client.post(f"/play/g/{game.public_id}/undo/", {"seq": "0"}, HTTP_HX_REQUEST="true")
    assert undo.status_code == 429
    game.refresh_from_db()
    assert game.version == 0  # nothing changed
    # The socket is another way in, with its own budget: the page is not locked out of play.
    assert status_attrs(client.get(f"/play/g/{game.public_id}/").content.decode())["version"] == "0"


@pytest.mark.django_db
def test_the_choice_fallback_is_limited_per_address_whatever_the_session(settings):
    settings.RATE_LIMITS = {"play_post_address": (3, 60.0)}
    game = two_person_game()
    url = f"/play/g/{game.public_id}/choice/"
    for _ in range(3):  # a new browser session each time
        assert Client(REMOTE_ADDR="198.51.100.1").post(url, {"seq": "0"}).status_code != 429
    refused = Client(REMOTE_ADDR="198.51.100.1").post(url, {"seq": "0"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 429 and error_code(refused.content.decode()) == "rate_limited"
    assert Client(REMOTE_ADDR="198.51.100.2").post(url, {"seq": "0"}).status_code != 429


# ---------------------------------------------------------------------------------- the cache down
@pytest.mark.django_db
def test_every_limit_lets_people_in_while_the_cache_raises(settings, monkeypatch, caplog):
    settings.RATE_LIMITS = {name: (1, 60.0) for name in limits.DEFAULT_RATES}
    settings.PLAY_WS_CONNECT_RATE = (1, 60.0)
    monkeypatch.setattr(limits, "cache", BrokenCache())
    get_user_model().objects.create_user("ada", password="correct horse")
    event = _event()
    with caplog.at_level(logging.WARNING, logger="smashup.core.limits"):
        for _ in range(3):
            assert limits.connection_allowed(_scope("198.51.100.1", "s1"))
            assert limits.hit("login_address", "198.51.100.1")
            assert not limits.reached("login_username", "user:ada")
        limits.mark_flooding("ip:198.51.100.1")  # says so, does not raise
        client = Client(REMOTE_ADDR="198.51.100.1")
        for _ in range(3):
            assert _login(client, "ada", "wrong").status_code == 200
        assert _login(client, "ada", "correct horse").status_code == 302 and _logged_in(client)
        for name in ("Ada", "Bea", "Cy"):
            assert Client().post(f"/tournaments/{event.pk}/signup/", {"name": name}).status_code == 302
    assert any("the cache is unreachable" in r.getMessage() for r in caplog.records)


# ---------------------------------------------------------------------------------- sockets -----
def _session_cookie() -> str:
    store = SessionStore()
    store["play_seats"] = {}
    store.create()
    return f"sessionid={store.session_key}"


async def _open(path: str, address: str, cookie: str | None = None) -> WebsocketCommunicator:
    headers = list(SITE_HEADERS)
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    comm.scope["client"] = (address, 50000)
    connected, code = await comm.connect(timeout=TIMEOUT)
    assert connected, code
    return comm


async def _refused(comm: WebsocketCommunicator) -> bool:
    first = await comm.receive_output(timeout=TIMEOUT)
    if first["type"] != "websocket.send":
        return False
    text = first.get("text", "")
    if "rate_limited" not in text or "Too many connections" not in text:
        await comm.disconnect()
        return False
    assert await comm.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4029}
    return True


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_new_sessions_do_not_buy_more_game_sockets(settings):
    """Each GET of a seat link makes a new session, and each session had its own count: the
    address's count stops that."""
    settings.PLAY_WS_CONNECT_RATE = (40, 10.0)
    settings.RATE_LIMITS = {"ws_connect_address": (4, 60.0)}
    game = await database_sync_to_async(two_person_game)()
    path = f"/ws/games/{game.public_id}/"
    opened = []
    for _ in range(4):
        comm = await _open(path, "198.51.100.7", await database_sync_to_async(_session_cookie)())
        assert not await _refused(comm)
        opened.append(comm)
    comm = await _open(path, "198.51.100.7", await database_sync_to_async(_session_cookie)())
    assert await _refused(comm)
    other = await _open(path, "198.51.100.8", await database_sync_to_async(_session_cookie)())
    assert not await _refused(other)
    for comm in opened:
        await comm.disconnect()


def _event_pk() -> int:
    return _event().pk


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_event_sockets_have_connection_limits(settings):
    settings.RATE_LIMITS = {"ws_connect_address": (3, 60.0)}
    path = f"/ws/events/{await database_sync_to_async(_event_pk)()}/"
    opened = []
    for _ in range(3):
        comm = await _open(path, "198.51.100.7")
        assert json.loads(await comm.receive_from(timeout=TIMEOUT))["type"] == "state"
        opened.append(comm)
    assert await _refused(await _open(path, "198.51.100.7"))
    other = await _open(path, "198.51.100.8")
    assert json.loads(await other.receive_from(timeout=TIMEOUT))["type"] == "state"
    for comm in (*opened, other):
        await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_event_socket_that_floods_is_refused_then_closed(settings):
    settings.PLAY_WS_RATE = (3, 60.0)
    path = f"/ws/events/{await database_sync_to_async(_event_pk)()}/"
    comm = await _open(path, "198.51.100.7")
    assert json.loads(await comm.receive_from(timeout=TIMEOUT))["type"] == "state"
    for _ in range(3):
        await comm.send_to(text_data="hello")
        assert json.loads(await comm.receive_from(timeout=TIMEOUT))["code"] == "read_only"
    await comm.send_to(text_data="hello")
    refused = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert refused["code"] == "rate_limited" and "at most 3 every 60 seconds" in refused["message"]
    for _ in range(2):  # dropped silently
        await comm.send_to(text_data="hello")
    assert await comm.receive_nothing(timeout=0.3)
    await comm.send_to(text_data="hello")  # the 4th refusal of at most 3: closed
    closing = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert closing == {
        "type": "error",
        "code": "rate_limited",
        "message": "Too many messages: this connection is closed.",
    }
    assert await comm.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4029}
    # Coming straight back does not buy a fresh budget.
    assert await _refused(await _open(path, "198.51.100.7"))
