"""Whole games through the new game screen (issue 13), in real Chromium against the real stack.

A: on a phone (390x844, touch), "Play against bots" in the lobby starts a game in one tap, and the
   whole game is played by tapping: a card in the hand drawer then a lit base, a lit minion or base on
   the board, or else the decision's own button. At every decision the decision and the hand (its
   drawer bar) are in view without scrolling, and no two options read the same.
B: on a laptop (1366x900), a whole game by keyboard only, with the same checks; then its replay opens
   at the start and plays by itself, step after step, without a page load.
"""

from __future__ import annotations

import random
import time

from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE
from .pages import CHOICE, GamePage, show_all
from .test_play_keyboard import answer_by_keyboard, tab_to_first_option
from .test_play_screen import IN_VIEW_JS, LABELS_JS

GAME_SECONDS = 600
MAX_DECISIONS = 600


def check_screen(page, where: str) -> None:
    """The decision and the hand in view, without scrolling; no option shown twice."""
    page.wait_for_timeout(150)  # play.js brings a new question into view
    assert page.evaluate(IN_VIEW_JS, "#decision"), f"{where}: the decision is out of view"
    assert page.evaluate(IN_VIEW_JS, "#hand"), f"{where}: the hand is out of view"
    labels = page.evaluate(LABELS_JS)
    assert len(labels) == len(set(labels)), f"{where}: an option shows twice: {labels}"


# The minions and bases on the board that one option of the decision names (a tap presses it).
LIT_JS = """() => {
  const opts = [...document.querySelectorAll('#decision form.choice-form .options button')];
  const hits = id => opts.filter(b => (b.dataset.cards || b.dataset.card || '').split(' ').includes(id));
  const out = [];
  for (const m of document.querySelectorAll('#bases .minion.is-option'))
    if (hits(m.dataset.card).length === 1) out.push(`#bases .minion[data-card="${m.dataset.card}"] summary`);
  for (const b of document.querySelectorAll('#bases .base.is-option'))
    if (opts.filter(o => o.dataset.base === b.dataset.base && !o.dataset.card).length === 1)
      out.push(`#bases .base[data-base="${b.dataset.base}"] .base-head`);
  return out;
}"""


def tap_a_choice(page, rng: random.Random) -> str:
    """Answer the open decision by tapping, the way a player on a phone would."""
    if page.locator(f"{CHOICE} fieldset.options.multi").count():
        legend = page.inner_text(f"{CHOICE} fieldset.options.multi legend")
        low = int(legend.split()[1])
        cards = page.eval_on_selector_all(
            f"{CHOICE} fieldset.options.multi input[type=checkbox]",
            "els => els.map(e => e.dataset.card || '')",
        )
        in_hand = [
            c for c in cards if c and page.locator(f'#hand .card-face.is-option[data-card="{c}"]').count()
        ]
        ticked = 0
        if in_hand and low:
            page.tap("[data-hand-toggle]")
            for card in in_hand[:low]:
                page.tap(f'#hand .card-face[data-card="{card}"]')
                ticked += 1
            page.tap("[data-hand-toggle]")
        boxes = page.locator(f"{CHOICE} fieldset.options.multi input[type=checkbox]")
        for i in range(boxes.count()):
            if ticked >= low:
                break
            if not boxes.nth(i).is_checked():
                boxes.nth(i).tap()
                ticked += 1
        page.tap(f"{CHOICE} .actions button[type=submit]:not(.decline)")
        return f"ticked {ticked} by tapping"
    # A card in hand that goes to a base: open the drawer, tap the card, tap a lit base.
    playable = page.evaluate(
        """() => [...document.querySelectorAll('#hand .card-face.is-option')].map(c => c.dataset.card)
          .filter(id => [...document.querySelectorAll('#decision [name=options][data-base]')]
          .some(e => (e.dataset.cards || '').split(' ').includes(id)))"""
    )
    if playable and rng.random() < 0.8:
        card = rng.choice(playable)
        page.tap("[data-hand-toggle]")
        page.wait_for_timeout(250)
        page.tap(f'#hand .card-face[data-card="{card}"]')
        page.wait_for_timeout(400)  # the drawer closes, the page shows the first lit base
        targets = page.locator("#bases .base.target")
        assert targets.count() > 0, "a card with plays on bases lit no base"
        base = targets.nth(rng.randrange(targets.count()))
        base.locator(".base-head").tap()
        return f"card {card} on a base"
    # A minion or base on the board that the decision offers once: tap it.
    lit = page.evaluate(LIT_JS)
    if lit and rng.random() < 0.7:
        page.tap(rng.choice(lit))
        return "a lit minion or base"
    show_all(page)  # the decision's own buttons: the full list is one tap away
    buttons = page.locator(f"{CHOICE} .options button")
    quiet = [i for i in range(buttons.count()) if "quiet" in (buttons.nth(i).get_attribute("class") or "")]
    loud = [i for i in range(buttons.count()) if i not in quiet]
    pick = rng.choice(loud if loud and rng.random() < 0.7 else (quiet or loud))
    buttons.nth(pick).tap()
    return "a button of the decision"


def play_to_the_end(game: GamePage, answer, where: str) -> int:
    page = game.page
    deadline = time.monotonic() + GAME_SECONDS
    decisions = 0
    while decisions < MAX_DECISIONS and time.monotonic() < deadline:
        state = game.wait_mine_or_over()
        if state.get("status") == "finished":
            return decisions
        check_screen(page, f"{where}, decision {decisions}")
        version = game.version
        done = answer()
        try:
            game.wait_answered(version, timeout=20_000)
        except Exception:
            # A tap on a lit minion that opened its details rather than choosing: answer again.
            if game.version == version:
                continue
            raise
        assert game.error() is None, f"{where}: refused after {done}: {game.error()}"
        decisions += 1
    raise AssertionError(f"{where}: the game did not end ({decisions} decisions)")


def test_one_tap_starts_a_game_against_bots_and_a_phone_plays_it_by_tapping(stack, browser, screenshots):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(stack.base_url + "/play/")
    page.tap("#play-bots")  # the one tap
    page.wait_for_url("**/play/g/**")
    game = GamePage(page, "phone")
    game.wait_live()
    assert page.locator("#players .player").count() == 3  # you and the two bots of the default
    rng = random.Random(5)
    decisions = play_to_the_end(game, lambda: tap_a_choice(page, rng), "phone")
    assert decisions > 5
    assert page.locator("#decision .final-places li").count() == 3
    page.screenshot(path=str(screenshots / "whole-phone-end.png"))
    assert game.console_errors == []
    context.close()


def test_a_laptop_plays_a_whole_game_by_keyboard_and_its_replay_plays_from_the_start(
    stack, browser, screenshots
):
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.goto(stack.base_url + "/play/")
    page.fill("input[name=your_name][data-remember-name]", "Ada")
    page.select_option("select[name=bots]", "1")
    page.focus("#play-bots")
    page.keyboard.press("Enter")
    page.wait_for_url("**/play/g/**")
    game = GamePage(page, "laptop")
    game.wait_live()
    page.evaluate(
        "() => { window.__pointer = 0;"
        " document.addEventListener('pointerdown', () => window.__pointer++, true); }"
    )
    rng = random.Random(8)

    def answer():
        if not page.evaluate(f"() => !!document.activeElement.closest('{CHOICE}')"):
            if page.evaluate("() => document.activeElement.id") != "decision-title":
                tab_to_first_option(page, most=40)
        return answer_by_keyboard(page, rng)

    decisions = play_to_the_end(game, answer, "laptop")
    assert decisions > 5
    assert page.evaluate("() => window.__pointer") == 0, "no pointer was used"

    # The replay, from the game's end page: it opens at the start and plays by itself, in place.
    page.click("text=Watch the replay")
    page.locator("#replay-body").first.wait_for()
    page.evaluate("() => { window.__samePage = true; }")
    assert page.get_attribute("#replay-body", "data-step") == "0"
    page.wait_for_function(
        "() => Number(document.getElementById('replay-body').dataset.step) >= 3", timeout=20_000
    )
    assert page.evaluate("() => window.__samePage") is True, "a step loaded a new page"
    assert page.get_attribute("[data-replay=play]", "aria-pressed") == "true"
    page.click("[data-replay=play]")  # pause
    paused_at = page.get_attribute("#replay-body", "data-step")
    page.wait_for_timeout(2500)
    assert page.get_attribute("#replay-body", "data-step") == paused_at
    # Jump to a turn other than the one shown (the options are "Turn 1", "Turn 2"... each valued with
    # the step at which that turn starts): the board shown is that step, in that turn.
    body = page.locator("#replay-body")
    shown_turn = body.get_attribute("data-turn")
    options = page.locator("[data-replay=turn] option").evaluate_all(
        "els => els.map(e => [e.value, e.textContent.trim()])"
    )
    at, label = next((v, t) for v, t in reversed(options) if t != f"Turn {shown_turn}")
    page.select_option("[data-replay=turn]", label=label)
    expect(body).to_have_attribute("data-step", at)
    expect(body).to_have_attribute("data-turn", label.removeprefix("Turn "))
    page.screenshot(path=str(screenshots / "whole-replay.png"))
    assert game.console_errors == []
    context.close()
