"""Only organizers change an event. Every state-changing view, as a stranger (not logged in: redirect
to the login page; logged in: 403), as a staff account that does not organize it (403: staff may use
the admin, not run other people's events) and as a player of the event (403), changes nothing; the
same request by the organizer (after the staff account's: by a superuser, who manages every event)
does change something, so each check is about a request that matters.
Players may act only for themselves: their own table's result and their own draft pick."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client

from tests.tournaments.people import user
from tournaments import clock, drafting, services
from tournaments import draft as kiq
from tournaments.models import AuditEntry, Bye, Draft, Entrant, Event, Round, RoundClock, Seat, Table

pytestmark = pytest.mark.django_db


def staff():
    """A staff account (the admin's door) that organizes nothing."""
    return user("staffer", is_staff=True)


def superuser():
    return user("root", is_staff=True, is_superuser=True)


def snapshot(event: Event) -> tuple:
    """Everything an event is made of."""
    return (
        list(Event.objects.filter(pk=event.pk).values()),
        sorted(event.co_organizers.values_list("pk", flat=True)),
        list(Entrant.objects.filter(event=event).order_by("pk").values()),
        list(Round.objects.filter(event=event).order_by("pk").values()),
        list(Table.objects.filter(round__event=event).order_by("pk").values()),
        list(Seat.objects.filter(round__event=event).order_by("pk").values()),
        list(Bye.objects.filter(round__event=event).order_by("pk").values()),
        list(RoundClock.objects.filter(round__event=event).order_by("pk").values()),
        list(Draft.objects.filter(table__round__event=event).order_by("pk").values()),
        AuditEntry.objects.filter(event=event).count(),
    )


class Scene:
    """An event in a given state, with its organizer, a co-organizer, a player with an account
    seated at table 1, and a stranger."""

    def __init__(self, state: str):
        self.org = user("org")
        self.player_user = user("player")
        self.stranger = user("stranger")
        players = 16 if state == "semis" else 8
        self.event = services.create_event(
            self.org,
            name="Permissions",
            date=datetime.date(2026, 5, 1),
            draft_mode=Event.DraftMode.TABLE if state == "paired" else Event.DraftMode.NONE,
            top_cut=16 if state == "semis" else 4,
        )
        user("helper")
        services.add_co_organizer(self.event, "helper", self.org)
        self.entrants = [services.register(self.event, f"P{i + 1:02d}", by=self.org) for i in range(players)]
        self.zed = services.register(self.event, "Zed")  # signed up, not checked in
        self.gone = services.register(self.event, "Gone", by=self.org)
        services.drop(self.gone, self.org)
        Entrant.objects.filter(pk=self.entrants[0].pk).update(user=self.player_user)
        self.round = None
        if state == "waitlist":
            # Two waiting players and one open place (the cap raised behind the services' back,
            # so nobody was let in yet): promoting and reordering both change something.
            services.set_player_cap(self.event, players + 1, self.org)
            self.waiting = [services.register(self.event, name) for name in ("W1", "W2")]
            Event.objects.filter(pk=self.event.pk).update(player_cap=players + 2)
        if state in ("registration", "waitlist"):
            return
        self.round = services.generate_round(self.event, self.org)
        self.table = Seat.objects.get(round=self.round, entrant=self.entrants[0]).table
        if state in ("finished", "semis"):
            for table in self.round.tables.all():
                services.set_result(table, {s.entrant_id: s.position for s in table.seats.all()}, by=self.org)
        if state == "semis":
            semis = services.start_top_cut(self.event, self.org)
            for table in semis.tables.all():
                services.set_result(table, {s.entrant_id: s.position for s in table.seats.all()}, by=self.org)
        if state in ("running", "paused"):
            clock.start(self.round.clock, self.org)
        if state == "paused":
            clock.pause(self.round.clock, self.org)
        self.event.refresh_from_db()

    def seated(self, n: int = 0) -> Entrant:
        return Entrant.objects.get(pk=self.table.seats.order_by("position")[n].entrant_id)


def _url(scene: Scene, template: str) -> str:
    e = scene.event
    values = {
        "e": e.pk,
        "zed": scene.zed.pk,
        "gone": scene.gone.pk,
        "in": scene.entrants[1].pk,  # added by the organizer: checked in
        "helper": user("helper").pk,
    }
    for i, waiting in enumerate(getattr(scene, "waiting", []), start=1):
        values[f"w{i}"] = waiting.pk
    if scene.round is not None:
        values["table"] = scene.table.pk
    values["call"] = scene.call.pk if getattr(scene, "call", None) else 0
    values["penalty"] = scene.penalty.pk if getattr(scene, "penalty", None) else 0
    return "/tournaments/{e}/".format(**values) + template.format(**values)


# (state, url under the event, POST data or None for GET)
ORGANIZER_POSTS = [
    ("registration", "edit/", {"name": "Renamed", "date": "2026-05-02", "mode": "standard", "table_size": "4",
                               "layout": "even", "round_minutes": "40", "warnings": "10", "end_rule": "x",
                               "faction_pool": ["Aliens", "Dinosaurs", "Ninjas", "Pirates", "Robots",
                                                "Wizards", "Zombies", "Tricksters"],
                               "faction_copies": "1", "draft_mode": "none", "bans_per_player": "0",
                               "scoring": "normalised", "tiebreaker_1": "sos", "top_cut": "0"}),
    ("registration", "organizers/add/", {"username": "stranger"}),
    ("registration", "organizers/{helper}/remove/", {}),
    ("registration", "entrants/add/", {"name": "Newcomer"}),
    ("registration", "entrants/{zed}/checkin/", {}),
    ("registration", "entrants/{in}/uncheck/", {}),
    ("registration", "entrants/{zed}/drop/", {}),
    ("registration", "entrants/{gone}/reinstate/", {}),
    ("registration", "entrants/{zed}/rename/", {"name": "Zeta"}),
    ("registration", "entrants/{zed}/factions/", {"faction1": "Aliens", "faction2": "Ninjas"}),
    ("registration", "rounds/new/", {}),
    ("registration", "cap/", {"player_cap": "20"}),
    ("registration", "self-check-in/open/", {}),
    ("registration", "self-check-in/rotate/", {}),
    ("waitlist", "entrants/{w2}/promote/", {}),
    ("waitlist", "entrants/{w2}/waitlist/", {"rank": "1"}),
    ("paired", "entrants/{zed}/seat/", {"table": "{table}"}),
    ("paired", "rounds/undo/", {}),
    ("paired", "rounds/1/swap/", {"a": "first", "b": "last"}),
    ("paired", "tables/{table}/result/", "vp"),
    ("paired", "tables/{table}/no-show/", {"entrant": "seat1"}),
    ("paired", "tables/{table}/no-show/undo/", {"entrant": "seat1"}),
    ("running", "tables/{table}/extend/", {"minutes": "3"}),
    ("paired", "clock/start/", {}),
    ("running", "clock/pause/", {}),
    ("running", "clock/extend/", {"minutes": "5"}),
    ("running", "clock/call/", {}),
    ("paused", "clock/resume/", {}),
    ("finished", "rounds/new/", {}),
    ("finished", "rounds/top-cut/", {}),
    ("finished", "finish/", {}),
    ("semis", "rounds/final/", {}),
    ("finished", "archive/", {}),
    # The organizer's desk and the judge (tournaments.views.desk).
    ("registration", "entrants/import/", {"action": "import", "text": "Newer, newer@example.org"}),
    ("paired", "judge/calls/{call}/handled/", {}),
    ("finished", "penalties/new/", {"entrant": "seat1", "kind": "warning"}),
    ("finished", "penalties/{penalty}/revoke/", {}),
    ("paired", "fixed-table/", {"entrant": "seat1", "table": "7"}),
    ("paired", "rounds/1/move/", {"entrant": "other", "table": "{table}"}),
    ("paired", "rounds/1/repair/", {"table": "{table}"}),
    ("paired", "tables/{table}/draft/random-rest/", {"version": "0"}),
]  # fmt: skip

ORGANIZER_PAGES = [
    "manage/",
    "entrants/{zed}/more/",
    "edit/",
    "audit/",
    "rounds/1/swap/?a=1&b=2",
    "export/entrants.csv",
    "rounds/1/results/",
    "rounds/next/check/",
    "judge/",
    "entrants/import/",
    "rounds/1/move/?entrant=1&table=2",
    "rounds/1/move/?form=1",
    "rounds/1/repair/?table=1",
    "rounds/1/repair/?form=1",
]


def _data(scene: Scene, data):
    if data == "vp":
        return {f"vp_{s.entrant_id}": "7" for s in scene.table.seats.all()}
    out = {}
    for key, value in data.items():
        if value == "{table}":
            value = str(scene.table.pk)
        elif value == "seat1":  # the first seat of the scene's table (the player's table-mate)
            value = str(scene.seated(1).pk)
        elif value == "first":
            value = str(
                scene.round.tables.order_by("number").first().seats.order_by("position").first().entrant_id
            )
        elif value == "other":  # a player of another table than the scene's
            value = str(Seat.objects.filter(round=scene.round).exclude(table=scene.table).first().entrant_id)
        elif value == "last":
            value = str(
                scene.round.tables.order_by("number").last().seats.order_by("position").last().entrant_id
            )
        out[key] = value
    return out


def _short_table(scene: Scene) -> None:
    """Make table 1 a 3-player table so a late entrant can be seated there."""
    seat = scene.table.seats.order_by("position").last()
    Bye.objects.create(round=scene.round, entrant_id=seat.entrant_id)
    seat.delete()
    services.check_in(scene.zed, scene.org)
    scene.zed.refresh_from_db()


@pytest.mark.parametrize(
    "state, path, data", ORGANIZER_POSTS, ids=[f"{s}:{p}" for s, p, _ in ORGANIZER_POSTS]
)
@pytest.mark.parametrize("who", ["anonymous", "stranger", "staff", "player"])
def test_organizer_actions_refuse_everyone_else_and_change_nothing(state, path, data, who):
    scene = Scene(state)
    if path.startswith(("entrants/{zed}/seat/", "rounds/1/move/")):
        _short_table(scene)
    if "{call}" in path:
        scene.call = services.call_judge(scene.event, scene.seated(1))
    if "{penalty}" in path:
        scene.penalty = services.give_penalty(scene.event, scene.seated(1).pk, "warning", scene.org)
    if path.endswith("no-show/undo/"):
        services.mark_no_show(scene.table, scene.seated(1).pk, scene.org)
    url, post = _url(scene, path), _data(scene, data)
    client = Client()
    if who != "anonymous":
        client.force_login({"player": scene.player_user, "staff": staff()}.get(who, scene.stranger))
        if who == "player":
            assert services.entrant_for(scene.event, scene.player_user) is not None
    before = snapshot(scene.event)
    response = client.post(url, post)
    if who == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    else:
        assert response.status_code == 403
    assert snapshot(scene.event) == before
    # The organizer's same request goes through (so the refusal above was about who asked); after
    # the staff account's, a superuser's (superusers manage every event).
    organizer = Client()
    organizer.force_login(superuser() if who == "staff" else scene.org)
    response = organizer.post(url, post, follow=True)
    assert response.status_code == 200
    assert snapshot(scene.event) != before, [str(m) for m in response.context["messages"]]


@pytest.mark.parametrize("path", ORGANIZER_PAGES)
@pytest.mark.parametrize("who", ["anonymous", "stranger", "staff", "player"])
def test_organizer_pages_are_for_organizers(path, who):
    scene = Scene("paired")
    client = Client()
    if who != "anonymous":
        client.force_login({"player": scene.player_user, "staff": staff()}.get(who, scene.stranger))
    response = client.get(_url(scene, path))
    if who == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    else:
        assert response.status_code == 403
    for allowed in (user("helper"), superuser()):  # a co-organizer; a superuser manages every event
        c = Client()
        c.force_login(allowed)
        assert c.get(_url(scene, path)).status_code == 200


def test_who_manages_an_event_in_the_services():
    """The rule of services.can_manage: the organizer, co-organizers and superusers; a staff account
    (the admin's door), a player or a stranger manages nothing, and a service refuses them."""
    scene = Scene("registration")
    assert services.can_manage(scene.org, scene.event) and services.can_manage(user("helper"), scene.event)
    assert services.can_manage(superuser(), scene.event)
    for nobody in (staff(), scene.player_user, scene.stranger, None):
        assert not services.can_manage(nobody, scene.event)
    before = snapshot(scene.event)
    with pytest.raises(services.NotAllowed):
        services.check_in(scene.zed, staff())
    assert snapshot(scene.event) == before
    assert services.check_in(scene.zed, superuser()).checked_in
    # A staff account becomes an organizer like anyone: as a co-organizer.
    services.add_co_organizer(scene.event, "staffer", scene.org)
    assert services.can_manage(staff(), scene.event)


def test_the_manage_link_shows_only_to_organizers(client):
    scene = Scene("paired")
    assert (
        f"/tournaments/{scene.event.pk}/manage/"
        not in client.get(f"/tournaments/{scene.event.pk}/").content.decode()
    )
    client.force_login(scene.org)
    assert (
        f"/tournaments/{scene.event.pk}/manage/"
        in client.get(f"/tournaments/{scene.event.pk}/").content.decode()
    )


# ---------------------------------------------------------------------------------- coverage -----
# What players and visitors may POST: for themselves only, each with its test in this file (the
# draft pick), test_tournament_views.py (sign-up, results) or for anyone logged in (a new event).
# Self check-in with the venue's code: test_tournament_self_check_in.py; "Play your game" (a player
# takes their own seat in the app): test_tournament_in_app.py; the private link's "Continue as":
# test_tournament_safeguards.py.
OWN_POSTS = {
    "new", "signup", "drop_me", "play_my_game", "report", "confirm", "dispute", "draft_pick", "code_check_in",
    "private",
}  # fmt: skip
# A new series (anyone logged in) and a series' own organizers' views: test_series_pages.py.
SERIES_POSTS = {"series_new"}
OWN_POSTS |= {"judge_call", "judge_withdraw"}  # a player's own judge call: test_tournament_judging.py


def _routes() -> list:
    from tournaments import urls

    return urls.urlpatterns


def _resolve(path: str):
    from django.urls import resolve

    ids = dict.fromkeys(("e", "zed", "gone", "in", "helper", "table", "w1", "w2", "call", "penalty"), 1)
    return resolve("/tournaments/{e}/".format(**ids) + path.split("?")[0].format(**ids))


def test_every_organizer_view_and_action_has_a_permission_test():
    """A new organizer view (or a new entrant or clock action) fails here until it is added to the
    lists above (or to the in-app start views' own test)."""
    from tests.tournaments.test_tournament_desk import DESK_URLS
    from tests.tournaments.test_tournament_in_app import START_URLS
    from tournaments.views import organizer

    covered = set()
    for path in [p for _, p, _ in ORGANIZER_POSTS] + START_URLS + ORGANIZER_PAGES + DESK_URLS:
        match = _resolve(path)
        covered.add((match.url_name, match.kwargs.get("action")))
    organizer_views = {r.name for r in _routes() if getattr(r.callback, "organizers_only", False)}
    assert {"manage", "edit", "entrant_action", "clock", "swap"} <= organizer_views
    missing = {name for name in organizer_views if not any(n == name for n, _ in covered)}
    actions = [("entrant_action", a) for a in organizer.ENTRANT_ACTIONS]
    actions += [("clock", a) for a in [*organizer.CLOCK_ACTIONS, "extend"]]
    missing |= {f"{name}:{action}" for name, action in actions if (name, action) not in covered}
    assert not missing, f"organizer views without a permission test: {sorted(missing)}"


def test_no_other_view_changes_anything_by_post(client):
    """Every view that is neither an organizer's nor one of a player's own actions refuses a POST."""
    event = services.create_event(user("org"), name="Read only", date=datetime.date(2026, 5, 1))
    before = snapshot(event)
    for route in _routes():
        if getattr(route.callback, "organizers_only", False) or route.name in OWN_POSTS | SERIES_POSTS:
            continue
        if getattr(route.callback, "series_organizers_only", False):
            continue
        if getattr(route.callback, "own_post", False):  # tested in test_tournament_notice_delivery.py
            continue
        path = str(route.pattern)
        for key, value in (("<int:pk>", event.pk), ("<str:token>", "x"), ("<str:kind>", "standings")):
            path = path.replace(key, str(value))
        path = re.sub(r"<int:\w+>", "1", path)
        response = client.post("/tournaments/" + path)
        assert response.status_code == 405, (route.name, response.status_code)
    assert snapshot(event) == before


# ---------------------------------------------------------------------------------- players ------
def _as(entrant: Entrant) -> Client:
    client = Client()
    client.post(f"/tournaments/p/{entrant.token}/")
    return client


def test_only_players_of_the_table_report_confirm_or_dispute():
    scene = Scene("running")
    table = scene.table
    other_table = scene.round.tables.exclude(pk=table.pk).first()
    outsider = Entrant.objects.get(pk=other_table.seats.first().entrant_id)
    base = f"/tournaments/{scene.event.pk}/tables/{table.pk}"
    vp = {f"vp_{s.entrant_id}": "5" for s in table.seats.all()}
    for client, expected in ((Client(), 302), (_as(outsider), 403), (_as(scene.zed), 403)):
        stranger_login = Client()
        stranger_login.force_login(scene.stranger)
        for c, code in ((client, expected), (stranger_login, 403)):
            before = snapshot(scene.event)
            assert c.post(f"{base}/report/", vp).status_code == code
            assert snapshot(scene.event) == before
    services.report_result(table, scene.seated(0), {s.entrant_id: 5 for s in table.seats.all()})
    for path, data in (("confirm/", {"result_version": "1"}), ("dispute/", {"note": "no"})):
        for client in (Client(), _as(outsider)):
            before = snapshot(scene.event)
            response = client.post(f"{base}/{path}", data)
            assert response.status_code in (302, 403)
            if response.status_code == 302:
                assert response["Location"].startswith("/accounts/login/")
            assert snapshot(scene.event) == before
    # A player of the table may.
    before = snapshot(scene.event)
    _as(scene.seated(1)).post(f"{base}/confirm/", {"result_version": "1"})
    assert snapshot(scene.event) != before


def test_only_the_player_whose_turn_it_is_picks_in_the_draft():
    scene = Scene("paired")
    draft = scene.table.draft
    state = drafting.state_of(draft)
    picker = Entrant.objects.get(pk=kiq.current_picker(state))
    waiting = Entrant.objects.get(pk=next(p for p in state.players if p != picker.pk))
    url = f"/tournaments/{scene.event.pk}/tables/{scene.table.pk}/draft/pick/"
    faction = kiq.legal_picks(state)[0]
    stranger = Client()
    stranger.force_login(scene.stranger)
    for client, code in ((Client(), 302), (stranger, 403), (_as(waiting), 403), (_as(scene.zed), 403)):
        before = snapshot(scene.event)
        assert client.post(url, {"faction": faction, "version": "0"}).status_code == code
        assert client.post(url, {"random": "1", "version": "0"}).status_code == code
        assert snapshot(scene.event) == before
    before = snapshot(scene.event)
    _as(picker).post(url, {"faction": faction, "version": "0"})
    assert snapshot(scene.event) != before


def test_self_drop_is_for_signed_up_players_only():
    scene = Scene("registration")
    url = f"/tournaments/{scene.event.pk}/me/drop/"
    stranger = Client()
    stranger.force_login(scene.stranger)
    for client in (Client(), stranger):
        before = snapshot(scene.event)
        assert client.post(url).status_code == 403
        assert snapshot(scene.event) == before
    _as(scene.zed).post(url)
    scene.zed.refresh_from_db()
    assert scene.zed.dropped


def test_the_private_entrants_export_and_public_ones():
    scene = Scene("paired")
    client = Client()
    assert client.get(f"/tournaments/{scene.event.pk}/export/standings.csv").status_code == 200
    assert client.get(f"/tournaments/{scene.event.pk}/export/pairings.csv").status_code == 200
    assert client.get(f"/tournaments/{scene.event.pk}/export/nothing.csv").status_code == 404
