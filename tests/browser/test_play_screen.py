"""The game screen at three sizes, on a crowded mid-game board (issue 13).

A 4-player table (one person, three bots) is played by the bots, the person's decisions included,
until at least 12 minions are in play and the person must choose. The page the server renders for
the person is then opened in real Chromium at 390x844 (a phone), 768x1024 (a tablet) and 1366x900
(a laptop); the browser gets the page and its static files straight from Django (a route handler),
without the live stack, so these checks are about layout and what is offered. Screenshots go to
tests/browser/screenshots/screen-*.png, to be looked at.

Checked at each size: the decision and the hand (on a phone: the hand drawer's bar) are in view
without scrolling; no two options of the decision read the same; a tap on a card in hand lights the
bases it may go to, and a tap on one of them presses exactly the decision's own button for it.
"""

from __future__ import annotations

import mimetypes
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from smashup.play import services

from .conftest import LAPTOP, PHONE

TABLET = {"width": 768, "height": 1024}
HOST = "http://screen.test"

IN_VIEW_JS = """sel => { const el = document.querySelector(sel); if (!el) return false;
  const r = el.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.top < window.innerHeight - 20
    && r.left >= 0 && r.right <= window.innerWidth + 1; }"""
LABELS_JS = """() => [...document.querySelectorAll('#decision form.choice-form [name=options]')]
  .map(e => (e.getAttribute('aria-label') || e.closest('label')?.textContent || e.textContent).trim())"""


def minions_in_play(game) -> int:
    return sum(len(slot.minions) for slot in game.bases)


def crowded_game(min_minions: int = 12):
    """A game row where the person (seat 0) must play, with at least `min_minions` minions out: the
    bots play every seat of a few seeded tables until one gets there (bases score as they fill)."""
    for attempt in range(40):
        row = services.create_game(
            [services.SeatSpec("person")] + [services.SeatSpec("bot") for _ in range(3)],
            seed=f"{attempt + 0x52:02x}" * 16,
        )
        seat = services.claim_seat(row.pk, 0, guest_name="Ada")
        row.refresh_from_db()
        while row.is_active:
            with services.engine_game(row) as game:
                crowded = minions_in_play(game) >= min_minions
                view = game.view(0)
                pending = view["pending"] or {}
                hand = {c["id"] for c in view["hand"] or []}  # not a play from a discard pile
                to_a_base = any(o.get("card") in hand and "base" in o for o in pending.get("options", []))
            if crowded and row.pending_seat == 0 and pending.get("kind") == "play" and to_a_base:
                return row, seat
            services.bot_move(row.pk, row.version, force=True)
            row.refresh_from_db()
    raise AssertionError("no table filled up")


def crowded_page() -> tuple[str, bytes]:
    """The path and the HTML of the person's game page on a crowded board. Runs in a thread of its own
    (Playwright's event loop runs in the test's thread, where Django refuses the database)."""
    from django.db import connection

    try:
        row, seat = crowded_game()
        client = Client()
        session = client.session
        services.remember_seat(session, seat)
        session.save()
        path = f"/play/g/{row.public_id}/"
        response = client.get(path)
        assert response.status_code == 200
        return path, response.content
    finally:
        connection.close()


def serve(page, path: str, html: bytes) -> None:
    """The browser gets `html` at `path`, and the static files from Django's finders."""

    def handle(route):
        url = route.request.url.removeprefix(HOST)
        if url.split("?")[0] == path:
            return route.fulfill(status=200, body=html, content_type="text/html; charset=utf-8")
        if url.startswith("/static/"):
            found = finders.find(url.removeprefix("/static/").split("?")[0])
            if found:
                with open(found, "rb") as fh:
                    kind = mimetypes.guess_type(found)[0] or "application/octet-stream"
                    return route.fulfill(status=200, body=fh.read(), content_type=kind)
        return route.fulfill(status=404, body=b"")

    page.route("**/*", handle)
    page.goto(HOST + path)


@pytest.mark.django_db(transaction=True)
def test_a_crowded_board_keeps_decision_and_hand_in_view(browser, screenshots):
    with ThreadPoolExecutor(1) as pool:
        path, html = pool.submit(crowded_page).result()
    for size in (PHONE, TABLET, LAPTOP):
        check_size(browser, screenshots, size, path, html)


def check_size(browser, screenshots, size, path, html):
    context = browser.new_context(viewport=size, has_touch=size is PHONE)
    page = context.new_page()
    try:
        serve(page, path, html)
        page.locator("#decision.mine").first.wait_for()
        name = f"screen-{size['width']}x{size['height']}"
        page.screenshot(path=str(screenshots / f"{name}.png"))
        page.screenshot(path=str(screenshots / f"{name}-full.png"), full_page=True)
        assert page.evaluate(IN_VIEW_JS, "#decision"), "the decision is out of view"
        assert page.evaluate(IN_VIEW_JS, "#hand"), "the hand is out of view"
        labels = page.evaluate(LABELS_JS)
        assert labels and len(labels) == len(set(labels)), f"an option shows twice: {labels}"
        assert page.locator("#bases .minion").count() >= 12

        # Tap a card that can go to a base: its bases light up, the drawer (a phone) gets out of the way.
        if size is PHONE:
            page.click("[data-hand-toggle]")
            page.wait_for_timeout(300)
            page.screenshot(path=str(screenshots / f"{name}-hand-open.png"))
        card_id = page.evaluate(
            """() => [...document.querySelectorAll('#hand .card-face.is-option')].map(c => c.dataset.card)
              .find(id => [...document.querySelectorAll('#decision [name=options][data-base]')]
              .some(e => (e.dataset.cards || '').split(' ').includes(id)))"""
        )
        assert card_id, "no card in hand goes to a base"
        card = page.locator(f'#hand .card-face[data-card="{card_id}"]')
        offered = page.eval_on_selector_all(
            "#decision [name=options][data-base]",
            "(els, id) => els.filter(e => (e.dataset.cards || '').split(' ').includes(id))"
            ".map(e => e.dataset.base)",
            card_id,
        )
        card.click()
        lit = page.eval_on_selector_all("#bases .base.target", "els => els.map(e => e.dataset.base)")
        assert sorted(lit) == sorted(offered)
        if lit:
            page.wait_for_timeout(600)  # the drawer closes, the page scrolls to the first base
            page.screenshot(path=str(screenshots / f"{name}-card-picked.png"))
            # The tap on a base presses the decision's own button: catch the form's submission.
            page.evaluate(
                """() => { window.__sent = null;
                const f = document.querySelector('#decision form.choice-form');
                f.addEventListener('submit', e => { window.__sent = e.submitter && e.submitter.value;
                e.preventDefault(); e.stopImmediatePropagation(); }, true); }"""
            )
            page.locator(f'#bases .base[data-base="{lit[0]}"] .base-head').click()
            sent = page.evaluate("() => window.__sent")
            expected = page.eval_on_selector_all(
                "#decision [name=options][data-base]",
                "(els, a) => els.filter(e => (e.dataset.cards || '').split(' ').includes(a[0])"
                " && e.dataset.base === a[1]).map(e => e.value)",
                [card_id, lit[0]],
            )
            assert sent in expected
    finally:
        context.close()
