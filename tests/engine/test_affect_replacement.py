""""Instead of affecting" (registry "affect" replacements, `Game.affect_replaced`) and
`Ctx.unaffected_by`: a card in play may stop an ability that would affect a card (WWWT "Affect":
destroyed, moved, returned, placed, changed in power, an action attached...) by doing something
else instead; the ability then leaves the cards it names alone for the rest of its resolution.
Hideout (Tricksters) is the real card; here a test-only Decoy works the same way on its own."""
from __future__ import annotations

import pytest

from smashup.engine import EngineError, Faction, Scenario
from smashup.engine.registry import Registry
from smashup.engine.testing import assert_refused, card, choose

from .support import PIRATES_ROBOTS, registry_with_test_cards


def _registry() -> Registry:
    r = registry_with_test_cards()
    decoys = Faction("Decoys", set="testset", registry=r)
    decoy = decoys.action("Decoy", attach="base", text=(
        "If another player's action would affect your minions here, discard this instead; that "
        "action then leaves them alone."))

    def covers(ctx, attempt):
        return (ctx.is_action(attempt.source) and attempt.source_player not in (None, ctx.me)
                and ctx.controller(attempt.target) == ctx.me
                and ctx.base_of(attempt.target) == ctx.here)

    @decoy.replacement("affect", applies=covers)
    def decoy_instead(ctx, attempt):
        mine = ctx.minions(base=ctx.here, controller=ctx.me)
        ctx.at_once(ctx.discard_from_play(ctx.card))
        ctx.unaffected_by(attempt.source, mine)
        return True

    @decoys.action("Wipe", text="Destroy every minion on a base.")
    def wipe(ctx):
        uid = yield from ctx.choose_base(ctx.bases(), "Wipe which base?")
        for m in ctx.targets(base=uid):
            yield from ctx.destroy(m)

    @decoys.action("Asker", attach="base", text="Test: an affect replacement that asks.")
    def asker(ctx):
        pass

    @asker.replacement("affect")
    def asker_asks(ctx, attempt):
        yield from ctx.may("Really?")

    return r


REG = _registry()
FACTIONS = [("Decoys", "Aliens"), PIRATES_ROBOTS]


def board():
    s = Scenario(FACTIONS)
    pits = s.base("Jungle Oasis")
    oasis = s.base("Factory 436-1337")
    s.base_action(pits, "Decoy", owner=1)
    s.minion(pits, "Invader", owner=1)
    s.minion(pits, "Scout", owner=1)
    s.minion(pits, "Collector", owner=0)
    s.minion(oasis, "Ninja Master", owner=1)
    s.deck(0, *["Scout"] * 4)
    s.deck(1, *["Scout"] * 4)
    return s


def test_an_action_that_would_destroy_is_replaced_once_then_leaves_those_minions_alone():
    s = board()
    s.hand(0, "Wipe", "Invader")
    game = s.build(REG)
    decoy, invader = card(game, "Decoy"), card(game, "Invader", "minion")
    scout, collector = card(game, "Scout", "minion"), card(game, "Collector", "minion")
    wipe = card(game, "Wipe")
    choose(game, "Play Wipe")
    choose(game, "Jungle Oasis")
    # The first target brought out the Decoy; the second was left alone; seat 0's own died.
    assert game.loc[decoy] == ("discard", 1)
    assert game.loc[invader][0] == game.loc[scout][0] == "minion"
    assert game.loc[collector] == ("discard", 0)
    # Once the Wipe is discarded the minions may be affected by it again (played again).
    assert game.loc[wipe] == ("discard", 0)
    assert not [e for e in game.lasting if e.kind == "unaffected_by"]


def test_attaching_an_action_is_an_affect_and_the_action_then_does_not_attach():
    s = board()
    s.hand(0, "Poison", "Invader")
    game = s.build(REG)
    decoy, invader, poison = card(game, "Decoy"), card(game, "Invader", "minion"), card(game, "Poison")
    choose(game, "Play Poison")
    choose(game, invader)
    assert game.loc[decoy] == ("discard", 1)
    assert game.loc[poison] == ("discard", 0)
    assert game.minion_state[invader].attached == []
    assert game.power(invader) == 3
    assert game.pending.kind == "play"


def test_a_power_change_is_an_affect_and_a_minion_or_the_owner_is_not_covered():
    s = board()
    s.hand(0, "Pep Talk", "Invader")
    game = s.build(REG)
    decoy, invader = card(game, "Decoy"), card(game, "Invader", "minion")
    choose(game, "Play Pep Talk")
    choose(game, invader)
    assert game.loc[decoy] == ("discard", 1)
    assert game.power(invader) == 3  # the +3 did not happen


def test_the_decoys_own_controller_and_a_base_elsewhere_are_not_covered():
    s = board()
    s.turn(current=1)
    s.hand(1, "Pep Talk", "Invader")
    game = s.build(REG)
    decoy, invader = card(game, "Decoy"), card(game, "Invader", "minion")
    choose(game, "Play Pep Talk")
    choose(game, invader)
    assert game.loc[decoy][0] == "base_action" and game.power(invader) == 6
    s2 = board()
    s2.hand(0, "Pep Talk", "Invader")
    game = s2.build(REG)
    choose(game, "Play Pep Talk")
    choose(game, card(game, "Ninja Master"))
    assert game.loc[card(game, "Decoy")][0] == "base_action"
    assert game.power(card(game, "Ninja Master")) == 8


def test_an_affect_replacement_that_asks_is_a_programming_error():
    s = Scenario(FACTIONS)
    pits = s.base("Jungle Oasis")
    s.base_action(pits, "Asker", owner=1)
    s.minion(pits, "Invader", owner=1)
    s.hand(0, "Pep Talk", "Invader")
    game = s.build(REG)
    with pytest.raises(EngineError, match="cannot ask"):
        choose(game, "Play Pep Talk")  # one target: chosen without asking


def test_a_refused_target_changes_nothing_and_the_decoy_stays():
    s = board()
    s.hand(0, "Pep Talk", "Invader")
    game = s.build(REG)
    choose(game, "Play Pep Talk")
    assert_refused(game, ["m999"])
    assert game.loc[card(game, "Decoy")][0] == "base_action"
