"""What could react is derived from the game's definitions once (`Game._index_triggers`, the
Special windows of `Game._window_possible`), so that an event nothing in the game reacts to costs
no scan: every card and base of the game counts, wherever it lies, including a base that comes
into play later, a card drawn later and a card added to the game after the index was made.

Test-only cards live in their own registry."""
from __future__ import annotations

from smashup.engine import Faction, Scenario, base
from smashup.engine.core import MinionState
from smashup.engine.registry import Registry
from smashup.engine.testing import base_uid, card, choose, end_play, labels, play

from .support import note_ran, registry_with_test_cards

# Nothing in these factions or the Core bases reacts to a minion returned to its hand.
FACTIONS = [("Aliens", "Ninjas"), ("Pirates", "Robots")]



def build_registry() -> Registry:
    r = registry_with_test_cards()
    lookout = base("Lookout Rock", "indexset", 30, (3, 2, 1), registry=r,
                   text="After a minion is returned to its owner's hand, note it.")

    @lookout.trigger("returned")
    def lookout_notes(ctx, event):
        note_ran(ctx, f"Lookout({ctx.name(event.card)})")

    t = Faction("Index Testers", set="indexset", registry=r)
    t.minion("Bystander", power=2, copies=2, text="No ability.")
    late = t.minion("Latecomer", power=1, text=(
        "Ongoing: after a minion is returned to its owner's hand, note it."))

    @late.trigger("returned", applies=lambda ctx, e: e.card != ctx.card)
    def latecomer_notes(ctx, event):
        note_ran(ctx, f"Latecomer({ctx.name(event.card)})")

    comeback = t.action("Comeback", special_only=True, text=(
        "Special: after one of your minions is returned to your hand, play this: gain 1 VP."))

    @comeback.special("returned", usable=lambda ctx, e: e.player == ctx.me,
                      label="Play Comeback: gain 1 VP")
    def comeback_scores(ctx, event):
        note_ran(ctx, f"Comeback({ctx.me})")
        ctx.gain_vp(ctx.me, 1)

    return r


REG = build_registry()


def ran(game) -> list[str]:
    return list(game.__dict__.get("ran", []))


def table(deck0=("Scout",)):
    s = Scenario(FACTIONS)
    home = s.base("The Homeworld")
    s.base("Filler Field")
    s.minion(home, "Invader", owner=1)
    s.hand(0, "Bystander", "Crop Circles")
    s.hand(1, "Crop Circles")
    s.deck(0, *deck0)
    s.deck(1, "Scout", "Scout")
    s.base_deck("Lookout Rock")
    return s.build(REG)


def test_nothing_in_this_game_reacts_to_a_return_at_first():
    game = table()
    for defn in game.defs:
        if defn.name not in ("Lookout Rock", "Latecomer"):
            assert all(t.event != "returned" for t in defn.triggers), defn.name
    play(game, "Bystander", base="Filler Field")
    play(game, "Crop Circles")
    choose(game, "The Homeworld")
    assert ran(game) == []


def test_a_base_that_comes_into_play_later_reacts_to_a_kind_nothing_else_reacts_to():
    game = table()
    play(game, "Bystander", base="Filler Field")  # an event: the index is made now
    lookout = card(game, "Lookout Rock")
    game.swap_base(base_uid(game, "Filler Field"), lookout)
    play(game, "Crop Circles")
    choose(game, "The Homeworld")
    assert ran(game) == ["Lookout(Invader)"]


def test_a_card_added_to_the_game_after_the_index_was_made_reacts():
    game = table()
    play(game, "Bystander", base="Filler Field")  # an event: the index is made now
    field = base_uid(game, "Filler Field")
    late = game.new_card(REG.card("Latecomer"), 1, ("hand", 1))
    game.move_card(late, ("minion", field))
    game.minion_state[late] = MinionState(1, 0, entered=game.enter_play())
    play(game, "Crop Circles")
    choose(game, "The Homeworld")
    assert ran(game) == ["Latecomer(Invader)"]


def test_a_special_drawn_later_answers_an_event_of_its_kind():
    game = table(deck0=("Comeback", "Scout"))
    play(game, "Bystander", base="The Homeworld")
    end_play(game)  # seat 0 draws Comeback
    assert card(game, "Comeback", "hand") is not None
    play(game, "Crop Circles")  # seat 1 returns seat 0's Bystander (and its own Invader)
    choose(game, "The Homeworld")
    d = game.pending
    assert d.kind == "special" and d.seat == 0
    assert "Play Comeback: gain 1 VP" in labels(game)
    choose(game, "Play Comeback: gain 1 VP")
    assert ran(game) == ["Comeback(0)"]


def test_a_special_added_to_the_game_after_its_windows_were_listed_answers():
    game = table()
    play(game, "Bystander", base="The Homeworld")  # a batch: the windows are listed now
    end_play(game)
    game.new_card(REG.card("Comeback"), 0, ("hand", 0))
    play(game, "Crop Circles")
    choose(game, "The Homeworld")
    assert game.pending.kind == "special" and game.pending.seat == 0
    choose(game, "Play Comeback: gain 1 VP")
    assert ran(game) == ["Comeback(0)"]
