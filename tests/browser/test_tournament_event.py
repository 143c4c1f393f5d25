"""Real Chromium runs a 13-player event through the tournament pages, against the real stack (daphne +
a Celery worker on the test PostgreSQL and Redis; see stack.py and conftest.py).

An organizer (laptop) creates the event with a player cap of 12, a top 4 and "only full tables, byes
for the rest"; five players sign up themselves on their phones (the fifth joins the waitlist and gets
a place, live on their page, when the organizer raises the cap to 13) and eight are added by the
organizer; the self-signed players check in by the venue's QR code (a forged code is refused). The
organizer pairs round 1 (three tables of 4 and a bye) and runs the faction draft (the players whose
turn it is pick on their phones, the organizer picks for the others); the round-1 bye drafts at their
round-2 table. Each of three Swiss rounds runs with the clock (start, pause, resume, extend, a judge's
extra minutes for one table, call time); results are entered by a player and confirmed by the others
on their phones or entered by the organizer, one is disputed and settled, a player is a no-show in
round 2 (dropped: round 3 has no bye), and a round-1 result is corrected at the end. One player's
phone stays on their page all event with notifications allowed: it alerts when their table is paired
and when a result waits for them. The top 4 play a final table; the projector and a phone show the
winner and the final standings. Screenshots (the dashboard, a phone, the standings, the projector at
1920x1080 with "find your table" for 160 players and the final standings, a phone's standings at
390x844) go to tests/browser/screenshots/ to be looked at.

The test reads the database only to learn what a person would read off a printed sheet (who sits at
which table, a player's private link); every change goes through the pages (the 160-player event
for the projector screenshot is made with the services: only its look is tested).
"""

from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor

from .conftest import LAPTOP, PHONE
from .test_play import shoot

WAIT = 30_000
SELF_SIGNUPS = ["Ada", "Bram", "Cleo", "Dev"]
WAITLISTED = "Mo"  # signs up when the event is full, gets a place when the cap goes up
ADDED = ["Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea"]
WATCHER = "Eli"  # their phone stays on their page with notifications allowed
PLAYERS = SELF_SIGNUPS + [WAITLISTED] + ADDED
ON_PHONES = SELF_SIGNUPS + [WAITLISTED]
PROJECTOR = {"width": 1920, "height": 1080}

# What a page's notification and vibration calls did (the watcher's phone): recorded, since a
# headless browser shows no system notification.
RECORD_ALERTS = """
window.__alerts = [];
window.__vibrations = 0;
navigator.vibrate = function () { window.__vibrations += 1; return true; };
if (window.ServiceWorkerRegistration) {
  ServiceWorkerRegistration.prototype.showNotification = function (title) {
    window.__alerts.push(title);
    return Promise.resolve();
  };
}
var Native = window.Notification;
window.Notification = function (title) { window.__alerts.push(title); };
window.Notification.permission = Native ? Native.permission : "granted";
window.Notification.requestPermission = function () {
  return Promise.resolve(window.Notification.permission);
};
"""

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

    return _db_pool.submit(run).result(timeout=120)


def _make_organizer():
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user(username="orga", password="orga-pass-123")


def _event_pk() -> int:
    from tournaments.models import Event

    return Event.objects.get(name="Autumn Smash").pk


def _seating(event_pk: int) -> list[dict]:
    """The latest round's tables: number, pk, state and the players in seat order; its byes."""
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


def _byes(event_pk: int) -> list[str]:
    from tournaments.models import Round

    rnd = Round.objects.filter(event_id=event_pk).order_by("-number").first()
    return [b.entrant.name for b in rnd.byes.select_related("entrant")]


def _open_drafts(event_pk: int) -> list[int]:
    from tournaments.models import Draft

    return list(
        Draft.objects.filter(table__round__event_id=event_pk, status=Draft.Status.OPEN).values_list(
            "table_id", flat=True
        )
    )


def _round_info(event_pk: int) -> tuple[int, str, str]:
    from tournaments.models import Round

    rnd = Round.objects.filter(event_id=event_pk).order_by("-number").first()
    return rnd.number, rnd.stage, rnd.status


def _tokens(event_pk: int) -> dict[str, str]:
    from tournaments.models import Entrant

    return dict(Entrant.objects.filter(event_id=event_pk).values_list("name", "token"))


def _factions(event_pk: int) -> dict[str, list[str]]:
    from tournaments.models import Entrant

    return {e.name: list(e.factions) for e in Entrant.objects.filter(event_id=event_pk, dropped=False)}


def _clock_status(event_pk: int) -> str:
    from tournaments.models import RoundClock

    clock = RoundClock.objects.filter(round__event_id=event_pk).order_by("-round__number").first()
    return clock.status if clock else ""


def _round_one_vp(event_pk: int) -> dict[str, int]:
    from tournaments.models import Seat

    seats = Seat.objects.filter(round__event_id=event_pk, round__number=1, table__number=1)
    return {s.entrant.name: s.vp for s in seats.select_related("entrant")}


def _big_room() -> int:
    """A 160-player event with round 1 paired (services only: for the projector's look)."""
    import datetime

    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.models import Event

    org = get_user_model().objects.get(username="orga")
    event = services.create_event(
        org, name="Regional Smash", date=datetime.date(2026, 11, 29), place="Convention Hall B",
        draft_mode=Event.DraftMode.NONE, require_check_in=False, round_minutes=50,
    )  # fmt: skip
    first = ["Ana", "Ben", "Cara", "Dan", "Eva", "Finn", "Gia", "Hugo", "Iris", "Jon", "Kira", "Leo", "Mia",
             "Nils", "Oda", "Pia", "Quinn", "Rosa", "Sam", "Tess"]  # fmt: skip
    last = ["Berg", "Costa", "Dahl", "Eriksen", "Fox", "Grant", "Holm", "Ito"]
    for a in first:
        for b in last:
            services.register(event, f"{a} {b}", by=org)
    services.generate_round(event, org)
    return event.pk


class Organizer:
    def __init__(self, page, base_url: str):
        self.page = page
        self.base = base_url
        self.event_pk = 0
        self.asked: list[str] = []
        page.on("dialog", self._accept)

    def _accept(self, dialog):
        """Irreversible actions ask first (data-confirm): the organizer says yes; the questions are
        kept to be checked."""
        self.asked.append(dialog.message)
        dialog.accept()

    def url(self, rest: str = "") -> str:
        return f"{self.base}/tournaments/{self.event_pk}/{rest}"

    def dashboard(self) -> None:
        self.page.goto(self.url("manage/"))

    def post_button(self, label: str, within=None) -> None:
        """Click a dashboard button (a POST form) and wait for the page it leads to."""
        where = within if within is not None else self.page
        asked = len(self.asked)
        with self.page.expect_navigation():
            where.get_by_role("button", name=label, exact=True).first.click()
        if label == "Finish the event":
            assert self.asked[asked:] and self.asked[asked].startswith("Finish "), self.asked

    def clock(self, action_label: str) -> None:
        self.dashboard()
        self.post_button(action_label)

    def enter_result(self, table: dict, vps: dict[str, int], page_url: str = "manage/") -> None:
        self.page.goto(self.url(page_url))
        article = self.page.locator(f"#table-{table['number']}")
        for name, vp in vps.items():
            article.get_by_label(f"VP of {name}").fill(str(vp))
        with self.page.expect_navigation():
            article.locator("form.t-result-form button[type=submit]").first.click()


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
        if not re.search(r"/me/$", self.page.url):  # the link's page: its button switches the phone
            self.page.get_by_role("button", name=f"Continue as {name}").click()
        self.page.wait_for_url(re.compile(r".*/me/$"))


def _vps_for(table: dict, rng: random.Random, present: list[str] | None = None) -> dict[str, int]:
    """Distinct VP for a table (15 for the winner), in a seeded random order."""
    names = present if present is not None else table["players"]
    values = [15, 12, 9, 6][: len(names)]
    rng.shuffle(values)
    return dict(zip(names, values, strict=True))


def _notice(page, text: str, key: str = ""):
    """The player's page shows a notice banner with `text` (live: the page is not reloaded), for
    the moment whose key starts with `key`."""
    selector = f'#t-notice-bar .t-notice[data-key^="{key}"]' if key else "#t-notice-bar .t-notice"
    page.locator(selector, has_text=text).first.wait_for(timeout=WAIT)


def test_an_organizer_runs_a_13_player_event(stack, browser, screenshots):
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
    # The layout and the player cap are under their sections' folded "More" (as an organizer opens it).
    page.locator("details.t-more-settings:has(#id_layout) > summary").click()
    page.select_option("#id_layout", "byes")
    page.select_option("#id_draft_mode", "event")
    page.select_option("#id_top_cut", "4")
    page.locator("details.t-more-settings:has(#id_player_cap) > summary").click()
    page.fill("#id_player_cap", "12")
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

    # -- the event is full: the 13th joins the waitlist, and is in once the cap goes up -----------
    late = browser.new_context(viewport=PHONE)
    mo = late.new_page()
    mo.on("pageerror", lambda exc: page_errors.append(str(exc)))
    mo.goto(org.url())
    assert "The event is full (12 players)" in mo.inner_text("main")
    mo.fill("#signup-name", WAITLISTED)
    with mo.expect_navigation():
        mo.get_by_role("button", name="Sign up").click()
    assert "You are number 1 on the waitlist." in mo.inner_text("main")
    org.dashboard()
    assert WAITLISTED in page.locator("#waitlist").inner_text()
    page.fill("#cap-value", "13")
    org.post_button("Set the cap")
    mo.locator(".t-promoted", has_text="A place opened for you").wait_for(timeout=WAIT)  # live
    assert "waitlist" not in mo.locator("#t-mytable").inner_text()
    late.close()

    # -- self check-in by the venue's QR code ---------------------------------------------------------
    org.post_button("Open self check-in")
    assert page.locator("#t-self-check-in svg.qr").count() == 1
    check_in_link = page.locator(".t-check-in-link").get_attribute("href")
    shoot(page, screenshots, "t-laptop-dashboard-check-in", full_page=True)
    projector_page = org_context.new_page()  # the organizer's laptop drives the room's screen
    projector_page.set_viewport_size(PROJECTOR)
    projector_page.goto(org.url("projector/"))
    assert projector_page.locator("#p-check-in svg.qr").count() == 1
    shoot(projector_page, screenshots, "t-projector-check-in")
    phones.tokens = _in_db_thread(_tokens, org.event_pk)
    phones.become(SELF_SIGNUPS[0])
    forged = re.sub(r"/check-in/[^/]+/", "/check-in/not-the-code/", check_in_link)
    phones.page.goto(forged)
    assert "not valid" in phones.page.inner_text("main")
    for name in ON_PHONES:
        phones.become(name)
        phones.page.goto(check_in_link)
        with phones.page.expect_navigation():
            phones.page.get_by_role("button", name=f"Check in as {name}").click()
        assert "You are checked in." in phones.page.inner_text("main")
    org.dashboard()
    assert page.locator("#t-players").get_by_role("button", name="Check in", exact=True).count() == 0
    org.post_button("Close self check-in")

    # -- one player's phone stays on their page, notifications allowed ------------------------------
    watch_context = browser.new_context(viewport=PHONE)
    watch_context.grant_permissions(["notifications"], origin=base)
    watch_context.add_init_script(RECORD_ALERTS)
    watch = watch_context.new_page()
    watch.on("pageerror", lambda exc: page_errors.append(str(exc)))
    watch.goto(f"{base}/tournaments/p/{phones.tokens[WATCHER]}/")
    watch.get_by_role("button", name=f"Continue as {WATCHER}").click()
    watch.wait_for_url(re.compile(r".*/me/$"))
    confirm_alerts = 0

    bye_players: list[str] = []
    no_show = ""
    for round_number in (1, 2, 3):
        # -- pairing -------------------------------------------------------------------------------
        org.dashboard()
        org.post_button(f"Pair round {round_number}")
        tables = _in_db_thread(_seating, org.event_pk)
        byes = _in_db_thread(_byes, org.event_pk)
        assert [len(t["players"]) for t in tables] == [4, 4, 4]
        active = [n for n in PLAYERS if n != no_show]
        assert sorted([n for t in tables for n in t["players"]] + byes) == sorted(active)
        assert len(byes) == (1 if round_number < 3 else 0), byes  # 13 players; 12 after the no-show
        bye_players += byes
        where = next((f"table {t['number']}" for t in tables if WATCHER in t["players"]), "bye")
        _notice(watch, f"Round {round_number}: {where}", f"paired:{round_number}")  # the watcher, live
        if round_number == 1:
            watch.locator(".t-head .t-clock").wait_for(timeout=WAIT)  # its header caught up, clock and all
        if round_number in (1, 2):
            # Round 1: the draft at every table. Round 2: the round-1 bye drafts at their table.
            run_draft(org, phones, _in_db_thread(_open_drafts, org.event_pk))
            factions = _in_db_thread(_factions, org.event_pk)
            undrafted = {n for n, f in factions.items() if len(set(f)) != 2}
            assert undrafted == (set(byes) if round_number == 1 else set()), factions
            if round_number == 1:
                org.dashboard()
                shoot(page, screenshots, "t-laptop-dashboard-round1")

        # -- the clock: start, pause, resume, extend, a table's extra minutes ------------------------
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
            # A judge call: table 2 gets 3 more minutes; the projector and its players see it.
            judged = tables[1]
            article = page.locator("#table-2")
            article.locator("input[name=minutes]").fill("3")
            org.post_button("+ minutes for this table", within=article)
            projector_page.goto(org.url("projector/"))
            extra = projector_page.locator("#p-extra-time .p-extra", has_text="Table 2")
            extra.wait_for(timeout=WAIT)
            assert "+3 minutes" in extra.inner_text(), extra.inner_text()
            shoot(projector_page, screenshots, "t-projector-find-your-table")
            phones.become(judged["players"][0])
            assert "+3 minutes" in phones.page.locator("main").inner_text()
            shoot(phones.page, screenshots, "t-phone-player-clock")

        # -- time is called: every page says so --------------------------------------------------------
        org.clock("Call time now")
        phones.become(SELF_SIGNUPS[0])
        phones.page.locator(".t-clock-status", has_text="time is called").first.wait_for(timeout=WAIT)

        # -- results ---------------------------------------------------------------------------------
        no_show_table = None
        if round_number == 2:
            # A player does not come to a table: the organizer marks them (dropped from round 3 on).
            # (Not table 1, which has the dispute; not the watcher's table, so they confirm a result.)
            no_show_table = next(t for t in tables[1:] if WATCHER not in t["players"])
            no_show = sorted(no_show_table["players"], key=lambda n: n in ON_PHONES)[0]
            org.dashboard()
            article = page.locator(f"#table-{no_show_table['number']}")
            article.locator("details.t-no-show summary").click()
            article.get_by_label(f"Player who did not come to table {no_show_table['number']}").select_option(
                label=no_show
            )
            asked = len(org.asked)
            org.post_button("Mark as no-show", within=article)
            assert org.asked[asked].startswith("Mark this player as a no-show"), org.asked
            assert "no-show" in page.locator(f"#table-{no_show_table['number']}").inner_text()
        for table in tables:
            if table is no_show_table:
                present = [n for n in table["players"] if n != no_show]
                org.enter_result(table, _vps_for(table, rng, present))
                continue
            vps = _vps_for(table, rng)
            if table["number"] == 3 and WATCHER not in table["players"]:
                org.enter_result(table, vps)
                continue
            # A player of the table sends the VP on their phone; the others confirm on theirs.
            reporter = next((n for n in table["players"] if n in ON_PHONES), None) or next(
                n for n in table["players"] if n != WATCHER
            )
            phones.become(reporter)
            form = phones.page.locator("form.t-vp-form")
            for name, vp in vps.items():
                form.get_by_label(name).fill(str(vp))
            with phones.page.expect_navigation():
                form.get_by_role("button", name="Send the VP").click()
            others = [n for n in table["players"] if n != reporter]
            if WATCHER in others:
                # The watcher's phone asks them to confirm, live.
                _notice(watch, "Confirm your result", f"confirm:{table['pk']}:")
                confirm_alerts += 1
                if confirm_alerts == 1:
                    shoot(watch, screenshots, "t-phone-alerts")
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
            if WATCHER in others:
                # Confirmed: the watcher's banner goes by itself (its moment is over).
                stale = watch.locator(f'#t-notice-bar [data-key^="confirm:{table["pk"]}:"]')
                stale.wait_for(state="detached", timeout=WAIT)
        states = [t["state"] for t in _in_db_thread(_seating, org.event_pk)]
        assert states == ["confirmed"] * 3, states
        if round_number == 2:
            org.dashboard()
            shoot(page, screenshots, "t-laptop-dashboard-round2")
    assert confirm_alerts >= 1
    assert len(set(bye_players)) == 2, bye_players  # nobody had two byes
    alerts = watch.evaluate("window.__alerts")
    assert any(a.startswith("Round 1: ") for a in alerts) and "Confirm your result" in alerts, alerts
    assert watch.evaluate("window.__vibrations") >= 3

    # -- a round-1 result is corrected from the dashboard -----------------------------------------
    standings = org_context.new_page()
    standings.goto(org.url("standings/"))
    before = standings.locator("table tbody").inner_text()
    vp_before = _in_db_thread(_round_one_vp, org.event_pk)
    order = sorted(vp_before, key=lambda n: -vp_before[n])
    corrected = dict(vp_before) | {order[0]: vp_before[order[1]], order[1]: vp_before[order[0]]}
    org.dashboard()
    page.locator("a.t-correct-round", has_text="round 1").click()
    page.wait_for_url("**/rounds/1/results/")
    asked = len(org.asked)
    org.enter_result({"number": 1}, corrected, page_url="rounds/1/results/")
    assert org.asked[asked].startswith("Correct the result of table 1"), org.asked
    assert _in_db_thread(_round_one_vp, org.event_pk) == corrected
    standings.reload()
    assert standings.locator("table tbody").inner_text() != before
    rows = standings.locator("table tbody tr")
    assert rows.count() == 13  # the no-show stays, flagged as dropped
    assert "dropped" in standings.locator("table tbody tr", has_text=no_show).inner_text()
    shoot(standings, screenshots, "t-laptop-standings", full_page=True)

    # -- the projector between rounds ------------------------------------------------------------------
    projector_page.goto(org.url("projector/"))
    assert "Autumn Smash" in projector_page.inner_text("body")
    shoot(projector_page, screenshots, "t-projector")

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
    assert "Final: table 1" in phones.page.inner_text("main")
    shoot(phones.page, screenshots, "t-phone-player-final")
    final_vps = _vps_for(final[0], rng)
    winner = max(final_vps, key=final_vps.get)
    org.enter_result(final[0], final_vps)
    org.dashboard()
    org.post_button("Finish the event")

    # -- the winner and the final standings: projector, phone, event page --------------------------------
    projector_page.goto(org.url("projector/"))
    assert projector_page.locator(".p-winner").inner_text() == f"Winner: {winner}"
    ranked = projector_page.locator("#p-final .p-rank li .p-name").all_inner_texts()
    assert ranked[0] == winner and sorted(ranked[:4]) == sorted(final[0]["players"]), ranked
    shoot(projector_page, screenshots, "t-projector-final-standings")
    phones.page.goto(org.url("standings/"))
    assert "Final standings" in phones.page.inner_text("main")
    assert winner in phones.page.locator("main").inner_text()
    shoot(phones.page, screenshots, "t-phone-standings")
    shoot(phones.page, screenshots, "t-phone-standings-full", full_page=True)
    page.goto(org.url())
    shoot(page, screenshots, "t-laptop-event-finished")

    # -- a large room: "find your table" for 160 players on the projector ---------------------------------
    big = _in_db_thread(_big_room)
    projector_page.goto(f"{base}/tournaments/{big}/projector/")
    find = projector_page.locator("#p-find")
    assert "Find your table · Round 1" in find.inner_text()
    assert "Page 1 of 4" in find.inner_text()  # 160 players, 45 a page: the pages turn by themselves
    shoot(projector_page, screenshots, "t-projector-find-your-table-160")
    assert page_errors == [] and phones.errors == []


def run_draft(org: Organizer, phones: Phones, table_pks: list[int]) -> None:
    """The Kickin' It Queensberry draft at each table: when a phone player's turn comes, they pick
    on their phone; the organizer picks for the rest."""
    page = org.page
    for table_pk in table_pks:
        draft_url = org.url(f"tables/{table_pk}/draft/")
        page.goto(draft_url)
        for _ in range(20):
            random_button = page.get_by_role("button", name=re.compile(r"^Random .* for "))
            if random_button.count() == 0:
                break
            turn = re.sub(r"^Random .* for ", "", random_button.first.inner_text()).strip()
            if turn in ON_PHONES:
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
