"""One path under every effect (issue 9, "the engine"): destroy, move, return, place, power and
counter changes, attach all check typed protections ("not affected", "cannot be destroyed",
"cannot be moved"; from anyone, "other players", or anyone "except its controller"), then
replacements ("instead") from any card or base, each applied once, the affected player ordering
several. Cards never check protection by hand: the verbs and `targets`/`choose_and` do.

Test-only cards live in their own registry (never in REGISTRY)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from smashup.engine import MINION, Faction, Scenario
from smashup.engine.core import EngineError
from smashup.engine.registry import Registry
from smashup.engine.testing import card, choose, labels, play

from .support import registry_with_test_cards

ROOT = Path(__file__).resolve().parents[2]


def build_registry() -> Registry:
    r = registry_with_test_cards()
    t = Faction("Pipe Testers", set="pipeset", registry=r)

    @t.action("Smite All", text="Destroy every minion (no choice: the verb alone decides).")
    def smite_all(ctx):
        for m in ctx.minions():
            yield from ctx.destroy(m)

    @t.action("Scatter", text="Move every minion to the first base (no choice).")
    def scatter(ctx):
        first = ctx.bases()[0]
        for m in ctx.minions():
            yield from ctx.move(m, first)

    @t.action("Recall All", text="Return every minion to its owner's hand.")
    def recall_all(ctx):
        for m in ctx.minions():
            yield from ctx.return_to_hand(m)

    @t.action("Pump All", text="Each minion gets +1 power counter and +2 power this turn.")
    def pump_all(ctx):
        for m in ctx.minions():
            ctx.add_counters(m, 1)
            ctx.add_power(m, 2)

    @t.action("Deep Sink", text="Shuffle every minion into its owner's deck.")
    def deep_sink(ctx):
        yield from ctx.shuffle_into_deck(ctx.minions())

    stone = t.minion("Stone Idol", power=2, text="Ongoing: this minion cannot be moved.")

    @stone.protection("move")
    def stone_stays(ctx, target):
        return target == ctx.card

    shy = t.minion("Shy Hermit", power=2, text=(
        "Ongoing: this minion is not affected by other players' cards."))

    @shy.protection("affect", from_="other_players")
    def shy_hides(ctx, target):
        return target == ctx.card

    cave = t.minion("Cave Dweller", power=2, text=(
        "Ongoing: this minion cannot be destroyed except by its controller."))

    @cave.protection("destroy", from_="not_its_controller")
    def cave_holds(ctx, target):
        return target == ctx.card

    lifeboat = t.minion("Lifeboat", power=1, text=(
        "Ongoing: if another minion of yours here would be destroyed, return it to your hand "
        "instead."))

    @lifeboat.replacement("destroy", applies=lambda ctx, m: m != ctx.card
                          and ctx.base_of(m) == ctx.here and ctx.controller(m) == ctx.me)
    def lifeboat_saves(ctx, m):
        return (yield from ctx.return_to_hand(m))

    stubborn = t.minion("Stubborn Ghost", power=3, text=(
        "Ongoing: if this minion would be destroyed, gain 1 VP and destroy it instead "
        "(replacing a destruction by itself: applied once)."))

    @stubborn.replacement("destroy", applies=lambda ctx, m: m == ctx.card)
    def stubborn_again(ctx, m):
        ctx.gain_vp(ctx.me, 1)
        return (yield from ctx.destroy(m))

    ferry = t.minion("Ferryman", power=1, text=(
        "Ongoing: if a minion here would be placed anywhere, it stays instead."))

    @ferry.replacement("place", applies=lambda ctx, m: ctx.base_of(m) == ctx.here)
    def ferry_keeps(ctx, m):
        return True

    t.minion("Filler Minion", power=1, copies=5, text="No ability.")
    return r


REG = build_registry()
PT = ("Pipe Testers", "Ninjas")


def scenario(*minions, hand=("Smite All",), base_names=("Test Arena", "Filler Field")):
    """Seat 0's Play Cards phase; `minions` are (base index, name, owner)."""
    s = Scenario([PT, ("Robots", "Aliens")])
    for b in base_names:
        s.base(b)
    for b, name, owner in minions:
        s.minion(b, name, owner=owner)
    s.hand(0, *hand, "Filler Minion")  # a minion still to play: the phase goes on
    s.deck(0, "Filler Minion")
    s.deck(1, "Filler Minion")
    return s.build(REG)


def where(game, name):
    return game.loc[card(game, name)][0]


def test_ninja_master_is_never_offered_a_minion_that_cannot_be_destroyed():
    game = scenario((0, "Warbot", 1), (0, "Invader", 1), hand=("Ninja Master",))
    play(game, "Ninja Master", base="Test Arena")
    # Invader is the only destroyable minion here: a one-option "may" is still asked.
    assert not any("Warbot" in label for label in labels(game))
    assert any("Invader" in label for label in labels(game))


def test_a_verb_refuses_a_protected_minion_by_itself():
    game = scenario((0, "Warbot", 1), (0, "Filler Minion", 1), (1, "Stone Idol", 1),
                    hand=("Smite All",))
    filler = card(game, "Filler Minion", "minion")
    play(game, "Smite All")
    assert where(game, "Warbot") == "minion"  # cannot be destroyed
    assert game.loc[filler][0] == "discard"
    assert where(game, "Stone Idol") == "discard"  # "cannot be moved" does not stop a destroy


def test_cannot_be_moved_stops_only_moves():
    game = scenario((1, "Stone Idol", 1), (1, "Warbot", 1), hand=("Scatter",))
    play(game, "Scatter")
    arena = game.bases[0].uid
    assert game.loc[card(game, "Stone Idol")] != ("minion", arena)
    assert game.loc[card(game, "Warbot")] == ("minion", arena)  # Warbot may be moved


def test_not_affected_by_other_players_stops_every_effect_of_theirs_only():
    game = scenario((0, "Shy Hermit", 1), (0, "Filler Minion", 1), hand=("Pump All",))
    hermit = card(game, "Shy Hermit")
    filler = card(game, "Filler Minion", "minion")
    play(game, "Pump All")
    assert game.power(filler) == 1 + 1 + 2
    assert game.power(hermit) == 2  # no counter, no power change from another player
    game = scenario((0, "Shy Hermit", 0), hand=("Recall All",))
    play(game, "Recall All")
    assert where(game, "Shy Hermit") == "hand"  # its controller's own card affects it


def test_cannot_be_destroyed_except_by_its_controller():
    game = scenario((0, "Cave Dweller", 1), (0, "Cave Dweller", 0), hand=("Smite All",))
    theirs, mine = card(game, "Cave Dweller", index=0), card(game, "Cave Dweller", index=1)
    assert game.minion_state[theirs].controller == 1
    play(game, "Smite All")
    assert game.loc[theirs][0] == "minion"
    assert game.loc[mine][0] == "discard"


def test_a_replacement_applies_once_even_when_what_it_does_instead_is_the_same_event():
    game = scenario((0, "Stubborn Ghost", 1))
    play(game, "Smite All")
    assert where(game, "Stubborn Ghost") == "discard"
    assert game.players[1].vp == 1  # it replaced the first destruction, not its own


def test_several_replacements_the_affected_player_picks_the_first_and_each_applies_once():
    # Tar Pits sends a minion here to the deck bottom instead; Lifeboat returns it to the hand
    # instead. The minion's controller (seat 1, not the current player) picks which happens.
    for pick, zone in (("Lifeboat", "hand"), ("Tar Pits", "deck")):
        game = scenario((0, "Filler Minion", 1), (0, "Lifeboat", 1),
                        base_names=("Tar Pits", "Filler Field"))
        filler = card(game, "Filler Minion", "minion")
        play(game, "Smite All")
        d = game.pending
        assert d.kind == "order" and d.seat == 1
        assert sorted(labels(game)) == ["Lifeboat", "Tar Pits"]
        choose(game, pick)
        assert game.loc[filler][0] == zone
        # Then the Lifeboat's own destruction: Tar Pits takes it only if it took nothing yet.
        assert where(game, "Lifeboat") == ("deck" if pick == "Lifeboat" else "discard")


def test_shuffling_a_minion_into_a_deck_is_a_place_and_can_be_replaced():
    game = scenario((0, "Ferryman", 1), (0, "Filler Minion", 1), (1, "Filler Minion", 0),
                    hand=("Deep Sink",))
    play(game, "Deep Sink")
    on_arena = [m for m in game.bases[0].minions]
    assert sorted(game.name(m) for m in on_arena) == ["Ferryman", "Filler Minion"]
    assert not game.bases[1].minions


def test_every_verb_is_typed_for_the_pipeline():
    from smashup.engine.effects import Ctx, effect_kind
    assert effect_kind(Ctx.destroy) == "destroy"
    assert effect_kind(Ctx.move) == "move"
    assert effect_kind(Ctx.return_to_hand) == "return"
    assert effect_kind(Ctx.place_on_deck_bottom) == "place"
    assert effect_kind(Ctx.shuffle_into_deck) == "place"
    assert effect_kind(Ctx.add_counters) == "affect"
    assert effect_kind(Ctx.add_power) == "affect"
    assert effect_kind(Ctx.attach) == "affect"
    assert effect_kind(None) == "affect"
    with pytest.raises(EngineError):
        effect_kind("explode")
    with pytest.raises(EngineError):
        effect_kind(Ctx.draw)


# The protection words a card must not check by hand any more: the verbs do.
_BY_HAND = {"can_affect", "affects", "protectors", "protections"}


@pytest.mark.parametrize("path", sorted((ROOT / "smashup" / "cards").glob("*.py")),
                         ids=lambda p: p.name)
def test_no_card_checks_protection_by_hand(path):
    found = [f"{path.name}:{n.lineno}: .{n.attr}"
             for n in ast.walk(ast.parse(path.read_text()))
             if isinstance(n, ast.Attribute) and n.attr in _BY_HAND]
    assert found == []


def test_targets_filters_by_the_effect_it_is_for():
    game = scenario((0, "Warbot", 1), (0, "Stone Idol", 1), hand=("Smite All",))
    ctx = game.card_ctx(card(game, "Smite All"), 0)
    names = lambda ms: sorted(game.name(m) for m in ms)  # noqa: E731
    assert names(ctx.targets()) == ["Stone Idol", "Warbot"]
    assert names(ctx.targets(effect=ctx.destroy)) == ["Stone Idol"]
    assert names(ctx.targets(effect="move")) == ["Warbot"]
    assert MINION == "minion"
