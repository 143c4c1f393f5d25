"""Real Chromium plays live games through the pages, against the real stack (daphne + a Celery worker
on the test PostgreSQL and Redis; see stack.py and conftest.py).

A: a person sets up a 4-player table against three bots and plays it to the end by clicking the
   decision buttons; the bots move through the Celery worker; the page shows the result.
B: two people, each on their own device (browser context) with their own seat link, play each other
   while a third context watches as a spectator. Every page follows the game live (no reload), and no
   page ever shows a card that its viewer may not see: the hand area shows exactly its own hand,
   and no card element anywhere names another player's hand card or a deck card.

Screenshots of the game page at phone (390x844) and laptop (1366x900) size go to
tests/browser/screenshots/ (or $SMASHUP_SCREENSHOTS), to be looked at.
"""

from __future__ import annotations

import random
import re
import time
from concurrent.futures import ThreadPoolExecutor

from .conftest import LAPTOP, PHONE
from .pages import CHOICE, GamePage

IN_VIEW_JS = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.top < window.innerHeight - 20; }"""
GAME_SECONDS = 300  # a whole 4-player game, bots included; it usually takes well under a minute
MAX_MOVES = 1500


def shoot(page, folder, name: str, size: dict | None = None, full_page: bool = False) -> None:
    """A screenshot at `size` (the page's own size when None); the page returns to its size."""
    before = page.viewport_size
    if size is not None and size != before:
        page.set_viewport_size(size)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=full_page)
    if size is not None and size != before:
        page.set_viewport_size(before)


def shoot_part(page, folder, name: str, selector: str, size: dict) -> None:
    """A screenshot of one part of the page (e.g. the hand, far down on a phone) at `size`."""
    before = page.viewport_size
    page.set_viewport_size(size)
    page.locator(selector).screenshot(path=str(folder / f"{name}.png"))
    page.set_viewport_size(before)


def public_id(url: str) -> str:
    match = re.search(r"/play/g/([A-Za-z0-9_-]+)/", url)
    assert match, url
    return match.group(1)


def engine_facts(game_public_id: str) -> dict:
    """What the server's record says now: each seat's hand and what each viewer may not see. Runs in
    a thread of its own (Playwright's event loop runs in the test's thread, where Django refuses the
    database) and closes its connection."""
    from django.db import connection

    from smashup.engine.invariants import hidden_from
    from smashup.play import services

    try:
        row = services.get_game(game_public_id)
        with services.engine_game(row) as game:
            return {
                "version": row.version,
                "status": row.status,
                "hands": {p.seat: sorted(p.hand) for p in game.players},
                "names": {cid: game.card_view(cid)["name"] for p in game.players for cid in p.hand},
                "hidden": {seat: hidden_from(game, seat) for seat in (0, 1, None)},
            }
    finally:
        connection.close()


# ------------------------------------------------------------------------------------------ A -----
def test_a_person_plays_three_bots_to_the_end(stack, browser, screenshots):
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.goto(stack.base_url + "/play/")
    page.fill("#id_your_name", "Ada")
    page.select_option("#id_seat0_kind", "person")
    for seat in (1, 2, 3):
        page.select_option(f"#id_seat{seat}_kind", "bot")
    page.click("text=Set up the table")
    page.wait_for_url("**/play/g/**")  # every seat is filled: the game starts at once
    game = GamePage(page, "Ada")
    game.wait_live()
    assert game.status()["seat"] == "0"
    assert page.locator("#players .player").count() == 4

    rng = random.Random(20240611)
    moves: list[str] = []
    shots = {"first": False, "mid": False, "multi": False}
    deadline = time.monotonic() + GAME_SECONDS
    while True:
        state = game.wait_mine_or_over()
        if state["status"] == "finished":
            break
        assert time.monotonic() < deadline, f"no end after {GAME_SECONDS}s and {len(moves)} moves"
        assert len(moves) < MAX_MOVES
        if not shots["first"]:
            shoot(page, screenshots, "a-laptop-first-decision")
            shoot(page, screenshots, "a-phone-first-decision", PHONE)
            shots["first"] = True
        if not shots["mid"] and game.turn() >= 6:
            # On a laptop the tray (the decision, the last moves, the hand) stays in view, at the top of
            # the page and while the board scrolls (issue 13; the log is at the foot of the board).
            for where in ("at the top", "scrolled"):
                for part in ("#decision", "#hand"):
                    assert page.evaluate(IN_VIEW_JS, part), f"{where}, {part} is out of sight"
                page.evaluate("() => window.scrollBy(0, 700)")
            page.evaluate("() => window.scrollTo(0, 0)")
            shoot(page, screenshots, "a-laptop-mid-game")
            shoot(page, screenshots, "a-phone-mid-game", PHONE)
            shoot(page, screenshots, "a-phone-mid-game-full", PHONE, full_page=True)
            for part in ("hand", "bases", "players"):
                shoot_part(page, screenshots, f"a-phone-mid-game-{part}", f"#{part}", PHONE)
            shoot_part(page, screenshots, "a-phone-mid-game-log", ".log-panel", PHONE)
            shots["mid"] = True
        if not shots["multi"] and page.locator(f"{CHOICE} fieldset.options.multi").count():
            shoot(page, screenshots, "a-laptop-multi-select")
            shoot(page, screenshots, "a-phone-multi-select", PHONE)
            shots["multi"] = True
        moves.append(game.play_one(rng))

    # The end, as the page shows it.
    assert page.inner_text("#decision h2") == "Game over"
    result = page.inner_text("#play-status")
    assert re.search(r"Game over\.\s+(You win!|.+ wins\.)", result), result
    vps = [int(v) for v in page.locator("#players .player-vp strong").all_inner_texts()]
    assert len(vps) == 4 and max(vps) >= 15, vps
    assert page.locator("#decision a", has_text="Watch the replay").count() == 1
    log = page.inner_text("#log-lines")
    assert all(f"Bot {n}" in log for n in (2, 3, 4)), "the bots' moves should be in the log"
    shoot(page, screenshots, "a-laptop-game-over")
    shoot(page, screenshots, "a-phone-game-over", PHONE)
    assert len(moves) > 10 and any(m.startswith("click") for m in moves)
    assert game.console_errors == []
    assert stack.dead() == []

    page.click("text=Watch the replay")
    page.wait_for_url("**/replay/**")
    assert "Replay" in page.title() or page.locator("h1").count()
    shoot(page, screenshots, "a-laptop-replay")
    context.close()


# ------------------------------------------------------------------------------------------ B -----
def test_two_people_play_while_a_spectator_watches_live_and_hands_stay_hidden(stack, browser, screenshots):
    # Ada sets up a table with two person seats on her phone and sits at seat 1.
    ada_context = browser.new_context(viewport=PHONE)
    ada_page = ada_context.new_page()
    ada_page.goto(stack.base_url + "/play/")
    ada_page.fill("#id_your_name", "Ada")
    ada_page.select_option("#id_seat1_kind", "person")
    ada_page.click("text=Set up the table")
    ada_page.wait_for_url("**/play/t/**")
    ada_page.click("#seat-link-1 summary")
    link = ada_page.input_value("#seat-link-1 input")
    shoot(ada_page, screenshots, "b-phone-table-waiting", full_page=True)

    # Bob opens the link for seat 2 on his laptop and takes it: the game starts.
    bob_context = browser.new_context(viewport=LAPTOP)
    bob_page = bob_context.new_page()
    bob_page.goto(link)
    bob_page.fill("#id_name", "Bob")
    bob_page.click("text=Take this seat")
    bob_page.wait_for_url("**/play/g/**")
    ada_page.wait_for_url("**/play/g/**", timeout=20_000)  # her table page follows the start
    game_id = public_id(bob_page.url)
    # The link Ada handed out is spent: opened again, even by her, it seats nobody.
    spent = ada_context.new_page()
    spent.goto(link)
    assert "taken this seat" in spent.inner_text("main"), spent.inner_text("body")[:300]
    spent.close()

    # A spectator opens the game without a seat.
    spectator_context = browser.new_context(viewport=LAPTOP)
    spectator_page = spectator_context.new_page()
    spectator_page.goto(f"{stack.base_url}/play/g/{game_id}/")
    spectator_page.evaluate("() => { window.__sameDocument = 'never reloaded'; }")

    ada, bob, spectator = (
        GamePage(ada_page, "Ada"),
        GamePage(bob_page, "Bob"),
        GamePage(spectator_page, "spectator"),
    )
    everyone = (ada, bob, spectator)
    for page in everyone:
        page.wait_live()
    assert ada.status()["seat"] == "0" and bob.status()["seat"] == "1" and spectator.status()["seat"] == ""
    assert spectator_page.locator("#hand").count() == 0
    assert "as a spectator" in spectator_page.inner_text(".col-tray")

    seats = {0: ada, 1: bob}
    rng = random.Random(7)
    facts_pool = ThreadPoolExecutor(max_workers=1)
    version, moves, checks = 0, 0, 0
    spectator_versions: list[int] = []
    shot = False
    deadline = time.monotonic() + 150
    try:
        while moves < 60 and time.monotonic() < deadline:
            states = [page.wait_version(version) for page in everyone]
            if states[0]["status"] == "finished":
                break
            deciding = int(states[0]["deciding"])
            decider = seats[deciding]
            decider.wait_mine_or_over()
            states = [page.status() for page in everyone]
            assert len({s["version"] for s in states}) == 1, f"pages disagree: {states}"
            version = int(states[0]["version"])
            spectator_versions.append(version)

            # Nobody but the decider is offered anything; the others see who is deciding.
            for page in everyone:
                if page is not decider:
                    assert page.page.locator(CHOICE).count() == 0, page.name
            assert "Waiting for " in spectator_page.inner_text("#decision")

            # Hidden information, against the server's record at this very version.
            facts = facts_pool.submit(engine_facts, game_id).result(timeout=30)
            assert facts["version"] == version
            for seat, page in seats.items():
                assert page.hand_ids() == facts["hands"][seat], f"{page.name}'s hand area"
            for seat, page in ((0, ada), (1, bob), (None, spectator)):
                shown = page.card_ids()
                assert not shown & facts["hidden"][seat], f"{page.name} sees hidden cards"
            for seat, page in seats.items():
                other = 1 - seat
                mine = {facts["names"][c] for c in facts["hands"][seat]}
                theirs_only = {facts["names"][c] for c in facts["hands"][other]} - mine
                text = page.hand_text()
                assert not [n for n in theirs_only if n in text], f"{page.name}'s hand area names other cards"
            assert spectator_page.locator("#hand").count() == 0
            checks += 1

            if not shot and ada.turn() >= 3:
                shoot(ada_page, screenshots, "b-phone-player")
                shoot(ada_page, screenshots, "b-phone-player-full", full_page=True)
                shoot(bob_page, screenshots, "b-laptop-player")
                shoot(spectator_page, screenshots, "b-laptop-spectator")
                shoot(spectator_page, screenshots, "b-phone-spectator", PHONE)
                shot = True
            decider.play_one(rng)
            version = decider.version  # every page must get there
            moves += 1
    finally:
        facts_pool.shutdown(wait=True)

    assert moves >= 20 or states[0]["status"] == "finished", f"only {moves} moves in time"
    assert ada.turn() >= 3 or states[0]["status"] == "finished"
    # The spectator's page followed every move without a reload.
    assert spectator_page.evaluate("() => window.__sameDocument") == "never reloaded"
    assert spectator_versions == sorted(set(spectator_versions)) and len(spectator_versions) == checks
    assert spectator_page.locator("#log-lines li").count() > 5
    for page in everyone:
        assert page.console_errors == [], (page.name, page.console_errors)
    assert stack.dead() == []
    for context in (ada_context, bob_context, spectator_context):
        context.close()
