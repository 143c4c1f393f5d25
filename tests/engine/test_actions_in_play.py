"""Choosing actions in play (`Ctx.choose_actions`, Disenchant) and talents of alike copies: identical
copies never give identical options (collapsed), copies that differ are labelled apart."""
from __future__ import annotations

from smashup.engine import Ctx, Faction, Scenario
from smashup.engine.registry import Registry
from smashup.engine.testing import assert_refused, card, choose, labels

from .support import ALIENS_NINJAS, PIRATES_ROBOTS, registry_with_test_cards


def _registry() -> Registry:
    r = registry_with_test_cards()
    pickers = Faction("Pickers", set="testset", registry=r)

    @pickers.action("Unpin", text="Destroy an action in play.")
    def unpin(ctx):
        everything = [a for u in ctx.bases() for a in ctx.actions_on_base(u)]
        everything += [a for m in ctx.minions() for a in ctx.attached(m)]
        for a in (yield from ctx.choose_actions(everything, "Destroy which action?")):
            yield from ctx.destroy_action(a)

    lamp = pickers.action("Lamp", attach="base", text="Talent: draw a card.")

    @lamp.talent_ability()
    def lamp_talent(ctx):
        ctx.draw(ctx.me, 1)

    return r


REG = _registry()


def test_actions_in_play_are_offered_once_per_alike_copy_and_labelled_by_place_and_player():
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    pits = s.base("Tar Pits")
    oasis = s.base("Jungle Oasis")
    s.minion(pits, "Invader", owner=1, attached=[("Poison", 0)])
    s.minion(pits, "Invader", owner=1, attached=[("Poison", 0)])  # alike host, alike Poison
    s.minion(oasis, "Invader", owner=1, attached=[("Poison", 0)])  # another base
    s.base_action(pits, "Infiltrate", owner=1)
    s.base_action(pits, "Infiltrate", owner=1)  # alike
    s.base_action(oasis, "Infiltrate", owner=0)
    s.hand(0, "Unpin", "Collector")
    game = s.build(REG)
    poisons = [c for c, d in enumerate(game.defs) if d.name == "Poison"]
    infiltrates = [c for c, d in enumerate(game.defs) if d.name == "Infiltrate"]
    choose(game, "Play Unpin")
    d = game.pending
    assert d.kind == "actions" and (d.min_count, d.max_count) == (1, 1)
    assert {o.card for o in d.options} == {poisons[0], poisons[2], infiltrates[0], infiltrates[2]}
    assert len(set(labels(game))) == 4
    assert "Poison (P0) on Invader (0, P1) on Tar Pits" in labels(game)
    assert "Infiltrate (P1) on Tar Pits" in labels(game)
    assert all(o.id == f"a{o.card}" for o in d.options)
    assert_refused(game, [f"a{poisons[1]}"])  # the collapsed copy is no option
    choose(game, infiltrates[2])
    assert game.loc[infiltrates[2]] == ("discard", 0)


def test_no_action_in_play_asks_nothing():
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    s.base("Tar Pits")
    s.hand(0, "Unpin", "Collector")
    game = s.build(REG)
    unpin = card(game, "Unpin")
    choose(game, "Play Unpin")
    assert game.pending.kind == "play" and game.loc[unpin] == ("discard", 0)


def test_alike_talents_are_offered_once_and_different_ones_labelled_apart():
    s = Scenario([("Pickers", "Aliens"), PIRATES_ROBOTS])
    pits = s.base("Tar Pits")
    oasis = s.base("Jungle Oasis")
    s.base_action(pits, "Lamp", owner=0)
    s.base_action(pits, "Lamp", owner=0)
    s.deck(0, "Collector", "Collector", "Collector")
    s.hand(0, "Invader")
    game = s.build(REG)
    talents = [lbl for lbl in labels(game) if "talent" in lbl]
    assert talents == ["Use Lamp's talent"]  # two alike Lamps: one option
    choose(game, "Use Lamp's talent")
    assert [lbl for lbl in labels(game) if "talent" in lbl] == ["Use Lamp's talent"]  # the other
    choose(game, "Use Lamp's talent")
    assert not [lbl for lbl in labels(game) if "talent" in lbl]
    assert len(game.players[0].hand) == 3

    s.base_action(oasis, "Lamp", owner=0)
    game = s.build(REG)
    assert sorted(lbl for lbl in labels(game) if "talent" in lbl) == [
        "Use Lamp's talent (on Jungle Oasis)", "Use Lamp's talent (on Tar Pits)"]


def test_alike_key_of_an_attached_action_follows_its_host():
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    pits = s.base("Tar Pits")
    s.minion(pits, "Invader", owner=1, attached=[("Poison", 0)])
    s.minion(pits, "Invader", owner=1, counters=1, attached=[("Poison", 0)])
    s.hand(0, "Collector")
    game = s.build(REG)
    ctx = Ctx(game, card(game, "Collector"), 0)
    poisons = [c for c, d in enumerate(game.defs) if d.name == "Poison"]
    assert ctx.one_of_each(poisons) == poisons  # hosts differ in power
