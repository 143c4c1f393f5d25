"""A scene shared by the faction tests of issue 24, mechanism 3: a protection "by cards other
players control" does not stop a base's ability, even one a player performs (The Deep: "that
player may destroy"); one "by other players" does. King Rex (7) played on The Deep: seat 0 may
destroy seat 1's Invader (3) there, unless something protects it."""
from __future__ import annotations

from smashup.engine import Scenario
from smashup.engine.testing import card, play


def deep_game(players, *, minion_attached=(), base_actions=(), others=()):
    """`players`: the test file's factions (Dinosaurs for King Rex, Aliens for the Invader,
    Ninjas for the Acolyte)."""
    s = Scenario(players)
    s.base("The Deep")
    s.base("Jungle Oasis")
    s.minion(0, "Invader", owner=1, attached=list(minion_attached))
    for name in others:
        s.minion(0, name, owner=1)
    for name in base_actions:
        s.base_action(0, name, owner=1)
    s.hand(0, "King Rex")
    s.hand(1, "Ninja Acolyte")
    s.deck(0, *["King Rex"] * 4)
    s.deck(1, *["Ninja Acolyte"] * 4)
    s.base_deck("Rhodes Plaza Mall")
    game = s.build()
    play(game, "King Rex", base="The Deep")
    return game


def deep_may_destroy_the_invader(game) -> bool:
    invader = card(game, "Invader")
    return game.pending.seat == 0 and any(o.card == invader for o in game.pending.options)
