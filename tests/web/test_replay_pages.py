"""The Big Base replay page (issue 26, finding 5): styled like the game page, with a jump to a turn
that lands on that turn."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from smashup.play import render, services

from .play_helpers import eager_bots


@pytest.fixture
def big_base_game(transactional_db):
    with eager_bots():
        game = services.create_game(
            [services.SeatSpec("bot", pair) for pair in (["Aliens", "Ninjas"], ["Pirates", "Robots"])],
            seed="b7" * 32,
            mode="bigbase",
        )
    game.refresh_from_db()
    assert game.is_finished
    return game


@pytest.mark.django_db(transaction=True)
def test_each_turn_of_a_big_base_replay_starts_where_the_turn_begins(big_base_game):
    """A Big Base turn often begins with no line logged before its "Turn N (round...)" line: the
    choice that ended the turn before logged it. Its first step was one choice early (turn 6 of
    this game showed turn 5)."""
    with services.engine_game(big_base_game) as final:
        starts = render.replay_outline(big_base_game, final, None)["turn_starts"]
    assert len(starts) >= 18  # 3 periods of 3 rounds of 2 turns
    for turn, step in starts:
        assert services.game_at(big_base_game, step).turn == turn, (turn, step)


@pytest.mark.django_db(transaction=True)
def test_the_big_base_replay_page_is_styled_and_offers_every_turn(big_base_game):
    html = Client().get(f"/play/g/{big_base_game.public_id}/replay/?step=40").content.decode()
    assert "/static/css/bigbase.css" in html and 'class="bb-board bb-compact"' in html
    options = re.findall(r'<option value="(\d+)"( selected)?>Turn (\d+)</option>', html)
    assert len(options) >= 18
    selected = [(int(at), int(turn)) for at, chosen, turn in options if chosen]
    assert len(selected) == 1 and selected[0][0] <= 40  # the turn of the step shown
    later = [int(at) for at, _, _ in options if int(at) > selected[0][0]]
    assert not later or min(later) > 40
