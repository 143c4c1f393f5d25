"""The table display read across a room (issue 26, finding 6) and the phones' board in its compass
order (finding 12), in real Chromium.

The pages are rendered by the server's own code from engine positions (tests/browser/display_pages.py:
the longest slot ability the board vocabulary can word on every slot, the longest base texts on the
base card and the next one, four players with long names) and served to Chromium by a route handler.

What "readable from 3 m on a 1920x1080 TV" means here (display.css says why): on a usual mid-game
board the minions, slot holders and powers are 28 px or more, the abilities of free slots 25 px;
on a crowded board (every slot held, 17 minions) the type may shrink to fit the screen but the
minions stay 26 px or more. Whatever the board, nothing is cut off: no text overflows its box, none
ends in an ellipsis or a line clamp, and the whole display fits the screen without scrolling.
Screenshots go to tests/browser/screenshots/display-*.png, to be looked at.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from bigbase.rules import default_board
from bigbase.rules.board import _ability

from .conftest import PHONE
from .display_pages import (
    MIDGAME,
    NAMES,
    SHORT_NAMES,
    USUAL_BASES,
    crowded_big_base,
    crowded_standard,
    display_html,
    game_page_html,
    longest_board,
)
from .test_play_screen import serve

TV = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1366, "height": 768}
TABLET = {"width": 768, "height": 1024}
DISPLAY = "/play/g/display-test/display/"

# Every element whose text is cut: it clips what overflows it (overflow other than visible) and its
# content is larger than its box, or it ends lines with an ellipsis or clamps them. And the page:
# taller or wider than the screen.
CUT_JS = """() => {
  const cut = [];
  for (const el of document.querySelectorAll('.play.display *')) {
    const s = getComputedStyle(el);
    if (s.display === 'none' || el.closest('svg, .visually-hidden')) continue;
    const clips = s.overflowX !== 'visible' || s.overflowY !== 'visible';
    if (clips && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1))
      cut.push('overflow: ' + el.className + ': ' + el.textContent.trim().slice(0, 60));
    if (s.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1)
      cut.push('ellipsis: ' + el.className);
    if (s.webkitLineClamp && s.webkitLineClamp !== 'none') cut.push('clamp: ' + el.className);
  }
  const page = document.scrollingElement;
  return {cut, tall: page.scrollHeight - innerHeight, wide: page.scrollWidth - innerWidth,
          fit: document.documentElement.dataset.fit};
}"""

# The font size in px of the first element matching each selector.
SIZES_JS = """sels => Object.fromEntries(sels.map(s => {
  const el = document.querySelector(s);
  return [s, el ? parseFloat(getComputedStyle(el).fontSize) : null];
}))"""

# Every text of the board as the screen shows it (innerText skips what is not rendered).
SLOT_TEXTS_JS = "() => [...document.querySelectorAll('.bb-ability')].map(e => e.innerText.trim())"


def open_page(browser, size, html, path=DISPLAY, touch=False):
    context = browser.new_context(viewport=size, has_touch=touch)
    page = context.new_page()
    serve(page, path, html)
    return context, page


def shot(page, screenshots, name):
    path = screenshots / f"{name}.png"
    page.screenshot(path=str(path))
    print(f"screenshot: {path}")


def fitted(page):
    """Until display.js has fitted the page to the screen."""
    expect(page.locator("html[data-fit]")).to_have_count(1)


@pytest.mark.django_db(transaction=True)
def test_the_longest_texts_are_never_cut_off(browser, screenshots):
    board = longest_board()
    ability = board["sides"][0]["slots"][0]
    for name, game in (
        ("longest-crowded", crowded_big_base(board)),
        ("longest-free", crowded_big_base(board, layout=MIDGAME)),
    ):
        words = _ability(ability, "test").words()
        html = display_html(game)
        for size in (TV, LAPTOP):
            context, page = open_page(browser, size, html)
            try:
                fitted(page)
                shot(page, screenshots, f"display-{name}-{size['width']}x{size['height']}")
                measured = page.evaluate(CUT_JS)
                assert measured["cut"] == [] and measured["tall"] <= 0 and measured["wide"] <= 0, measured
                # Every slot with an ability shows all of it; the base card and the next one theirs.
                texts = page.evaluate(SLOT_TEXTS_JS)
                assert texts.count(words) == 12 and len(texts) == 16, texts  # and 4 extra slots
                current, upcoming = game.defs[game.base_card].text, game.defs[game.next_base].text
                expect(page.locator(".bb-base-text")).to_have_text(current)
                expect(page.locator(".bb-next-text")).to_have_text(f": {upcoming}")
                if size is TV:
                    sizes = page.evaluate(SIZES_JS, [".bb-cards .minion", ".bb-slot:not(.held) .bb-ability"])
                    assert min(v for v in sizes.values() if v) >= 20, sizes  # shrunk, still readable
            finally:
                context.close()


@pytest.mark.django_db(transaction=True)
def test_type_sizes_on_a_tv(browser, screenshots):
    usual = crowded_big_base(default_board(), layout=MIDGAME, names=SHORT_NAMES, bases=USUAL_BASES)
    cases = [
        ("midgame", usual, SHORT_NAMES[2], 28, 25),
        ("crowded", crowded_big_base(default_board()), NAMES[2], 26, None),
    ]
    for name, game, third, minions, free_ability in cases:
        context, page = open_page(browser, TV, display_html(game))
        try:
            fitted(page)
            shot(page, screenshots, f"display-{name}-1920x1080")
            measured = page.evaluate(CUT_JS)
            assert measured["cut"] == [] and measured["tall"] <= 0 and measured["wide"] <= 0, measured
            sizes = page.evaluate(
                SIZES_JS,
                [".bb-cards .minion", ".bb-holder", ".bb-slot-power", ".bb-side-total", ".dm-last",
                 ".dp-vp strong", ".bb-slot:not(.held) .bb-ability", ".bb-slot.held .bb-ability"],
            )  # fmt: skip
            print(name, "fit", measured["fit"], sizes)
            for selector in (".bb-cards .minion", ".bb-holder", ".bb-slot-power", ".bb-side-total"):
                assert sizes[selector] >= minions, (name, selector, sizes)
            assert sizes[".dm-last"] >= minions * 1.1 and sizes[".dp-vp strong"] >= minions * 1.2, sizes
            if free_ability is not None:
                assert sizes[".bb-slot:not(.held) .bb-ability"] >= free_ability, sizes
            # The last move, each player's factions and the last scoring are on the screen.
            expect(page.locator(".dm-last")).to_contain_text(f"{third} plays Lovey Bear on West.")
            expect(page.locator(".dp").first).to_contain_text("Superheroes")
            expect(page.locator(".dp").first).to_contain_text("Period 1: 1st with 14")
            for locator in (page.locator(".dm-last"), page.locator(".dp-scored").first):
                box = locator.bounding_box()
                assert box and box["y"] >= 0 and box["y"] + box["height"] <= TV["height"], box
        finally:
            context.close()


@pytest.mark.django_db(transaction=True)
def test_a_standard_game_on_the_display_cuts_nothing_and_keeps_its_last_scoring(browser, screenshots):
    game = crowded_standard()
    context, page = open_page(browser, TV, display_html(game))
    try:
        fitted(page)
        shot(page, screenshots, "display-standard-1920x1080")
        measured = page.evaluate(CUT_JS)
        assert measured["cut"] == [] and measured["tall"] <= 0 and measured["wide"] <= 0, measured
        expect(page.locator(".dp-base-scored")).to_contain_text("Temple of Goju scored")
        expect(page.locator(".dp-base-scored")).to_contain_text("Chiara di Montefeltro gains 4 VP")
        expect(page.locator(".dm-last")).to_contain_text("Bartholomew plays Wyvern on")
        boxes = page.locator(".base-list > .base").evaluate_all(
            "els => els.map(e => Math.round(e.getBoundingClientRect().top))"
        )
        assert len(boxes) == 5 and len(set(boxes)) == 1, boxes  # the bases in one row
    finally:
        context.close()


# Where each side of the board is drawn: its box's middle.
PLACES_JS = """() => Object.fromEntries(['top', 'left', 'center', 'right', 'bottom'].map(p => {
  const r = document.querySelector('.bb-board .bb-' + p).getBoundingClientRect();
  return [p, {x: r.left + r.width / 2, y: r.top + r.height / 2, top: r.top, bottom: r.bottom,
              left: r.left, right: r.right}];
}))"""


def assert_compass(places: dict) -> None:
    """North above everything, South below everything, West left of East, the base card between
    North and South."""
    top, left, center, right, bottom = (places[p] for p in ("top", "left", "center", "right", "bottom"))
    assert top["bottom"] <= min(left["top"], right["top"], center["top"]) + 1, places
    assert bottom["top"] >= max(left["bottom"], right["bottom"], center["bottom"]) - 1, places
    assert left["right"] <= right["left"] + 1 and left["x"] < right["x"], places
    assert top["y"] < center["y"] < bottom["y"], places


@pytest.mark.django_db(transaction=True)
def test_the_phones_board_is_in_the_displays_compass_order(browser, screenshots):
    game = crowded_big_base(default_board())
    context, page = open_page(browser, TV, display_html(game))
    try:
        fitted(page)
        assert_compass(page.evaluate(PLACES_JS))
    finally:
        context.close()
    for size in (PHONE, TABLET):
        context, page = open_page(
            browser, size, game_page_html(game, 1), path="/play/g/display-test/", touch=True
        )
        try:
            expect(page.locator(".bb-board.bb-compact")).to_be_visible()
            assert_compass(page.evaluate(PLACES_JS))
            page.locator(".bb-board").screenshot(path=str(screenshots / f"phone-board-{size['width']}.png"))
            # The slot's holder is never cut: the viewer's own slots say "You".
            expect(page.locator(".bb-slot.mine .bb-holder").first).to_have_text("You")
            holders = page.locator(".bb-holder").evaluate_all(
                "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
            )
            assert holders == []
        finally:
            context.close()


@pytest.mark.django_db(transaction=True)
def test_the_hot_seat_status_bar_takes_two_lines_on_a_phone(browser, screenshots):
    """One device passed around: the sticky bar held the status, the connection, the sound and "Hide
    my hand" in one squeezed row of three- to five-line columns (finding 12)."""
    game = crowded_big_base(default_board(), layout=MIDGAME, names=SHORT_NAMES, bases=USUAL_BASES)
    html = game_page_html(game, game.pending.seat, hot_seat=True)
    context, page = open_page(browser, PHONE, html, path="/play/g/display-test/", touch=True)
    try:
        hide = page.locator(".play-top .hot-hide")
        expect(hide).to_be_visible()
        shot(page, screenshots, "hot-seat-bar-390x844")
        status, bar = (
            page.locator(".play-top .play-status").bounding_box(),
            page.locator(".play-top").bounding_box(),
        )
        button = hide.bounding_box()
        assert status["width"] >= bar["width"] - 2, (status, bar)  # the status has the first line to itself
        assert status["height"] <= 30 and bar["height"] <= 100, (status, bar)
        assert 44 <= button["height"] <= 56, button  # a touch target, its words on one line
    finally:
        context.close()
