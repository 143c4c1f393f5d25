"""The game screen as a game (issue 26), in real Chromium, at 390x844 (a phone), 768x1024 (a tablet),
1366x768 (a laptop) and 1920x1080 (a big screen).

A: a crowded mid-game board (tests/browser/crowded.py: 15 minions, counters, actions on minions and
   bases, a hand of nine) at the four sizes, served straight from Django without the live stack:
   nothing overflows the page, the decision and the hand are in view, the hand's cards lie side by
   side with their names and the first lines of their text readable without pointing at them
   (laptop and up), the phone's compact cards open at full size on a long press, and the main
   decision leads with "tap a card, then where it goes" with the full list one tap away.
   Screenshots: tests/browser/screenshots/table-*.png, to be looked at.
B: a phone plays a whole game against two bots by taps only; before each play it opens the hand
   drawer, scrolls it to the bottom and taps a card there (or opens, scrolls and closes it), and
   the drawer always closes onto its bar (issue 26, finding 2).
C: a laptop plays against three bots: when the player's turn comes back, "since your last turn"
   lists the three bots' turns; later a base scores and its summary (ranking, power, VP) stays
   until the player chooses again. Every message the page gets is shown, in order, the others' moves
   held a pace apart (the bots' bursts queue up); with reduced motion nothing moves. Screenshots of
   both panels at the four sizes.
"""

from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .pages import CHOICE, TRACK_SOCKETS_JS, GamePage, set_up_against_bots, show_all
from .test_play_screen import IN_VIEW_JS, LABELS_JS, serve

TABLET = {"width": 768, "height": 1024}
LAPTOP_768 = {"width": 1366, "height": 768}
BIG = {"width": 1920, "height": 1080}
SIZES = [PHONE, TABLET, LAPTOP_768, BIG]
GAME_SECONDS = 600
WAIT = 60_000


def size_name(size: dict) -> str:
    return f"{size['width']}x{size['height']}"


def crowded_page() -> tuple[str, bytes]:
    from django.db import connection

    from .crowded import page_html

    try:
        return "/play/g/crowded/", page_html("/play/g/crowded/")
    finally:
        connection.close()


# How each hand card lies: in the window, and how many lines of its text show.
HAND_JS = """() => [...document.querySelectorAll('#hand .card-face')].map(c => {
  const r = c.getBoundingClientRect(), t = c.querySelector('.card-text'), n = c.querySelector('.card-name');
  const line = t ? parseFloat(getComputedStyle(t).lineHeight) : 0;
  const tr = t ? t.getBoundingClientRect() : null;
  return {name: n.textContent, inside: r.left >= 0 && r.right <= innerWidth + 1 && r.top >= 0
            && r.bottom <= innerHeight + 1,
          nameWhole: n.scrollWidth <= n.clientWidth + 1 && n.getBoundingClientRect().bottom <= r.bottom,
          lines: t ? Math.floor((Math.min(tr.bottom, r.bottom) - tr.top) / line) : 0,
          whole: !t || t.scrollHeight <= tr.height + 1};
})"""


# Scroll the open drawer to its end, whichever of its parts scrolls; how far it went.
SCROLL_DRAWER_JS = """() => ['#hand', '#hand-cards'].reduce((far, sel) => {
  const el = document.querySelector(sel); el.scrollTop = el.scrollHeight; return far + el.scrollTop; }, 0)"""


@pytest.mark.django_db(transaction=True)
def test_a_crowded_board_at_four_sizes(browser, screenshots):
    with ThreadPoolExecutor(1) as pool:
        path, html = pool.submit(crowded_page).result()
    for size in SIZES:
        phone = size is PHONE
        context = browser.new_context(viewport=size, has_touch=phone, is_mobile=phone)
        page = context.new_page()
        try:
            serve(page, path, html)
            expect(page.locator("#decision.mine")).to_be_visible()
            name = f"table-{size_name(size)}"
            page.screenshot(path=str(screenshots / f"{name}.png"))
            page.screenshot(path=str(screenshots / f"{name}-full.png"), full_page=True)
            width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
            assert width[0] <= width[1], f"{name}: the page is wider than the window: {width}"
            assert page.evaluate(IN_VIEW_JS, "#decision"), f"{name}: the decision is out of view"
            assert page.evaluate(IN_VIEW_JS, "#hand"), f"{name}: the hand is out of view"
            expect(page.locator("#bases .minion")).to_have_count(15)
            expect(page.locator("#bases .attached li")).to_have_count(6)
            expect(page.locator("#bases .counters")).to_have_count(4)
            expect(page.locator("#bases .base-actions li")).to_have_count(2)
            # Each base: its minions in a column per player, the viewer's first.
            expect(page.locator('#bases .base[data-base="1"] .side')).to_have_count(3)
            expect(page.locator('#bases .base[data-base="1"] .side').first).to_have_class("side me")

            if phone:
                # The drawer (finding 2): scrolled to its end, a tap on a card there that goes to a
                # base closes it onto its bar, scrolled back, with no card left in its strip.
                drawer = page.locator("#hand-cards")
                page.tap("[data-hand-toggle]")
                expect(drawer).to_be_visible()
                scrolled = page.evaluate(SCROLL_DRAWER_JS)
                assert scrolled > 0, "the open drawer did not scroll"
                page.locator("#hand .card-face").last.tap()
                expect(page.locator("#bases .base.target").first).to_be_visible()
                expect(drawer).to_be_hidden()
                bar = page.locator("[data-hand-toggle]")
                box = bar.bounding_box()
                on_top = page.evaluate(
                    "([x, y]) => !!document.elementFromPoint(x, y).closest('[data-hand-toggle]')",
                    [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
                )
                assert on_top and box["y"] + box["height"] <= size["height"] + 1, "the bar is not on top"
                page.keyboard.press("Escape")
                page.tap("[data-hand-toggle]")
                expect(drawer).to_be_visible()
                assert drawer.evaluate("el => el.scrollTop") == 0
                expect(page.locator("#hand .card-face.selected")).to_have_count(0)
                page.screenshot(path=str(screenshots / f"{name}-hand-open.png"))
                # A long press shows the card at full size; it closes again.
                card = page.locator("#hand .card-face").nth(4)
                box = card.bounding_box()
                page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                page.mouse.down()
                expect(page.locator("#card-view")).to_be_visible()
                page.mouse.up()
                expect(page.locator("#card-view .card-text")).to_have_text(
                    card.locator(".card-text").inner_text()
                )
                page.screenshot(path=str(screenshots / f"{name}-card-view.png"))
                page.locator("#card-view button").click()
                expect(page.locator("#card-view")).to_be_hidden()
                expect(page.locator("#hand .card-face.selected")).to_have_count(0)  # the press chose nothing
                # A choice made with the decision's own buttons closes the open drawer too: the next
                # question may be about the board (a Big Base phone found its slots under the drawer).
                expect(drawer).to_be_visible()  # still open from the long press
                page.locator(f"{CHOICE} .options.quick button").tap()  # "end", shown with the list folded
                expect(drawer).to_be_hidden()
                expect(page.locator("[data-hand-toggle]")).to_have_attribute("aria-expanded", "false")
                page.tap("[data-hand-toggle]")  # open again for what follows
                expect(drawer).to_be_visible()
            else:
                # The hand lies along the bottom, its names and texts readable as they lie; on a
                # laptop and up every card is in the window, on a tablet the row scrolls sideways.
                cards = page.evaluate(HAND_JS)
                assert len(cards) == 9
                scrolls = "scrolls" in (page.locator("#hand-cards").get_attribute("class") or "")
                assert scrolls == (size is TABLET), f"{name}: the hand scrolls: {scrolls}"
                for card in cards:
                    assert card["inside"] or scrolls, f"{name}: {card['name']} is not all in the window"
                    assert card["nameWhole"], f"{name}: the name {card['name']!r} is cut"
                    assert card["whole"] or card["lines"] >= 2, (
                        f"{name}: {card['name']}: {card['lines']} lines"
                    )
            # Tap-first: the lead, one button for the full list, "end" in view.
            decision = page.locator("#decision")
            expect(decision.locator(".tap-lead")).to_have_text(
                "☝ Tap a card in your hand, then where it goes."
            )
            expect(decision.locator("#all-options")).to_be_hidden()
            expect(decision.locator(".options.quick button")).to_have_count(1)
            # A card picked in the hand: its bases light up and the decision shows its buttons.
            king = page.locator("#hand .card-face", has_text="King Rex")
            offered = decision.locator(
                f'[name=options][data-cards~="{king.get_attribute("data-card")}"]'
            ).count()
            assert offered == 4  # every base but Ancient Temple, where Overrun keeps Ada out
            king.click()
            lit = page.locator("#bases .base.target")
            expect(lit).to_have_count(offered)
            expect(decision.locator(".option-group.picked .option")).to_have_count(offered)
            expect(decision.locator(".option-group:not(.picked)").first).to_be_hidden()
            page.screenshot(path=str(screenshots / f"{name}-card-picked.png"))
            page.keyboard.press("Escape")
            expect(lit).to_have_count(0)
            show = decision.locator("[data-show-all]")
            show.click()
            expect(decision.locator("#all-options")).to_be_visible()
            expect(show).to_have_attribute("aria-expanded", "true")
            labels = page.evaluate(LABELS_JS)
            assert len(labels) == 23 and len(set(labels)) == 23, labels
            show.click()
            expect(decision.locator("#all-options")).to_be_hidden()
        finally:
            context.close()


# ------------------------------------------------------------------------------------------ B -----
def play_by_taps(page, rng: random.Random, plays: list) -> str:
    """One decision, by taps. With cards in hand to play: open the drawer, scroll it to its end,
    tap the lowest card that goes somewhere, then where it goes; the drawer closes onto its bar."""
    drawer = page.locator("#hand-cards")
    bar = page.locator("[data-hand-toggle]")
    tap_first = page.locator("#decision .tap-lead").count() > 0
    playable = page.evaluate(
        """() => [...document.querySelectorAll('#hand .card-face.is-option')].map(c => c.dataset.card)"""
    )
    if tap_first and playable and rng.random() < 0.85:
        bar.tap()
        expect(drawer).to_be_visible()
        drawer.evaluate("el => { el.scrollTop = el.scrollHeight; }")
        card = page.locator(f'#hand .card-face[data-card="{playable[-1]}"]')
        card.tap()
        targets = page.locator("#bases .base.target")
        if targets.count():
            # Closed by itself onto its bar, the cards gone from the strip, scrolled back.
            expect(drawer).to_be_hidden()
            expect(bar).to_have_attribute("aria-expanded", "false")
            assert page.evaluate(IN_VIEW_JS, "[data-hand-toggle]"), "the drawer's bar is out of view"
            assert drawer.evaluate("el => el.scrollTop") == 0
            targets.nth(rng.randrange(targets.count())).locator(".base-head").tap()
            plays.append("card on a base")
            return "a card on a base"
        lit = page.locator("#decision .option.lit")
        if lit.count() == 1 and not lit.get_attribute("data-base"):
            card.tap()  # a card played where it is (an action): a second tap plays it
            plays.append("card")
            return "a card, tapped twice"
        bar.tap()  # its own buttons in the decision, behind the drawer
        expect(drawer).to_be_hidden()
        lit.first.tap()
        plays.append("card")
        return "a card, then its button"
    if playable and rng.random() < 0.5:
        # Between plays: open, scroll, close. The bar stays; a tap on it picks no card.
        bar.tap()
        drawer.evaluate("el => { el.scrollTop = el.scrollHeight; }")
        bar.tap()
        expect(drawer).to_be_hidden()
        bar.tap()
        expect(drawer).to_be_visible()
        expect(page.locator("#hand .card-face.selected")).to_have_count(0)
        bar.tap()
        expect(drawer).to_be_hidden()
    multi = page.locator(f"{CHOICE} fieldset.options.multi")
    if multi.count():
        legend = multi.locator("legend").inner_text()
        low = int(legend.split()[1])
        boxes = multi.locator("input[type=checkbox]")
        for i in range(min(low, boxes.count())):
            boxes.nth(i).tap()
        page.locator(f"{CHOICE} .actions button[type=submit]:not(.decline)").tap()
        return "ticked"
    show_all(page)
    buttons = page.locator(f"{CHOICE} .options button")
    quiet = [i for i in range(buttons.count()) if "quiet" in (buttons.nth(i).get_attribute("class") or "")]
    loud = [i for i in range(buttons.count()) if i not in quiet]
    buttons.nth(rng.choice(loud if loud and rng.random() < 0.7 else (quiet or loud))).tap()
    return "a button"


def test_a_phone_plays_a_whole_game_against_bots_by_taps(stack, browser, screenshots):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    set_up_against_bots(page, stack.base_url, "Ada", bots=2)
    game = GamePage(page, "phone")
    game.wait_live()
    rng = random.Random(26)
    plays: list = []
    decisions = 0
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        state = game.wait_mine_or_over()
        if state.get("status") == "finished":
            break
        assert page.evaluate(IN_VIEW_JS, "#decision"), f"decision {decisions} is out of view"
        version = game.version
        done = play_by_taps(page, rng, plays)
        game.wait_answered(version)
        assert game.error() is None, f"refused after {done}: {game.error()}"
        decisions += 1
        if decisions == 6:
            page.screenshot(path=str(screenshots / "table-phone-mid-game.png"))
    else:
        raise AssertionError(f"the game did not end ({decisions} decisions)")
    assert plays.count("card on a base") >= 3, plays
    expect(page.locator("#decision .final-places li")).to_have_count(3)
    page.screenshot(path=str(screenshots / "table-phone-game-over.png"))
    assert game.console_errors == []
    context.close()


# ------------------------------------------------------------------------------------------ C -----
# Every message the page's socket gets, and every state the page shows, by version (in order).
RECORD_JS = """() => {
  window.__got = []; window.__shown = []; window.__ghosts = 0;
  const sock = window.__sockets.at(-1);
  EventTarget.prototype.addEventListener.call(sock, 'message', e => {  // as it arrives
    const m = /<div id="play-status"[^>]*data-version="(\\d+)"/.exec(e.data);
    if (m) window.__got.push(Number(m[1]));
  });
  document.addEventListener('htmx:wsAfterMessage', e => {
    const m = /<div id="play-status"[^>]*data-version="(\\d+)"/.exec(e.detail.message);
    if (m) window.__shown.push(Number(document.getElementById('play-status').dataset.version));
  });
  new MutationObserver(ms => { for (const m of ms) for (const n of m.addedNodes)
    if (n.classList && n.classList.contains('ghost')) window.__ghosts++; })
    .observe(document.body, {childList: true});
}"""


# This stack's bots move at once (PLAY_BOT_DELAY 0, so the page's pace is 0 too); the page is made to
# hold each of the others' moves as a table with a pace does, so that their bursts queue up in it.
PACED_JS = "() => { document.querySelector('.play').dataset.paceMs = '650'; }"

# The page has shown the last state its socket brought, and that state asks its player something
# (or the game is over).
CAUGHT_UP_JS = """() => {
  const s = document.getElementById('play-status').dataset;
  return (!!s.decision || s.status === 'finished') && window.__got.length > 0
    && window.__shown.at(-1) === window.__got.at(-1);
}"""


def end_my_turn(page) -> None:
    """Answer my decision with its quiet button (end the phase, pass, decline), else the first one."""
    show_all(page)
    quiet = page.locator(f"{CHOICE} .options button.quiet")
    decline = page.locator(f"{CHOICE} button.decline")
    if quiet.count():
        quiet.first.click()
    elif decline.count():
        decline.first.click()
    elif page.locator(f"{CHOICE} fieldset.options.multi").count():
        multi = page.locator(f"{CHOICE} fieldset.options.multi")
        low = int(multi.locator("legend").inner_text().split()[1])
        for i in range(low):
            multi.locator("input[type=checkbox]").nth(i).check()
        page.click(f"{CHOICE} .actions button[type=submit]:not(.decline)")
    else:
        page.locator(f"{CHOICE} .options button").first.click()


def answer_and_wait(game: GamePage) -> None:
    version = game.version
    end_my_turn(game.page)
    game.wait_answered(version)
    assert game.error() is None, game.error()


def shoot_sizes(page, screenshots, name: str, selector: str) -> None:
    # What a move left fading over the page is drawn where it was at this size: let it go first.
    expect(page.locator(".ghost")).to_have_count(0)
    ticker = page.locator("#ticker")
    if ticker.is_visible():
        ticker.click()  # a tap hides the last moves
    before = page.viewport_size
    for size in SIZES:
        page.set_viewport_size(size)
        page.locator(selector).scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"{name}-{size_name(size)}.png"))
    page.set_viewport_size(before)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_since_your_last_turn_and_a_scoring_summary_against_three_bots(stack, browser, screenshots, motion):
    context = browser.new_context(viewport=LAPTOP_768, reduced_motion=motion)
    context.add_init_script(TRACK_SOCKETS_JS)
    page = context.new_page()
    set_up_against_bots(page, stack.base_url, "Ada", bots=3)
    game = GamePage(page, "laptop")
    game.wait_live()
    page.evaluate(RECORD_JS)
    page.evaluate(PACED_JS)
    since = page.locator("#since")

    # My first turn: end it at once. When it comes back, the three bots' turns are listed.
    whose = page.locator("#play-status .whose")
    while True:
        game.wait_mine_or_over()
        if whose.inner_text() == "Your turn":
            break
        answer_and_wait(game)  # a bot's card asked me something before my turn
    my_turn = game.turn()
    while game.turn() == my_turn or whose.inner_text() != "Your turn":
        answer_and_wait(game)  # my turn, then whatever the bots' turns ask me
        game.wait_mine_or_over()
    assert game.turn() == my_turn + 4, "three bots played between my turns"
    expect(since).to_be_visible()
    turns = since.locator(".since-turn")
    expect(turns).to_have_count(3)
    bots = page.locator("#players .player:not(.me) .player-name").all_inner_texts()
    assert [t.split(" ")[0] for t in turns.locator("h3").all_inner_texts()] == [
        b.split(" ")[0] for b in rotate_after(page, bots)
    ]
    if motion == "no-preference":
        shoot_sizes(page, screenshots, "table-since", "#since")
    # Dismissed, it stays hidden on this device, a reload included.
    since.locator("[data-dismiss]").click()
    expect(since).to_be_hidden()
    page.reload()
    game.wait_live()
    expect(page.locator("#since")).to_be_hidden()
    page.evaluate(RECORD_JS)
    page.evaluate(PACED_JS)

    # Play on (ending each turn) until a base scores: its summary stays until my next choice.
    scoring = page.locator("#scoring .scored")
    deadline = time.monotonic() + GAME_SECONDS
    while not scoring.count() or not scoring.first.is_visible():
        assert time.monotonic() < deadline, "no base scored"
        state = game.wait_mine_or_over()
        if state.get("status") == "finished":
            pytest.fail("the game ended before a summary was seen")
        if scoring.count() and scoring.first.is_visible():
            break
        answer_and_wait(game)
    game.wait_mine_or_over()
    summary = scoring.first
    key = summary.get_attribute("data-key")
    rows = summary.locator(".ranking tbody tr")
    assert rows.count() >= 1
    names = set(page.locator("#players .player-name").all_inner_texts())
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        assert cells.nth(1).inner_text().isdigit() and cells.nth(2).inner_text().startswith("+")
        assert rows.nth(i).locator("th").inner_text().split("\n")[0].strip() in names
    if motion == "no-preference":
        shoot_sizes(page, screenshots, "table-scoring", "#scoring")
    page.wait_for_timeout(1500)
    expect(summary).to_be_visible()  # it waits for me
    answer_and_wait(game)
    expect(page.locator(f'#scoring .scored[data-key="{key}"]:visible')).to_have_count(0)

    # Every state the socket brought was shown, in order, none left out; with reduced motion no
    # ghost of a card that left ever moved over the page. The page shows others' moves one at a time,
    # a pace apart (play.js): wait until it has caught up with its socket and asks me again (then
    # nothing comes until I answer), however long the bots' burst takes to show.
    page.wait_for_function(CAUGHT_UP_JS, timeout=WAIT)
    got, shown, ghosts = page.evaluate("() => [window.__got, window.__shown, window.__ghosts]")
    assert got and shown == got, (got, shown)
    # What moves is drawn with CSS animations, which reduced motion turns into an outline.
    animation = page.evaluate(
        """() => { const m = document.querySelector('#bases .minion') || document.body;
          m.classList.add('just-arrived'); const name = getComputedStyle(m).animationName;
          m.classList.remove('just-arrived'); return name; }"""
    )
    if motion == "reduce":
        assert ghosts == 0 and animation == "none"
    else:
        assert animation == "arrive"
    assert game.console_errors == []
    context.close()


@pytest.mark.django_db(transaction=True)
def test_the_skip_link_lands_on_the_decision_clear_of_the_status_bar(browser):
    """The first Tab reaches "Skip to the decision"; Enter puts the focus on the decision's heading,
    scrolled clear of the sticky status bar (three lines on a phone: the heading was half under it)."""
    with ThreadPoolExecutor(1) as pool:
        path, html = pool.submit(crowded_page).result()
    for size in (PHONE, LAPTOP_768):
        context = browser.new_context(viewport=size)
        page = context.new_page()
        try:
            serve(page, path, html)
            page.keyboard.press("Tab")
            skip = page.locator(".skip-link")
            expect(skip).to_be_focused()
            expect(skip).to_be_in_viewport()
            page.keyboard.press("Enter")
            heading = page.locator("#decision-title")
            expect(heading).to_be_focused()
            box, bar = heading.bounding_box(), page.locator(".play-top").bounding_box()
            assert box["y"] >= bar["y"] + bar["height"] - 1, (size, box, bar)
        finally:
            context.close()


def rotate_after(page, others: list[str]) -> list[str]:
    """The other players in turn order after me (seat order, from the seat after mine)."""
    seats = page.locator("#players .player").evaluate_all("els => els.map(e => Number(e.dataset.seat))")
    me = page.locator("#players .player.me").get_attribute("data-seat")
    order = [s for s in seats if s > int(me)] + [s for s in seats if s < int(me)]
    by_seat = dict(zip([s for s in seats if s != int(me)], others, strict=True))
    return [by_seat[s] for s in order]
