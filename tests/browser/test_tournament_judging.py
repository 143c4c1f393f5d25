"""Real Chromium, the judge tools and the organizer's desk (issue 27), against the real stack (daphne + a
Celery worker on the test PostgreSQL and Redis; see stack.py and conftest.py).

The organizer (laptop) adds eight players from a pasted list (a preview first, then "Add these 8
players"), pairs round 1 and keeps the dashboard open. A player on their phone (390x844) calls a judge
with a note: the call appears on the open dashboard with the table, without a reload (the event
socket); the organizer marks it handled and the player's page, also left open, offers a new call.
The organizer gives a warning on the judge desk; the player's page shows it with its reason.
Screenshots (the import preview, the dashboard with the call, the phone, the judge desk, the event
form with its folded sections) go to the browser tests' screenshot folder to be looked at.
"""

from __future__ import annotations

import re

from .conftest import LAPTOP, PHONE
from .test_play import shoot
from .test_tournament_event import Organizer, _in_db_thread, _make_organizer

WAIT = 30_000
PLAYERS = ["Ada", "Bram", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"]


def _event(organizer: str) -> int:
    import datetime

    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.models import Event

    user = get_user_model().objects.get(username=organizer)
    event = services.create_event(
        user, name="Judged night", date=datetime.date(2026, 11, 28), draft_mode=Event.DraftMode.NONE
    )
    return event.pk


def _seat_of(event_pk: int, name: str) -> tuple[int, str]:
    from tournaments.models import Seat

    seat = Seat.objects.select_related("table", "entrant").get(round__event_id=event_pk, entrant__name=name)
    return seat.table.number, seat.entrant.token


def test_a_judge_call_reaches_the_open_dashboard_and_a_warning_the_players_page(stack, browser, screenshots):
    base = stack.base_url
    _in_db_thread(_make_organizer)
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/accounts/login/?next=/tournaments/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "orga-pass-123")
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()
    org = Organizer(page, base)

    # The settings form: short sections, the rest folded.
    page.goto(base + "/tournaments/new/")
    assert page.locator("details.t-more-settings[open]").count() == 0
    assert not page.locator("#id_layout").is_visible() and page.locator("#id_rounds").is_visible()
    shoot(page, screenshots, "judging-event-form", full_page=True)
    org.event_pk = _in_db_thread(_event, "orga")

    # A pasted list: the preview, then every player added.
    page.goto(org.url("entrants/import/"))
    listed = "name, e-mail, club\n" + "\n".join(
        f"{n}, {n.lower()}@example.org, Club {i % 2}" for i, n in enumerate(PLAYERS)
    )
    page.fill("#import-text", listed)
    with page.expect_navigation():
        page.get_by_role("button", name="Preview").click()
    page.get_by_text("Ready: 8 players").wait_for(timeout=WAIT)
    shoot(page, screenshots, "judging-import-preview", full_page=True)
    with page.expect_navigation():
        page.get_by_role("button", name="Add these 8 players").click()
    assert org.asked[-1] == "Add these 8 players to Judged night?"
    page.wait_for_url(re.compile(r".*/manage/$"))
    for name in PLAYERS:
        row = page.locator("#t-players tbody tr", has_text=name)
        with page.expect_navigation():
            row.get_by_role("button", name="Check in").click()
    org.post_button("Pair round 1")

    # A player calls a judge from their phone; the dashboard, left open, shows it with the table.
    number, token = _in_db_thread(_seat_of, org.event_pk, "Cleo")
    phone_context = browser.new_context(viewport=PHONE)
    phone = phone_context.new_page()
    phone.goto(f"{base}/tournaments/p/{token}/")  # the private link's page: its button switches the phone
    phone.get_by_role("button", name="Continue as Cleo").click()
    phone.wait_for_url(re.compile(r".*/me/$"))
    phone.locator("#judge-ask > summary").click()
    phone.fill("#judge-note", "Does a talent count twice?")
    with phone.expect_navigation():
        phone.get_by_role("button", name=f"Call a judge to table {number}").click()
    phone.get_by_text(f"A judge is called to table {number}.").wait_for(timeout=WAIT)
    call = page.locator("#t-judge-calls .t-judge-call", has_text="Cleo")
    call.wait_for(timeout=WAIT)  # no reload: the event socket told the dashboard
    assert f"Table {number}" in call.inner_text() and "Does a talent count twice?" in call.inner_text()
    shoot(page, screenshots, "judging-dashboard-call")
    shoot(phone, screenshots, "judging-phone-called")
    with page.expect_navigation():
        call.get_by_role("button", name="Handled").click()
    page.get_by_text("Nobody is waiting for a judge").wait_for(timeout=WAIT)
    phone.locator("#judge-ask > summary").wait_for(timeout=WAIT)  # the phone, live, offers a new call

    # A warning on the judge desk; the player's page says it and why.
    page.goto(org.url("judge/"))
    page.locator('select[name="entrant"]').first.select_option(label="Cleo")
    page.locator('select[name="kind"]').select_option("warning")
    page.fill("#penalty-note", "Slow play")
    with page.expect_navigation():
        page.get_by_role("button", name="Give the penalty").click()
    assert org.asked[-1].startswith("Give this penalty?")
    page.locator("#t-penalties tbody tr", has_text="Cleo").wait_for(timeout=WAIT)
    shoot(page, screenshots, "judging-desk", full_page=True)
    phone.locator(".t-my-penalties", has_text="Slow play").wait_for(timeout=WAIT)
    shoot(phone, screenshots, "judging-phone-penalty", full_page=True)
    assert not errors, errors
