"""Decisions (DESIGN.md section 3): `apply` checks everything first and a refused choice raises
IllegalChoice and changes NOTHING: not the state, not the record, not the open decision, not the
log, not the random generator."""
from __future__ import annotations

import pytest

from smashup.engine import IllegalChoice, Scenario, new_game
from smashup.engine.testing import choose, play

from .support import ALIENS_NINJAS, PIRATES_ROBOTS, snapshot, two_player_config


def play_decision():
    """Seat 0's main decision (one option per legal play, plus "end")."""
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    s.base("Ninja Dojo")
    s.base("Temple of Goju")
    s.minion(0, "Scout", owner=1)
    s.minion(1, "Collector", owner=1)
    s.hand(0, "Invader", "Beam Up", "Poison")
    s.hand(1, "Collector")
    for seat in range(2):
        s.deck(seat, *["Tiger Assassin"] * 4)
    return s.build()


def many_decision():
    """A decision with 0 to 2 options to pick (Poison: destroy any number of the actions on it)."""
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    s.base("Ninja Dojo")
    s.base("Temple of Goju")
    s.minion(0, "Supreme Overlord", owner=1, attached=[("Poison", 0), ("Poison", 1)])
    s.hand(0, "Poison", "Invader")
    s.hand(1, "Collector")
    game = s.build()
    play(game, "Poison")
    assert (game.pending.kind, game.pending.min_count, game.pending.max_count) == ("cards", 0, 2)
    return game


def refused(game, seat, decision_id, choice):
    before = snapshot(game)
    with pytest.raises(IllegalChoice):
        game.apply(seat, decision_id, choice)
    assert snapshot(game) == before


def test_the_wrong_seat_is_refused():
    game = play_decision()
    d = game.pending
    for seat in (1, 2, -1, None, "0", 0.0, True, False):
        refused(game, seat, d.id, ["end"])


def test_a_stale_or_unknown_decision_id_is_refused():
    game = play_decision()
    first = game.pending
    play(game, "Invader", base="Ninja Dojo")
    assert game.pending.id != first.id and game.pending.seat == 0
    refused(game, 0, first.id, ["end"])  # answered already
    refused(game, 0, "d999", ["end"])
    refused(game, 0, None, ["end"])
    refused(game, 0, 1, ["end"])


def test_an_unknown_option_is_refused():
    game = play_decision()
    d = game.pending
    for choice in (["nope"], ["end", "nope"], ["END"], [""], "m0@1"):
        refused(game, 0, d.id, choice)


def test_too_many_or_too_few_options_are_refused():
    game = play_decision()
    d = game.pending
    assert (d.min_count, d.max_count) == (1, 1)
    refused(game, 0, d.id, [])
    refused(game, 0, d.id, None)
    refused(game, 0, d.id, [d.options[0].id, "end"])
    game = many_decision()
    d = game.pending
    refused(game, 0, d.id, [d.options[0].id, d.options[1].id, d.options[0].id])


def test_a_repeated_option_is_refused():
    game = play_decision()
    d = game.pending
    refused(game, 0, d.id, ["end", "end"])
    game = many_decision()
    d = game.pending
    refused(game, 0, d.id, [d.options[0].id, d.options[0].id])


@pytest.mark.parametrize("choice", [0, 1, {"id": "end"}, ["end", 1], [None], [["end"]], 3.5,
                                    b"end", ("end", {}), {"end"}])
def test_a_malformed_choice_is_refused(choice):
    game = play_decision()
    refused(game, 0, game.pending.id, choice)


def test_the_game_still_plays_normally_after_refused_choices():
    game = play_decision()
    d = game.pending
    refused(game, 1, d.id, ["end"])
    refused(game, 0, d.id, ["end", "end"])
    play(game, "Beam Up")
    d = game.pending
    assert d.kind == "target"
    refused(game, 0, d.id, [])  # a "must": declining is refused
    choose(game, "Scout")
    assert game.players[1].hand[-1] == [o.card for o in d.options if "Scout" in o.label][0]
    assert len(game.choices) == 2


def test_a_finished_game_refuses_every_choice():
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    s.base("Ninja Dojo")
    s.base("Temple of Goju")
    s.vp(0, 15)
    s.hand(0, "Invader")
    game = s.build()
    d = game.pending
    choose(game, "end")
    assert game.over and game.winner == 0
    with pytest.raises(IllegalChoice):
        game.apply(0, d.id, ["end"])


def test_declining_is_choosing_nothing_and_legal_exactly_when_min_count_is_zero():
    game = many_decision()
    d = game.pending
    assert d.may_decline and d.public()["may_decline"] is True
    game.apply(0, d.id, [])
    assert game.choices[-1] == [0, d.id, []]


def test_a_refused_mulligan_answer_changes_nothing():
    for seed in range(100):
        game = new_game(two_player_config(), seed)
        if game.pending.kind == "confirm":
            break
    d = game.pending
    assert d.kind == "confirm"
    refused(game, d.seat, d.id, ["yes", "no"])
    refused(game, d.seat, d.id, ["maybe"])
    refused(game, 1 - d.seat, d.id, ["yes"])
