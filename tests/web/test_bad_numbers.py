"""Numbers from requests are read one way (smashup.core.params): ASCII digits only. Unicode digits
such as "²" pass str.isdigit() but not int(); each page, form and socket that reads a number answers
them with a clear error (400, a message, or a socket error) and changes nothing."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from smashup.asgi import application
from smashup.play import drafting, services
from smashup.play.models import Game
from tournaments import draft as kiq
from tournaments import services as tournament_services
from tournaments.models import Event

from .play_helpers import SITE_HEADERS, eager_bots, snapshot
from .test_play_views import lobby_form

BAD = ["²", "٣", "１", "1" * 40]
TIMEOUT = 10


def game_against_a_bot(client: Client) -> Game:
    """A started game where `client` holds seat 0 (Ada) and a bot seat 1."""
    client.post("/play/", lobby_form())
    game = Game.objects.get()
    assert game.is_active
    return game


def table_state(game: Game) -> tuple:
    game.refresh_from_db()
    seats = [(s.kind, s.claimed, s.guest_name, list(s.factions), s.token) for s in game.seats.all()]
    return snapshot(game), game.draft, seats


@pytest.mark.django_db
@pytest.mark.parametrize("bad", BAD)
def test_the_game_pages_answer_a_bad_seat_or_seq_with_400(client, bad):
    game = game_against_a_bot(client)
    before = table_state(game)
    g, t = f"/play/g/{game.public_id}", f"/play/t/{game.public_id}"
    htmx = {"HTTP_HX_REQUEST": "true"}
    requests = [
        ("get", f"{g}/?seat={bad}", {}, {}),
        ("get", f"{t}/?seat={bad}", {}, {}),
        ("get", f"{t}/seats/?seat={bad}", {}, {}),
        ("post", f"{g}/choice/", {"as": bad, "seq": "0", "decision": game.pending_decision}, {}),
        ("post", f"{g}/choice/", {"seq": bad, "decision": game.pending_decision, "options": "x"}, htmx),
        ("post", f"{g}/undo/", {"as": bad, "seq": "1"}, {}),
        ("post", f"{g}/undo/", {"seq": bad}, htmx),
    ]
    for method, url, data, extra in requests:
        response = getattr(client, method)(url, data, **extra)
        text = response.content.decode()
        assert response.status_code == 400, (url, data, response.status_code)
        assert "must be" in text and "number" in text, (url, data, text[:200])
        assert table_state(game) == before, (url, data)


@pytest.mark.django_db
@pytest.mark.parametrize("bad", BAD)
def test_the_table_pages_answer_a_bad_number_with_400(client, bad):
    picks = Client()
    picks.post("/play/", lobby_form(factions_mode="pick", seat1_kind="person"))
    pick_game = Game.objects.get()
    client.post("/play/", lobby_form(factions_mode="draft", seat1_kind="bot"))
    draft_game = Game.objects.exclude(pk=pick_game.pk).get()
    state = drafting.state(draft_game)
    assert kiq.current_picker(state) == 0
    for game, who, url, data in (
        (pick_game, picks, f"/play/t/{pick_game.public_id}/factions/", {"seat": bad}),
        (draft_game, client, f"/play/t/{draft_game.public_id}/draft/", {"faction": "Aliens", "picks": bad}),
    ):
        before = table_state(game)
        data = dict(data, faction0="Aliens", faction1="Ninjas")
        response = who.post(url, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 400, (url, data)
        assert "must be" in response.content.decode()
        assert table_state(game) == before, (url, data)


@pytest.mark.django_db(transaction=True)
def test_the_replay_answers_a_bad_step_or_seat_with_400(client):
    with eager_bots():
        game = services.create_game([services.SeatSpec("bot"), services.SeatSpec("bot")], seed=13)
    game.refresh_from_db()
    assert game.is_finished
    url = f"/play/g/{game.public_id}/replay/"
    assert client.get(url, {"step": "3", "as": "1"}).status_code == 200
    for query in ({"step": "²"}, {"as": "²"}, {"step": "x"}, {"step": "-1"}, {"as": "٣"}):
        response = client.get(url, query)
        assert response.status_code == 400 and "must be a whole number" in response.content.decode(), query


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_game_socket_refuses_a_bad_seat_at_the_handshake_with_a_message():
    game = await database_sync_to_async(
        lambda: services.create_game([services.SeatSpec("person"), services.SeatSpec("bot")], seed=5)
    )()
    comm = WebsocketCommunicator(
        application, f"/ws/games/{game.public_id}/?seat=%C2%B2&format=json", headers=SITE_HEADERS
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected  # accepted only to say why, then closed (not a 1011 server error)
    error = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert error["type"] == "error" and error["code"] == "bad_request" and "'seat'" in error["message"]
    closed = await comm.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": 4400}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_game_socket_answers_a_bad_seq_and_a_deeply_nested_message_with_errors(settings):
    settings.PLAY_WS_RATE = (100_000, 1.0)
    game = await database_sync_to_async(
        lambda: services.create_game([services.SeatSpec("bot"), services.SeatSpec("bot")], seed=5)
    )()
    comm = WebsocketCommunicator(
        application, f"/ws/games/{game.public_id}/?format=json", headers=SITE_HEADERS
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    json.loads(await comm.receive_from(timeout=TIMEOUT))  # the state
    before = await database_sync_to_async(snapshot)(game)
    deep = "[" * 3000 + "]" * 3000
    for text, code in (
        (deep, "too_deep"),
        (json.dumps({"type": "choice", "seq": 0, "options": json.loads("[" * 30 + "]" * 30)}), "too_deep"),
    ):
        await comm.send_to(text_data=text)
        answer = json.loads(await comm.receive_from(timeout=TIMEOUT))
        assert answer["type"] == "error" and answer["code"] == code, answer
    await comm.send_to(text_data=json.dumps({"type": "refresh"}))
    assert json.loads(await comm.receive_from(timeout=TIMEOUT))["type"] == "state"  # still open
    assert await database_sync_to_async(snapshot)(game) == before
    await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_seated_socket_answers_a_unicode_seq_with_bad_request(settings):
    settings.PLAY_WS_RATE = (100_000, 1.0)
    client = Client()
    game = await database_sync_to_async(game_against_a_bot)(client)
    cookie = (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())
    comm = WebsocketCommunicator(
        application, f"/ws/games/{game.public_id}/?format=json", headers=[*SITE_HEADERS, cookie]
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    state = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert state["seat"] == 0
    before = await database_sync_to_async(snapshot)(game)
    for message in (
        {"type": "choice", "seq": "²", "decision": game.pending_decision, "options": ["x"]},
        {"type": "undo", "seq": "٣"},
    ):
        await comm.send_to(text_data=json.dumps(message))
        answer = json.loads(await comm.receive_from(timeout=TIMEOUT))
        assert answer["code"] == "bad_request" and "'seq'" in answer["message"], answer
    assert await database_sync_to_async(snapshot)(game) == before
    await comm.disconnect()


# ---------------------------------------------------------------------------------- tournaments --
@pytest.mark.django_db
@pytest.mark.parametrize("bad", BAD)
def test_tournament_forms_answer_a_bad_number_with_a_message_and_change_nothing(client, bad):
    from django.contrib.auth import get_user_model

    org = get_user_model().objects.create_user("org", password="pw")
    client.force_login(org)
    event = tournament_services.create_event(
        org, name="Cup", date="2026-05-01", draft_mode=Event.DraftMode.NONE
    )
    for i in range(7):
        tournament_services.register(event, f"P{i}", by=org)
    tournament_services.generate_round(event, by=org)
    late = tournament_services.register(event, "Late", by=org)
    table = event.rounds_set.get().tables.first()
    seated = list(table.seats.values_list("entrant_id", flat=True))
    base = f"/tournaments/{event.pk}"

    def state():
        event.refresh_from_db()
        return event.version, event.audit.count()

    before = state()
    for path, data in (
        (f"entrants/{late.pk}/seat/", {"table": bad}),
        (f"tables/{table.pk}/result/", {f"vp_{seated[0]}": bad, **{f"vp_{s}": "3" for s in seated[1:]}}),
        (f"tables/{table.pk}/result/", {f"vp_{bad}": "3", **{f"vp_{s}": "3" for s in seated}}),
        ("rounds/1/swap/", {"a": bad, "b": str(seated[0])}),
    ):
        response = client.post(f"{base}/{path}", data, follow=True)
        assert response.status_code == 200, path
        errors = [str(m) for m in response.context["messages"] if m.level_tag == "error"]
        assert errors and "must be a whole number" in errors[0], (path, errors)
        assert state() == before, path
    preview = client.get(f"{base}/rounds/1/swap/", {"a": bad, "b": str(seated[0])})
    assert preview.status_code == 400 and "must be a whole number" in preview.content.decode()
    edit = client.post(f"{base}/edit/", {"warnings": f"10, {bad}"})
    assert edit.status_code == 200 and "Whole minutes" in edit.content.decode()
    assert state() == before


@pytest.mark.django_db
def test_a_huge_number_in_a_url_is_a_404_not_an_error(client):
    for url in (f"/tournaments/{'9' * 30}/", f"/tournaments/1/round/{'9' * 30}/"):
        assert client.get(url).status_code == 404, url


@pytest.mark.django_db
def test_a_huge_seat_number_in_a_play_url_is_refused_with_a_message(client):
    game = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=3)
    before = table_state(game)
    response = client.post(f"/play/t/{game.public_id}/sit/{'9' * 30}/", {"name": "Eve"}, follow=True)
    assert response.status_code == 200 and "no seat" in response.content.decode()
    assert table_state(game) == before
