"""Real Chromium runs a Big Base event's first round (issue 11), against the real stack (daphne + a
Celery worker on the test PostgreSQL and Redis; see stack.py and conftest.py).

The organizer (laptop) creates a Big Base event on the form (the board from the database), adds three
players, pairs round 1 (one table of three), starts the table in the app from the dashboard and opens
its table display from the dashboard's link: the display shows the Big Base board with the three
players. Screenshots (the dashboard, the table display at 1920x1080) go to the browser tests'
screenshot folder to be looked at.
"""

from __future__ import annotations

from .conftest import LAPTOP
from .test_play import shoot
from .test_tournament_event import Organizer, _in_db_thread, _make_organizer

WAIT = 30_000
PLAYERS = {"Ada": ["Aliens", "Ninjas"], "Bram": ["Pirates", "Robots"], "Cleo": ["Wizards", "Zombies"]}


def _boards() -> None:
    """The default boards, as the migration loads them (a transactional test flushed them)."""
    from bigbase.models import Board, board_row_data
    from bigbase.rules.board import load_boards

    for slug, board in load_boards().items():
        Board.objects.get_or_create(
            slug=slug, defaults={"name": board["name"], "data": board_row_data(board)}
        )


def _event() -> tuple[int, str, str]:
    from tournaments.models import Event

    event = Event.objects.get(name="Big Base night")
    return event.pk, event.mode, event.board


def _factions(event_pk: int) -> None:
    from tournaments import services
    from tournaments.models import Entrant

    for entrant in Entrant.objects.filter(event_id=event_pk):
        services.set_factions(entrant, PLAYERS[entrant.name], entrant.event.organizer)


def _game(event_pk: int) -> tuple[str, dict]:
    from tournaments.models import Table

    table = Table.objects.select_related("game").get(round__event_id=event_pk)
    return table.game.mode, table.game.config["board"]


def test_an_organizer_runs_a_big_base_round_in_the_app(stack, browser, screenshots):
    base = stack.base_url
    _in_db_thread(_make_organizer)
    _in_db_thread(_boards)
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/accounts/login/?next=/tournaments/new/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "orga-pass-123")
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/tournaments/new/")
    page.fill("#id_name", "Big Base night")
    page.fill("#id_date", "2026-11-28")
    page.locator("details.t-more-settings:has(#id_mode) > summary").click()  # Big Base is under "More"
    page.select_option("#id_mode", "bigbase")
    page.select_option("#id_board", "default")
    page.select_option("#id_table_size", "4")
    page.select_option("#id_draft_mode", "none")
    with page.expect_navigation():
        page.locator("form.t-form button[type=submit]").last.click()
    event_pk, mode, board = _in_db_thread(_event)
    assert (mode, board) == ("bigbase", "default")
    org = Organizer(page, base)
    org.event_pk = event_pk
    org.dashboard()
    for name in PLAYERS:
        page.fill("#add-name", name)
        with page.expect_navigation():
            page.get_by_role("button", name="Add", exact=True).click()
    _in_db_thread(_factions, event_pk)  # what each player brings, as the organizer would note it
    org.dashboard()
    for name in PLAYERS:
        row = page.locator("#t-players tbody tr", has_text=name)
        if row.get_by_role("button", name="Check in").count():
            org.post_button("Check in", within=row)
    org.post_button("Pair round 1")
    panel = page.locator("#t-in-app")
    assert "Big Base" in panel.inner_text() and "Default board" in panel.inner_text()
    org.post_button("Start this table in the app", within=panel)
    panel = page.locator("#t-in-app")
    panel.get_by_role("link", name="table display").wait_for(timeout=WAIT)
    shoot(page, screenshots, "t-bigbase-dashboard", full_page=True)
    game_mode, game_board = _in_db_thread(_game, event_pk)
    assert game_mode == "bigbase" and game_board["id"] == "default"

    display = context.new_page()
    display.on("pageerror", lambda exc: errors.append(str(exc)))
    display.set_viewport_size({"width": 1920, "height": 1080})
    display.goto(base + panel.get_by_role("link", name="table display").get_attribute("href"))
    display.locator("body").get_by_text("Ada").first.wait_for(timeout=WAIT)
    text = display.locator("body").inner_text()
    for name in PLAYERS:
        assert name in text
    shoot(display, screenshots, "t-bigbase-table-display")
    assert errors == []
    context.close()
