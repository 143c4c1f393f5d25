"""The game page played with the keyboard only (Tab, Shift+Tab, Enter, Space; no pointer at all), in
real Chromium against the real stack (daphne + a Celery worker; see stack.py and conftest.py).

Ada plays against a bot. A skip link, first in the tab order, takes her past the header to the decision;
one Tab then reaches its first option. Tab and Shift+Tab move between the options. When the page
redraws the same question (here: the page asks the server for everything again, as after a reconnect)
the focus stays on the option she was on, not the first one. After each answer the focus lands on the
next question's heading, visibly, and one Tab reaches its first option; it is never dropped to the
page's body. The log is a polite live region.
"""

from __future__ import annotations

import random
import re

from .conftest import LAPTOP, PHONE
from .pages import CHOICE, open_game_against_bots
from .test_play import shoot

DECISIONS = 6  # answered by keyboard

ACTIVE_JS = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return {where: 'body'};
  return {
    where: a.closest('#decision') ? 'decision' : (a.closest('[id]') || {}).id || a.tagName,
    id: a.id, tag: a.tagName, name: a.getAttribute('name'), value: a.getAttribute('value'),
    type: a.getAttribute('type'), text: a.textContent.trim(),
    visible: a.matches(':focus-visible') && getComputedStyle(a).outlineStyle !== 'none',
  };
}"""

# After every live update (play.js has put the focus back by then): where the focus is.
WATCH_FOCUS_JS = """() => {
  window.__focusAfter = [];
  window.__pointer = 0;
  document.addEventListener('pointerdown', () => { window.__pointer += 1; }, true);
  document.addEventListener('htmx:wsAfterMessage', () => {
    const a = document.activeElement;
    window.__focusAfter.push(!a || a === document.body ? 'body' : (a.id || a.tagName));
  });
}"""


def active(page) -> dict:
    return page.evaluate(ACTIVE_JS)


def tab_to_first_option(page, most: int = 12) -> int:
    """Tab from wherever the focus is until it is in the decision's form; returns the Tabs taken."""
    for presses in range(1, most + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => !!document.activeElement.closest('{CHOICE}')"):
            return presses
    raise AssertionError(f"{most} Tabs did not reach the decision's options; focus: {active(page)}")


def answer_by_keyboard(page, rng: random.Random) -> str:
    """With the focus on the decision's heading or first option: pick something with the keyboard."""
    if active(page)["id"] == "decision-title":
        page.keyboard.press("Tab")
    assert page.evaluate(f"() => !!document.activeElement.closest('{CHOICE}')"), active(page)
    if page.locator(f"{CHOICE} fieldset.options.multi").count():
        boxes = page.locator(f"{CHOICE} fieldset.options.multi input[type=checkbox]").count()
        legend = page.inner_text(f"{CHOICE} fieldset.options.multi legend")
        low = int(re.search(r"Choose (\d+)", legend).group(1))
        ticks = min(max(low, 1), boxes)
        for _ in range(ticks):  # the focus starts on the first box
            page.keyboard.press("Space")
            page.keyboard.press("Tab")
        for _ in range(boxes - ticks):
            page.keyboard.press("Tab")
        assert active(page)["text"] == "Confirm", active(page)
        page.keyboard.press("Enter")
        return f"ticked {ticks} of {boxes}"
    options = page.locator(f"{CHOICE} .options button").count()
    steps = rng.randrange(options)
    for _ in range(steps):
        page.keyboard.press("Tab")
    chosen = active(page)
    key = rng.choice(["Enter", "Space"])
    page.keyboard.press(key)
    return f"{key} on option {steps + 1} of {options}: {chosen['text']!r}"


def test_a_game_played_with_the_keyboard_only(stack, browser, screenshots):
    context, page, game = open_game_against_bots(browser, stack.base_url, "Ada", LAPTOP, track_sockets=True)

    # The log is announced politely as it grows, never as a whole (see play.js).
    log = page.locator("#log-lines")
    assert log.get_attribute("role") == "log"
    assert log.get_attribute("aria-live") == "polite"
    assert log.get_attribute("aria-relevant") == "additions"
    assert page.locator("#ws-state").get_attribute("aria-live") == "polite"

    game.wait_mine_or_over()
    # The first Tab lands on the skip link, Enter takes her past the header to the decision's heading,
    # and one more Tab reaches the first option, however many links the header holds.
    page.keyboard.press("Tab")
    skip = active(page)
    assert skip["text"] == "Skip to the decision" and skip["visible"], skip
    page.evaluate(WATCH_FOCUS_JS)  # from her first key on, the focus is somewhere
    page.keyboard.press("Enter")
    assert active(page)["id"] == "decision-title", active(page)
    presses = tab_to_first_option(page)
    assert presses == 1, f"{presses} Tabs from the decision's heading to the first option"
    first = active(page)
    assert first["visible"], "the focused option should show a focus ring"

    # Tab and Shift+Tab move along the options in the order they are shown.
    values = page.eval_on_selector_all(f"{CHOICE} .options button, {CHOICE} input[type=checkbox]",
                                       "els => els.map(e => e.value)")  # fmt: skip
    assert first["value"] == values[0], (first, values)
    if len(values) > 1:
        page.keyboard.press("Tab")
        assert active(page)["value"] == values[1]
        page.keyboard.press("Shift+Tab")
        assert active(page)["value"] == values[0]
        page.keyboard.press("Tab")
        shoot(page, screenshots, "k-laptop-focus-on-option")
        shoot(page, screenshots, "k-phone-focus-on-option", PHONE)

        # The same question drawn again (as on every reconnect): she stays on the second option.
        page.evaluate("() => { window.__oldDecision = document.getElementById('decision'); }")
        page.evaluate("() => window.__sockets.at(-1).send(JSON.stringify({type: 'refresh'}))")
        page.wait_for_function("() => document.getElementById('decision') !== window.__oldDecision")
        now = active(page)
        assert now["value"] == values[1], f"the focus should stay on the second option, not {now}"
        assert page.evaluate("() => window.__oldDecision.contains(document.activeElement)") is False
        page.keyboard.press("Shift+Tab")
        assert active(page)["value"] == values[0]

    # Several decisions with the keyboard only.
    rng = random.Random(11)
    moves = []
    while len(moves) < DECISIONS:
        version = game.version
        moves.append(answer_by_keyboard(page, rng))
        game.wait_answered(version)
        assert game.error() is None, f"refused after {moves[-1]}: {game.error()}"
        state = game.wait_mine_or_over()
        if state["status"] == "finished":
            break
        # The focus is on the new question's heading, visibly (it was a keyboard action), and one
        # Tab away from its first option.
        now = active(page)
        assert now["id"] == "decision-title", f"after {moves[-1]} the focus is on {now}"
        assert page.inner_text("#decision-title") == "Your decision"
        assert now["visible"], "the heading that got the focus should show it"
        if len(moves) == 2:
            shoot(page, screenshots, "k-laptop-focus-on-heading")

    assert len(moves) == DECISIONS, moves
    focus_after = page.evaluate("() => window.__focusAfter")
    assert "body" not in focus_after, f"an update dropped the focus: {focus_after}"
    assert page.evaluate("() => window.__pointer") == 0, "no pointer was used"
    numbers = [n for n, _ in game.log_lines()]
    assert numbers == sorted(set(numbers))
    assert game.console_errors == []
    context.close()
