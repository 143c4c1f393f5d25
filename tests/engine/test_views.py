"""Views (DESIGN.md section 3): `view(seat)` holds its own hand, other hands as counts, no deck
contents, the pending decision only for its seat, and the log lines that seat may read; `view(None)`
(spectators, the table display) holds no hand. Random-bot games show no hidden card to anyone."""
from __future__ import annotations

import json
import random

import pytest

from smashup.engine import Scenario, new_game
from smashup.engine.bots import random_choice
from smashup.engine.invariants import card_ids_in, hidden_from, leaks
from smashup.engine.testing import choose, play

from .support import (
    DISJOINT_PAIRS,
    TEST_REGISTRY,
    WITH_FILLER,
    config_for,
    run_random,
)


def fresh(players=3, seed=7):
    return new_game(config_for(players, mulligan=False, first_player=0), seed=seed)


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others():
    game = fresh()
    for seat in range(3):
        v = game.view(seat)
        assert [c["id"] for c in v["hand"]] == game.players[seat].hand
        assert [c["name"] for c in v["hand"]] == [game.name(c) for c in game.players[seat].hand]
        for pv, p in zip(v["players"], game.players, strict=True):
            assert pv["hand_count"] == len(p.hand) == 5
            assert pv["deck_count"] == len(p.deck) == 35
            assert "hand" not in pv and "deck" not in pv
        others = {c for p in game.players if p.seat != seat for c in p.hand}
        assert not card_ids_in(v) & others


def test_no_view_holds_a_deck_card_or_the_base_deck():
    game = fresh()
    decks = {c for p in game.players for c in p.deck} | set(game.base_deck)
    for seat in (None, 0, 1, 2):
        v = game.view(seat)
        assert not card_ids_in(v) & decks
        assert v["base_deck_count"] == len(game.base_deck)


def test_hidden_information_does_not_change_a_view():
    # Reorder every deck, the base deck and seat 1's hand, and swap a card between seat 1's hand
    # and deck: nothing seat 0 or a spectator sees may change.
    game = fresh()
    before = {seat: json.dumps(game.view(seat), sort_keys=True) for seat in (None, 0)}
    p1 = game.players[1]
    for p in game.players:
        p.deck.reverse()
    game.base_deck.reverse()
    p1.hand.reverse()
    a, b = p1.hand[0], p1.deck[0]
    p1.hand[0], p1.deck[0] = b, a
    game.loc[a], game.loc[b] = ("deck", 1), ("hand", 1)
    for seat in (None, 0):
        assert json.dumps(game.view(seat), sort_keys=True) == before[seat]


def test_the_pending_decision_is_shown_only_to_its_seat():
    game = fresh()
    d = game.pending
    assert d.seat == 0
    mine = game.view(0)["pending"]
    assert mine["id"] == d.id and [o["id"] for o in mine["options"]] == [o.id for o in d.options]
    for seat in (None, 1, 2):
        assert game.view(seat)["pending"] == {"seat": 0, "kind": "play"}


def test_the_spectator_view_has_no_hand():
    game = fresh()
    v = game.view(None)
    assert v["hand"] is None and v["seat"] is None
    assert not card_ids_in(v) & {c for p in game.players for c in p.hand}


def test_a_view_is_plain_json():
    game = fresh()
    for seat in (None, 0, 1, 2):
        v = game.view(seat)
        assert json.loads(json.dumps(v)) == v


# ---------------------------------------------------------------------------- the log ---
def test_what_a_player_draws_is_logged_for_that_player_only():
    game = fresh()
    drawn = [(text, to) for text, to in game.log_lines if text.startswith("You draw")]
    assert [to for _, to in drawn] == [(0,), (1,), (2,)]
    for seat in range(3):
        mine = [t for t in game.view(seat)["log"] if t.startswith("You draw")]
        assert mine == [drawn[seat][0]]
    assert not [t for t in game.view(None)["log"] if t.startswith("You draw")]
    assert "Player 1 draws 5 cards." in game.view(None)["log"]


def test_a_looked_at_hand_is_logged_for_the_two_players_only():
    s = Scenario(list(DISJOINT_PAIRS[:3]))
    s.base("Ninja Dojo")
    s.base("Temple of Goju")
    s.hand(0, "Probe", "Invader")
    s.hand(1, "Tiger Assassin", "Seeing Stars", "Shinobi")
    s.hand(2, "Collector")
    game = s.build()
    play(game, "Probe")
    choose(game, "P1")
    # Seat 0 now chooses the minion seat 1 discards: the whole hand is revealed to seat 0 only.
    d = game.pending
    assert d.kind == "cards"
    revealed = game.view(0)["pending"]["reveal"]
    assert sorted(c["name"] for c in revealed) == ["Seeing Stars", "Shinobi", "Tiger Assassin"]
    assert not leaks(game, 0)  # revealed to seat 0, so not hidden from it
    line = "P1's hand: Tiger Assassin, Seeing Stars, Shinobi."
    assert line in game.view(0)["log"] and line in game.view(1)["log"]
    assert line not in game.view(2)["log"] and line not in game.view(None)["log"]
    assert "P0 looks at P1's hand." in game.view(2)["log"]
    # Seat 2 and spectators see neither the options nor the revealed cards.
    for seat in (None, 2):
        assert game.view(seat)["pending"] == {"seat": 0, "kind": "cards"}
        assert not leaks(game, seat)
    assert hidden_from(game, 2) >= set(game.players[1].hand)


# ---------------------------------------------------------------------------- random games ---
@pytest.mark.parametrize("players, seed", [(2, 1), (2, 2), (3, 3), (3, 4), (4, 5), (4, 6)])
def test_random_bot_games_never_show_a_hidden_card(players, seed):
    # Four players need five bases: the implemented Core bases plus a test-only filler base.
    game = new_game(config_for(players, base_sets=WITH_FILLER), seed, registry=TEST_REGISTRY)
    steps = 0
    rng = random.Random(seed)
    while game.pending is not None and steps < 1500:
        for seat in (None, *range(players)):
            assert not leaks(game, seat), (steps, seat)
        d = game.pending
        game.apply(d.seat, d.id, random_choice(game, rng))
        steps += 1
    assert steps > 50


@pytest.mark.parametrize("players", [2, 3])
def test_random_bot_games_with_the_real_registry_keep_every_invariant(players):
    game = new_game(config_for(players), seed=players * 11)
    assert run_random(game, seed=players, max_steps=1500) > 50


def test_counts_read_as_words():
    from smashup.engine import counted

    assert counted(1, "card") == "1 card"
    assert counted(2, "card") == "2 cards"
    assert counted(0, "base") == "0 bases"


def test_a_decision_does_not_name_its_source_once_that_card_is_out_of_sight():
    # Lost City asks for the new base after a scoring; by then a draw may have shuffled it into a
    # new deck, and its id would say where a hidden card lies (found by CI's seeded games).
    game = fresh(players=2, seed=3)
    rng = random.Random(5)
    while game.pending is not None and (
            game.pending.source is None or game.loc[game.pending.source][0] in ("deck", "hand")):
        game.apply(game.pending.seat, game.pending.id, random_choice(game, rng))
    assert game.pending is not None, "no decision with a visible source was reached"
    seat, source = game.pending.seat, game.pending.source
    assert game.view(seat)["pending"]["source"] == source  # a card in sight is named
    game.move_card(source, ("deck", game.owner[source]), 0)
    assert game.view(seat)["pending"]["source"] is None
    assert not leaks(game, seat)
