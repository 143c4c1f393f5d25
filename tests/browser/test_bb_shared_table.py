"""Big Base at a shared table in real Chromium (issue 11): one table display and four phones through
a whole scoring period, and one device passed around (hot seat).

The display is the device that sets the table up (the lobby, "Big Base", nobody sits); it shows a
QR code per free seat, and each phone opens the link of one (what scanning it does). The four phones
play every decision of period 1, tapping the board's slots and sides where they can, until the board
scores; the display follows live and never shows a card that is in a hand. Screenshots (display at
1920x1080, 1366x1024 and 1280x800; a phone; the hot seat's privacy screen and hand) go to the test's
tmp dir (printed), to be looked at.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Error as PlaywrightError

from bigbase.models import Board, board_row_data
from bigbase.rules import load_boards

from .conftest import PHONE
from .pages import CHOICE, GamePage

TV = {"width": 1920, "height": 1080}
TABLETS = [{"width": 1366, "height": 1024}, {"width": 1280, "height": 800}]


@pytest.fixture
def boards(transactional_db):
    """The default boards (a transactional test starts from an empty database, migration data too)."""
    for slug, board in load_boards().items():
        defaults = {"name": board["name"], "data": board_row_data(board)}
        Board.objects.update_or_create(slug=slug, defaults=defaults)


def shot(page, tmp_path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    print(f"screenshot: {path}")


def assert_scrolls_clear_of_the_bars(page, selector: str) -> None:
    """On a phone, the last element of `selector` scrolled into view at the top or at the bottom
    of the screen (as focus and the page's own scrolling do) is neither under the sticky status
    bar nor under the hand drawer."""
    target = page.locator(selector).last
    for block in ("start", "end"):
        target.evaluate(f"e => e.scrollIntoView({{block: '{block}'}})")
        page.wait_for_timeout(100)
        box, bar = target.bounding_box(), page.locator(".play-top").bounding_box()
        drawer = page.locator("#hand").bounding_box()
        assert box["y"] >= bar["y"] + bar["height"] - 1, (block, box, bar)
        assert box["y"] + box["height"] <= drawer["y"] + 1, (block, box, drawer)


def set_up_big_base(page, base_url: str, kinds: list[str], *, hotseat: bool = False, names=()) -> None:
    page.goto(base_url + "/play/")
    page.check("#id_mode_1")  # Big Base
    page.select_option("#id_board", "default")
    page.uncheck("#id_sit")
    for seat, kind in enumerate(kinds):
        page.select_option(f"#id_seat{seat}_kind", kind)
    if hotseat:
        page.check("#id_hotseat")  # (the seats' names show then)
    for seat, name in enumerate(names):
        page.fill(f"#id_seat{seat}_name", name)
    page.click("text=Set up the table")


def display_ids(display) -> set[int]:
    values = display.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
    return {int(v) for v in values if v.isdigit()}


def display_version(display) -> int:
    return int(display.get_attribute("#play-status", "data-version") or -1)


def tap_or_decide(game: GamePage, rng: random.Random) -> str:
    """A phone's move: a slot question is answered by tapping the slot on the board; a card with
    sides to go to, now and then, by tapping the card then a lit side; else a decision button."""
    page = game.page
    # Locators, found again at each click: a live update may redraw the board and hand meanwhile.
    slots = page.locator("#bases .bb-slot.is-option")
    if slots.count():
        slots.nth(rng.randrange(slots.count())).click()
        return "tap slot"
    cards = page.evaluate(
        "() => [...document.querySelectorAll('#hand .card-face.is-option')].map(c => c.dataset.card)"
    )
    if cards and rng.random() < 0.5:
        card = rng.choice(cards)
        if page.locator("[data-hand-toggle]").count() and not page.is_visible("#hand-cards .card-face"):
            page.click("[data-hand-toggle]")
        page.locator(f'#hand .card-face.is-option[data-card="{card}"]').first.click()
        sides = page.locator("#bases .bb-side.target")
        if sides.count():
            sides.nth(rng.randrange(sides.count())).click()
            return "tap card and side"
        page.keyboard.press("Escape")  # unselect (a second tap would play a card without a side)
    return game.decide(rng, decline_rate=0.2)


def test_a_display_and_four_phones_play_a_scoring_period(boards, browser, stack, tmp_path):
    rng = random.Random(11)
    host = browser.new_context(viewport=TV)
    display = host.new_page()
    set_up_big_base(display, stack.base_url, ["person"] * 4)
    display.wait_for_url("**/play/t/**")
    public_id = display.url.rstrip("/").split("/")[-1]
    display.goto(f"{stack.base_url}/play/g/{public_id}/display/")
    display.locator(".display-free-seat").first.wait_for()
    assert display.locator(".display-free-seat svg.qr").count() == 4
    shot(display, tmp_path, "display-lobby-1920x1080")
    links = display.eval_on_selector_all(".display-free-seat", "els => els.map(e => e.dataset.link)")

    phones = []
    for i, link in enumerate(links):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.goto(link)  # what scanning the seat's QR code opens
        page.fill("input[name=name]", f"Phone {i + 1}")
        page.click("text=Take this seat")
        phones.append(GamePage(page, f"phone {i + 1}"))
    for phone in phones:
        if "/play/g/" not in phone.page.url:
            phone.page.wait_for_url("**/play/g/**", timeout=20_000)
        phone.wait_live()
        phone.page.wait_for_timeout(300)  # the socket's first message (it redraws the decision)
    # The waiting screen polls; the start turns it into the board.
    display.locator(".bb-board.bb-display").first.wait_for(timeout=20_000)
    display.locator('#ws-state[data-state="open"]').first.wait_for()
    shown = display.inner_text("body").lower()  # (some labels are drawn in capitals)
    for words in ("north", "east", "south", "west", "base card", "round", "period", "1st player"):
        assert words in shown, words

    moves = []
    checked = 0
    phone_shot = False
    for _ in range(600):
        if "Period 1:" in display.inner_text("#display-players"):  # what the scoring gave each player
            break
        statuses = [p.status() for p in phones]
        deciding = next((p for p, s in zip(phones, statuses, strict=True) if s.get("decision")), None)
        if deciding is None:
            phones[0].page.wait_for_timeout(100)
            continue
        version = deciding.version
        # Between moves nothing changes: the display (once it shows this version) holds no hand card.
        display.wait_for_function(
            "v => Number(document.getElementById('play-status').dataset.version) >= v", arg=version
        )
        for phone in phones:
            phone.wait_version(version)
        settled = all(p.version == version for p in phones) and display_version(display) == version
        if settled and checked < 40:
            in_hands = set().union(*(set(p.hand_ids()) for p in phones))
            assert in_hands and display_ids(display).isdisjoint(in_hands)
            checked += 1
        if not phone_shot and deciding.page.locator("#hand .card-face.is-option").count():
            shot(deciding.page, tmp_path, "phone-390x844")
            phone_shot = True
        if deciding.page.locator("#bases .bb-slot.is-option").count() and "phone-slot" not in str(moves):
            shot(deciding.page, tmp_path, "phone-slot-question")
            deciding.page.locator("#bases").screenshot(path=str(tmp_path / "phone-board.png"))
            assert_scrolls_clear_of_the_bars(deciding.page, "#bases .bb-slot.is-option")
            moves.append("phone-slot shot")
        moves.append(tap_or_decide(deciding, rng))
        deciding.wait_answered(version)
        assert deciding.error() is None, (moves[-5:], deciding.error())
        if len(moves) == 30:
            shot(display, tmp_path, "display-midgame-1920x1080")
    assert "Period 1:" in display.inner_text("#display-players"), moves[-10:]
    assert any(m == "tap slot" for m in moves) and any(m == "tap card and side" for m in moves), moves
    assert checked >= 10
    shot(display, tmp_path, "display-scored-1920x1080")
    for size in TABLETS:
        display.set_viewport_size(size)
        display.wait_for_timeout(200)
        shot(display, tmp_path, f"display-{size['width']}x{size['height']}")
    host.close()


def test_hot_seat_privacy_screen_between_seats(boards, browser, stack, tmp_path):
    rng = random.Random(5)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    set_up_big_base(page, stack.base_url, ["person", "person", "bot"], hotseat=True, names=["Ada", "Bob"])
    page.wait_for_url("**/hotseat/")
    seen = []
    for _ in range(80):
        page.locator("#hot-screen h2").first.wait_for()
        page.locator('#ws-state[data-state="open"]').first.wait_for()
        if page.locator(".hot-go").count() == 0:
            page.wait_for_timeout(200)  # a bot plays
            continue
        # The privacy screen: the board, and nothing private (no hand, no decision, no card that the
        # next page will show in the hand).
        assert page.locator("#hand").count() == 0 and page.locator(CHOICE).count() == 0
        board_ids = display_ids(page)
        name = page.inner_text(".hot-name")
        if not seen:
            shot(page, tmp_path, "hotseat-privacy")
        page.click(".hot-go")
        page.locator("#hand").first.wait_for()
        game = GamePage(page, name)
        hand = set(game.hand_ids())
        assert hand and hand.isdisjoint(board_ids)
        assert f"{name} (you)" in page.inner_text("#players")
        if not seen:
            shot(page, tmp_path, "hotseat-hand")
        seen.append(name)
        # This seat plays until the decision is someone else's: the page goes back to the screen.
        for _ in range(40):
            try:
                page.wait_for_load_state()
                if "/hotseat/" in page.url:
                    break
                version = game.version
                if page.locator(CHOICE).count() == 0:
                    page.wait_for_timeout(200)  # hotseat.js is taking the page back
                    continue
                game.decide(rng, decline_rate=0.2)
                page.wait_for_function(
                    "v => location.pathname.endsWith('/hotseat/') || (document.getElementById('play-status')"
                    " && Number(document.getElementById('play-status').dataset.version) > v)",
                    arg=version,
                )
            except PlaywrightError as exc:  # hotseat.js took the page back to the privacy screen
                if not any(w in str(exc) for w in ("destroyed", "navigat")):
                    raise
        assert "/hotseat/" in page.url
        if {"Ada", "Bob"} <= set(seen) and len(seen) >= 4:
            break
    assert {"Ada", "Bob"} <= set(seen), seen
    context.close()
