"""The table display's own parts (issue 26, finding 6; smashup/play/tabledisplay.py): the last moves,
each player's factions, the last scoring kept up; and what they must never show: a private log
line or a card in a hand."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from smashup.engine import new_game
from smashup.engine.bots import random_choice
from smashup.engine.invariants import hidden_from
from smashup.play import render, services, tabledisplay

from .play_helpers import eager_bots, html_card_ids

PAIRS = [["Aliens", "Ninjas"], ["Pirates", "Robots"], ["Zombies", "Wizards"], ["Dinosaurs", "Tricksters"]]


def test_the_last_moves_skip_draws_shuffles_and_turn_headers():
    lines = [
        "Turn 3: Ada.",
        "Ada plays Scout on The Grey Opal.",
        "Ada plays Assassination on Scout.",
        "Scout is destroyed (Assassination).",
        "Ada draws 2 cards.",
        "Bob shuffles their deck.",
        "Turn 4 (round 2 of period 1): Bob.",
    ]
    assert tabledisplay.last_moves(lines) == [
        "Scout is destroyed (Assassination).",
        "Ada plays Assassination on Scout.",
        "Ada plays Scout on The Grey Opal.",
    ]
    assert tabledisplay.last_moves(["Ada draws 5 cards.", "Turn 1: Ada."]) == []


def test_a_standard_games_last_scoring_is_found_in_the_log_and_kept():
    lines = [
        "Jungle Oasis scores.",
        "Bob plays Full Sail.",
        "Ada gains 2 VP (1st on Jungle Oasis).",
        "Tortuga replaces Jungle Oasis.",
        "Turn 19: Ada.",
        "Ada plays Collector on The Grey Opal.",
        "A card that scores.",  # a line ending like a scoring, of no base that scored
    ]
    found = tabledisplay.last_base_scoring(lines, {"Jungle Oasis"})
    assert found == {"base": "Jungle Oasis", "lines": ["Ada gains 2 VP (1st on Jungle Oasis)."]}
    assert tabledisplay.last_base_scoring(lines, set()) is None


def played_engine_game(steps: int = 150):
    config = {
        "players": [{"name": n, "factions": p} for n, p in zip(("Ada", "Bob", "Cy"), PAIRS, strict=False)]
    }
    game = new_game(config, "7e" * 32)
    rng = random.Random(5)
    for _ in range(steps):
        if game.pending is None:
            break
        game.apply(game.pending.seat, game.pending.id, random_choice(game, rng))
    return game


def test_the_display_never_shows_a_private_log_line():
    game = played_engine_game()
    private = {text for text, to in game.log_lines if to is not None}
    public = {text for text, to in game.log_lines if to is None}
    assert private - public, "the game should have told someone something privately"
    context = render.display_context(_row(game), game)
    shown = set(context["moves"]) | set((context["base_scoring"] or {}).get("lines", []))
    assert shown and shown <= public


def _row(game):
    from smashup.play.models import Game

    return Game(
        public_id="x", code="ABCDEF", config=game.config, status=Game.Status.ACTIVE, version=len(game.choices)
    )


@pytest.mark.django_db(transaction=True)
def test_a_big_base_display_shows_moves_factions_and_the_period_scoring_and_no_hidden_card():
    with eager_bots():
        game = services.create_game(
            [services.SeatSpec("bot", list(PAIRS[i])) for i in range(3)], seed="d1" * 32, mode="bigbase"
        )
    game.refresh_from_db()
    assert game.is_finished
    html = Client().get(f"/play/g/{game.public_id}/display/").content.decode()
    assert 'id="display-moves"' in html and 'class="dm-last"' in html
    for pair in PAIRS[:3]:
        for faction in pair:
            assert re.search(rf'class="dp-faction fac-[a-z]+"[^>]*>.*?{faction}</span>', html, re.S), faction
    assert 'class="dp-scored"' in html and "VP</strong>" in html  # the last scoring, per player
    with services.engine_game(game) as engine:
        hidden = hidden_from(engine, None)
        private = {text for text, to in engine.log_lines if to is not None}
        public = {text for text, to in engine.log_lines if to is None}
    assert html_card_ids(html).isdisjoint(hidden)
    assert not any(line in html for line in private - public)
    assert game.secret_seed not in html  # a finished game's seed is on its replay page only


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_live_display_keeps_its_players_and_moves(settings):
    """The display's live updates carry its own parts too (the players' strip was emptied by the
    first update: the socket rendered the spectator's context without them)."""
    import json

    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from smashup.asgi import application

    from .play_helpers import SITE_HEADERS
    from .test_bb_table import big_table, seat_everyone

    settings.PLAY_WS_RATE = (100_000, 1.0)
    game = await database_sync_to_async(lambda: seat_everyone(big_table()))()
    comm = WebsocketCommunicator(
        application, f"/ws/games/{game.public_id}/?watch=display", headers=SITE_HEADERS
    )
    connected, _ = await comm.connect(timeout=10)
    assert connected
    first = await comm.receive_from(timeout=10)
    assert 'id="display-moves"' in first and first.count('class="dp seat-') == 4
    assert 'class="dp-faction fac-aliens"' in first
    await comm.send_to(text_data=json.dumps({"type": "refresh"}))
    again = await comm.receive_from(timeout=10)
    assert again.count('class="dp seat-') == 4
    await comm.disconnect()
