"""Play restrictions (`Game.play_forbidden`): a card in play may forbid some plays (`CardDef.
restriction`, Block the Path) and a lasting "cannot_play" may forbid a player's plays of a kind
(Mark of Sleep). Every way of playing a card asks: the main decision, extra plays, plays made by an
ability, Special actions from the hand."""
from __future__ import annotations

from smashup.engine import ACTION, MINION, Faction, Scenario
from smashup.engine.registry import Registry
from smashup.engine.testing import assert_refused, base_uid, card, choose

from .support import PIRATES_ROBOTS, registry_with_test_cards


def _registry() -> Registry:
    r = registry_with_test_cards()
    gates = Faction("Gates", set="testset", registry=r)
    gate = gates.action("Gate", attach="base", text="No minion of power 3 or more here.")

    @gate.restriction
    def gate_shuts(ctx, play):
        return play.kind == MINION and play.base == ctx.here and ctx.printed_power(play.card) >= 3

    @gates.action("Hush", text="Each other player cannot play actions until your next turn.")
    def hush(ctx):
        for seat in ctx.opponents():
            ctx.lasting("cannot_play", seat, until="start_of_your_next_turn",
                        data={"kind": ACTION})

    @gates.action("Rally", text="Play an extra minion now.")
    def rally(ctx):
        yield from ctx.play_extra_now(MINION)

    return r


REG = _registry()


def board(current=0):
    s = Scenario([("Gates", "Aliens"), PIRATES_ROBOTS])
    dojo = s.base("Ninja Dojo")
    s.base("Jungle Oasis")
    s.base_action(dojo, "Gate", owner=1)
    s.deck(0, *["Collector"] * 4)
    s.deck(1, *["Collector"] * 4)
    s.turn(current=current)
    return s


def test_a_restriction_takes_plays_out_of_the_main_decision_and_refuses_them():
    s = board()
    s.hand(0, "Invader", "Collector")
    game = s.build(REG)
    invader, collector = card(game, "Invader"), card(game, "Collector", "hand")
    dojo, oasis = base_uid(game, "Ninja Dojo"), base_uid(game, "Jungle Oasis")
    plays = {(o.card, o.base) for o in game.pending.options if o.base is not None}
    assert plays == {(invader, oasis), (collector, dojo), (collector, oasis)}
    assert game.play_forbidden(0, invader, dojo) == "Invader cannot be played there (Gate)"
    assert game.play_forbidden(0, invader, oasis) is None
    assert_refused(game, [f"m{invader}@{dojo}"])


def test_a_restriction_applies_to_extra_plays_too():
    s = board()
    s.hand(0, "Rally", "Invader")
    game = s.build(REG)
    choose(game, "Play Rally")
    invader = card(game, "Invader")
    assert {o.base for o in game.pending.options if o.card == invader} == {
        base_uid(game, "Jungle Oasis")}


def test_cannot_play_a_kind_lasts_as_long_as_it_says_and_covers_only_that_player():
    s = board()
    s.hand(0, "Hush", "Invader")
    s.hand(1, "Seeing Stars", "Beam Up", "Collector")
    game = s.build(REG)
    choose(game, "Play Hush")
    assert game.play_forbidden(0, card(game, "Invader"), base_uid(game, "Jungle Oasis")) is None
    choose(game, f"m{card(game, 'Invader')}@{base_uid(game, 'Jungle Oasis')}")
    assert game.pending.seat == 1
    stars = card(game, "Seeing Stars")
    assert not [o for o in game.pending.options if o.id.startswith("a")]
    assert game.play_forbidden(1, stars) == "P1 cannot play actions now (Hush)"
    assert_refused(game, [f"a{stars}"])
    assert game.play_forbidden(1, card(game, "Collector", "hand")) is None
