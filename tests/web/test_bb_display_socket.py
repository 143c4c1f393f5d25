"""The table display's and the hot seat screen's WebSocket messages (issue 11): live over the game's
socket, a spectator's view only, never a hand card, even for a browser that holds a seat."""
from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from smashup.asgi import application
from smashup.engine.invariants import hidden_from
from smashup.play import services

from .play_helpers import SITE_HEADERS, error_code, html_card_ids, status_attrs
from .test_bb_table import big_table, seat_everyone

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TIMEOUT = 10


@pytest.fixture(autouse=True)
def _fast_clients(settings):
    settings.PLAY_WS_RATE = (100_000, 1.0)


async def open_socket(game, watch: str, token: str | None = None) -> WebsocketCommunicator:
    path = f"/ws/games/{game.public_id}/?watch={watch}" + (f"&token={token}" if token else "")
    comm = WebsocketCommunicator(application, path, headers=SITE_HEADERS)
    connected, code = await comm.connect(timeout=TIMEOUT)
    assert connected, code
    return comm


def play_some(game, choices: int) -> list[set[int]]:
    """Seats make `choices` choices (the first option, or none when they may decline); the cards
    hidden from a spectator at each version (hands, decks)."""
    hidden = []
    for _ in range(choices):
        game.refresh_from_db()
        with services.engine_game(game) as engine:
            pending = engine.pending
            hidden.append(hidden_from(engine, None))
            chosen = [] if pending.may_decline else [pending.options[0].id]
            args = (pending.seat, game.version, pending.id, chosen)
        services.submit_choice(game.pk, *args)
    game.refresh_from_db()
    with services.engine_game(game) as engine:
        hidden.append(hidden_from(engine, None))
    return hidden


@pytest.mark.parametrize("watch", ["display", "hotseat"])
async def test_the_shared_screens_get_live_updates_without_a_hand_card(watch):
    game = await database_sync_to_async(lambda: seat_everyone(big_table()))()
    token = await database_sync_to_async(
        lambda: services.resume_link_token(game.seats.get(index=game.pending_seat)))()
    # The browser holds the deciding seat; its display/hot seat screen is still a spectator's.
    comm = await open_socket(game, watch, token)
    first = await comm.receive_from(timeout=TIMEOUT)
    assert status_attrs(first)["seat"] == "" and 'id="bases"' in first and "bb-board" in first
    if watch == "display":
        assert "bb-display" in first and 'id="display-players"' in first
    else:
        assert 'id="hot-screen"' in first and "Pass the device to" in first
    hidden = await database_sync_to_async(play_some)(game, 6)
    messages = [first]
    while not await comm.receive_nothing(timeout=0.5):
        messages.append(await comm.receive_from(timeout=TIMEOUT))
    assert len(messages) > 1
    assert int(status_attrs(messages[-1])["version"]) == 6
    for text in messages:
        assert 'id="hand"' not in text and "choice-form" not in text
        version = int(status_attrs(text)["version"])  # the cards hidden at that version
        assert hidden[version] and html_card_ids(text).isdisjoint(hidden[version])
    # A choice sent from a shared screen is a spectator's: refused, nothing changes.
    await comm.send_json_to({"type": "choice", "seq": 6, "decision": "x", "options": ["end"]})
    answer = await comm.receive_from(timeout=TIMEOUT)
    assert error_code(answer) == "spectator"
    await comm.disconnect()


async def test_a_display_in_json_mode_gets_the_spectators_view():
    game = await database_sync_to_async(lambda: seat_everyone(big_table()))()
    token = await database_sync_to_async(lambda: services.resume_link_token(game.seats.get(index=0)))()
    path = f"/ws/games/{game.public_id}/?watch=display&format=json&token={token}"
    comm = WebsocketCommunicator(application, path, headers=SITE_HEADERS)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    state = await comm.receive_json_from(timeout=TIMEOUT)
    assert state["type"] == "state" and state["seat"] is None
    assert state["view"]["hand"] is None and state["view"]["big_base"]["board"]["id"] == "default"
    await comm.disconnect()
