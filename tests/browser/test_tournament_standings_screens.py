"""The standings on a phone (390x844) and the room's projector (1920x1080) in real Chromium.

The standings rows are pre-rendered and cached (tournaments/standings_table.py): on a phone a player
sees their own row marked, every name (escaped) and, where the table is wider than the screen, the
hint that it scrolls sideways; the projector's "find your table" lists names A to Z whatever their
accents. Screenshots go to tests/browser/screenshots/ (t-standings-*.png) to be looked at.
"""

from __future__ import annotations

import datetime
import re
from concurrent.futures import ThreadPoolExecutor

from .conftest import PHONE
from .test_play import shoot

PROJECTOR = {"width": 1920, "height": 1080}
_db_pool = ThreadPoolExecutor(max_workers=1)


def _in_db_thread(fn, *args):
    """A database call in a thread of its own (Django refuses the database in Playwright's thread)."""

    def run():
        from django.db import connection

        try:
            return fn(*args)
        finally:
            connection.close()

    return _db_pool.submit(run).result(timeout=60)
NAMES = ["Mei", "Émile Zola", "Bartholomew Fitzgerald-Huntington", "<i>Ivo</i>", "Dolores", "Chen Wei", "Ada"]


def _event() -> tuple[int, str]:
    """Seven players, round 1 played (a table of 4 and one of 3), round 2 paired; Ada drops."""
    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.models import Entrant, Event

    org = get_user_model().objects.create_user(username="screens-org", password="screens-pass-1")
    event = services.create_event(
        org, name="Screens Cup", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE,
        tiebreakers=["vp_share", "sos", "firsts", "vp"],
    )  # fmt: skip
    for name in NAMES:
        services.register(event, name, by=org)
    for table in services.generate_round(event, by=org).tables.all():
        seats = list(table.seats.order_by("position"))
        services.set_result(table, {s.entrant_id: 14 - 3 * s.position for s in seats}, by=org)
    services.drop(Entrant.objects.get(event=event, name="Ada"), by=org)
    services.generate_round(event, by=org)
    return event.pk, Entrant.objects.get(event=event, name="Émile Zola").token


def test_the_standings_on_a_phone_and_find_your_table_on_the_projector(stack, browser, screenshots):
    pk, token = _in_db_thread(_event)
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{stack.base_url}/tournaments/p/{token}/")  # this phone is Émile's, by the link's button
    phone.get_by_role("button", name="Continue as Émile Zola").click()
    phone.wait_for_url(re.compile(r".*/me/$"))
    phone.goto(f"{stack.base_url}/tournaments/{pk}/standings/")
    rows = phone.locator("table.t-standings:not(.t-final) tbody tr")
    assert rows.count() == len(NAMES)
    names = [re.sub(r"\s*\(dropped\)", "", rows.nth(i).locator("td").nth(1).inner_text()) for i in range(7)]
    assert sorted(names) == sorted(NAMES)  # "<i>Ivo</i>" is shown as typed, not as markup
    mine = phone.locator("table.t-standings tbody tr.me")
    assert mine.count() == 1 and "Émile Zola" in mine.inner_text()
    assert "dropped" in phone.locator("tbody tr", has_text="Ada").first.get_attribute("class")
    # No column off-screen without a hint: the table fits, or the hint that it scrolls is shown.
    widths = phone.evaluate(
        "() => { const s = document.querySelector('#t-standings .t-scroll');"
        " return [s.scrollWidth, s.clientWidth, document.documentElement.scrollWidth]; }"
    )
    assert widths[2] <= PHONE["width"], widths  # the page itself never scrolls sideways
    if widths[0] > widths[1]:
        assert phone.locator("#t-standings .t-scroll-hint").first.is_visible()
    headers = phone.locator("table.t-standings thead th").all_inner_texts()
    assert headers[:3] == ["#", "Player", "Points"] and "VP share" in headers
    shoot(phone, screenshots, "t-standings-phone")
    shoot(phone, screenshots, "t-standings-phone-full", full_page=True)

    projector = browser.new_context(viewport=PROJECTOR).new_page()
    projector.goto(f"{stack.base_url}/tournaments/{pk}/projector/")
    found = projector.locator("#p-find .p-find-page").first.locator(".p-name").all_inner_texts()
    # A to Z as people read names: "Émile" among the E's (a plain sort put it after "Mei").
    assert found == [
        "<i>Ivo</i>", "Bartholomew Fitzgerald-Huntington", "Chen Wei", "Dolores", "Émile Zola", "Mei"
    ]  # fmt: skip
    assert projector.evaluate("document.documentElement.scrollWidth") <= PROJECTOR["width"]
    shoot(projector, screenshots, "t-standings-projector-find")
