"""Choices about cards shown from a deck: alike copies give one option, and a card played from a
deck is shown to its chooser (the question's `reveal`), so that the chooser's view may name it."""
from __future__ import annotations

from smashup.engine import ACTION, Ctx
from smashup.engine.invariants import check
from smashup.engine.testing import card, choose, play

from .support import TEST_REGISTRY
from .test_decks import deck_words


def test_putting_back_alike_copies_asks_nothing():
    game = deck_words(["Crystal Ball"], deck=["Scout", "Scout", "Invader"]).build(TEST_REGISTRY)
    top = game.players[0].deck[:2]
    play(game, "Crystal Ball")
    # Either Scout on top gives the same deck as far as anyone can tell: no question at all.
    assert game.pending.kind == "play"
    assert sorted(game.players[0].deck[:2]) == sorted(top)


def test_putting_back_different_cards_offers_each_once():
    game = deck_words(["Crystal Ball"], deck=["Scout", "Invader", "Scout"]).build(TEST_REGISTRY)
    play(game, "Crystal Ball")
    assert sorted(o.label for o in game.pending.options) == ["Invader", "Scout"]


def test_searching_for_one_card_offers_alike_copies_once():
    game = deck_words(["Treasure Map"], deck=["Scout", "Beam Up", "Scout", "Invader"]
                      ).build(TEST_REGISTRY)
    play(game, "Treasure Map")
    assert sorted(o.label for o in game.pending.options) == ["Invader", "Scout"]
    choose(game, "Scout")
    assert [game.name(c) for c in game.players[0].hand].count("Scout") == 1
    assert check(game) == []


def test_an_extra_action_played_from_a_deck_is_shown_to_its_chooser_only():
    game = deck_words(["Crystal Ball"], deck=["Beam Up", "Invader"]).build(TEST_REGISTRY)
    beam_up = card(game, "Beam Up", "deck")
    ctx = Ctx(game, card(game, "Crystal Ball"), 0)
    asking = ctx.play_extra_now(ACTION, cards=[beam_up])
    decision = next(asking)
    assert [o.card for o in decision.options] == [beam_up]
    assert decision.reveal == [beam_up]
    game.pending = decision
    assert [c["id"] for c in game.view(0)["pending"]["reveal"]] == [beam_up]
    assert check(game) == []
