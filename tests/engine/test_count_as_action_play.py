"""`Ctx.count_as_action_play`: a card whose play also counts as its player playing an action
(Argonaut, It's Your Fault!): every ability that reacts to an action being played reacts to it,
once, and the turn's plays are unchanged (the play is recorded as what it used).

Test-only cards live in their own registry."""
from __future__ import annotations

from smashup.engine import ACTION, MINION, Faction, Scenario
from smashup.engine.registry import Registry
from smashup.engine.testing import card, play, record_events

from .support import registry_with_test_cards


def build_registry() -> Registry:
    r = registry_with_test_cards()
    t = Faction("Action Counters", set="countset", registry=r)

    @t.minion("Herald", power=2, text="On play: this counts as you playing an action.")
    def herald(ctx):
        ctx.count_as_action_play()

    listener = t.minion("Ear", power=1, text=(
        "Ongoing: after any player plays an action, this minion gets a +1 power counter."))

    @listener.trigger("action_played")
    def ear_hears(ctx, event):
        ctx.add_counters(ctx.card, 1)

    return r


REG = build_registry()


def table():
    s = Scenario([("Action Counters", "Aliens"), ("Ninjas", "Robots")])
    s.base("The Homeworld")
    s.base("Jungle Oasis")
    s.base("The Mothership")
    s.minion(1, "Ear", owner=0)
    s.hand(0, "Herald", "Invader", "Beam Up")
    s.hand(1, "Shinobi")
    for seat in range(2):
        s.deck(seat, *["Shinobi"] * 3)
    s.base_deck("Tar Pits")
    return s.build(REG)


def test_a_play_that_counts_as_an_action_play_sets_off_what_reacts_to_one_once():
    game = table()
    events = record_events(game)
    herald = card(game, "Herald")
    play(game, "Herald", base="Jungle Oasis")
    announced = [e for e in events if e.kind == "action_played"]
    assert len(announced) == 1
    event = announced[0]
    assert (event.card, event.player, event.by_player, event.data) == (herald, 0, 0,
                                                                       {"as_minion": True})
    assert game.minion_state[card(game, "Ear")].counters == 1
    # The minion play was used, the action play was not.
    assert [(p.card, p.kind) for p in game.turn_state.plays] == [(herald, MINION)]
    offered = {game.name(o.card) for o in game.pending.options if o.card is not None}
    assert "Beam Up" in offered and "Invader" not in offered
    assert ACTION not in {p.kind for p in game.turn_state.plays}
