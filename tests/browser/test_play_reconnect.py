"""A dropped connection in the middle of a decision, in real Chromium against the real stack (daphne +
a Celery worker; see stack.py and conftest.py).

A: Ada is asked something; her connection is lost three ways: the page's own socket is closed, the
   device goes offline, and the server process is killed and started again. Each time the page says
   it is reconnecting, comes back by itself (no reload), asks the very same question, and does not
   add a single line to the game log (a screen reader would read every added line again). Then she
   answers over the new connection, and the game goes on.
B: Ada opens her seat link on a second device (her phone) while her laptop shows a decision: the phone
   asks the same question. The laptop goes offline (a choice made there says it was not sent), she
   answers on the phone; back online, the laptop catches up by itself and adds only the lines it had
   not shown.
"""

from __future__ import annotations

import random
import time

from .conftest import LAPTOP, PHONE
from .pages import CHOICE, TRACK_SOCKETS_JS, GamePage, open_game_against_bots, show_all
from .test_play import public_id, shoot

NOT_RELOADED = "() => window.__sameDocument === 'never reloaded'"


def not_about_the_connection(errors: list[str]) -> list[str]:
    """The console errors left once those a lost connection always brings are set aside: Chromium's
    "WebSocket connection to ... failed" while the server is down or the device offline, and htmx
    logging the socket's error event itself (an Event, so its text is "[object Event]")."""
    expected = ("WebSocket connection to", "ERR_INTERNET_DISCONNECTED", "[object Event]")
    return [e for e in errors if not any(x in e for x in expected)]


def about_a_failed_post(error: str) -> bool:
    """A console error that a POST without a network always brings (Chromium's, then htmx's)."""
    return (
        "ERR_INTERNET_DISCONNECTED" in error
        or error.startswith(("htmx:sendError", "htmx:afterRequest"))
        or error == "undefined"
    )


def assert_same_question(game: GamePage, before: dict, lines: list) -> None:
    assert game.decision() == before, "the page should ask the same question after reconnecting"
    assert game.log_lines() == lines
    seen = game.seen()
    assert seen["log"] == [], f"the reconnect added log lines again: {seen['log'][:5]}"
    assert game.page.evaluate(NOT_RELOADED)


def reconnect_after(game: GamePage, drop, restore=None, timeout: int = 20_000) -> list[str]:
    """Drop the connection with `drop()`, see the page say so, `restore()` the way back, and wait
    until the page is live again on a new socket. Returns the states the page showed."""
    sockets = game.page.evaluate("() => window.__sockets.length")
    # Mark the status element: the server's first message on the new socket replaces it (an
    # out-of-band swap), so its absence says that message has arrived and the page has settled.
    game.page.evaluate(
        "() => { window.__wsStates.length = 0; document.getElementById('play-status').__old = true; }"
    )
    drop()
    game.wait_state("closed", timeout=10_000)
    said = game.page.inner_text("#ws-state")
    assert "Reconnecting" in said or "Offline" in said, said
    if restore is not None:
        restore()
    game.wait_state("open", timeout=timeout)
    game.page.wait_for_function(
        "() => { const s = document.getElementById('play-status'); return s && !s.__old; }",
        timeout=timeout,
    )
    assert game.page.evaluate("() => window.__sockets.length") > sockets, "no new socket was opened"
    return game.seen()["states"]


def answer_until_the_log_grows(game: GamePage, rng: random.Random, after_line: int) -> list[str]:
    """Answer the decisions shown until the log has a line numbered past `after_line` (one answer,
    such as picking a target, may add no line of its own) or the game is over; the answers given."""
    done: list[str] = []
    for _ in range(10):
        version = game.version
        done.append(game.play_one(rng))
        assert game.version > version, done
        game.wait_mine_or_over()
        time.sleep(0.5)  # let a bot finish what it does at once after her choice
        if (
            max((n for n, _ in game.log_lines()), default=0) > after_line
            or game.status()["status"] == "finished"
        ):
            break
    return done


# ------------------------------------------------------------------------------------------ A -----
def test_a_dropped_connection_mid_decision_comes_back_with_the_same_decision(stack, browser):
    context, page, game = open_game_against_bots(browser, stack.base_url, "Ada", LAPTOP, track_sockets=True)
    page.evaluate("() => { window.__sameDocument = 'never reloaded'; }")
    posts: list[str] = []  # the POST fallback, used when the page has no open socket
    page.on("request", lambda r: r.method == "POST" and posts.append(r.url))
    game.wait_mine_or_over()
    before = game.decision()
    assert before["options"], before
    lines = game.log_lines()
    game.watch()

    # 1. The page's socket is closed (a proxy or the browser dropping it): a normal close, which
    # htmx itself does not retry; play.js does.
    states = reconnect_after(game, lambda: page.evaluate("() => window.__sockets.at(-1).close()"))
    assert states[0] == "closed" and states[-1] == "open", states
    assert_same_question(game, before, lines)

    # 2. The device loses its network: the socket dies without a close frame.
    def back_online():
        time.sleep(2)
        context.set_offline(False)

    reconnect_after(game, lambda: context.set_offline(True), back_online)
    assert_same_question(game, before, lines)

    # 3. The server process dies and comes back on the same address (a crash, a deploy).
    started = time.monotonic()

    def server_back():
        time.sleep(1)
        stack.start_again("daphne")

    reconnect_after(game, lambda: stack.kill("daphne"), server_back)
    print(f"\nback on a new server process {time.monotonic() - started:.1f}s after it was killed")
    assert_same_question(game, before, lines)
    assert stack.dead() == []

    # Ada answers on the new connection: no reload, no POST fallback, the game moves on.
    done = answer_until_the_log_grows(game, random.Random(3), max((n for n, _ in lines), default=0))
    assert posts == [], "the choice should have gone over the WebSocket"
    assert page.evaluate(NOT_RELOADED)
    added = game.seen()["log"]
    assert added, f"her choices should add lines to the log: {done}"
    numbers = [n for n, _ in game.log_lines()]
    assert numbers == sorted(set(numbers)), "a log line is shown twice"
    assert not_about_the_connection(game.console_errors) == []
    context.close()


# ------------------------------------------------------------------------------------------ B -----
def test_a_second_device_with_the_same_seat_shows_the_same_decision(stack, browser, screenshots):
    laptop_context, laptop, ada = open_game_against_bots(
        browser, stack.base_url, "Ada", LAPTOP, track_sockets=True
    )
    game_id = public_id(laptop.url)
    laptop.evaluate("() => { window.__sameDocument = 'never reloaded'; }")
    ada.wait_mine_or_over()

    # Her own link to her seat, from the table page (in another tab of the laptop): only she sees it.
    table = laptop_context.new_page()
    table.goto(f"{stack.base_url}/play/t/{game_id}/")
    table.click("#seat-link-0 summary")
    link = table.input_value("#seat-link-0 input")
    assert "/play/r/" in link
    table.close()

    phone_context = browser.new_context(viewport=PHONE)
    phone_context.add_init_script(TRACK_SOCKETS_JS)
    phone_page = phone_context.new_page()
    phone_page.goto(link)  # opening it changes nothing: the phone confirms
    phone_page.click("text=Play my seat on this device")
    phone_page.wait_for_url(f"**/play/g/{game_id}/**")
    phone = GamePage(phone_page, "Ada's phone")
    phone.wait_live()
    asked = ada.decision()
    assert asked["seat"] == "0" and asked["options"]
    assert phone.decision() == asked, "both devices of one seat should ask the same question"

    # The laptop goes offline; she answers on the phone.
    laptop_lines = ada.log_lines()
    ada.watch()
    errors_before = len(ada.console_errors)
    laptop_context.set_offline(True)
    ada.wait_state("closed", timeout=10_000)
    assert "Offline" in laptop.inner_text("#ws-state")
    # A choice made on the offline laptop cannot go anywhere, and the page says so.
    show_all(laptop)  # the decision's full list, one tap away (issue 26)
    laptop.click(f"{CHOICE} .options button >> nth=0")
    laptop.locator('#play-error[data-code="not_sent"] p').first.wait_for(timeout=10_000)
    assert "not sent" in laptop.inner_text("#play-error")
    shoot(laptop, screenshots, "r-laptop-offline")
    shoot(laptop, screenshots, "r-phone-offline", PHONE)
    answer_until_the_log_grows(phone, random.Random(5), max((n for n, _ in laptop_lines), default=0))
    after = phone.status()
    assert int(after["version"]) > int(asked["version"])
    assert ada.decision() == asked, "the offline laptop cannot know yet"

    # Back online, the laptop catches up by itself.
    laptop_context.set_offline(False)
    ada.wait_state("open", timeout=20_000)
    # While offline, the POST that carried her choice failed, and Chromium and htmx logged that
    # (htmx's last line is "undefined"). Nothing else.
    offline_errors = ada.console_errors[errors_before:]
    del ada.console_errors[errors_before:]
    unexpected = [e for e in not_about_the_connection(offline_errors) if not about_a_failed_post(e)]
    assert unexpected == [], offline_errors
    ada.wait_version(int(after["version"]))
    assert ada.decision() == phone.decision()
    assert ada.error() is None, "back live, the 'not sent' message has gone"
    assert laptop.evaluate(NOT_RELOADED)
    shown = ada.log_lines()
    numbers = [n for n, _ in shown]
    assert numbers == sorted(set(numbers)), "a log line is shown twice"
    assert shown[: len(laptop_lines)] == laptop_lines, "the lines shown before should stay as they were"
    added = ada.seen()["log"]
    assert added == [f"{n} {t}" for n, t in shown[len(laptop_lines) :]], "only the new lines are added"
    assert added, "her answer on the phone should bring new lines"
    assert dict(phone.log_lines()).items() <= dict(shown).items(), "both devices show the same log"
    phone_page.screenshot(path=str(screenshots / "r-phone-second-device.png"))
    laptop.screenshot(path=str(screenshots / "r-laptop-caught-up.png"))

    # The laptop answers the next question live.
    if ada.status()["decision"]:
        ada.play_one(random.Random(6))
        phone.wait_version(ada.version)
    for page in (ada, phone):
        assert not_about_the_connection(page.console_errors) == [], (page.name, page.console_errors)
    for context in (laptop_context, phone_context):
        context.close()
