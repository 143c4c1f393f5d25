"""The table display on a crowded Big Base board (issue 11), at a TV's 1920x1080 and two landscape
tablet sizes: the whole board fits the screen (nothing to scroll on a screen nobody touches), and its
type is large. The page the server renders is served to Chromium by a route handler (no live stack),
as in test_play_screen. Screenshots go to the test's tmp dir, to be looked at.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.test import Client

from smashup.play import services

from .test_play_screen import serve

SIZES = [{"width": 1920, "height": 1080}, {"width": 1366, "height": 1024}, {"width": 1280, "height": 800}]
PAIRS = [["Aliens", "Ninjas"], ["Pirates", "Robots"], ["Zombies", "Wizards"], ["Dinosaurs", "Tricksters"]]

OVERFLOW_JS = """() => {
  const root = document.querySelector('.play.display');
  const board = document.querySelector('.bb-board');
  const r = board.getBoundingClientRect();
  return {page: root.scrollHeight - window.innerHeight, boardBottom: r.bottom - window.innerHeight,
          fontSize: parseFloat(getComputedStyle(document.documentElement).fontSize)};
}"""


def crowded_display() -> tuple[str, bytes]:
    """The display page of a 4-player Big Base game played by bots until at least 14 minions are on
    the board (in a thread of its own: Playwright's loop runs in the test's thread)."""
    from django.db import connection

    try:
        row = services.create_game([services.SeatSpec("bot", list(p)) for p in PAIRS[:3]]
                                   + [services.SeatSpec("person", list(PAIRS[3]))],
                                   seed="5a" * 32, mode="bigbase")
        services.claim_seat(row.pk, 3, guest_name="Dana with a long name")
        row.refresh_from_db()
        for _ in range(2000):
            with services.engine_game(row) as game:
                if sum(len(s.minions) for s in game.bases) >= 14:
                    break
            services.bot_move(row.pk, row.version, force=True)
            row.refresh_from_db()
        path = f"/play/g/{row.public_id}/display/"
        response = Client().get(path)
        assert response.status_code == 200
        return path, response.content
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_the_display_fits_a_tv_and_a_tablet(browser, tmp_path):
    with ThreadPoolExecutor(1) as pool:
        path, html = pool.submit(crowded_display).result()
    for size in SIZES:
        context = browser.new_context(viewport=size)
        page = context.new_page()
        try:
            serve(page, path, html)
            page.locator(".bb-board.bb-display").first.wait_for()
            name = f"display-crowded-{size['width']}x{size['height']}"
            page.screenshot(path=str(tmp_path / f"{name}.png"))
            print(f"screenshot: {tmp_path / name}.png")
            measured = page.evaluate(OVERFLOW_JS)
            assert measured["page"] <= 0 and measured["boardBottom"] <= 0, (size, measured)
            assert page.locator(".bb-board .minion").count() >= 14
            if size["width"] >= 1920:
                assert measured["fontSize"] >= 20, measured  # readable across a table
        finally:
            context.close()


def standard_display() -> tuple[str, bytes]:
    """The display page of a standard 4-player game played by bots for a while."""
    from django.db import connection

    try:
        row = services.create_game([services.SeatSpec("bot", list(p)) for p in PAIRS[:3]]
                                   + [services.SeatSpec("person", list(PAIRS[3]))], seed="6b" * 32)
        services.claim_seat(row.pk, 3, guest_name="Dana")
        row.refresh_from_db()
        for _ in range(60):
            services.bot_move(row.pk, row.version, force=True)
            row.refresh_from_db()
            if not row.is_active:
                break
        path = f"/play/g/{row.public_id}/display/"
        response = Client().get(path)
        assert response.status_code == 200
        return path, response.content
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_a_standard_game_on_the_display_has_its_bases_in_a_row(browser, tmp_path):
    with ThreadPoolExecutor(1) as pool:
        path, html = pool.submit(standard_display).result()
    context = browser.new_context(viewport=SIZES[0])
    page = context.new_page()
    try:
        serve(page, path, html)
        page.locator(".display .base-list").first.wait_for()
        name = "display-standard-1920x1080"
        page.screenshot(path=str(tmp_path / f"{name}.png"))
        print(f"screenshot: {tmp_path / name}.png")
        boxes = page.eval_on_selector_all(
            ".base-list > .base",
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.top, r.width]; })",
        )
        tops = [top for top, _ in boxes]
        widths = [width for _, width in boxes]
        assert len(tops) >= 4 and len(set(tops)) == 1, tops  # one row
        assert max(widths) - min(widths) < 2, widths  # of equal width
    finally:
        context.close()
