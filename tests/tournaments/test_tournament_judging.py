"""Judge tools (issue 27): a player calls a judge from their page or their table's draft, the call shows
on the dashboard with the table (live, over the event socket) until an organizer marks it handled;
penalties (warning, VP loss, game loss, disqualification) go to the audit log and the standings.
Services first, then the pages; every refusal changes nothing. On PostgreSQL."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from smashup.asgi import application
from tests.tournaments import people
from tests.tournaments.people import user
from tournaments import services
from tournaments.models import AuditEntry, Entrant, Event, JudgeCall, Penalty, Round, Seat

pytestmark = pytest.mark.django_db
SITE_HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


def new_event(players: int = 8, **fields) -> Event:
    return people.new_event(players, **({"name": "Judged"} | fields))


def play(rnd: Round) -> None:
    """Every table: seat 1 scores most (12, 10, 8, ...)."""
    for table in rnd.tables.order_by("number"):
        seats = list(table.seats.order_by("position"))
        services.set_result(table, {s.entrant_id: 12 - 2 * s.position for s in seats}, by=user("org"))


def as_player(entrant: Entrant) -> Client:
    client = Client()
    client.post(f"/tournaments/p/{entrant.token}/")  # the private link's "Continue as ..."
    return client


def state(event: Event) -> tuple:
    return (
        list(JudgeCall.objects.filter(event=event).order_by("pk").values()),
        list(Penalty.objects.filter(event=event).order_by("pk").values()),
        list(Entrant.objects.filter(event=event).order_by("pk").values()),
        AuditEntry.objects.filter(event=event).count(),
        Event.objects.get(pk=event.pk).version,
    )


def seated(rnd: Round, table_number: int = 1, position: int = 0) -> Entrant:
    return Seat.objects.get(table__round=rnd, table__number=table_number, position=position).entrant


# ---------------------------------------------------------------------------------- calls --------
def test_a_call_names_the_table_and_stays_open_until_handled():
    event = new_event()
    rnd = services.generate_round(event, user("org"))
    ada = seated(rnd, 2, 1)
    call = services.call_judge(event, ada, "  Does  Ninja Master\tcount? ")
    assert (call.table_number, call.round_label, call.note) == (2, "Round 1", "Does Ninja Master count?")
    assert services.open_calls(event) == [call]
    entry = AuditEntry.objects.filter(event=event, action="judge_call").get()
    assert entry.message == f"{ada.name} called a judge at table 2 (round 1): Does Ninja Master count?"
    with pytest.raises(services.Conflict, match="one is on the way"):
        services.call_judge(event, ada)
    services.handle_call(call, user("org"))
    assert services.open_calls(event) == []
    with pytest.raises(services.Conflict, match="handled already"):
        services.handle_call(call, user("org"))
    again = services.call_judge(event, ada)  # a new call once the first is handled
    services.withdraw_call(again, ada)
    assert JudgeCall.objects.get(pk=again.pk).status == JudgeCall.Status.WITHDRAWN


def test_calls_that_cannot_be_are_refused_and_change_nothing():
    event = new_event()
    rnd = services.generate_round(event, user("org"))
    ada, bob = seated(rnd, 1, 0), seated(rnd, 1, 1)
    other = new_event(2)
    call = services.call_judge(event, ada)
    before = state(event)
    for attempt, error in (
        (lambda: services.call_judge(event, None), services.NotAllowed),
        (lambda: services.call_judge(event, other.entrants.first()), services.NotAllowed),
        (lambda: services.call_judge(event, bob, "x" * 201), services.Invalid),
        (lambda: services.call_judge(event, bob, "help\u202e me"), services.Invalid),
        (lambda: services.call_judge(event, bob, "a\x00b"), services.Invalid),
        (lambda: services.withdraw_call(call, bob), services.NotAllowed),
        (lambda: services.handle_call(call, bob.user), services.NotAllowed),
        (lambda: services.handle_call(call, user("stranger")), services.NotAllowed),
        (lambda: services.handle_call(999999, user("org")), services.TournamentError),
    ):
        with pytest.raises(error):
            attempt()
    assert state(event) == before
    play(rnd)
    services.finish_event(event, user("org"))
    with pytest.raises(services.Conflict, match="over"):
        services.call_judge(event, bob)


def test_a_player_calls_from_their_page_and_the_dashboard_shows_it_with_the_table():
    event = new_event()
    rnd = services.generate_round(event, user("org"))
    ada = seated(rnd, 2, 0)
    player = as_player(ada)
    page = player.get(f"/tournaments/{event.pk}/me/").content.decode()
    assert "Call a judge to table 2" in page
    response = player.post(
        f"/tournaments/{event.pk}/judge/call/",
        {"note": "A dispute", "next": f"/tournaments/{event.pk}/me/"},
        follow=True,
    )
    assert "A judge is called" in response.content.decode()
    assert "A judge is called to table 2" in player.get(f"/tournaments/{event.pk}/me/").content.decode()
    org = Client()
    org.force_login(user("org"))
    dashboard = org.get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert 'href="#table-2">Table 2</a>' in dashboard and f"{ada.name}: “A dispute”" in dashboard
    call = JudgeCall.objects.get(event=event)
    org.post(f"/tournaments/{event.pk}/judge/calls/{call.pk}/handled/")
    assert "Nobody is waiting for a judge" in org.get(f"/tournaments/{event.pk}/manage/").content.decode()
    # The player's page offers a new call again; a visitor cannot call.
    assert "Call a judge to table 2" in player.get(f"/tournaments/{event.pk}/me/").content.decode()
    before = state(event)
    assert Client().post(f"/tournaments/{event.pk}/judge/call/").status_code == 302  # to the login
    stranger = Client()
    stranger.force_login(user("stranger"))
    assert stranger.post(f"/tournaments/{event.pk}/judge/call/").status_code == 403
    assert state(event) == before


def test_a_player_at_a_table_calls_from_its_draft_page():
    event = new_event(draft_mode=Event.DraftMode.TABLE)
    rnd = services.generate_round(event, user("org"))
    table = rnd.tables.get(number=1)
    ada = seated(rnd, 1, 0)
    draft_url = f"/tournaments/{event.pk}/tables/{table.pk}/draft/"
    assert "Call a judge to table 1" in as_player(ada).get(draft_url).content.decode()
    outsider = seated(rnd, 2, 0)
    assert "Call a judge" not in as_player(outsider).get(draft_url).content.decode()
    as_player(ada).post(f"/tournaments/{event.pk}/judge/call/", {"next": draft_url})
    assert JudgeCall.objects.get(event=event).table == table


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_dashboard_hears_of_a_call_over_the_event_socket(redis_url):
    event = await database_sync_to_async(new_event)()
    rnd = await database_sync_to_async(services.generate_round)(
        event, await database_sync_to_async(user)("org")
    )
    ada = await database_sync_to_async(seated)(rnd, 1, 0)
    comm = WebsocketCommunicator(application, f"/ws/events/{event.pk}/", headers=SITE_HEADERS)
    connected, code = await comm.connect(timeout=10)
    assert connected, code
    hello = json.loads(await comm.receive_from(10))
    await database_sync_to_async(services.call_judge)(event, ada, "here")
    message = json.loads(await comm.receive_from(10))
    assert message["type"] == "changed" and message["version"] > hello["version"]
    await comm.disconnect()


# ---------------------------------------------------------------------------------- penalties ----
def two_rounds() -> tuple[Event, Round, Round]:
    event = new_event(8)
    r1 = services.generate_round(event, user("org"))
    play(r1)
    r2 = services.generate_round(event, user("org"))
    play(r2)
    return event, r1, r2


def points(event: Event) -> dict:
    return {r.entrant.pk: r.points for r in services.standings(event)}


def test_a_vp_loss_changes_the_standings_points_by_the_events_scoring():
    event, r1, _ = two_rounds()
    winner, second = seated(r1, 1, 0), seated(r1, 1, 1)  # 12 and 10 VP at table 1
    before = points(event)
    penalty = services.give_penalty(
        event, winner.pk, "vp_loss", user("org"), round_number=1, vp=3, note="Extra card"
    )
    # 12 - 3 = 9 < 10: the second seat wins round 1 (normalised, 4 players: 4 / 3 / 2 / 1).
    after = points(event)
    assert after[winner.pk] == before[winner.pk] - 1 and after[second.pk] == before[second.pk] + 1
    entry = AuditEntry.objects.filter(event=event, action="penalty").get()
    assert entry.message == f"Penalty for {winner.name}: a loss of 3 VP in round 1 (table 1) (Extra card)."
    services.revoke_penalty(penalty, user("org"))
    assert points(event) == before
    assert AuditEntry.objects.filter(event=event, action="penalty_revoked").exists()
    with pytest.raises(services.Conflict, match="revoked already"):
        services.revoke_penalty(penalty, user("org"))


def test_a_game_loss_makes_that_table_a_loss_for_that_player():
    event, r1, _ = two_rounds()
    winner = seated(r1, 1, 0)
    services.give_penalty(event, winner.pk, "game_loss", user("org"), round_number=1)
    rows = {r.entrant.pk: r for r in services.standings(event)}
    others = [s.entrant_id for s in r1.tables.get(number=1).seats.order_by("position")][1:]
    assert rows[others[0]].firsts >= 1  # 10 VP now wins table 1
    assert rows[winner.pk].penalties[0].kind == "game_loss"
    with pytest.raises(services.Conflict, match="game loss in round 1 already"):
        services.give_penalty(event, winner.pk, "game_loss", user("org"), round_number=1)


def test_a_disqualification_drops_the_player_and_lists_them_last_marked(client):
    event, r1, _ = two_rounds()
    leader = services.standings(event)[0].entrant
    services.give_penalty(event, leader.pk, "disqualification", user("org"), note="Marked cards")
    leader.refresh_from_db()
    assert leader.dropped and leader.dropped_after == 2
    rows = services.standings(event)
    assert rows[-1].entrant == leader and rows[-1].disqualified
    html = client.get(f"/tournaments/{event.pk}/standings/").content.decode()
    assert '<span class="t-penalty t-dq">disqualified</span>' in html
    assert "Marked cards" not in html  # the judge's note is for the organizers and the player
    assert "disqualification" in html  # the public list of penalties
    assert leader.pk not in [e.pk for e in services.active_entrants(event)]
    with pytest.raises(services.Conflict, match="disqualified already"):
        services.give_penalty(event, leader.pk, "disqualification", user("org"))
    api = client.get(f"/tournaments/{event.pk}/api/standings.json").json()["standings"][-1]
    assert api["disqualified"] and api["penalties"] == ["disqualified"]
    page = as_player(leader).get(f"/tournaments/{event.pk}/me/").content.decode()
    assert "Marked cards" in page  # the player sees why on their own page


def test_bad_penalties_are_refused_and_change_nothing():
    event, r1, r2 = two_rounds()
    ada = seated(r1, 1, 0)
    waiting = services.register(event, "Wait")
    Entrant.objects.filter(pk=waiting.pk).update(wait_rank=1)
    seat = Seat.objects.get(round=r2, entrant=ada)
    before = state(event)
    cases = [
        (dict(entrant=ada.pk, kind="yellow"), "Choose a penalty"),
        (dict(entrant=0, kind="warning"), "Choose a player"),
        (dict(entrant=999999, kind="warning"), "Choose a player"),
        (dict(entrant=new_event(2).entrants.first().pk, kind="warning"), "Choose a player"),
        (dict(entrant=waiting.pk, kind="warning"), "waitlist"),
        (dict(entrant=ada.pk, kind="vp_loss"), "1 to 99 VP"),
        (dict(entrant=ada.pk, kind="vp_loss", vp=0), "1 to 99 VP"),
        (dict(entrant=ada.pk, kind="vp_loss", vp=100), "1 to 99 VP"),
        (dict(entrant=ada.pk, kind="vp_loss", vp=True), "1 to 99 VP"),
        (dict(entrant=ada.pk, kind="vp_loss", vp=2, round_number=7), "no round 7"),
        (dict(entrant=ada.pk, kind="game_loss", round_number="1"), "Choose a round"),
        (dict(entrant=ada.pk, kind="warning", note="x" * 201), "at most 200"),
        (dict(entrant=ada.pk, kind="warning", note="zero\u200bwidth"), "invisible"),
    ]
    for args, error in cases:
        entrant, kind = args.pop("entrant"), args.pop("kind")
        with pytest.raises(services.TournamentError, match=error):
            services.give_penalty(event, entrant, kind, user("org"), **args)
    with pytest.raises(services.NotAllowed):
        services.give_penalty(event, ada.pk, "warning", user("stranger"))
    # A no-show's game is a loss already.
    Seat.objects.filter(pk=seat.pk).update(no_show=True)
    with pytest.raises(services.Conflict, match="loss already"):
        services.give_penalty(event, ada.pk, "game_loss", user("org"), round_number=2)
    Seat.objects.filter(pk=seat.pk).update(no_show=False)
    assert state(event) == before


def test_no_vp_or_game_loss_in_the_top_cut_and_none_for_a_bye():
    event = new_event(5, top_cut=4, rounds=1, layout=Event.Layout.BYES)  # four play, one has a bye
    r1 = services.generate_round(event, user("org"))
    play(r1)
    bye = r1.byes.get().entrant
    with pytest.raises(services.Conflict, match="no table in round 1"):
        services.give_penalty(event, bye.pk, "game_loss", user("org"), round_number=1)
    with pytest.raises(services.Conflict, match="played no game yet"):
        services.give_penalty(event, bye.pk, "vp_loss", user("org"), vp=1)
    final = services.start_top_cut(event, user("org"))
    finalist = final.tables.get().seats.first().entrant
    with pytest.raises(services.Conflict, match="top cut"):
        services.give_penalty(event, finalist.pk, "vp_loss", user("org"), round_number=final.number, vp=2)
    warned = services.give_penalty(event, finalist.pk, "warning", user("org"))
    assert warned.round_number == final.number


def test_the_judge_desk_gives_and_revokes_through_its_forms():
    event, r1, _ = two_rounds()
    ada = seated(r1, 1, 0)
    org = Client()
    org.force_login(user("org"))
    base = f"/tournaments/{event.pk}"
    assert "Give a penalty" in org.get(f"{base}/judge/").content.decode()
    data = {"entrant": ada.pk, "kind": "vp_loss", "vp": "2", "round": "1"}
    response = org.post(f"{base}/penalties/new/", data, follow=True)
    assert f"Penalty recorded for {ada.name}" in response.content.decode()
    penalty = Penalty.objects.get(event=event)
    assert (penalty.kind, penalty.vp, penalty.round_number) == ("vp_loss", 2, 1)
    before = state(event)
    for data in (
        {"entrant": ada.pk, "kind": "vp_loss", "vp": "²", "round": "1"},
        {"entrant": ada.pk, "kind": "vp_loss", "vp": "-1"},
        {"entrant": "abc", "kind": "warning"},
        {"entrant": ada.pk, "kind": "warning", "round": "1.5"},
        {"entrant": ada.pk, "kind": ""},
    ):
        response = org.post(f"{base}/penalties/new/", data, follow=True)
        assert response.status_code == 200 and "alert" in response.content.decode()
        assert state(event) == before, data
    org.post(f"{base}/penalties/{penalty.pk}/revoke/")
    assert not Penalty.objects.get(pk=penalty.pk).in_force


# ---------------------------------------------------------------------------------- ratings ------
def test_penalties_move_the_event_places_but_ratings_rate_the_games_as_played(client):
    """Ruling: a rating measures play, so it rates the games as they were played (the seats' VP);
    penalties are the event's (its standings, its places, a series' points). A penalty changes no
    rating and breaks no page that reads ratings."""
    from tournaments.rating_models import PlayerRating, RatingChange
    from tournaments.services import leagues, rating_store
    from tournaments.services.records import event_places

    event = new_event(8)
    for i, entrant in enumerate(Entrant.objects.filter(event=event).order_by("pk")):
        Entrant.objects.filter(pk=entrant.pk).update(user=user(f"acct{i}"))
    r1 = services.generate_round(event, user("org"))
    play(r1)
    play(services.generate_round(event, user("org")))
    rating_store.refresh()
    rated = sorted(RatingChange.objects.values_list("entrant_id", "round_id", "mu", "sigma"))
    ratings = dict(PlayerRating.objects.values_list("user_id", "rating"))
    assert len(rated) == 16
    services.give_penalty(event, seated(r1, 2, 0).pk, "vp_loss", user("org"), round_number=1, vp=5)
    services.give_penalty(event, seated(r1, 1, 1).pk, "game_loss", user("org"), round_number=1)
    cheat = services.standings(event)[0].entrant  # first, until disqualified
    services.give_penalty(event, cheat.pk, "disqualification", user("org"), note="Marked cards")
    assert rating_store.refresh().rerated_from is None  # the event changed, its rated games did not
    assert sorted(RatingChange.objects.values_list("entrant_id", "round_id", "mu", "sigma")) == rated
    assert dict(PlayerRating.objects.values_list("user_id", "rating")) == ratings
    services.finish_event(event, user("org"))
    places = event_places(event)
    assert places[cheat.pk] == max(places.values())  # disqualified: last
    series = leagues.create_series(user("org"), **leagues.clean_settings("League", "3, 1", "0", ""))
    leagues.add_event(series, event, user("org"))
    line = next(line for line in leagues.standings(series).lines if line.user_id == cheat.user_id)
    assert line.row.points == 0  # first place's 3 points went to the next player
    for url in (
        f"/tournaments/players/{cheat.user_id}/",
        f"/tournaments/{event.pk}/stats/",
        "/tournaments/ratings/",
        f"/tournaments/series/{series.pk}/",
    ):
        assert client.get(url).status_code == 200, url
