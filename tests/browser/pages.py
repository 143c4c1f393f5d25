"""Driving the game page as a person does: read what the page shows, click the decision's buttons.

Everything goes through the page (its #play-status data attributes, the #decision form, #hand); the
choices go over the page's own WebSocket when it is live.
"""

from __future__ import annotations

import random
import re

from playwright.sync_api import Error as PlaywrightError

WAIT_MS = 60_000  # one bot turn through the worker on a busy 2-core machine stays far below this

CHOICE = "#decision form.choice-form"  # the decision's own form (an undo form may sit beside it)
STATUS_JS = "() => { const s = document.getElementById('play-status'); return s ? {...s.dataset} : null; }"

# Added to a browser context before any page script runs: every WebSocket the page opens is kept in
# window.__sockets, so that a test can close the page's own connection as a dropped one would be.
TRACK_SOCKETS_JS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.__sockets.push(this); }
  };
})();
"""

# What the page asks its player: the same version, decision id, prompt and options mean the same
# question.
DECISION_JS = """() => {
  const s = document.getElementById('play-status').dataset;
  const d = document.getElementById('decision');
  const prompt = d.querySelector('.prompt');
  return {
    version: s.version, decision: s.decision, seat: s.seat,
    title: d.querySelector('h2').textContent.trim(),
    prompt: prompt ? prompt.textContent.trim() : null,
    options: [...d.querySelectorAll('form.choice-form [name=options]')].map(e => e.value),
  };
}"""

# Starts recording what happens to the log (line nodes added) and to the connection state shown.
WATCH_JS = """() => {
  window.__logAdded = [];
  window.__wsStates = [];
  new MutationObserver(ms => { for (const m of ms) for (const n of m.addedNodes)
    if (n.nodeType === 1) window.__logAdded.push(n.dataset.n + ' ' + n.textContent); })
    .observe(document.getElementById('log-lines'), {childList: true});
  const ws = document.getElementById('ws-state');
  new MutationObserver(() => window.__wsStates.push(ws.dataset.state))
    .observe(ws, {attributes: true, attributeFilter: ['data-state']});
}"""


def show_all(page) -> None:
    """Unfold the main decision's full list when it is folded (tap-first, issue 26: a card in the
    hand, then where it goes; the list is one tap away)."""
    toggle = page.locator("#decision [data-show-all]")
    if toggle.count() and toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false":
        toggle.click()


class GamePage:
    def __init__(self, page, name: str = "page"):
        self.page = page
        self.name = name
        self.console_errors: list[str] = []
        page.on("console", lambda m: self.console_errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: self.console_errors.append(str(exc)))

    # ------------------------------------------------------------------ reading -----------------
    def status(self) -> dict:
        return self.page.evaluate(STATUS_JS) or {}

    @property
    def version(self) -> int:
        return int(self.status().get("version") or 0)

    def turn(self) -> int:
        match = re.search(r"Turn (\d+)", self.page.inner_text("#play-status"))
        return int(match.group(1)) if match else 0

    def error(self) -> str | None:
        """The text of a refusal shown to this player, if any."""
        node = self.page.query_selector("#play-error p")
        return node.inner_text() if node else None

    def hand_ids(self) -> list[int]:
        return sorted(int(v) for v in self.page.eval_on_selector_all(
            "#hand [data-card]", "els => els.map(e => e.dataset.card)"))  # fmt: skip

    def hand_text(self) -> str:
        node = self.page.query_selector("#hand")
        return node.inner_text() if node else ""

    def decision(self) -> dict:
        return self.page.evaluate(DECISION_JS)

    def log_lines(self) -> list[tuple[int, str]]:
        """The log as shown: (line number, text) per line."""
        return [(int(n), t) for n, t in self.page.eval_on_selector_all(
            "#log-lines li", "els => els.map(e => [e.dataset.n, e.textContent])")]  # fmt: skip

    def watch(self) -> None:
        """From now on, record the log lines added and the connection states shown (see seen())."""
        self.page.evaluate(WATCH_JS)

    def seen(self) -> dict:
        return self.page.evaluate("() => ({log: window.__logAdded, states: window.__wsStates})")

    def card_ids(self) -> set[int]:
        """Every card id anywhere on the page (each card element carries data-card)."""
        values = self.page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
        return {int(v) for v in values if v.isdigit()}

    # ------------------------------------------------------------------ waiting -----------------
    def wait_live(self, timeout: int = 15_000) -> None:
        self.page.wait_for_selector('#ws-state[data-state="open"]', timeout=timeout)

    def wait_state(self, state: str, timeout: int = 15_000) -> None:
        """Until the connection state shown is `state` ("open", "closed", "connecting")."""
        self.page.wait_for_selector(f'#ws-state[data-state="{state}"]', timeout=timeout)

    def wait_mine_or_over(self, timeout: int = WAIT_MS) -> dict:
        """Until this page asks its player something, or the game is over."""
        self.page.wait_for_function(
            "() => { const s = document.getElementById('play-status');"
            " return s && (s.dataset.decision || s.dataset.status === 'finished'); }",
            timeout=timeout,
        )
        return self.status()

    def wait_version(self, version: int, timeout: int = WAIT_MS) -> dict:
        """Until the page shows `version` or later (or the game is over)."""
        self.page.wait_for_function(
            "v => { const s = document.getElementById('play-status');"
            " return s && (Number(s.dataset.version) >= v || s.dataset.status === 'finished'); }",
            arg=version,
            timeout=timeout,
        )
        return self.status()

    def wait_answered(self, version: int, timeout: int = WAIT_MS) -> None:
        """After a click: until the page moved past `version`, or shows a refusal."""
        self.page.wait_for_function(
            "v => { const s = document.getElementById('play-status');"
            " return (s && Number(s.dataset.version) > v) || document.querySelector('#play-error p'); }",
            arg=version,
            timeout=timeout,
        )

    # ------------------------------------------------------------------ deciding ----------------
    def decide(self, rng: random.Random, decline_rate: float = 0.25) -> str:
        """Answer the open decision with a simple strategy: mostly play cards (the buttons that are
        not 'end'/'pass'/'no'), sometimes the quiet ones; in a multi-select tick a random allowed
        number of boxes and confirm; decline now and then when the decision allows it. Returns what
        was done, for the test's log."""
        page = self.page
        show_all(page)
        decline = page.query_selector(f"{CHOICE} button.decline")
        if decline is not None and rng.random() < decline_rate:
            decline.click()
            return "decline"
        multi = page.query_selector(f"{CHOICE} fieldset.options.multi")
        if multi is not None:
            boxes = page.query_selector_all(f"{CHOICE} fieldset.options.multi input[type=checkbox]")
            legend = page.inner_text(f"{CHOICE} fieldset.options.multi legend")
            match = re.search(r"Choose (\d+)(?: to (\d+))?", legend)
            assert match, f"unexpected legend {legend!r}"
            low, high = int(match.group(1)), int(match.group(2) or match.group(1))
            high = min(high, len(boxes))
            if high == 0 and decline is not None:
                decline.click()
                return "decline"
            count = rng.randint(max(low, 1), max(high, 1))
            for box in rng.sample(boxes, count):
                box.check()
            page.click(f"{CHOICE} .actions button[type=submit]:not(.decline)")
            return f"multi {count} of {len(boxes)}"
        buttons = page.query_selector_all(f"{CHOICE} .options button")
        assert buttons, f"{self.name}: a decision without options: {page.inner_text('#decision')!r}"
        quiet = [b for b in buttons if "quiet" in (b.get_attribute("class") or "")]
        loud = [b for b in buttons if b not in quiet]
        pool = loud if loud and (not quiet or rng.random() < 0.85) else quiet
        button = rng.choice(pool)
        label = button.get_attribute("aria-label") or button.inner_text()
        button.click()
        return f"click {label!r}"

    def play_one(self, rng: random.Random) -> str:
        """Answer the decision on screen and wait until the game moved on; fail on a refusal.

        The page may redraw the same decision between the moment a button is found and the click (a
        message that arrived just then, such as the first one on a new socket): the button found is
        then gone from the page, and the decision is read again, once."""
        version = self.version
        try:
            done = self.decide(rng)
        except PlaywrightError as exc:
            if "not attached to the DOM" not in str(exc) or self.version != version:
                raise
            done = self.decide(rng)
        self.wait_answered(version)
        error = self.error()
        assert error is None, f"{self.name}: the server refused {done} at version {version}: {error}"
        return done


def set_up_against_bots(
    page, base_url: str, name: str, bots: int = 1, turn_seconds: int | None = None
) -> None:
    """Through the lobby: `name` at seat 1 and `bots` bots, optionally with a turn timer; every seat
    is filled, so the game starts at once and the page lands on it."""
    page.goto(base_url + "/play/")
    page.fill("#id_your_name", name)
    page.select_option("#id_seat0_kind", "person")
    for seat in range(1, 4):
        page.select_option(f"#id_seat{seat}_kind", "bot" if seat <= bots else "none")
    if turn_seconds is not None:
        page.fill("#id_turn_seconds", str(turn_seconds))
    page.click("text=Set up the table")
    page.wait_for_url("**/play/g/**")


def open_game_against_bots(
    browser, base_url: str, name: str, viewport: dict, *, track_sockets=False, **setup
):
    """A new browser context at `viewport` in which `name` sets up a game against bots (`setup`: the
    options of `set_up_against_bots`) and sees it live. `track_sockets`: keep the page's WebSockets in
    window.__sockets (TRACK_SOCKETS_JS). Returns (context, page, GamePage)."""
    context = browser.new_context(viewport=viewport)
    if track_sockets:
        context.add_init_script(TRACK_SOCKETS_JS)
    page = context.new_page()
    set_up_against_bots(page, base_url, name, **setup)
    game = GamePage(page, name)
    game.wait_live()
    return context, page, game
