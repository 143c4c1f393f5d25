"""The pages around a game in real Chromium against the real stack (issue 26): my games after the
browser was closed and opened again, touch targets of 44 px, the Big Base replay page with its jump
to a turn, and a replay paused while its next step loads. Screenshots go to tests/browser/screenshots/,
to be looked at.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import expect

from smashup.play import services

from .conftest import PHONE
from .pages import GamePage

TABLET, LAPTOP, TV = (
    {"width": 768, "height": 1024},
    {"width": 1366, "height": 768},
    {"width": 1920, "height": 1080},
)
SIZES = [PHONE, TABLET, LAPTOP, TV]


def closed_and_opened_again(state: dict) -> dict:
    """The storage a browser keeps when it is closed: its cookies that have an expiry (a cookie without
    one, "expires": -1, lives only as long as the browser), and its local storage."""
    return {**state, "cookies": [c for c in state["cookies"] if c.get("expires", -1) > 0]}


@pytest.mark.django_db(transaction=True)
def test_a_guest_finds_their_game_after_closing_the_browser(browser, stack, screenshots):
    for size in SIZES:
        context = browser.new_context(viewport=size)
        page = context.new_page()
        page.goto(stack.base_url + "/")
        # One tap: the home page's first button starts a game against bots.
        page.get_by_role("button", name="Play against bots").click()
        page.wait_for_url(re.compile(r".*/play/g/[^/]+/$"))
        game_url = page.url
        game = GamePage(page, f"guest {size['width']}")
        game.wait_live()
        state = context.storage_state()
        context.close()

        reopened = browser.new_context(viewport=size, storage_state=closed_and_opened_again(state))
        page = reopened.new_page()
        try:
            page.goto(stack.base_url + "/")
            mine = page.locator("#my-games .my-game-link")
            expect(mine).to_have_count(1)
            expect(mine).to_contain_text("Player")
            page.screenshot(path=str(screenshots / f"home-my-games-{size['width']}x{size['height']}.png"))
            box = mine.bounding_box()
            assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
            mine.click()
            page.wait_for_url(game_url)
            # The seat is still this browser's: the page plays it, not a spectator's view.
            expect(page.locator("#play-status")).to_have_attribute("data-seat", "0")
            # The lobby lists it too.
            page.goto(stack.base_url + "/play/")
            expect(page.locator("#my-games .my-game-link")).to_have_count(1)
        finally:
            reopened.close()
    # Another browser (another guest) sees none of these games.
    stranger = browser.new_context(viewport=PHONE)
    try:
        page = stranger.new_page()
        page.goto(stack.base_url + "/")
        expect(page.get_by_role("button", name="Play against bots")).to_be_visible()
        expect(page.locator("#my-games")).to_have_count(0)
    finally:
        stranger.close()


# Every control a finger uses that is smaller than 44 px either way. Links inside a sentence are
# exempt (WCAG 2.5.8's inline exception); a help "?" counts by the 44 px square its ::after lays
# around it, found by asking what is under points 18 px from its middle.
SMALL_TARGETS_JS = """() => {
  const small = [];
  const controls = document.querySelectorAll(['main button', 'main select', 'main input:not([type=hidden])',
    'main .btn', 'main summary', 'main label.radio', 'main .my-game-link'].join(', '));
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    const s = getComputedStyle(el);
    if (el.matches('input[type=radio], input[type=checkbox]')) continue;  // their label is the target
    const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
    if (r.height < 43.5) small.push(`${el.tagName}.${el.className} ${size}`);
  }
  for (const el of document.querySelectorAll('.help-link')) {
    el.scrollIntoView({block: 'center', inline: 'center'});
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    for (const [dx, dy] of [[-18, 0], [18, 0], [0, -18], [0, 18]]) {
      const hit = document.elementFromPoint(x + dx, y + dy);
      if (hit !== el && !el.contains(hit)) { small.push('help-link ' + el.getAttribute('href')); break; }
    }
  }
  return small;
}"""


def table_where_each_player_picks() -> str:
    from django.db import connection

    try:
        specs = [services.SeatSpec("person"), services.SeatSpec("person")]
        return services.create_game(specs, seed="4e" * 32, player_picks=True).public_id
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_touch_targets_are_44_px_on_a_phone(browser, stack, screenshots):
    with ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread: the database elsewhere
        public_id = pool.submit(table_where_each_player_picks).result()
    context = browser.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    try:
        for name, path in (("home", "/"), ("lobby", "/play/"), ("table", f"/play/t/{public_id}/"),
                           ("help", "/help/")):  # fmt: skip
            page.goto(stack.base_url + path)
            page.screenshot(path=str(screenshots / f"page-{name}-390x844.png"), full_page=True)
            small = [s for s in page.evaluate(SMALL_TARGETS_JS) if "help-link" not in s or name != "help"]
            assert small == [], (name, small)
    finally:
        context.close()


def finished_big_base_game():
    return finished_bot_game("bigbase")


def finished_bot_game(mode: str = "standard"):
    """A game of two bots played to its end in this process (the bot task run inline), in a thread of
    its own: Playwright's loop runs in the test's thread."""
    from django.db import connection

    from smashup.celery import app as celery_app

    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        specs = [
            services.SeatSpec("bot", ["Aliens", "Ninjas"]),
            services.SeatSpec("bot", ["Pirates", "Robots"]),
        ]
        row = services.create_game(specs, seed="b7" * 32, mode=mode)
        row.refresh_from_db()
        assert row.is_finished
        return row.public_id
    finally:
        celery_app.conf.task_always_eager = eager
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_the_big_base_replay_is_styled_and_jumps_to_a_turn(browser, stack, screenshots):
    with ThreadPoolExecutor(1) as pool:
        public_id = pool.submit(finished_big_base_game).result()
    for size in (PHONE, LAPTOP):
        context = browser.new_context(viewport=size)
        page = context.new_page()
        try:
            page.goto(f"{stack.base_url}/play/g/{public_id}/replay/?step=0")
            board = page.locator("#replay-body .bb-board")
            expect(board).to_be_visible()
            # bigbase.css is loaded: the board is a grid of four sides around the base card, not a list.
            assert board.evaluate("e => getComputedStyle(e).display") == "grid"
            turn = page.locator("#replay-turn")
            options = turn.locator("option")
            expect(options.nth(5)).to_be_attached()
            label, start = options.nth(5).inner_text(), options.nth(5).get_attribute("value")
            number = re.search(r"\d+", label).group(0)
            turn.select_option(start)
            expect(page.locator("#replay-body")).to_have_attribute("data-step", start)
            expect(page.locator("#replay-body .step")).to_contain_text(f"Turn {number}")
            expect(page.locator("#replay-step")).to_have_value(start)
            page.screenshot(path=str(screenshots / f"replay-big-base-{size['width']}x{size['height']}.png"))
        finally:
            context.close()


@pytest.mark.django_db(transaction=True)
def test_a_replay_paused_while_its_next_step_loads_stays_on_the_step_shown(browser, stack):
    """The replay plays by itself; a pause that comes while its next step is on its way leaves the
    board on the step shown (that step came in after the pause and moved the board on: a keyboard
    test read the step at the pause and saw it change)."""
    with ThreadPoolExecutor(1) as pool:
        public_id = pool.submit(finished_bot_game).result()
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    held = []

    def hold_the_first_step(route):
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(lambda url: "part=body" in url, hold_the_first_step)
    try:
        with page.expect_request(lambda r: "part=body" in r.url):
            page.goto(f"{stack.base_url}/play/g/{public_id}/replay/")  # opens at the start and plays
        root, body = page.locator(".replay[data-url]"), page.locator("#replay-body")
        toggle = page.locator("[data-replay=play]")
        expect(root).to_have_attribute("data-loading", "1")  # step 1 is on its way, held here
        toggle.click()  # pause
        expect(toggle).to_have_attribute("aria-pressed", "false")
        assert len(held) == 1
        held[0].continue_()
        expect(root).to_have_attribute("data-loading", "")
        expect(body).to_have_attribute("data-step", "0")
        page.click("[data-replay=next]")  # stepping by hand still works
        expect(body).to_have_attribute("data-step", "1")
        expect(toggle).to_have_attribute("aria-pressed", "false")
    finally:
        context.close()
