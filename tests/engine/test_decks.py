"""Drawing from an empty deck (WWWT "Draw 2 Cards", CR Phase 4): the discard pile is shuffled into a
new deck when a draw needs a card; with both empty, nothing is drawn."""
from __future__ import annotations

from smashup.engine import Scenario
from smashup.engine.testing import choose, end_play

from .support import ALIENS_NINJAS, NINJAS_ALIENS, TEST_REGISTRY


def draw_phase(deck=(), discard=(), seed=0, factions0=ALIENS_NINJAS) -> Scenario:
    s = Scenario([factions0, NINJAS_ALIENS], seed=seed)
    s.base("Ninja Dojo")
    s.base("Temple of Goju")
    s.hand(0, "Invader")
    s.deck(0, *deck)
    s.discard(0, *discard)
    s.hand(1, "Collector")
    s.deck(1, *["Tiger Assassin"] * 4)
    return s


def names(game, cards):
    return sorted(game.name(c) for c in cards)


def test_an_empty_deck_takes_the_shuffled_discard_pile():
    game = draw_phase(discard=["Scout", "Collector", "Shinobi"]).build()
    end_play(game)
    p0 = game.players[0]
    assert len(p0.hand) == 3 and len(p0.deck) == 1 and p0.discard == []
    assert names(game, p0.hand + p0.deck) == ["Collector", "Invader", "Scout", "Shinobi"]
    assert "P0 shuffles their discard pile into a new deck." in [t for t, _ in game.log_lines]


def test_the_deck_is_used_up_before_the_discard_pile_is_shuffled_in():
    game = draw_phase(deck=["Supreme Overlord"], discard=["Scout", "Collector"]).build()
    end_play(game)
    p0 = game.players[0]
    in_hand = names(game, p0.hand)
    assert "Supreme Overlord" in in_hand and len(in_hand) == 3
    assert len(p0.deck) == 1 and p0.discard == []


def test_the_reshuffle_follows_the_seed():
    orders = set()
    for seed in range(8):
        game = draw_phase(discard=["Scout", "Collector", "Shinobi", "Beam Up"], seed=seed).build()
        end_play(game)
        orders.add(tuple(game.name(c) for c in game.players[0].deck))
        again = draw_phase(discard=["Scout", "Collector", "Shinobi", "Beam Up"], seed=seed).build()
        end_play(again)
        assert again.digest() == game.digest()
    assert len(orders) > 1


def test_with_deck_and_discard_pile_empty_nothing_is_drawn():
    game = draw_phase().build()
    end_play(game)
    p0 = game.players[0]
    assert names(game, p0.hand) == ["Invader"] and p0.deck == [] and p0.discard == []
    assert game.current == 1 and game.pending.seat == 1  # the game goes on
    assert not any("P0 draws" in t for t, _ in game.log_lines)


def test_any_draw_reshuffles_not_only_the_draw_phase():
    s = draw_phase(discard=["Scout", "Shinobi"], factions0=("Testers", "Aliens"))
    s.minion(0, "Bookworm", owner=0)  # talent: draw a card
    game = s.build(TEST_REGISTRY)
    choose(game, "Bookworm's talent")
    p0 = game.players[0]
    assert len(p0.hand) == 2 and len(p0.deck) == 1 and p0.discard == []
