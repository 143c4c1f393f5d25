"""Why there is no Undo button (issue 26, finding 9): the reason codes of smashup.play.undo, and the
note the chooser's page shows in place of the button (HTML page, live socket, JSON socket).

Seed 7 of `two_person_game` (Ada: Aliens + Ninjas, Bob: Pirates + Robots) starts with Ada's Play
Cards phase: playing Scout (m5@1) shows nothing (undoable); ending the phase draws cards (not).
"""

from __future__ import annotations

import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from smashup.asgi import application
from smashup.play import services, undo
from smashup.play.models import Choice, Game

from .play_helpers import SITE_HEADERS, seated_client, status_attrs, two_person_game

ADA, BOB = 0, 1
TIMEOUT = 10
NOTE_RE = re.compile(r'<p class="undo-note" data-undo="([a-z_]+)">(.*?)</p>', re.S)


def play(game: Game, seat: int, option: str) -> Game:
    game.refresh_from_db()
    services.submit_choice(game.pk, seat, game.version, game.pending_decision, [option])
    game.refresh_from_db()
    return game


def note_on_page(client: Client, game: Game) -> tuple[str, str] | None:
    html = client.get(f"/play/g/{game.public_id}/").content.decode()
    found = NOTE_RE.search(html)
    return (found.group(1), found.group(2)) if found else None


def test_every_reason_has_a_code_and_the_codes_read_back():
    assert len(set(undo.REASONS.values())) == len(undo.REASONS)  # one code per wording
    for code, text in undo.REASONS.items():
        assert undo.reason_code(text) == code
    assert undo.reason_code("") == ""
    assert undo.reason_code("words of an older version") == "other"


@pytest.mark.django_db
def test_the_rule_gives_codes_and_stores_their_words():
    game = two_person_game(seed=7)
    with services.engine_game(game) as engine:
        before = undo.snapshot(engine)
        engine.apply(ADA, engine.pending.id, ["end"])  # draws cards
        assert undo.block_code(before, engine, ADA) == "drawn"
        assert undo.block_reason(before, engine, ADA) == undo.REASONS["drawn"]
    game = play(game, ADA, "end")
    stored = Choice.objects.get(game=game, seq=0).undo_block
    assert undo.reason_code(stored) == "drawn"


@pytest.mark.django_db
def test_the_chooser_sees_why_their_choice_cannot_be_taken_back_and_nobody_else_does():
    game = two_person_game(seed=7)
    ada, bob = seated_client(game, ADA), seated_client(game, BOB)
    assert note_on_page(ada, game) is None  # nothing chosen yet
    game = play(game, ADA, "m5@1")  # Scout: the button, no note
    html = ada.get(f"/play/g/{game.public_id}/").content.decode()
    assert "Undo my last choice" in html and NOTE_RE.search(html) is None
    game = play(game, ADA, "end")  # draws: no button, and why
    assert note_on_page(ada, game) == (
        "drawn",
        '<span aria-hidden="true">↶ </span>No undo: a hidden card was drawn or revealed.',
    )
    assert note_on_page(bob, game) is None  # only the chooser is told about their own choice
    assert note_on_page(Client(), game) is None  # nor a spectator


@pytest.mark.django_db
def test_after_another_player_chose_the_note_says_so_then_goes():
    # Seed 1: Bob holds an action besides his minions, so his play leaves him in his phase.
    game = two_person_game(seed=1)
    ada = seated_client(game, ADA)
    game = play(game, ADA, "end")  # Ada ends her turn: Bob decides now
    assert note_on_page(ada, game)[0] == "drawn"
    with services.engine_game(game) as engine:
        plain = tuple(f"Play {name} on" for name in ("Buccaneer", "Nukebot", "Warbot", "First Mate"))
        bob_plays = next(o.id for o in engine.pending.options if o.label.startswith(plain))
    game = play(game, BOB, bob_plays)
    assert note_on_page(ada, game)[0] == "chosen_since"
    game = play(game, BOB, "end")  # a second choice of Bob's: Ada's is further back, no note
    assert note_on_page(ada, game) is None


async def connect(game: Game, seat: int, fmt: str | None = None) -> WebsocketCommunicator:
    token = await database_sync_to_async(lambda: services.resume_link_token(game.seats.get(index=seat)))()
    path = f"/ws/games/{game.public_id}/?token={token}" + (f"&format={fmt}" if fmt else "")
    comm = WebsocketCommunicator(application, path, headers=SITE_HEADERS)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    return comm


async def until(comm, predicate) -> str:
    while True:
        text = await comm.receive_from(timeout=TIMEOUT)
        if predicate(text):
            return text


def at_version(version: int):
    def check(text):
        attrs = status_attrs(text)
        return attrs is not None and attrs["version"] == str(version)

    return check


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_live_page_gets_the_note_after_its_own_choice():
    """The update after a choice is rendered from the process's cached game without the database;
    the chooser's own update needs the stored reason, so it is read from the database instead."""
    game = await database_sync_to_async(two_person_game)(seed=7)
    ada = await connect(game, ADA)
    bob = await connect(game, BOB)
    await until(ada, at_version(0))
    await until(bob, at_version(0))
    message = {"type": "choice", "seq": 0, "decision": game.pending_decision, "options": ["end"]}
    await ada.send_to(text_data=json.dumps(message))
    text = await until(ada, at_version(1))
    assert 'data-undo="drawn"' in text and "No undo: a hidden card was drawn or revealed." in text
    assert "undo-note" not in await until(bob, at_version(1))
    await ada.disconnect()
    await bob.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_json_connection_gets_the_reason_code():
    game = await database_sync_to_async(two_person_game)(seed=7)
    ada = await connect(game, ADA, fmt="json")
    state = json.loads(await ada.receive_from(timeout=TIMEOUT))
    assert state["undo_note"] is None
    message = {"type": "choice", "seq": 0, "decision": game.pending_decision, "options": ["end"]}
    await ada.send_to(text_data=json.dumps(message))
    while True:
        state = json.loads(await ada.receive_from(timeout=TIMEOUT))
        if state["type"] == "state" and state["version"] == 1:
            break
    assert state["may_undo"] is False and state["undo_note"]["code"] == "drawn"
    await ada.disconnect()
