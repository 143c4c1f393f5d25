"""A player performing an ability that is not theirs (`Ctx.acting`): a base's "that player may
..." and a card that makes another player destroy their own minion (Bear Hug). They are asked, the
events name them (`by_player`), and protections read them: a base's protection (Converted Cave:
"cannot be destroyed except by their controller") lets the controller through.

Test-only cards live in their own registry (never in REGISTRY)."""
from __future__ import annotations

import smashup.cards.iyf_bases  # noqa: F401  (Converted Cave)
from smashup.engine import REGISTRY, Faction, Scenario
from smashup.engine.registry import Registry
from smashup.engine.testing import card, choose, play, record_events

from .support import TEST_REGISTRY


def build_registry() -> Registry:
    r = Registry()
    r.cards.update(TEST_REGISTRY.cards)
    r.bases.update(TEST_REGISTRY.bases)
    r.bases["Converted Cave"] = REGISTRY.bases["Converted Cave"]
    r.factions.update(TEST_REGISTRY.factions)
    t = Faction("Acting Testers", set="actset", registry=r)

    @t.action("Forced Hug", text="Each other player destroys one of their own minions.")
    def forced_hug(ctx):
        for seat in ctx.opponents():
            them = ctx.acting(seat)
            yield from them.choose_and(them.destroy, them.targets(controller=seat),
                                       "Destroy one of your minions.")

    @t.action("Plain Smite", text="Destroy a minion.")
    def plain_smite(ctx):
        yield from ctx.choose_and(ctx.destroy, ctx.targets(), "Destroy a minion.")

    t.minion("Filler Minion", power=1, copies=5, text="No ability.")
    return r


REG = build_registry()


def scenario(*hand):
    s = Scenario([("Acting Testers", "Ninjas"), ("Robots", "Aliens")])
    s.base("Converted Cave")
    s.base("Test Arena")
    s.minion(0, "Collector", owner=1)  # power 2 on the Cave
    s.minion(1, "Invader", owner=1)
    s.hand(0, *hand, "Filler Minion")
    s.deck(0, "Filler Minion")
    s.deck(1, "Filler Minion")
    return s.build(REG)


def test_a_player_made_to_destroy_their_own_minion_performs_the_destroy():
    game = scenario("Forced Hug")
    events = record_events(game)
    play(game, "Forced Hug")
    # Seat 1 is asked, and may pick the Collector the Cave keeps from other players.
    assert game.pending.seat == 1
    assert {game.name(o.card) for o in game.pending.options} == {"Collector", "Invader"}
    choose(game, "Collector")
    assert game.loc[card(game, "Collector")] == ("discard", 1)
    destroyed = [e for e in events if e.kind == "destroyed"]
    assert [(e.by_card, e.by_player) for e in destroyed] == [(card(game, "Forced Hug"), 1)]


def test_a_base_protection_keeps_a_minion_from_other_players():
    game = scenario("Plain Smite")
    play(game, "Plain Smite")  # one target it may destroy: no question
    assert game.loc[card(game, "Invader")] == ("discard", 1)
    assert game.loc[card(game, "Collector")][0] == "minion"
