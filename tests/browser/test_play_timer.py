"""A turn timer running out, in real Chromium against the real stack (daphne + a Celery worker; see
stack.py and conftest.py), at a person's pace: this module's stack keeps the settings' own bot delay
and message limit (STACK_OPTIONS), not the instant bots of the other browser tests.

Ada sets up a table with the shortest turn timer the lobby allows (PLAY_TURN_SECONDS_MIN, 10 s) and
plays a bot. When she is asked something, the page counts her time down; she does nothing. Once the
deadline has passed, the worker's timeout task lets the bot answer for her, and her page shows it by
itself (no reload): the version moves on, the log says she ran out of time, and a new question gets a
fresh countdown. Screenshots of the running timer go to tests/browser/screenshots/.
"""

from __future__ import annotations

import re
import time

from .conftest import LAPTOP, PHONE
from .pages import open_game_against_bots
from .test_play import shoot

STACK_OPTIONS = {"production_limits": True}
TURN_SECONDS = 10  # the settings' PLAY_TURN_SECONDS_MIN: the lobby refuses less

SECONDS_LEFT_JS = """() => {
  const left = document.querySelector('#play-status .timer.mine .timer-left');
  return left ? left.textContent : null;
}"""


# True once her countdown shows `left` seconds or fewer while the game is still at `version`.
COUNTED_DOWN_JS = """([left, version]) => {
  const s = document.getElementById('play-status');
  const t = document.querySelector('#play-status .timer.mine .timer-left');
  const m = t && t.textContent.trim().match(/^(?:(\\d+):)?(\\d+)s?$/);
  if (!s || Number(s.dataset.version) !== version) throw new Error('answered before the countdown ran');
  return !!m && Number(m[1] || 0) * 60 + Number(m[2]) <= left;
}"""


def seconds_left(page) -> int | None:
    text = page.evaluate(SECONDS_LEFT_JS)
    if text is None:
        return None
    match = re.fullmatch(r"(?:(\d+):)?(\d+)s?", text.strip())
    assert match, f"unexpected countdown text {text!r}"
    return int(match.group(1) or 0) * 60 + int(match.group(2))


def test_the_countdown_runs_and_the_bot_answers_when_the_time_is_up(stack, browser, screenshots):
    context, page, game = open_game_against_bots(
        browser, stack.base_url, "Ada", LAPTOP, turn_seconds=TURN_SECONDS
    )
    page.evaluate("() => { window.__sameDocument = 'never reloaded'; }")
    game.wait_mine_or_over()
    asked = game.decision()
    version = int(asked["version"])
    seen_at = time.monotonic()

    # Her countdown, on her page, going down while nobody has answered (read in one go in the page).
    assert page.inner_text("#play-status .timer.mine .timer-who") == "Your time"
    first = seconds_left(page)
    assert first is not None and 0 < first <= TURN_SECONDS, first
    page.wait_for_function(COUNTED_DOWN_JS, arg=[first - 2, version], timeout=(first + 20) * 1000)
    assert page.locator("#play-status .timer.low").count() == 1, "ten seconds or less shows as low"
    shoot(page, screenshots, "t-laptop-turn-timer")
    shoot(page, screenshots, "t-phone-turn-timer", PHONE)

    # She does nothing: after the deadline the bot answers for her, and the page follows by itself.
    game.wait_version(version + 1, timeout=(first + 20) * 1000)
    waited = time.monotonic() - seen_at
    assert waited >= first - 1, f"the server answered after {waited:.1f}s, before her {first}s were up"
    log = page.inner_text("#log-lines")
    assert "Ada ran out of time: the bot chose for them." in log, log[-500:]
    assert page.evaluate("() => window.__sameDocument") == "never reloaded"
    assert page.get_attribute("#ws-state", "data-state") == "open"
    assert game.error() is None

    # The next question of hers (a bot's turn has no timer for anyone to see run) starts from full.
    state = game.wait_mine_or_over(timeout=30_000)
    if state["status"] != "finished":
        fresh = seconds_left(page)
        assert fresh is not None and fresh >= TURN_SECONDS - 2, fresh
        assert game.decision() != asked
    assert game.console_errors == []
    assert stack.dead() == []
    context.close()
