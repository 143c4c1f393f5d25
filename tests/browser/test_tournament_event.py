"""Real Chromium runs a 12-player event through the tournament pages, against the real stack (daphne +
a Celery worker on the test PostgreSQL and Redis; see stack.py and conftest.py).

An organizer (laptop) creates the event with a top 4; four players sign up themselves on their phones
and eight are added by the organizer; the organizer checks everyone in, pairs round 1 and runs the
faction draft at its three tables (the players whose turn it is pick on their phones, the organizer
picks for the others); each of three Swiss rounds runs with the clock (start, pause, resume, extend,
call time), results are entered by a player and confirmed by the others on their phones or entered by
the organizer, one result is disputed and settled by the organizer; the standings follow; the top 4
play a final table. Screenshots of the dashboard, the projector, a player's phone and the standings go
to tests/browser/screenshots/ to be looked at.

The test reads the database only to learn what a person would read off a printed sheet (who sits at
which table, a player's private link); every change goes through the pages.
"""

from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor

from .conftest import LAPTOP, PHONE
from .test_play import shoot

WAIT = 30_000
SELF_SIGNUPS = ["Ada", "Bram", "Cleo", "Dev"]
ADDED = ["Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea"]
PROJECTOR = {"width": 1920, "height": 1080}

_db_pool = ThreadPoolExecutor(max_workers=1)


def _in_db_thread(fn, *args):
    """Run a database read in a thread of its own (Playwright's loop runs in the test thread, where
    Django refuses the database) and close the connection afterwards."""

    def run():
        from django.db import connection

        try:
            return fn(*args)
        finally:
            connection.close()

    return _db_pool.submit(run).result(timeout=30)


def _make_organizer():
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user(username="orga", password="orga-pass-123")


def _event_pk() -> int:
    from tournaments.models import Event

    return Event.objects.get(name="Autumn Smash").pk


def _seating(event_pk: int) -> list[dict]:
    """The latest round's tables: number, pk, state and the players in seat order."""
    from tournaments.models import Round

    rnd = Round.objects.filter(event_id=event_pk).order_by("-number").first()
    return [
        {
            "number": t.number,
            "pk": t.pk,
            "state": t.state,
            "players": [s.entrant.name for s in t.seats.order_by("position").select_related("entrant")],
            "ids": {s.entrant.name: s.entrant_id for s in t.seats.select_related("entrant")},
        }
        for t in rnd.tables.order_by("number")
    ]


def _round_info(event_pk: int) -> tuple[int, str, str]:
    from tournaments.models import Round

    rnd = Round.objects.filter(event_id=event_pk).order_by("-number").first()
    return rnd.number, rnd.stage, rnd.status


def _tokens(event_pk: int) -> dict[str, str]:
    from tournaments.models import Entrant

    return dict(Entrant.objects.filter(event_id=event_pk).values_list("name", "token"))


def _factions(event_pk: int) -> dict[str, list[str]]:
    from tournaments.models import Entrant

    return {e.name: list(e.factions) for e in Entrant.objects.filter(event_id=event_pk)}


def _clock_status(event_pk: int) -> str:
    from tournaments.models import RoundClock

    clock = RoundClock.objects.filter(round__event_id=event_pk).order_by("-round__number").first()
    return clock.status if clock else ""


class Organizer:
    def __init__(self, page, base_url: str):
        self.page = page
        self.base = base_url
        self.event_pk = 0

    def url(self, rest: str = "") -> str:
        return f"{self.base}/tournaments/{self.event_pk}/{rest}"

    def dashboard(self) -> None:
        self.page.goto(self.url("manage/"))

    def post_button(self, label: str) -> None:
        """Click a dashboard button (a POST form) and wait for the page it leads to; an irreversible
        action asks first (data-confirm): the organizer says yes, and the question is checked."""
        asked = []

        def accept(dialog):
            asked.append(dialog.message)
            dialog.accept()

        self.page.on("dialog", accept)
        try:
            with self.page.expect_navigation():
                self.page.get_by_role("button", name=label, exact=True).first.click()
        finally:
            self.page.remove_listener("dialog", accept)
        if label == "Finish the event":
            assert asked and asked[0].startswith("Finish "), asked

    def clock(self, action_label: str) -> None:
        self.dashboard()
        self.post_button(action_label)

    def enter_result(self, table: dict, vps: dict[str, int]) -> None:
        self.dashboard()
        article = self.page.locator(f"#table-{table['number']}")
        for name, vp in vps.items():
            article.get_by_label(f"VP of {name}").fill(str(vp))
        with self.page.expect_navigation():
            article.locator("button[type=submit]").first.click()


class Phones:
    """One phone-sized browser context that acts for any player by opening their private link (the
    link a player keeps; opening it on a device makes that device theirs)."""

    def __init__(self, browser, base_url: str):
        self.context = browser.new_context(viewport=PHONE)
        self.page = self.context.new_page()
        self.base = base_url
        self.tokens: dict[str, str] = {}
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def become(self, name: str) -> None:
        self.page.goto(f"{self.base}/tournaments/p/{self.tokens[name]}/")
        self.page.wait_for_url(re.compile(r".*/me/$"))


def _vps_for(table: dict, rng: random.Random) -> dict[str, int]:
    """Distinct VP for a table (15 for the winner), in a seeded random order."""
    values = [15, 12, 9, 6][: len(table["players"])]
    rng.shuffle(values)
    return dict(zip(table["players"], values, strict=True))


def test_an_organizer_runs_a_12_player_event(stack, browser, screenshots):
    base = stack.base_url
    rng = random.Random(1122)
    _in_db_thread(_make_organizer)

    # -- the organizer logs in and creates the event ----------------------------------------------
    org_context = browser.new_context(viewport=LAPTOP)
    page = org_context.new_page()
    page_errors: list[str] = []
    page.on("pageerror", lambda exc: page_errors.append(str(exc)))
    page.goto(base + "/accounts/login/?next=/tournaments/new/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "orga-pass-123")
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/tournaments/new/")
    page.fill("#id_name", "Autumn Smash")
    page.fill("#id_date", "2026-11-28")
    page.fill("#id_place", "The Meeple Cafe")
    page.fill("#id_rounds", "3")
    page.fill("#id_round_minutes", "45")
    page.select_option("#id_draft_mode", "event")
    page.select_option("#id_top_cut", "4")
    with page.expect_navigation():
        page.locator("form.t-form button[type=submit]").last.click()
    org = Organizer(page, base)
    org.event_pk = _in_db_thread(_event_pk)

    # -- registration: four players sign up on their phones, the organizer adds eight -------------
    phones = Phones(browser, base)
    for name in SELF_SIGNUPS:
        signup = browser.new_context(viewport=PHONE)
        p = signup.new_page()
        p.goto(org.url())
        p.fill("#signup-name", name)
        with p.expect_navigation():
            p.get_by_role("button", name="Sign up").click()
        assert p.url.endswith("/me/"), p.url
        assert name in p.inner_text("main")
        signup.close()
    org.dashboard()
    for name in ADDED:
        page.fill("#add-name", name)
        with page.expect_navigation():
            page.get_by_role("button", name="Add", exact=True).click()
    assert page.locator("#t-players tbody tr").count() == 12

    # -- check-in of the self-signed players --------------------------------------------------------
    for _ in SELF_SIGNUPS:
        with page.expect_navigation():
            page.locator("#t-players").get_by_role("button", name="Check in", exact=True).first.click()
    assert page.locator("#t-players").get_by_role("button", name="Check in", exact=True).count() == 0
    phones.tokens = _in_db_thread(_tokens, org.event_pk)

    for round_number in (1, 2, 3):
        # -- pairing -------------------------------------------------------------------------------
        org.dashboard()
        org.post_button(f"Pair round {round_number}")
        tables = _in_db_thread(_seating, org.event_pk)
        assert [len(t["players"]) for t in tables] == [4, 4, 4]
        assert sorted(n for t in tables for n in t["players"]) == sorted(SELF_SIGNUPS + ADDED)
        if round_number == 1:
            run_draft(org, phones, tables)
            factions = _in_db_thread(_factions, org.event_pk)
            assert all(len(set(f)) == 2 for f in factions.values()), factions
            shoot(page, screenshots, "t-laptop-dashboard-round1")

        # -- the clock: start, pause, resume, extend --------------------------------------------------
        org.clock("Start the clock")
        assert _in_db_thread(_clock_status, org.event_pk) == "running"
        phones.become(SELF_SIGNUPS[0])
        clock = phones.page.locator(".t-clock-time").first
        first = clock.inner_text()
        phones.page.wait_for_function(
            "(t) => document.querySelector('.t-clock-time').textContent.trim() !== t", arg=first, timeout=WAIT
        )  # the countdown runs on the phone
        if round_number == 1:
            org.clock("Pause")
            phones.page.locator(".t-clock-status", has_text="paused").first.wait_for(timeout=WAIT)  # live
            org.clock("Resume")
            org.dashboard()
            page.fill("#extend-minutes", "5")
            org.post_button("+ minutes")
            assert _in_db_thread(_clock_status, org.event_pk) == "running"
            shoot(phones.page, screenshots, "t-phone-player-clock")

        # -- time is called: every page says so --------------------------------------------------------
        org.clock("Call time now")
        phones.page.locator(".t-clock-status", has_text="time is called").first.wait_for(timeout=WAIT)

        # -- results ---------------------------------------------------------------------------------
        for table in tables:
            vps = _vps_for(table, rng)
            reporter = next((n for n in table["players"] if n in SELF_SIGNUPS), None)
            if reporter is None or table["number"] == 3:
                org.enter_result(table, vps)
                continue
            # A player of the table sends the VP on their phone; the others confirm on theirs.
            phones.become(reporter)
            form = phones.page.locator("form.t-vp-form")
            for name, vp in vps.items():
                form.get_by_label(name).fill(str(vp))
            with phones.page.expect_navigation():
                form.get_by_role("button", name="Send the VP").click()
            others = [n for n in table["players"] if n != reporter]
            if round_number == 2 and table["number"] == 1:
                # One player disputes; the organizer settles it on the dashboard.
                phones.become(others[0])
                phones.page.locator("details.t-dispute summary").click()
                phones.page.fill("#dispute-note", "I had 3 VP more")
                with phones.page.expect_navigation():
                    phones.page.get_by_role("button", name="Send to the organizer").click()
                org.dashboard()
                assert "Disputed results" in page.inner_text("main")
                vps[others[0]] += 3
                org.enter_result(table, vps)
                continue
            for name in others:
                phones.become(name)
                with phones.page.expect_navigation():
                    phones.page.get_by_role("button", name="Confirm these VP").click()
        states = [t["state"] for t in _in_db_thread(_seating, org.event_pk)]
        assert states == ["confirmed"] * 3, states
        if round_number == 2:
            org.dashboard()
            shoot(page, screenshots, "t-laptop-dashboard-round2")

    # -- standings after three rounds -------------------------------------------------------------
    standings = org_context.new_page()
    standings.goto(org.url("standings/"))
    rows = standings.locator("table tbody tr")
    assert rows.count() == 12
    shoot(standings, screenshots, "t-laptop-standings", full_page=True)

    # -- the projector ------------------------------------------------------------------------------
    projector = browser.new_context(viewport=PROJECTOR).new_page()
    projector.goto(org.url("projector/"))
    assert "Autumn Smash" in projector.inner_text("body")
    shoot(projector, screenshots, "t-projector")

    # -- the top 4 final table ---------------------------------------------------------------------
    org.dashboard()
    org.post_button("Start the top 4")
    number, stage, _ = _in_db_thread(_round_info, org.event_pk)
    assert stage != "swiss"
    final = _in_db_thread(_seating, org.event_pk)
    assert len(final) == 1 and len(final[0]["players"]) == 4
    top4 = [standings.locator("table tbody tr").nth(i).inner_text() for i in range(4)]
    for name in final[0]["players"]:
        assert any(name in row for row in top4), (name, top4)
    phones.become(final[0]["players"][0])
    shoot(phones.page, screenshots, "t-phone-player-final-full", full_page=True)
    assert "Final: table 1" in phones.page.inner_text("main")
    shoot(phones.page, screenshots, "t-phone-player-final")
    org.enter_result(final[0], _vps_for(final[0], rng))
    org.dashboard()
    org.post_button("Finish the event")
    page.goto(org.url())
    shoot(page, screenshots, "t-laptop-event-finished")
    assert page_errors == [] and phones.errors == []


def run_draft(org: Organizer, phones: Phones, tables: list[dict]) -> None:
    """The Kickin' It Queensberry draft at each table: when a self-signed player's turn comes, they pick
    on their phone; the organizer picks for the rest."""
    page = org.page
    for table in tables:
        draft_url = org.url(f"tables/{table['pk']}/draft/")
        page.goto(draft_url)
        for _ in range(20):
            random_button = page.get_by_role("button", name=re.compile(r"^Random .* for "))
            if random_button.count() == 0:
                break
            turn = re.sub(r"^Random .* for ", "", random_button.first.inner_text()).strip()
            if turn in SELF_SIGNUPS:
                phones.become(turn)
                phones.page.goto(draft_url)
                button = phones.page.locator("button[name=faction]:not([disabled])").first
                with phones.page.expect_navigation():
                    button.click()
                page.reload()
            else:
                with page.expect_navigation():
                    page.locator("button[name=faction]:not([disabled])").first.click()
        assert page.get_by_role("button", name=re.compile(r"^Random .* for ")).count() == 0
