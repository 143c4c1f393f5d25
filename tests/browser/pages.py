"""Driving the game page as a person does: read what the page shows, click the decision's buttons.

Everything goes through the page (its #play-status data attributes, the #decision form, #hand); the
choices go over the page's own WebSocket when it is live.
"""

from __future__ import annotations

import random
import re

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

ERROR_JS = "() => { const p = document.querySelector('#play-error p'); return p ? p.innerText : null; }"

# The open decision as shown, read in one go: whether it may be declined, its multi-select (the
# boxes' values and the legend) or its buttons (value, quiet or not, label).
OPTIONS_JS = """() => {
  const form = document.querySelector('#decision form.choice-form');
  if (!form) return null;
  const multi = form.querySelector('fieldset.options.multi');
  return {
    decline: !!form.querySelector('button.decline'),
    multi: multi ? {
      legend: multi.querySelector('legend').textContent,
      values: [...multi.querySelectorAll('input[type=checkbox]')].map(e => e.value),
    } : null,
    buttons: [...form.querySelectorAll('.options button')].map(b => ({
      value: b.value, quiet: b.classList.contains('quiet'),
      label: b.getAttribute('aria-label') || b.innerText,
    })),
  };
}"""

TICKED_JS = """() => [...document.querySelectorAll(
  '#decision form.choice-form fieldset.options.multi input[type=checkbox]:checked')]
  .map(e => e.value).sort()"""

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
        """The text of a refusal shown to this player, if any (read in one go in the page: a live
        update may replace the element at any moment)."""
        return self.page.evaluate(ERROR_JS)

    def hand_ids(self) -> list[int]:
        return sorted(int(v) for v in self.page.eval_on_selector_all(
            "#hand [data-card]", "els => els.map(e => e.dataset.card)"))  # fmt: skip

    def hand_text(self) -> str:
        return self.page.evaluate(
            "() => { const h = document.getElementById('hand'); return h ? h.innerText : ''; }"
        )

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
        self.page.locator('#ws-state[data-state="open"]').first.wait_for(timeout=timeout)

    def wait_state(self, state: str, timeout: int = 15_000) -> None:
        """Until the connection state shown is `state` ("open", "closed", "connecting")."""
        self.page.locator(f'#ws-state[data-state="{state}"]').first.wait_for(timeout=timeout)

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
        was done, for the test's log.

        The decision is read in one go in the page (OPTIONS_JS), and each click goes through a
        locator naming the option's value, found again at the moment of the click: a live update
        that redraws the same decision meanwhile (a catch-up, a new socket's first message) replaces
        the elements, not the options, so the click lands on the new button."""
        page = self.page
        show_all(page)
        shown = page.evaluate(OPTIONS_JS)
        assert shown is not None, f"{self.name}: no decision on the page"
        decline = page.locator(f"{CHOICE} button.decline")
        if shown["decline"] and rng.random() < decline_rate:
            decline.click()
            return "decline"
        if shown["multi"] is not None:
            values, legend = shown["multi"]["values"], shown["multi"]["legend"]
            match = re.search(r"Choose (\d+)(?: to (\d+))?", legend)
            assert match, f"unexpected legend {legend!r}"
            low, high = int(match.group(1)), int(match.group(2) or match.group(1))
            high = min(high, len(values))
            if high == 0 and shown["decline"]:
                decline.click()
                return "decline"
            count = rng.randint(max(low, 1), max(high, 1))
            picked = rng.sample(values, count)
            for _ in range(3):  # a redraw between the ticks and the confirm clears the ticks: tick again
                for value in picked:
                    page.locator(f"{CHOICE} fieldset.options.multi input[value={_quoted(value)}]").check()
                if page.evaluate(TICKED_JS) == sorted(picked):
                    break
            page.locator(f"{CHOICE} .actions button[type=submit]:not(.decline)").click()
            return f"multi {count} of {len(values)}"
        buttons = shown["buttons"]
        assert buttons, f"{self.name}: a decision without options: {page.inner_text('#decision')!r}"
        quiet = [b for b in buttons if b["quiet"]]
        loud = [b for b in buttons if not b["quiet"]]
        pool = loud if loud and (not quiet or rng.random() < 0.85) else quiet
        button = rng.choice(pool)
        page.locator(
            f"{CHOICE} .options button[name=options][value={_quoted(button['value'])}]"
        ).first.click()
        return f"click {button['label']!r}"

    def play_one(self, rng: random.Random) -> str:
        """Answer the decision on screen and wait until the game moved on; fail on a refusal."""
        version = self.version
        done = self.decide(rng)
        self.wait_answered(version)
        error = self.error()
        assert error is None, f"{self.name}: the server refused {done} at version {version}: {error}"
        return done


def _quoted(value: str) -> str:
    """A CSS attribute value, quoted."""
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


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
