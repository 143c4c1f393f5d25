"""Limits per client that cannot be walked around (issue 12): per session AND per address, sockets
of games and events alike, the POST fallback of the game page, logins, anonymous sign-ups; the client's
address from X-Forwarded-For only behind a trusted proxy; and every limit letting people in when the
cache (Redis) fails."""

from __future__ import annotations

import html
import json
import logging
import re
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core import mail
from django.test import Client

from smashup.asgi import application
from smashup.core import limits
from smashup.core import mail as account_mail
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


# ---------------------------------------------------------------------------------- defaults ----
README = Path(__file__).resolve().parents[2] / "README.md"
_UNITS = {"s": 1.0, "min": 60.0, "hour": 3600.0, "hours": 3600.0}


def documented_limits() -> dict[str, tuple[int, float]]:
    """The defaults the README's "Limits per client" table gives, by limit name: each name written
    as (`name`) in a row, with the row's "N per T" in the same order."""
    text = README.read_text()
    table = text[text.index("## Limits per client") :]
    table = table[: table.index("\n\n", table.index("| --- |"))]
    found = {}
    rows = [line for line in table.splitlines() if line.startswith("|")]
    for row in rows[2:]:  # after the header and its rule
        what, default = row.split("|")[1:3]
        names = [{"PLAY_WS_RATE": "ws_message"}.get(n, n) for n in re.findall(r"\(`([A-Za-z_]+)`\)", what)]
        rates = re.findall(r"([\d,]+) per (\d+ )?(s|min|hours?)\b", default)
        for name, (count, amount, unit) in zip(names, rates, strict=False):
            found[name] = (int(count.replace(",", "")), float(amount or 1) * _UNITS[unit])
    return found


def test_every_limit_is_documented_at_its_default():
    documented = documented_limits()
    assert set(limits.DEFAULT_RATES) <= set(documented), set(limits.DEFAULT_RATES) - set(documented)
    for name, value in limits.DEFAULT_RATES.items():
        assert documented[name] == value, (name, documented[name], value)
    # The logins' and accounts' defaults, which the tests below run at (without RATE_LIMITS).
    assert {name: documented[name] for name in ACCOUNT_DEFAULTS} == ACCOUNT_DEFAULTS


ACCOUNT_DEFAULTS = {
    "login_address": (30, 300.0),
    "login_pair": (5, 900.0),
    "login_username": (20, 900.0),
    "account_signup_address": (5, 3600.0),
    "password_reset_address": (5, 3600.0),
    "account_mail_email": (3, 3600.0),
}


# ---------------------------------------------------------------------------------- logins ------
def _login(client, username, password, **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def _logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def _fail(address: str, username: str, times: int = 1) -> None:
    for _ in range(times):
        assert _login(Client(REMOTE_ADDR=address), username, "a wrong guess").status_code == 200


def _text(response) -> str:
    text = html.unescape(response.content.decode())
    return re.sub(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+', "", text)


@pytest.fixture
def ada():
    return get_user_model().objects.create_user("ada", "ada@example.org", "correct horse")


@pytest.mark.django_db
def test_wrong_guesses_slow_down_their_address_never_the_right_password_from_elsewhere(ada):
    """Five failed logins of one user name from one address (login_pair's default) refuse that
    address for that user name; the right password from another address logs in. Before, five wrong
    passwords from anywhere refused the right one for 15 minutes: anyone could lock any account."""
    get_user_model().objects.create_user("bob", password="battery staple")
    _fail("198.51.100.1", "ada", 4)
    _fail("198.51.100.1", "ADA")  # case changes nothing
    guesser = Client(REMOTE_ADDR="198.51.100.1")
    refused = _login(guesser, "ada", "correct horse")
    assert refused.status_code == 429 and refused["Retry-After"] == "900"
    assert (
        "for this user name from here" in refused.content.decode()
        and "15 minutes" in refused.content.decode()
    )
    assert not _logged_in(guesser)  # the password was not even checked
    assert _login(guesser, "bob", "battery staple").status_code == 302  # another user name from there
    owner = Client(REMOTE_ADDR="203.0.113.9")
    assert _login(owner, "ada", "correct horse").status_code == 302 and _logged_in(owner)


@pytest.mark.django_db
def test_failed_logins_are_limited_per_address(ada):
    for i in range(30):  # login_address: 30 per 5 minutes, each a different user name
        _fail("198.51.100.1", f"name{i}")
    client = Client(REMOTE_ADDR="198.51.100.1")
    refused = _login(client, "ada", "correct horse")
    assert refused.status_code == 429 and refused["Retry-After"] == "300"
    assert "Too many failed logins from this address" in refused.content.decode()
    assert "5 minutes" in refused.content.decode() and not _logged_in(client)
    other = Client(REMOTE_ADDR="198.51.100.2")
    assert _login(other, "ada", "correct horse").status_code == 302 and _logged_in(other)


@pytest.mark.django_db
def test_guessing_from_many_addresses_asks_new_browsers_for_the_accounts_mail_and_locks_nobody(ada):
    """20 failed logins of one user name from browsers it does not know (login_username's default,
    here 5 from each of 4 addresses, each of which is then refused for it): a browser the account
    does not know gets one answer whatever the password, and a login link by mail when it was right.
    A browser that logged in before logs in as ever."""
    before = Client(REMOTE_ADDR="203.0.113.1")
    assert _login(before, "ada", "correct horse").status_code == 302  # Ada's phone, known from now on
    before.post("/accounts/logout/")
    for i in range(4):
        _fail(f"198.51.100.{i + 1}", "ada", 5)
    new_browser = Client(REMOTE_ADDR="203.0.113.2")
    right = _login(new_browser, "ada", "correct horse")
    assert right.status_code == 200 and not _logged_in(new_browser)
    assert "Check your e-mail to finish logging in" in right.content.decode()
    wrong = _login(Client(REMOTE_ADDR="203.0.113.3"), "ada", "a wrong guess")
    assert _text(wrong) == _text(right)  # nothing tells a guess that was right
    account_mail.flush()
    [message] = mail.outbox
    assert message.to == ["ada@example.org"]
    link = re.search(r"https?://[^/\s]+(/accounts/login/link/\S+)", message.body).group(1)
    assert "Log in as ada" in new_browser.get(link).content.decode() and not _logged_in(new_browser)
    assert new_browser.post(link).status_code == 302 and _logged_in(new_browser)
    assert Client().post(link).status_code == 404  # once
    # That browser is known now; so is the phone, from an address never seen.
    new_browser.post("/accounts/logout/")
    assert _login(new_browser, "ada", "correct horse").status_code == 302
    before.defaults["REMOTE_ADDR"] = "203.0.113.77"
    assert _login(before, "ada", "correct horse").status_code == 302 and _logged_in(before)


@pytest.mark.django_db
def test_a_browser_that_knows_the_account_is_not_slowed_by_its_neighbours(ada):
    """At a venue everyone shares one address: someone there using up the address's and the user
    name's counts does not slow Ada's own phone down (it counts under its own browser)."""
    phone = Client(REMOTE_ADDR="198.51.100.50")
    assert _login(phone, "ada", "correct horse").status_code == 302
    phone.post("/accounts/logout/")
    _fail("198.51.100.50", "ada", 5)
    for i in range(25):
        _fail("198.51.100.50", f"name{i}")
    assert _login(Client(REMOTE_ADDR="198.51.100.50"), "bob", "x").status_code == 429  # the address
    assert _login(phone, "ada", "correct horse").status_code == 302 and _logged_in(phone)


@pytest.mark.django_db
def test_a_forged_known_browser_cookie_counts_for_nothing(ada):
    from django.core import signing

    from smashup.core.accounts import KNOWN_COOKIE

    _fail("198.51.100.1", "ada", 5)
    for forged in ("garbage", signing.dumps({"b": "x", "n": ["ada"]}, salt="another salt")):
        client = Client(REMOTE_ADDR="198.51.100.1")
        client.cookies[KNOWN_COOKIE] = forged
        assert _login(client, "ada", "correct horse").status_code == 429


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
        for name in ("dee", "eve", "fay"):  # accounts, and their mails to one address
            form = {"username": name, "email": "x@example.org", "password1": "pass phrase 77"}
            signup = Client().post("/accounts/signup/", {**form, "password2": "pass phrase 77"})
            assert signup.status_code == 302
            assert Client().post("/accounts/password-reset/", {"email": "x@example.org"}).status_code == 302
    account_mail.flush()
    assert len(mail.outbox) == 3
    assert any("the cache is unreachable" in r.getMessage() for r in caplog.records)


class CountingBrokenCache(BrokenCache):
    """A broken cache that counts how often it was asked."""

    def __init__(self):
        self.calls = 0

    def __getattr__(self, name):
        self.calls += 1
        return super().__getattr__(name)


def test_after_a_failure_the_limits_leave_the_cache_alone_for_a_pause(monkeypatch):
    """A Redis that hangs costs each call a timeout: one failure pauses the limits' use of the cache
    (and the open-socket counts'), so the next connections are not each made to wait, and the
    cache is tried again when the pause is over."""
    from smashup.core import opensockets

    broken = CountingBrokenCache()
    monkeypatch.setattr(limits, "cache", broken)
    clock = [1000.0]
    monkeypatch.setattr(limits.time, "monotonic", lambda: clock[0])
    assert limits.connection_allowed(_scope("198.51.100.1", "s1"))
    asked = broken.calls
    assert asked == 1 and limits.cache_paused()
    for _ in range(5):
        assert limits.connection_allowed(_scope("198.51.100.1", "s1"))
        assert limits.hit("login_address", "198.51.100.1")
        assert not limits.reached("login_username", "user:ada")
    assert broken.calls == asked  # not asked during the pause

    class Store:
        asked = 0

        def others(self, key, now):
            Store.asked += 1
            return 0

        def write(self, counts, now):
            Store.asked += 1

    counts = opensockets.OpenCounts(store=Store())
    holder = type("Holder", (), {})()
    assert counts.claim(holder, "ws_open_address", "198.51.100.1")
    assert Store.asked == 0  # nor the open-socket counts' store
    counts.release(holder)

    clock[0] += limits.CACHE_PAUSE
    assert not limits.cache_paused()
    assert limits.connection_allowed(_scope("198.51.100.1", "s1"))
    assert broken.calls == asked + 1  # tried again after the pause (and paused again)
    assert limits.cache_paused()


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
